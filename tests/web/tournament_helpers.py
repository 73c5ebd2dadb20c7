"""Helpers of the tournament tests: a field of players, a tournament past its sign-up, and
ending a table's game with the places a test chooses (the game's end as the platform publishes
it: its record, then games.events.game_over, in one transaction)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import events
from games.models import Game
from tests.factories import UserFactory
from tests.web.helpers import fast_forward
from tournaments import rounds, signup
from tournaments.models import Table, Tournament


def field(count: int, prefix: str = "p") -> list[Any]:
    return [UserFactory(username=f"{prefix}{number:02d}") for number in range(1, count + 1)]


def tournament(creator: Any, **settings: Any) -> Tournament:
    defaults: dict[str, Any] = {
        "name": "Spring Cup",
        "fmt": "swiss",
        "table_size": 2,
        "signup_closes": timezone.now() + timedelta(hours=1),
        "max_players": 64,
        "rounds": 3,
    }
    return signup.create(creator, **{**defaults, **settings})


def started(creator: Any, players: list[Any], **settings: Any) -> Tournament:
    """Everyone signed up, sign-up closed, round one dealt."""
    found = tournament(creator, **settings)
    for player in players:
        signup.sign_up(found, player)
    Tournament.objects.filter(pk=found.pk).update(signup_closes=timezone.now())
    assert rounds.start(found.pk)
    found.refresh_from_db()
    return found


def end_game(game: Game, order: list[Any]) -> None:
    """Finish the game with ``order`` (users, best first; a list inside it ties) as its
    ranking, and publish its end."""
    seats = {seat.user_id: seat.number for seat in game.seats.all()}
    totals = [0] * game.num_players
    score = 100
    for place in order:
        for user in place if isinstance(place, list) else [place]:
            totals[seats[user.pk]] = score
        score -= 10
    fast_forward(game, totals=totals)
    with transaction.atomic():
        events.game_over.send(Game, game=game, state=game.load_state())


def table_users(table: Table) -> list[Any]:
    return [seat.entry.user for seat in table.seats.select_related("entry__user")]


def end_round(found: Tournament, rank: Any = None) -> None:
    """End every unfinished table of the current round; by default the best seed wins
    (``rank(users) -> order`` chooses otherwise)."""
    found.refresh_from_db()
    for table in Table.objects.filter(
        tournament=found, round__number=found.current_round, finished_at=None
    ).select_related("game"):
        users = table_users(table)
        order = rank(users) if rank else sorted(users, key=lambda u: u.username)
        end_game(table.game, order)
    found.refresh_from_db()
