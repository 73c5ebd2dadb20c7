"""A filled database for the archive benchmark: 100,000 finished games, 10,000 of them played by
one player ("Star"), written in bulk (no game is played: the pages under test list records and
never read a game's state).

Rows go in with executemany, values prepared once per column by the model fields themselves:
bulk_create spends most of its time preparing each value of each of the ~800,000 rows, which
made the fill take minutes on this machine.

The shape follows a busy site: 2,000 players, two to four seats a game (one game in ten with a
bot, unrated), one in twenty private, a quarter with the Campanile, finished over three years;
Star also has games being played and forming, and others' public games are running.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils import timezone

from games.models import Game, Seat
from games.rules.firenze.engine import SEAT_COLOURS
from games.rules.firenze.rules.data import COLORS as COLOURS
from players.models import GameRecord, Rating, SeatResult
from players.results import places

GAMES = 100_000
STAR_GAMES = 10_000
PLAYERS = 2_000
BATCH = 5_000
YEARS = 3


def fill(games: int = GAMES, star_games: int = STAR_GAMES) -> dict:
    """Write everything; returns the users the pages are viewed as."""
    rng = random.Random(11)
    User = get_user_model()
    users = User.objects.bulk_create(
        User(
            username=f"p{i}",
            email=f"p{i}@example.com",
            display_name="Star" if i == 0 else ("Rookie" if i == 1 else f"Player {i}"),
            password="!",
        )
        for i in range(PLAYERS)
    )
    star, rookie = users[0], users[1]
    now = timezone.now()
    star_every = games // star_games
    first_pk = (Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    with transaction.atomic():
        for start in range(0, games, BATCH):
            numbers = range(start, min(games, start + BATCH))
            _batch(rng, users, numbers, games, star_every, now, first_pk)
        _reset_sequences()  # ids were given explicitly (PostgreSQL's sequence did not move)
        _games_in_progress(rng, users, star, now)
        _ratings(rng, users, star)
    _analyze()
    return {"star": star, "rookie": rookie, "opponent": users[2]}


GAME_COLUMNS = (
    "id", "creator", "num_players", "options", "seed", "status", "is_public", "invite_token",
    "time_limit", "version", "created", "updated",
)  # fmt: skip
RECORD_COLUMNS = (
    "game", "started_at", "finished_at", "num_players", "is_public", "engine_name", "details",
    "facets", "turns", "moves", "rated", "imported",
)  # fmt: skip
SEAT_COLUMNS = (
    "game", "user", "bot", "number", "colour", "joined", "timeouts_in_row", "autopilot",
)  # fmt: skip
RESULT_COLUMNS = (
    "record", "user", "seat", "name", "bot", "place", "score", "won", "steps", "bot_steps",
    "abandoned", "details", "finished_at", "is_public", "rating_shown", "rating_change",
)  # fmt: skip


def _batch(rng, users, numbers, total, star_every, now, first_pk) -> None:
    span = YEARS * 365 * 24 * 3600
    game_rows, records, seats, results = [], [], [], []
    for i in numbers:
        n = rng.choice((2, 3, 3, 4))
        with_bot = rng.random() < 0.1
        people = rng.sample(users[2:], n)
        if i % star_every == 0:
            people[0] = users[0]
        if i % 5000 == 7:  # the rookie's few games
            people[-1] = users[1]
        pk = first_pk + i
        finished_at = now - timedelta(seconds=span * (1 - i / total) + 60)
        started_at = finished_at - timedelta(days=rng.randint(0, 20))
        campanile = rng.random() < 0.25
        public = rng.random() >= 0.05
        options = {"campanile": campanile, "neutral_seals": 5, "seal_placement": "recommended"}
        game_rows.append(
            (pk, people[0].pk, n, options, i, "finished", public, f"t{pk}", timedelta(days=3),
             600, started_at, finished_at)
        )  # fmt: skip
        turns = rng.randint(40, 90)
        records.append(
            (pk, started_at, finished_at, n, public, "firenze", options,
             f";campanile={'on' if campanile else 'off'};", turns, turns * 7, not with_bot, False)
        )  # fmt: skip
        pp = [rng.randint(20, 80) for _ in range(n)]
        ranks = places(pp)
        for seat in range(n):
            bot = "greedy" if with_bot and seat == n - 1 else ""
            user = None if bot else people[seat]
            seats.append(
                (pk, user and user.pk, bot, seat, SEAT_COLOURS[seat], started_at, 0, False)
            )
            sealed = dict.fromkeys(COLOURS, 0)
            for _ in range(rng.randint(3, 8)):
                sealed[rng.choice(COLOURS)] += 1
            name = f"Bot Greedy {seat + 1}" if bot else user.display_name
            results.append(
                (pk, user and user.pk, seat, name, bot, ranks[seat], pp[seat], ranks[seat] == 1,
                 turns * 2, 0, False, sealed, finished_at, public,
                 None if with_bot else 1000 + rng.randint(-200, 600),
                 None if with_bot else rng.randint(-40, 40))
            )  # fmt: skip
    insert(Game, GAME_COLUMNS, game_rows)
    insert(GameRecord, RECORD_COLUMNS, records)
    insert(Seat, SEAT_COLUMNS, seats)
    insert(SeatResult, RESULT_COLUMNS, results)


def insert(model, names: tuple[str, ...], rows: list[tuple]) -> None:
    """INSERT rows (values in the order of `names`) with one executemany; every other column
    gets its field's default, so a column added to a model later does not break the fill.
    Values a database driver cannot take as they are (dates, JSON, durations) are prepared by
    their model field, as bulk_create would; the rest go as they are."""
    given = [model._meta.get_field(name) for name in names]
    others = [
        f
        for f in model._meta.concrete_fields
        if f not in given and not f.primary_key and not getattr(f, "auto_now", False)
    ]
    fields = given + others
    needs = [
        i
        for i, f in enumerate(fields)
        if f.get_internal_type() in ("DateTimeField", "JSONField", "DurationField")
    ]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {model._meta.db_table} ({columns}) VALUES ({marks})"
    fixed = [None if callable(f.default) else f.get_default() for f in others]
    per_row = [i for i, f in enumerate(others) if callable(f.default)]
    prepared = []
    for row in rows:
        extra = list(fixed)
        for i in per_row:
            extra[i] = others[i].get_default()
        row = [*row, *extra]
        for i in needs:
            if row[i] is not None:
                row[i] = fields[i].get_db_prep_save(row[i], connection)
        prepared.append(row)
    with connection.cursor() as cursor:
        cursor.executemany(sql, prepared)


def _reset_sequences() -> None:
    statements = connection.ops.sequence_reset_sql(no_style(), [Game, Seat, SeatResult])
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def _games_in_progress(rng, users, star, now) -> None:
    """Star plays 15 games and forms 2; 300 other public games are running."""
    for i in range(317):
        players = [star, *rng.sample(users[2:], 2)] if i < 17 else rng.sample(users[2:], 3)
        status = Game.Status.OPEN if i in (15, 16) else Game.Status.ACTIVE
        game = Game.objects.create(
            creator=players[0],
            num_players=3,
            status=status,
            acting_seat=i % 3 if status == Game.Status.ACTIVE else None,
            deadline=now + timedelta(hours=5 + i) if status == Game.Status.ACTIVE else None,
            turn_started_at=now - timedelta(hours=3),
        )
        Seat.objects.bulk_create(
            Seat(game=game, user=u, number=n, colour=SEAT_COLOURS[n]) for n, u in enumerate(players)
        )


def _ratings(rng, users, star) -> None:
    Rating.objects.bulk_create(
        Rating(
            user=user,
            mu=25 + rng.uniform(-8, 12),
            sigma=rng.uniform(1, 8),
            shown=1000 + rng.randint(-300, 900),
            games=7_000 if user == star else rng.randint(0, 200),
        )
        for user in users
    )


def _analyze() -> None:
    """Planner statistics (and on PostgreSQL the visibility map that index-only scans use), as
    autovacuum or a nightly ANALYZE keeps them after a bulk load."""
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
