"""Planned turns under real concurrency (PostgreSQL): a plan running while its owner moves by
hand, or set while the turn passes, applies each step once or not at all."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games import lobby
from games.errors import GameError
from games.models import Game
from games.play import move
from plans import service
from plans.models import Plan, PlanOutcome

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL=$(scripts/postgres.sh url) pytest -m postgres")


def at_once(*calls: Callable[[], Any]) -> list[tuple[str, Any]]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            try:
                results[index] = ("ok", call())
            except GameError as exc:
                results[index] = ("refused", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a call hung"
    return results


def nim_game(nim, anna, ben) -> tuple[Game, Any, Any]:
    game = lobby.create_game(anna, num_players=2, options={"stones": 9}, engine_name=nim.name)
    lobby.join(game, ben)
    game.refresh_from_db()
    seats = {s.number: s.user for s in game.seats.select_related("user")}
    return game, seats[game.acting_seat], seats[1 - game.acting_seat]


def planner_moves(game: Game, planner) -> list[dict]:
    seat = planner.seats.get(game=game).number
    return list(game.moves.filter(seat=seat).order_by("seq").values_list("action", flat=True))


@pytest.mark.parametrize("round_", range(3))
def test_it_plays_a_plan_once_while_its_owner_moves_by_hand(postgres, nim, anna, ben, round_):
    game, mover, planner = nim_game(nim, anna, ben)
    service.set_plan(game.pk, planner, [{"type": "take", "n": 2}])
    move(game.pk, mover, {"type": "take", "n": 1}, None)
    results = at_once(
        lambda: move(game.pk, mover, {"type": "end_turn"}, None),
        lambda: move(game.pk, planner, {"type": "take", "n": 3}, None),
    )
    assert results[0][0] == "ok"
    taken = planner_moves(game, planner)
    # Either the hand move came first (refused: not yet the planner's turn) and the plan ran,
    # or never both: the planned step is in the log at most once, and nothing else was taken.
    assert taken in ([{"type": "take", "n": 2}], [])
    assert results[1][0] == "refused"
    assert PlanOutcome.objects.filter(game=game).count() == 1
    assert not Plan.objects.filter(game=game).exists()
    game.refresh_from_db()
    log = list(game.moves.order_by("seq").values_list("action", flat=True))
    assert game.replayed_state(log).d == game.load_state().d


@pytest.mark.parametrize("round_", range(3))
def test_it_sets_a_plan_before_the_turn_passes_or_refuses_it(postgres, nim, anna, ben, round_):
    game, mover, planner = nim_game(nim, anna, ben)
    move(game.pk, mover, {"type": "take", "n": 1}, None)
    results = at_once(
        lambda: move(game.pk, mover, {"type": "end_turn"}, None),
        lambda: service.set_plan(game.pk, planner, [{"type": "take", "n": 2}]),
    )
    assert results[0][0] == "ok"
    played = PlanOutcome.objects.filter(game=game).count()
    if results[1][0] == "ok":  # kept in time: played at once when the turn came
        assert played == 1 and planner_moves(game, planner) == [{"type": "take", "n": 2}]
    else:  # too late: refused, nothing kept, nothing played
        assert played == 0 and planner_moves(game, planner) == []
    assert not Plan.objects.filter(game=game).exists()
