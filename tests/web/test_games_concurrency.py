"""Two submissions against the same game version (a double click, two tabs): exactly one is
applied, the other is told the game moved on.

On SQLite the two arrive one after the other. On PostgreSQL (``-m postgres`` with
DATABASE_URL=$(scripts/postgres.sh url)) two threads, each with its own database connection,
are released at the same moment by a barrier, both through games.play and through the views.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import play
from games import play as play_module
from games.errors import Conflict
from games.models import Game, Move
from games.rules.firenze import rules
from tests import figures
from tests.web.helpers import HTMX, fast_forward, post_move, signed_in, started_game

STALE = str(play_module.STALE)  # the English wording (the message is lazy)


def acting_user(game: Game):
    game.refresh_from_db()
    return game.seats.get(number=game.acting_seat).user


def two_moves(game: Game) -> tuple[dict, dict]:
    """Two different legal actions of the acting player (as from two tabs), or one twice."""
    legal = rules.legal_actions(game.load_state())
    return legal[0], legal[-1]


def move_rows(game: Game) -> list[tuple]:
    return list(Move.objects.filter(game_id=game.pk).order_by("seq").values_list("seq", "action"))


def undoable(anna, ben) -> Game:
    game = started_game(anna, ben)
    fast_forward(game, 300, until=lambda s: s.step > 0 and rules.can_undo(s))
    assert rules.can_undo(game.load_state())
    return game


# --- one after the other (SQLite and any database) -------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_it_applies_the_first_of_two_identical_submissions_and_refuses_the_second(anna, ben, htmx):
    game = started_game(anna, ben)
    browser = signed_in(acting_user(game))
    action, _ = two_moves(game)
    version = game.version

    first = post_move(browser, game, action, version, htmx=htmx)
    second = post_move(browser, game, action, version, htmx=htmx)

    assert first.status_code == (200 if htmx else 302)
    assert second.status_code == (200 if htmx else 409)
    assert STALE in second.content.decode()
    game.refresh_from_db()
    assert game.version == version + 1
    assert move_rows(game) == [(1, action)]


@pytest.mark.django_db
def test_it_applies_one_of_two_tabs_moves_against_the_same_version(anna, ben):
    game = started_game(anna, ben)
    user = acting_user(game)
    first_tab, second_tab = signed_in(user), signed_in(user)
    one, other = two_moves(game)
    assert one != other

    assert post_move(first_tab, game, one, game.version, htmx=False).status_code == 302
    refused = post_move(second_tab, game, other, game.version, htmx=False)

    assert refused.status_code == 409
    assert STALE in refused.content.decode()
    assert move_rows(game) == [(1, one)]


@pytest.mark.django_db
def test_it_refuses_a_repeated_submit_move_call_with_conflict(anna, ben):
    game = started_game(anna, ben)
    user = acting_user(game)
    action, _ = two_moves(game)

    play.submit_move(game.pk, user, action, game.version)
    with pytest.raises(Conflict) as refused:
        play.submit_move(game.pk, user, action, game.version)

    assert refused.value.message == STALE
    assert move_rows(game) == [(1, action)]


@pytest.mark.django_db
def test_it_takes_back_one_step_for_a_double_clicked_undo(anna, ben):
    game = undoable(anna, ben)
    browser = signed_in(acting_user(game))
    rows = move_rows(game)
    url = reverse("games:undo", args=[game.pk])

    first = browser.post(url, {"version": game.version}, **HTMX)
    second = browser.post(url, {"version": game.version})

    assert first.status_code == 200
    assert second.status_code == 409
    assert STALE in second.content.decode()
    assert move_rows(game) == rows[:-1]
    assert Game.objects.get(pk=game.pk).version == game.version + 1


# --- at the same moment (PostgreSQL) ---------------------------------------------------------


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL=$(scripts/postgres.sh url) pytest -m postgres")


def at_once(*calls: Callable[[], Any]) -> list[tuple[str, Any, float, float]]:
    """Run the calls in threads released together; each thread has (and closes) its own
    database connection. Returns (outcome, value, entered, left) per call."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            entered = time.monotonic()
            try:
                results[index] = ("ok", call(), entered, time.monotonic())
            except Exception as exc:  # noqa: BLE001 - reported to the test
                results[index] = ("error", exc, entered, time.monotonic())
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a submission hung"
    return results


@contextmanager
def slowed(name: str):
    """Hold the winner a moment inside its transaction (in the engine's `name`), so the other
    submission must meet its row lock rather than arrive after it committed."""
    real = getattr(rules, name)

    def slow(*args):
        time.sleep(0.2)
        return real(*args)

    setattr(rules, name, slow)
    try:
        yield
    finally:
        setattr(rules, name, real)


