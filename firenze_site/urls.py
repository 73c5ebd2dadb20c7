"""Top-level URL routes: the site, accounts (allauth and our profile page), admin, health check."""

from django.contrib import admin
from django.urls import include, path

from games import views as game_views

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("healthz", game_views.healthz, name="healthz"),
]
