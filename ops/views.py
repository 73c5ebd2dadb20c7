"""The operator's endpoints: readiness for the load balancer, metrics for Prometheus.

Both answer only to the configured networks or the bearer secret (ops/access.py), 404
otherwise, load no session and touch no player's data.
"""

from __future__ import annotations

import os

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

from firenze_site.requests import sessionless
from ops import readiness
from ops.access import operators_only
from ops.figures import SiteFigures


@sessionless
@operators_only  # first: anyone else gets 404 whatever the method
@never_cache
@require_GET
def readyz(request: HttpRequest) -> HttpResponse:
    """200 when every part answers, else 503 naming the failing parts; at most about 1 s."""
    checks = readiness.run()
    failing = {name: outcome for name, outcome in checks.items() if outcome != "ok"}
    body = {"status": "fail" if failing else "ok", "checks": checks, "failing": sorted(failing)}
    response = JsonResponse(body, status=503 if failing else 200)
    # Not an error of the site's code: the load balancer asks every second, and each 503 would
    # be an error line (and a Sentry event) from django.request. Our request line has it.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def _counted() -> CollectorRegistry:
    """Every process's counts in multiprocess mode, else this process's own."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


def _figures() -> CollectorRegistry:
    registry = CollectorRegistry()
    registry.register(SiteFigures())
    return registry


@sessionless
@operators_only  # first: anyone else gets 404 whatever the method
@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """The text format every Prometheus reads (0.0.4), names escaped with underscores."""
    body = generate_latest(_counted()) + generate_latest(_figures())
    return HttpResponse(body, content_type=CONTENT_TYPE_PLAIN_0_0_4)