def outcomes(results) -> list[str]:
    return sorted(
        "applied" if kind == "ok" else type(value).__name__ for kind, value, *_ in results
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_applies_exactly_one_of_two_simultaneous_submit_move_calls(postgres, anna, ben):
    game = started_game(anna, ben)
    for _ in range(6):  # a few rounds: each a fresh race on the then current version
        user = acting_user(game)
        one, other = two_moves(game)
        version, before = game.version, move_rows(game)

        results = at_once(
            partial(play.submit_move, game.pk, user, one, version),
            partial(play.submit_move, game.pk, user, other, version),
        )

        assert outcomes(results) == ["Conflict", "applied"], results
        loser = next(value for kind, value, *_ in results if kind == "error")
        assert loser.message == STALE
        after = move_rows(game)
        assert after[:-1] == before and len(after) == len(before) + 1
        assert after[-1][1] in (one, other)
        assert Game.objects.get(pk=game.pk).version == version + 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_settles_two_submissions_that_overlap_inside_their_transactions(postgres, anna, ben):
    game = started_game(anna, ben)
    user = acting_user(game)
    action, _ = two_moves(game)

    with slowed("apply_action"):
        results = at_once(
            lambda: play.submit_move(game.pk, user, action, game.version),
            lambda: play.submit_move(game.pk, user, action, game.version),
        )

    assert outcomes(results) == ["Conflict", "applied"]
    assert max(entered for *_, entered, _ in results) < min(left for *_, left in results)
    assert move_rows(game) == [(1, action)]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_it_applies_exactly_one_of_two_simultaneous_posts_to_the_move_view(
    postgres, anna, ben, htmx
):
    game = started_game(anna, ben)
    user = acting_user(game)
    tabs = [Client(), Client()]
    for tab in tabs:
        tab.force_login(user)
    one, other = two_moves(game)
    version = game.version

    with slowed("apply_action"):
        results = at_once(
            lambda: post_move(tabs[0], game, one, version, htmx=htmx),
            lambda: post_move(tabs[1], game, other, version, htmx=htmx),
        )

    assert [kind for kind, *_ in results] == ["ok", "ok"], results
    responses = [value for _, value, *_ in results]
    refused = [r for r in responses if STALE in r.content.decode()]
    assert len(refused) == 1
    statuses = sorted(r.status_code for r in responses)
    assert statuses == ([200, 200] if htmx else [302, 409])
    rows = move_rows(game)
    assert len(rows) == 1 and rows[0][1] in (one, other)
    assert Game.objects.get(pk=game.pk).version == version + 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_takes_back_exactly_one_step_for_two_simultaneous_undos(postgres, anna, ben):
    game = undoable(anna, ben)
    user = acting_user(game)
    rows, version = move_rows(game), game.version

    with slowed("can_undo"):
        results = at_once(
            lambda: play.undo_move(game.pk, user, version),
            lambda: play.undo_move(game.pk, user, version),
        )

    assert outcomes(results) == ["Conflict", "applied"], results
    assert move_rows(game) == rows[:-1]
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.state == rules.to_dict(game.replayed_state())

    if not rules.can_undo(game.load_state()):
        fast_forward(game, 300, until=lambda s: rules.can_undo(s))
    tabs = [Client(), Client()]
    for tab in tabs:
        tab.force_login(acting_user(game))
    rows, version = move_rows(game), game.version
    url = reverse("games:undo", args=[game.pk])

    with slowed("can_undo"):
        results = at_once(*(lambda tab=tab: tab.post(url, {"version": version}) for tab in tabs))

    assert sorted(value.status_code for _, value, *_ in results) == [302, 409]
    assert move_rows(game) == rows[:-1]
    assert Game.objects.get(pk=game.pk).version == version + 1


# --- many double submissions at once (the figure of issue 8) ---------------------------------

PAIRS = 200
UNVERSIONED = 20


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_hundred_simultaneous_double_submissions_apply_each_move_once(postgres, anna, ben):
    """A double click, 200 times over: the same move posted twice at the same moment, with the
    version of the page. Exactly one of each pair is applied; without a version both are
    refused (a move without one could otherwise be applied twice)."""
    game = started_game(anna, ben)
    tabs = {user.pk: [Client(), Client()] for user in (anna, ben)}
    for user in (anna, ben):
        for tab in tabs[user.pk]:
            tab.force_login(user)
    applied_twice = applied_once = refused_both = unversioned_applied = 0
    for pair in range(PAIRS + UNVERSIONED):
        game.refresh_from_db()
        user = acting_user(game)
        action = rules.legal_actions(game.load_state())[0]
        version, moves = game.version, Move.objects.filter(game_id=game.pk).count()
        one, other = tabs[user.pk]
        if pair % 11 == 10:  # every eleventh pair: two clients that send no version at all
            url, data = reverse("games:move", args=[game.pk]), {"action": json.dumps(action)}
            results = at_once(partial(one.post, url, data), partial(other.post, url, data))
            assert [value.status_code for _, value, *_ in results] == [400, 400], results
            unversioned_applied += Move.objects.filter(game_id=game.pk).count() - moves
            continue
        results = at_once(
            partial(post_move, one, game, action, version, htmx=False),
            partial(post_move, other, game, action, version, htmx=False),
        )
        assert all(kind == "ok" for kind, *_ in results), results
        added = Move.objects.filter(game_id=game.pk).count() - moves
        applied_twice += added == 2
        applied_once += added == 1
        refused_both += added == 0
    line = (
        f"concurrent double submissions on PostgreSQL: {applied_twice} of {PAIRS} pairs applied "
        f"twice (goal 0); "
        f"{applied_once} applied once, {refused_both} refused both, "
        f"{unversioned_applied} moves applied by {UNVERSIONED} pairs without a version"
    )
    figures.report(line)
    assert applied_twice == 0 and refused_both == 0 and unversioned_applied == 0, line
    assert applied_once == PAIRS
