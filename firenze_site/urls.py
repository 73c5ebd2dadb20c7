"""Top-level URL routes: each app's own, the admin and the health check.

Apps are mounted by name (include("games.urls")), as INSTALLED_APPS names them: the project
package imports none of its apps, so no app's import of firenze_site (its language and cache
helpers) closes a circle (the import-linter contracts in pyproject.toml).
"""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from firenze_site.health import healthz

# The admin signs in through allauth's page, so staff passwords get the same guess limits as
# everyone's (counted in the shared cache, per account and per client address).
admin.autodiscover()
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

# A request whose body cannot be read gets a 400 that does not try to read it again.
handler400 = "firenze_site.request_guards.bad_request"
# So does a POST to a path that names nothing (Django's 404 page would read it).
handler404 = "firenze_site.request_guards.not_found"
# A database out of reach is a moment's absence (503, Retry-After), not a broken request.
handler500 = "firenze_site.request_guards.server_error"

urlpatterns = [
    path("", include("games.urls")),
    path("", include("chat.urls")),
    path("", include("bots.urls")),
    path("", include("inbox.urls")),
    path("", include("plans.urls")),
    # The service worker (sw.js), served from the root so its scope is the whole site.
    path("", include("notifications.worker_urls")),
    # Our sign-up view before allauth's (same address) and the footer's language switcher.
    path("", include("accounts.site_urls")),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("accounts.urls")),
    path("players/", include("players.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("community/", include("community.urls")),
    path("clubs/", include("clubs.urls")),
    path("", include("community.site_urls")),
    # Links in notification emails: one-click unsubscribe and the sign-in link to a game.
    path("email/", include("notifications.urls")),
    # The preferences table, webhook and devices.
    path("accounts/notifications/", include("notifications.settings_urls")),
    path("admin/", admin.site.urls),
    # The public JSON API (api/), its schema and docs, and the personal tokens' page.
    path("api/v1/", include("api.v1_urls")),
    path("accounts/api/", include("api.urls")),
    # Live event streams (streams/: async views, served by uvicorn).
    path("streams/", include("streams.urls")),
    path("healthz", healthz, name="healthz"),
    # Readiness (/readyz) and Prometheus metrics (/metrics), for the operator's networks only.
    path("", include("ops.urls")),
]
