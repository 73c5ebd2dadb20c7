"""Top-level URL routes: the site itself, accounts (allauth), admin and a health check."""

from django.contrib import admin
from django.urls import include, path

from games import views as game_views

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("healthz", game_views.healthz, name="healthz"),
]
