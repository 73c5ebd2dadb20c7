"""The example bot (examples/bot.py) plays a whole game against the production stack: gunicorn
serving the API, uvicorn serving the event streams, Redis, PostgreSQL (bench/live_stack.py).

Anna creates a game through the API and invites Rook, a bot account; two copies of the example
program then play it to the end, one with Rook's token and one with Anna's, each woken by its
account's stream and making every move through the API. Nothing here calls the site's code
while the game runs: the test only reads the database afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request

import pytest
from django.db import connection

from api import bots, tokens
from bench.live_stack import ROOT, LiveStack
from games.models import Game, Move
from players.models import BotPoolRating
from tests.factories import UserFactory
from tests.integration.conftest import database_url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
GAME_TIMEOUT = 900.0  # seconds for a whole game of some 600 steps through HTTP


def call(site: str, token: str, method: str, path: str, data: dict | None = None) -> dict:
    request = urllib.request.Request(
        f"{site}/api/v1{path}",
        json.dumps(data).encode() if data is not None else None,
        {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method=method,
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_the_example_bot_plays_a_whole_game_through_the_api_and_the_stream(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the servers share the test database: needs DATABASE_URL=postgres://...")
    anna = UserFactory(username="anna")
    rook = UserFactory(username="rook")
    bots.make_bot_account(rook)
    anna_token = tokens.create(anna, "e2e", "play").secret
    rook_token = tokens.create(rook, "e2e", "play").secret
    with LiveStack(tmp_path, database_url(), migrate=False) as stack:
        made = call(stack.web, anna_token, "POST", "/lobby", {"num_players": 2, "name": "Bots"})
        game_id = made["id"]
        call(stack.web, anna_token, "POST", f"/games/{game_id}/invite", {"name": "Rook"})
        players = {}
        for name, token, seed in (("rook", rook_token, 1), ("anna", anna_token, 2)):
            log = (tmp_path / f"bot-{name}.log").open("wb")
            players[name] = subprocess.Popen(
                [sys.executable, str(ROOT / "examples" / "bot.py"), "--site", stack.web,
                 "--streams", stack.streams, "--game", str(game_id), "--seed", str(seed)],
                env={**os.environ, "FIRENZE_TOKEN": token}, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            stack.callback(players[name].kill)
        deadline = time.monotonic() + GAME_TIMEOUT
        while time.monotonic() < deadline and any(p.poll() is None for p in players.values()):
            time.sleep(0.5)
        logs = {n: (tmp_path / f"bot-{n}.log").read_text() for n in players}
        assert all(p.poll() == 0 for p in players.values()), (logs, stack.tails())

    game = Game.objects.get(pk=game_id)
    assert game.is_finished
    moves = Move.objects.filter(game=game)
    seats = {s.user_id: s.number for s in game.seats.all()}
    assert moves.filter(seat=seats[rook.pk]).exists() and moves.filter(seat=seats[anna.pk]).exists()
    assert not moves.filter(by_bot=True).exists()  # every step was a client's, none the site's
    assert game.record.bot_pool and not game.record.rated
    assert BotPoolRating.objects.filter(user__in=[anna, rook]).count() == 2
    assert "playing as Rook (bot account: True)" in logs["rook"]
