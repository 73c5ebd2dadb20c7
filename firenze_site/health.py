"""The site's liveness probe: a view of the project itself, answering without the database."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from firenze_site.requests import sessionless


@sessionless
@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness probe for load balancers: answers without touching the database."""
    return HttpResponse("ok", content_type="text/plain")
