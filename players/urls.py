"""URL routes of public profiles and the leaderboard, mounted at players/."""

from django.urls import path

from . import views

app_name = "players"

urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("<str:name>/", views.profile, name="profile"),
]
