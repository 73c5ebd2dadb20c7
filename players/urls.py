"""URL routes of public profiles and the leaderboard, mounted at players/."""

from django.urls import path

import firenze_site.converters  # noqa: F401 - registers the shapes of path parameters

from . import views

app_name = "players"

urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("<name:name>/", views.profile, name="profile"),
]
