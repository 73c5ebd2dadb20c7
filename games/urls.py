"""URL routes of the games app."""

from django.urls import include, path

import firenze_site.converters  # noqa: F401 - registers the shapes of path parameters

from . import archive, invitations, quickplay, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.lobby_list, name="lobby"),
    path("games/mine/", views.my_games, name="mine"),
    # The history of finished games reads only the players app's records, which serves it;
    # its address and name stay the games' (games:history).
    path("games/history/", include("players.history_urls")),
    path("games/new/", views.create, name="create"),
    path("games/bots/", quickplay.bots_now, name="bots_now"),
    path("games/invite/<token:token>/", views.invite_link, name="invite_link"),
    path("games/<int:pk>/", views.detail, name="detail"),
    path("games/<int:pk>/join/", views.join, name="join"),
    path("games/<int:pk>/leave/", views.leave, name="leave"),
    path("games/<int:pk>/cancel/", views.cancel, name="cancel"),
    path("games/<int:pk>/bot/", views.add_bot, name="add_bot"),
    path("games/<int:pk>/seats/<int:seat_id>/remove/", views.remove_seat, name="remove_seat"),
    path("games/<int:pk>/invite/", views.invite, name="invite"),
    path("games/<int:pk>/invite/revoke/", invitations.revoke, name="revoke"),
    path("games/<int:pk>/start/", views.start, name="start"),
    path("games/<int:pk>/move/", views.move, name="move"),
    path("games/<int:pk>/undo/", views.undo, name="undo"),
    path("games/<int:pk>/version/", views.version, name="version"),
    path("games/<int:pk>/reclaim/", views.reclaim, name="reclaim"),
    path("games/<int:pk>/resign/", views.resign, name="resign"),
    path("games/<int:pk>/rematch/", quickplay.rematch, name="rematch"),
    path("games/<int:pk>/log/", views.game_log, name="log"),
    path("games/<int:pk>/replay/", archive.replay, name="replay"),
    path("games/<int:pk>/export/", archive.export, name="export"),
    path("rules/", views.rules_page, name="rules"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("games/away/", views.away, name="away"),
]
