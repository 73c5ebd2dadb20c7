"""The Strong bot's estimate in "what if": asked by the page's poll, thought on the bots queue
(here eagerly, once the ask is committed), then shown for the tried line and the played one;
bad asks get a clear refusal and queue nothing."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from bots import estimates, tasks
from tests.web.helpers import HTMX, fast_forward, signed_in, started_game
from tests.web.test_plans_nim import nim_game, seated
from tests.web.test_what_if import finished

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def url(game) -> str:
    return reverse("bots:what_if_estimate", args=[game.pk])


def line(*actions) -> str:
    return json.dumps(list(actions))


def test_it_says_estimating_then_shows_both_lines_figures(
    nim, anna, ben, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    game, first, _second = finished(nim, anna, ben)
    browser = signed_in(first)
    tried = {"step": "0", "steps": line({"type": "take", "n": 1})}  # leaves 4: a winning take
    page = browser.get(reverse("plans:what_if", args=[game.pk]), {"step": "0"}).content.decode()
    assert url(game) not in page  # no line tried yet: nothing to compare
    sandbox = browser.post(
        reverse("plans:what_if", args=[game.pk]),
        {**tried, "steps": "[]", "add": '{"type":"take","n":1}'},
    ).content.decode()
    assert url(game) in sandbox  # the comparison asks for the estimate
    with django_capture_on_commit_callbacks(execute=True) as queued:
        waiting = browser.get(url(game), tried, **HTMX).content.decode()
    assert "estimating both lines" in waiting and 'hx-trigger="load delay:2s"' in waiting
    assert len(queued) == 1  # the job, queued once the ask is committed (eager here)
    with (
        django_capture_on_commit_callbacks(execute=True) as again,
        django_assert_max_num_queries(6),  # the poll's cost budget
    ):
        shown = browser.get(url(game), tried, **HTMX).content.decode()
    assert not again  # nothing queued twice
    assert "1.0 after your line, -1.0 after what was played" in shown
    assert "Your line is 2.0 points better." in shown and "hx-get" not in shown


def test_it_queues_one_job_for_the_same_line_asked_twice(
    nim, anna, ben, django_capture_on_commit_callbacks
):
    game, first, _second = finished(nim, anna, ben)
    browser = signed_in(first)
    tried = {"step": "0", "steps": line({"type": "take", "n": 3})}
    with django_capture_on_commit_callbacks(execute=False) as queued:
        for _ in range(3):
            assert "estimating" in browser.get(url(game), tried, **HTMX).content.decode()
    assert len(queued) == 1


def test_it_refuses_a_bad_ask_clearly(nim, anna, ben, carla, client):
    game, first, _second = finished(nim, anna, ben)
    take = line({"type": "take", "n": 1})
    anonymous = client.get(url(game), {"step": "0", "steps": take})
    assert anonymous.status_code == 403 and "Sign in" in anonymous.content.decode()
    browser = signed_in(carla)  # any signed-in player may look at a finished game's what-if
    cases = [
        ({"step": "99", "steps": take}, 400, "There is no step 99"),
        ({"step": "0", "steps": line({"type": "take", "n": 9})}, 400, "Step 1 is not possible"),
        ({"step": "0", "steps": "[]"}, 400, "Take a step of your own first"),
        ({"step": "x", "steps": take}, 400, "could not be read"),
    ]
    for params, status, words in cases:
        answer = browser.get(url(game), params)
        assert answer.status_code == status and words in answer.content.decode(), params
    going = nim_game(nim, anna, ben, stones=9)
    refused = signed_in(seated(going)[0]).get(url(going), {"step": "0", "steps": take})
    assert refused.status_code == 404 and "only once the game is over" in refused.content.decode()
    assert not cache.get(estimates.key_of(game.pk, 0, [{"type": "take", "n": 1}]))


def test_it_estimates_a_firenze_line_by_the_strong_bot_on_the_bots_queue(anna, ben, settings):
    """The task itself, called as the bots queue would: the Strong bot's figures for both."""
    settings.BOTS_REVIEW_SECONDS = 0.05
    game = started_game(anna, ben, seed=31)
    fast_forward(game)
    game.refresh_from_db()
    engine = game.engine
    state = game.initial_state()
    for action in list(game.moves.order_by("seq").values_list("action", flat=True))[:4]:
        state = engine.apply_action(state, action)
    tried = [engine.legal_actions(state)[-1]]
    assert estimates.ask(game, 4, tried).pending
    key = estimates.key_of(game.pk, 4, tried)
    assert tasks.estimate_line.apply(args=(game.pk, key)).get() is True
    figures = estimates.ask(game, 4, tried)
    assert not figures.pending
    assert isinstance(figures.tried, float) and isinstance(figures.played, float)
    assert tasks.estimate_line.apply(args=(game.pk, key)).get() is False  # done once


def test_it_limits_how_many_new_lines_a_player_asks_the_bot_about(nim, anna, ben, settings):
    """Each new line is a Strong-bot job: over the rate a player is refused clearly (429), while
    polling a line already asked and another player's asks go on."""
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "what_if_estimate": "2/h/user"}
    game, first, second = finished(nim, anna, ben)
    browser = signed_in(first)
    lines = [{"step": "0", "steps": line({"type": "take", "n": n})} for n in (1, 2, 3)]
    for tried in lines[:2]:
        assert browser.get(url(game), tried, **HTMX).status_code == 200
    refused = browser.get(url(game), lines[2], **HTMX)
    assert refused.status_code == 429
    assert "many estimates in a short time" in refused.content.decode()
    assert browser.get(url(game), lines[0], **HTMX).status_code == 200  # a poll is no new ask
    assert signed_in(second).get(url(game), lines[2], **HTMX).status_code == 200
