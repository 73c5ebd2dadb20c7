"""The API tokens page, mounted under accounts/api/ (the API itself is api.main at /api/v1/)."""

from django.urls import path

from api import views

app_name = "api"

urlpatterns = [
    path("", views.tokens_page, name="tokens"),
    path("new/", views.create_token, name="create"),
    path("<int:token_id>/revoke/", views.revoke_token, name="revoke"),
    path("bot/", views.become_bot, name="become_bot"),
]
