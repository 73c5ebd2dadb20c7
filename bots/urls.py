"""URL routes of the bots app."""

from django.urls import path

from . import views

app_name = "bots"

urlpatterns = [
    path("bots/", views.levels, name="levels"),
    path("bots/takeover/", views.takeover, name="takeover"),
    path("games/<int:pk>/review/", views.review, name="review"),
    path(
        "games/<int:pk>/replay/what-if/estimate/", views.what_if_estimate, name="what_if_estimate"
    ),
]
