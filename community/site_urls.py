"""Routes of the community app served from the site's root (the web app manifest)."""

from django.urls import path

from . import install

app_name = "install"

urlpatterns = [
    path("manifest.webmanifest", install.manifest, name="manifest"),
]
