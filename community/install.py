"""The web app manifest, so Chromium and Safari can install the site on a home screen (where
iOS delivers web push only to an installed web app). Served from the root, its icons named
through the static files storage (hashed names in production)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

THEME = "#b5502f"
BACKGROUND = "#fbf6ee"


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    name = str(getattr(settings, "SITE_NAME", "Firenze"))
    data = {
        "id": "/",
        "name": name,
        "short_name": name,
        "description": _("Turn-based board games, one turn at a time."),
        "start_url": "/inbox/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response
