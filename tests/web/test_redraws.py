"""Page redraws are coalesced (issue 27): however many moves a game makes while its redraw
waits, one redraw of it is queued, and it draws the newest version; emails do not queue
behind redraws (their own queue)."""

from __future__ import annotations

import pytest
from celery import current_app
from django.conf import settings

from games import redraws
from games.models import Game
from games.rules.firenze import rules
from games.tasks import draw_pages
from tests.web.helpers import post_move, signed_in, started_game


@pytest.fixture
def queued(monkeypatch):
    """The redraws handed to the broker (not run)."""
    calls: list[tuple] = []
    task = current_app.tasks[redraws.DRAW_PAGES_TASK]
    monkeypatch.setattr(task, "delay", lambda *args: calls.append(args))
    return calls


def move(game: Game, capture) -> None:
    game.refresh_from_db()
    action = rules.legal_actions(game.load_state())[0]
    acting = game.seats.get(number=game.acting_seat).user
    with capture(execute=True):
        answer = post_move(signed_in(acting), game, action, game.version)
    assert answer.status_code == 200


def test_it_queues_one_redraw_per_game_while_one_is_pending(
    anna, ben, carla, dario, queued, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben, seed=11)
    other = started_game(carla, dario, seed=11)
    queued.clear()
    move(game, django_capture_on_commit_callbacks)
    move(game, django_capture_on_commit_callbacks)
    move(other, django_capture_on_commit_callbacks)
    assert queued == [(game.pk,), (other.pk,)]


def test_it_queues_the_next_redraw_once_the_pending_one_has_started(
    anna, ben, queued, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben, seed=11)
    queued.clear()
    move(game, django_capture_on_commit_callbacks)
    assert draw_pages(game.pk) == 2  # both seated players' pages, of the newest version
    move(game, django_capture_on_commit_callbacks)
    assert queued == [(game.pk,), (game.pk,)]


def test_it_routes_redraws_to_their_own_queue_apart_from_emails():
    routes = settings.CELERY_TASK_ROUTES
    assert routes[redraws.DRAW_PAGES_TASK] == {"queue": "pages"}
    assert not any(name.startswith("notifications.") for name in routes)
