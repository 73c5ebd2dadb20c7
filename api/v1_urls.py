"""The JSON API's routes, mounted at /api/v1/ by the site's URLs (by name: the project
package imports none of its apps)."""

from django.urls import path

from api.main import api

urlpatterns = [path("", api.urls)]
