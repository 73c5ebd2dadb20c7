"""URL routes of the live event streams (async views: serve them with an ASGI server)."""

from django.urls import path

from streams import views

app_name = "streams"

urlpatterns = [
    path("account/", views.account_stream, name="account"),
    path("games/<int:pk>/", views.game_stream, name="game"),
]
