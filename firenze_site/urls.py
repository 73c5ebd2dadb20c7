"""Top-level URL routes: the site, accounts (allauth and our profile page), email links, admin,
health check."""

from django.contrib import admin
from django.urls import include, path

from games import views as game_views
from notifications import views as notification_views

urlpatterns = [
    path("", include("games.urls")),
    path("", include("chat.urls")),
    # The service worker that shows push notifications: served from the root so its scope is
    # the whole site.
    path("sw.js", notification_views.service_worker, name="service_worker"),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("accounts.urls")),
    path("players/", include("players.urls")),
    # Links in notification emails: one-click unsubscribe and the sign-in link to a game.
    path("email/", include("notifications.urls")),
    # The preferences table, webhook and devices.
    path("accounts/notifications/", include("notifications.settings_urls")),
    path("admin/", admin.site.urls),
    path("healthz", game_views.healthz, name="healthz"),
]
