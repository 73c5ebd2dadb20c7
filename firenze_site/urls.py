"""Top-level URL routes: the site, accounts (allauth and our profile page), email links, admin,
health check."""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from games import views as game_views
from notifications import views as notification_views

# The admin signs in through allauth's page, so staff passwords get the same guess limits as
# everyone's (counted in the shared cache, per account and per client address).
admin.autodiscover()
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("", include("games.urls")),
    path("", include("chat.urls")),
    # The service worker that shows push notifications: served from the root so its scope is
    # the whole site.
    path("sw.js", notification_views.service_worker, name="service_worker"),
    # Our sign-up view first (same address, allauth's URL name): it settles display-name races.
    path("accounts/signup/", account_views.signup),
    # The footer's language switcher (the language is never in the URL).
    path("language/", account_views.switch_language, name="switch_language"),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("accounts.urls")),
    path("players/", include("players.urls")),
    path("tournaments/", include("tournaments.urls")),
    # Links in notification emails: one-click unsubscribe and the sign-in link to a game.
    path("email/", include("notifications.urls")),
    # The preferences table, webhook and devices.
    path("accounts/notifications/", include("notifications.settings_urls")),
    path("admin/", admin.site.urls),
    path("healthz", game_views.healthz, name="healthz"),
]
