"""Who may read the operator's endpoints (/readyz, /metrics): a client in one of the
configured networks, or one that sends the bearer secret. Everyone else gets a plain 404, as if
the address did not exist.

The client address is the one the rate limits use (allauth's, honouring
``TRUSTED_PROXY_COUNT``): behind a reverse proxy on the same machine every request comes from
the loopback, and the proxy's own address must not open the endpoints to the world.
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import Http404, HttpRequest


def _networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(net, strict=False) for net in settings.OPS_ALLOWED_NETWORKS]


def _has_secret(request: HttpRequest) -> bool:
    secret = settings.OPS_BEARER_TOKEN
    header = request.headers.get("Authorization", "")
    scheme, _, given = header.partition(" ")
    return (
        bool(secret)
        and scheme.lower() == "bearer"
        and secrets.compare_digest(given.strip().encode(), secret.encode())
    )


def _in_networks(request: HttpRequest) -> bool:
    try:
        address = ipaddress.ip_address(get_adapter().get_client_ip(request) or "")
    except (ValueError, PermissionDenied, ImproperlyConfigured):  # no or a forged address
        return False
    return any(address in network for network in _networks())


def allowed(request: HttpRequest) -> bool:
    return _has_secret(request) or _in_networks(request)


def operators_only(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if not allowed(request):
            raise Http404
        return view(request, *args, **kwargs)

    return guarded
