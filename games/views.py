"""Views for the public pages of the site."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what Firenze is and where to start."""
    return render(request, "home.html")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness probe for load balancers: answers without touching the database."""
    return HttpResponse("ok", content_type="text/plain")
