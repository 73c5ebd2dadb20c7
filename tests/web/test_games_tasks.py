"""The games' Celery tasks retry what may work later and nothing else: a bot that chooses an
illegal action is a bug, logged once; a database that is busy for a moment is retried."""

from __future__ import annotations

import logging

import pytest
from django.db import OperationalError

from games import tasks
from games.models import Game
from tests.web.helpers import started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager_retries():
    """Eager tasks retry like a worker (minus the wait) instead of raising Retry."""
    conf = tasks.play_bots.app.conf
    propagates = conf.task_eager_propagates
    conf.task_eager_propagates = False
    yield
    conf.task_eager_propagates = propagates


def _bot_to_move(anna) -> Game:
    game = started_game(anna, bots=1, seed=7)
    game.seats.filter(user=anna).update(autopilot=True)  # the bot plays every seat now
    return game


def test_it_logs_a_bot_that_chooses_an_illegal_action_and_does_not_retry(
    anna, monkeypatch, caplog, eager_retries
):
    game = _bot_to_move(anna)
    calls = []

    def broken_bot(state, rng):
        calls.append(1)
        return {"type": "no_such_action"}

    monkeypatch.setitem(game.engine.bots, game.engine.default_bot, broken_bot)
    moves = game.moves.count()
    with caplog.at_level(logging.ERROR, logger="games.play"):
        assert tasks.play_bots.delay(game.pk).get() == 0
    assert len(calls) == 1
    assert game.moves.count() == moves
    assert "chose an illegal action" in caplog.text


def test_it_retries_a_bot_turn_when_the_database_is_busy(anna, monkeypatch, eager_retries):
    game = _bot_to_move(anna)
    failures = [OperationalError("database is locked")] * 2
    real = tasks.run_bots

    def flaky(game_id):
        if failures:
            raise failures.pop()
        return real(game_id, max_steps=3)

    monkeypatch.setattr(tasks, "run_bots", flaky)
    assert tasks.play_bots.delay(game.pk).get() == 3
    assert failures == []


def test_it_does_not_retry_an_unexpected_error(anna, monkeypatch, eager_retries):
    game = _bot_to_move(anna)
    calls = []

    def buggy(game_id):
        calls.append(1)
        raise KeyError("bug")

    monkeypatch.setattr(tasks, "run_bots", buggy)
    result = tasks.play_bots.delay(game.pk)
    assert isinstance(result.result, KeyError)
    assert len(calls) == 1
