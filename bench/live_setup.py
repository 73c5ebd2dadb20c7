"""The data of the live-updates benchmark (bench/live_bench.py), made in a child process with
the servers' environment: players with session cookies and API tokens, and games. Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402

from api import tokens  # noqa: E402
from games import lobby  # noqa: E402
from games.models import Game  # noqa: E402

SEED = 20261125


def _game(anna, ben) -> Game:
    game = lobby.create_game(anna, num_players=2)
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    lobby.join(game, ben)
    return Game.objects.get(pk=game.pk)


def main() -> None:
    User = get_user_model()
    anna = User.objects.create_user("anna", "anna@example.com", "x", display_name="Anna")
    ben = User.objects.create_user("ben", "ben@example.com", "x", display_name="Ben")
    players = {}
    for user in (anna, ben):
        client = Client()
        client.force_login(user)
        players[user.pk] = {
            "session": client.cookies["sessionid"].value,
            "token": tokens.create(user, "bench", "play").secret,
        }
    games = {
        "latency": _game(anna, ben).pk,
        "page": _game(anna, ben).pk,
        "api": _game(anna, ben).pk,
        "fanout": _game(anna, ben).pk,
    }
    print(json.dumps({"players": players, "games": games}))


if __name__ == "__main__":
    main()
