"""The data of the gunicorn benchmark (bench/serve_bench.py), and its query counts.

Run as a child process with the server's environment (production settings, the bench's SQLite
file and Redis): ``setup`` prints, as JSON, the games and the players' session cookies;
``queries`` prints how many SQL queries each measured URL costs with the cache cold and warm,
its Redis round trips warm and its median time and CPU time served in process.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402
from redis.connection import Connection as RedisConnection  # noqa: E402

from games import lobby  # noqa: E402
from games.models import Game  # noqa: E402
from games.play import record_move  # noqa: E402
from games.rules.firenze import rules  # noqa: E402
from games.rules.firenze.rules.bots import greedy  # noqa: E402

OPEN_GAMES = 10_000


def _players(prefix: str) -> list:
    User = get_user_model()
    return [
        User.objects.create_user(
            f"{prefix}{i}", f"{prefix}{i}@example.com", "x", display_name=f"{prefix.title()}{i}"
        )
        for i in range(4)
    ]


def _game(users: list, moves: int) -> Game:
    """A four-player game played ``moves`` steps by greedy bots through record_move."""
    game = lobby.create_game(users[0], num_players=4)
    for user in users[1:]:
        lobby.join(game, user)
    game.refresh_from_db()
    rng = random.Random(7)
    while True:
        state = game.load_state()
        if state.step >= moves and rules.legal_actions(state):
            return game
        seat = rules.acting_seat(state)
        action = greedy(state, rng)
        record_move(game, seat, action, rules.apply_action(state, action))


def _open_games(creator, count: int) -> None:
    """``count`` open public games, inserted in bulk (the lobby lists them)."""
    now = timezone.now()
    batch = [
        Game(
            creator=creator,
            num_players=4,
            name=f"Open table {i}",
            options={},
            created=now - timedelta(seconds=i),
        )
        for i in range(count)
    ]
    Game.objects.bulk_create(batch, batch_size=2000)


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def setup(moves: int) -> dict:
    fresh_players, long_players = _players("fresh"), _players("long")
    fresh, long = _game(fresh_players, 0), _game(long_players, moves)
    _open_games(fresh_players[0], OPEN_GAMES)
    watcher = get_user_model().objects.create_user("watcher", "w@example.com", "x")
    return {
        "fresh": fresh.pk,
        "long": long.pk,
        "long_moves": long.moves.count(),
        "sessions": {
            "fresh": {s.number: _session(s.user) for s in fresh.seats.select_related("user")},
            "long": {s.number: _session(s.user) for s in long.seats.select_related("user")},
            "watcher": _session(watcher),
        },
    }


def queries(urls: dict[str, list]) -> dict:
    """{name: [cold, warm, trips, ms, cpu ms]}: SQL queries of one request with the cache
    empty, then again (the browser keeps the cookies the first answer set, as a browser does);
    the Redis round trips of the warm request; and the median time and CPU time of a warm
    request served in this process (no server, no network), 200 times over."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    counts = {}
    cache.clear()
    for name, (url, session, htmx) in urls.items():
        client = Client(headers={"HX-Request": "true"} if htmx else {})
        if session:
            client.cookies[settings.SESSION_COOKIE_NAME] = session
        found = []
        for _ in range(2):
            with CaptureQueriesContext(connection) as captured, _round_trips() as trips:
                status = client.get(url).status_code
            assert status in (200, 204), (name, status)
            found.append(len(captured))
        found.append(len(trips))
        found.extend(_median_ms(client, url))
        counts[name] = found
    return counts


@contextlib.contextmanager
def _round_trips() -> Iterator[list[int]]:
    """One entry per command (or pipeline) written to Redis: a round trip each."""
    sent: list[int] = []
    original = RedisConnection.send_packed_command

    def send(self: Any, command: Any, check_health: bool = True) -> Any:
        sent.append(1)
        return original(self, command, check_health)

    RedisConnection.send_packed_command = send  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        RedisConnection.send_packed_command = original  # type: ignore[method-assign]


def _median_ms(client: Client, url: str, times: int = 200) -> tuple[float, float]:
    """Median milliseconds of a request, in time and in this process's CPU time (which a
    busy machine's other work does not count in)."""
    spent, cpu = [], []
    for _ in range(times):
        started, started_cpu = time.perf_counter(), time.process_time()
        client.get(url)
        spent.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return statistics.median(spent), statistics.median(cpu)


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "setup":
        print(json.dumps(setup(int(sys.argv[2]))))
    else:
        print(json.dumps(queries(json.loads(sys.argv[2]))))
