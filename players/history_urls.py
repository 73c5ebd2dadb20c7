"""The history of finished games, mounted by games/urls.py at games/history/: its name is in
the games namespace (games:history), like every page under /games/."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.history, name="history"),
]
