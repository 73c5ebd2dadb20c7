"""URL routes of the accounts app, mounted under accounts/ next to allauth's."""

from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("profile/", views.profile, name="profile"),
]
