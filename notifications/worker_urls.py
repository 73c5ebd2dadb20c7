"""The service worker that shows push notifications: served from the site's root so its scope
is the whole site (firenze_site/urls.py mounts this at the root)."""

from django.urls import path

from . import views

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
]
