"""URL routes of the links in notification emails (mounted under email/)."""

from django.urls import path

import firenze_site.converters  # noqa: F401 - registers the shapes of path parameters

from . import views

app_name = "notifications"

urlpatterns = [
    path("unsubscribe/<signed:token>/", views.unsubscribe, name="unsubscribe"),
    path("play/<int:game_id>/<signed:token>/", views.login_link, name="login"),
]
