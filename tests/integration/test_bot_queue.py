"""Bots never slow the site: a Strong bot thinking on the "bots" queue does not hold up an
email queued meanwhile (real processes: Redis, workers per queue, SMTP; see conftest.py)."""

from __future__ import annotations

import pytest

from bench.stack import Stack, wait_until
from games import lobby
from games.models import Game
from notifications.models import Notification
from tests.integration.test_email_delivery import acting_user, play_turn
from tests.web.helpers import started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# The Strong bot thinks this long (CPU seconds) about each decision that matters: long enough
# that an email has every chance to be held up behind it, if it could be.
THINK_SECONDS = 12
STACK_ENV = {"BOTS_THINK_SECONDS": str(THINK_SECONDS)}


def bot_moves(game: Game) -> int:
    return game.moves.filter(by_bot=True).count()


def test_an_email_queued_while_a_strong_bot_thinks_goes_out_before_it_moves(
    services: Stack, http, anna, ben, carla
):
    # The logs are the module's: only what they gain from here on is this test's.
    logged = {name: len(services.log_text(name)) for name in ("bots", "worker1", "worker2")}

    def log(name: str) -> str:
        return services.log_text(name)[logged[name] :]

    game = lobby.create_game(anna, num_players=2)
    lobby.add_bot(game, anna, bot="strong")  # the table is full: the game starts
    game.refresh_from_db()
    if acting_user(game) == anna:
        play_turn(http(anna), game)  # then the bot is to move: its task is queued
    game.refresh_from_db()
    assert game.seats.get(number=game.acting_seat).bot == "strong"

    wait_until(
        lambda: "games.tasks.play_bots[" in log("bots"),
        "the bots worker to take the bot's turn",
    )
    assert bot_moves(game) == 0  # it is thinking about its card

    other = started_game(ben, carla)  # two "game started" emails, queued now
    rows = Notification.objects.filter(game=other, kind="game_started")
    mails = services.mailbox.wait_for(
        lambda m: (
            m["X-Firenze-Notification"] in {str(pk) for pk in rows.values_list("pk", flat=True)}
        ),
        "the game-started emails",
        count=2,
    )
    assert {m["To"] for m in mails} == {"ben@example.com", "carla@example.com"}
    assert bot_moves(game) == 0, "the email waited for the bot"
    assert "games.tasks.play_bots[" not in log("worker1") + log("worker2")

    # Its budget is CPU time: on a loaded machine the niced bots worker gets a small share of a
    # core, so its move may take many times THINK_SECONDS of wall time (it still comes).
    wait_until(lambda: bot_moves(game) > 0, "the bot's move", timeout=40 * THINK_SECONDS)
