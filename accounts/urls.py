"""URL routes of the accounts app, mounted under accounts/ next to allauth's."""

from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("data/", views.export_data, name="export"),
    path("delete/", views.delete_account, name="delete"),
]
