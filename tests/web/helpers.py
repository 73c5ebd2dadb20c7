"""Helpers for web tests: reading the offered actions off a page and posting them."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from django.test import Client
from django.urls import reverse

from games import lobby
from games.models import Game

ACTION_BUTTON = re.compile(r'name="action" value="([^"]+)"')
VERSION_FIELD = re.compile(r'name="version" value="(\d+)"')


def offered_actions(page: str) -> list[dict[str, Any]]:
    return [json.loads(html.unescape(m)) for m in ACTION_BUTTON.findall(page)]


def page_version(page: str) -> int:
    return int(VERSION_FIELD.search(page).group(1))


def game_page(client: Client, game: Game) -> str:
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def post_move(client: Client, game: Game, action: dict, version: int, *, htmx: bool = True):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps(action), "version": version},
        **headers,
    )


def started_game(creator, *others, bots: int = 0, **options) -> Game:
    """A started game with these players (and bots) seated; seat order comes from the seed."""
    game = lobby.create_game(creator, num_players=1 + len(others) + bots, options=options or None)
    for user in others:
        lobby.join(game, user)
    for _ in range(bots):
        lobby.add_bot(game, creator)
    lobby.start(game, creator)
    game.refresh_from_db()
    return game
