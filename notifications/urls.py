"""URL routes of the links in notification emails (mounted under email/)."""

from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("play/<int:game_id>/<str:token>/", views.login_link, name="login"),
]
