"""Top-level URL routes: the site, accounts (allauth and our profile page), email links, admin,
health check."""

from django.contrib import admin
from django.urls import include, path

from games import views as game_views

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("accounts.urls")),
    path("players/", include("players.urls")),
    # Links in notification emails: one-click unsubscribe and the sign-in link to a game.
    path("email/", include("notifications.urls")),
    path("admin/", admin.site.urls),
    path("healthz", game_views.healthz, name="healthz"),
]
