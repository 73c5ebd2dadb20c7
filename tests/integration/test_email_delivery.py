"""Turn emails end to end: HTTP move -> outbox row -> Redis -> Celery worker -> SMTP -> link.

The rest of the suite runs tasks eagerly and keeps email in memory; these tests run the real
thing (see conftest.py): redis-server, two Celery workers and beat as separate processes, an
SMTP server on loopback and pytest-django's live server. Each email carries the id of its
outbox row (X-Firenze-Notification), so "exactly once" is counted per row.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter

import pytest

from bench.stack import TIMEOUT, Stack, wait_until
from games.models import Game
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy
from notifications.models import Notification
from notifications.tasks import send_notification
from tests.integration.conftest import Browser
from tests.web.helpers import started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

Status = Notification.Status
HEADER = "X-Firenze-Notification"
# A turn is a handful of steps; this bounds a bot that never ends it.
MAX_STEPS_PER_TURN = 200


def acting_user(game: Game):
    return game.seats.select_related("user").get(number=game.acting_seat).user


def other_player(game: Game, user):
    return game.seats.select_related("user").exclude(user=user).get().user


def play_turn(browser: Browser, game: Game) -> int:
    """Play the acting player's whole turn over HTTP, one legal (greedy) step per POST; the
    number of steps. Every POST must be accepted: a redirect and a new version."""
    game.refresh_from_db()
    seat = game.acting_seat
    assert browser.get(f"/games/{game.pk}/").status == 200  # also sets the CSRF cookie
    rng = random.Random(f"{game.seed}/integration/{game.version}")
    for step in range(1, MAX_STEPS_PER_TURN + 1):
        state = game.load_state()
        action = greedy(state, rng)
        assert action in rules.legal_actions(state)
        version = game.version
        page = browser.post(
            f"/games/{game.pk}/move/",
            {"action": json.dumps(action), "version": version},
            follow=False,
        )
        assert page.status == 302, f"move refused ({page.status}): {page.text[:3000]}"
        game.refresh_from_db()
        assert game.version == version + 1
        if game.acting_seat != seat or not game.is_active:
            return step
    raise AssertionError(f"the turn did not end within {MAX_STEPS_PER_TURN} steps")


def delivered(services: Stack) -> Counter:
    """How many emails arrived per outbox row."""
    return Counter(int(m[HEADER]) for m in services.mailbox.messages if m[HEADER])


def settle(services: Stack, games: list[Game], timeout: float = TIMEOUT) -> dict[int, str]:
    """Wait until no row of the test's ``games`` is pending or sending and Redis holds no
    task; those rows' statuses (only the test's own: another's never changes its result)."""

    def settled() -> dict[int, str] | None:
        rows = dict(Notification.objects.filter(game__in=games).values_list("pk", "status"))
        busy = [pk for pk, status in rows.items() if status in (Status.PENDING, Status.SENDING)]
        if busy or services.redis.backlog():
            return None
        return rows or None

    rows = wait_until(settled, "every notification to be handled", timeout)
    time.sleep(0.5)  # a duplicate still in a worker's hands would show up now
    return rows


def assert_each_sent_row_arrived_once(services: Stack, rows: dict[int, str]) -> None:
    """Each of the test's sent rows arrived once, and nothing else did: the mailbox is the
    test's own (emptied before it, the workers idle after the test before it)."""
    sent = {pk for pk, status in rows.items() if status == Status.SENT}
    assert delivered(services) == Counter(sent)  # each sent row exactly once, nothing else
    assert len(services.mailbox.messages) == len(sent)  # and no email without a row


def test_a_move_over_http_emails_the_next_player_a_link_that_signs_them_in(
    services, http, live_server, anna, ben
):
    game = started_game(anna, ben)
    mover = acting_user(game)
    waiting = other_player(game, mover)

    play_turn(http(mover), game)

    row = Notification.objects.get(game=game, user=waiting, kind="your_turn")
    [mail] = services.mailbox.wait_for(
        lambda m: m[HEADER] == str(row.pk), f"the your-turn email to {waiting.email}"
    )
    assert mail["To"] == waiting.email
    assert mail["Subject"].startswith("Your turn in Firenze")
    text = mail.get_body(("plain",)).get_content()
    link = re.search(rf"{re.escape(live_server.url)}/email/play/{game.pk}/\S+/", text).group(0)

    # A browser with no cookies: the link's page asks to continue (mail scanners open links
    # too), and its button signs the player in and opens the game.
    visitor = http()
    page = visitor.get(link)
    assert page.status == 200 and waiting.public_name in page.text
    page = visitor.post(link, {})
    assert page.status == 200
    assert page.url == f"{live_server.url}/games/{game.pk}/"
    assert waiting.public_name in page.text
    assert "Your turn" in page.text
    # The link works once: opened again it leads to the sign-in page.
    assert "/accounts/login/" in http().get(link).url

    rows = settle(services, [game])
    assert {(pk, status) for pk, status in rows.items() if pk == row.pk} == {(row.pk, "sent")}
    sent = Notification.objects.filter(game=game, status=Status.SENT)
    kinds = Counter(sent.values_list("kind", flat=True))
    assert kinds == {"game_started": 2, "your_turn": 1}
    assert_each_sent_row_arrived_once(services, rows)


def test_moves_made_while_the_broker_is_down_are_emailed_once_it_is_back(
    services, http, anna, ben, carla, dario, caplog
):
    first, second = started_game(anna, ben), started_game(carla, dario)
    settle(services, [first, second])  # the game-started emails go out while Redis is up
    assert len(services.mailbox.messages) == 4

    services.redis.stop()
    before = Notification.objects.order_by("-pk").values_list("pk", flat=True).first()
    # In the first game both players take a turn, so the email telling the second one it is
    # their turn is overtaken by their own move (and skipped); in the second game, one turn.
    first_mover = acting_user(first)
    play_turn(http(first_mover), first)
    play_turn(http(acting_user(first)), first)
    second_waiting = other_player(second, acting_user(second))
    play_turn(http(acting_user(second)), second)

    turns = Notification.objects.filter(game__in=[first, second], pk__gt=before)
    assert set(turns.values_list("kind", "status")) == {("your_turn", Status.PENDING)}
    assert turns.count() == 3
    assert "not queued; the periodic sweep will pick it up" in caplog.text
    assert len(services.mailbox.messages) == 4
    # An outage longer than beat's lock (a loaded machine makes the turns above slow): beat
    # stops rather than risk scheduling beside another beat, and its supervisor starts it
    # again. Waited for here so that the test does not depend on how long the turns took.
    beat = next(p for p in services.processes if p.name == "beat")
    wait_until(lambda: beat.proc.poll() is not None, "beat to stop without its lock")

    services.restart_broker()
    # Beat reconnects at growing intervals too, and its sweep is what picks these rows up: on a
    # machine busy with the rest of the suite that can take longer than the usual wait.
    rows = settle(services, [first, second], timeout=3 * TIMEOUT)

    overtaken = turns.get(game=first, user=other_player(first, first_mover))
    overtaken.refresh_from_db()
    assert overtaken.last_error == "they have moved since"
    expected = {
        overtaken.pk: Status.SKIPPED,
        turns.get(game=first, user=first_mover).pk: Status.SENT,
        turns.get(game=second, user=second_waiting).pk: Status.SENT,
    }
    assert {pk: status for pk, status in rows.items() if pk > before} == expected
    assert_each_sent_row_arrived_once(services, rows)


def test_two_workers_racing_for_the_same_rows_send_each_email_once(
    services, anna, ben, carla, dario
):
    workers = ("worker1", "worker2")
    logged_before = {worker: len(services.log_text(worker)) for worker in workers}
    pairs = [(anna, ben), (carla, dario), (anna, carla), (ben, dario), (anna, dario), (ben, carla)]
    games = [started_game(creator, other) for creator, other in pairs]  # rows queued on commit
    own = Notification.objects.filter(game__in=games)
    ids = list(own.values_list("pk", flat=True))
    assert Counter(own.values_list("kind", flat=True)) == {
        "game_started": 2 * len(pairs),
        "your_turn": len(pairs),  # the first player's, which the game-started email covers
    }
    for _ in range(3):  # and three more tasks per row, for the workers to race over
        for pk in ids:
            send_notification.delay(pk)

    rows = settle(services, games)
    assert set(own.values_list("kind", "status")) == {
        ("game_started", Status.SENT),
        ("your_turn", Status.SKIPPED),
    }
    assert_each_sent_row_arrived_once(services, rows)
    assert Counter(m["To"] for m in services.mailbox.messages) == {
        f"{name}@example.com": 3 for name in ("anna", "ben", "carla", "dario")
    }
    # Both workers took part, and the claim turned the duplicates away.
    logs = {worker: services.log_text(worker)[logged_before[worker] :] for worker in workers}
    for worker in workers:
        assert "notifications.tasks.send_notification[" in logs[worker], worker
    assert "'not claimed'" in logs["worker1"] + logs["worker2"]


def test_a_move_that_hands_the_turn_to_a_bot_succeeds_while_the_broker_is_down(
    services, http, anna, caplog
):
    game = started_game(anna, bots=1)
    seat = game.seats.get(user=anna).number

    def annas_turn() -> bool:
        game.refresh_from_db()
        return game.acting_seat == seat

    wait_until(annas_turn, "the bot to play its turn (play_bots on a worker)")
    services.redis.stop()
    play_turn(http(anna), game)  # every step answered with a redirect, the last one too
    assert game.acting_seat != seat
    assert f"bots of game {game.pk} not queued" in caplog.text
    # Nothing queues the lost play_bots again once the broker is back (a bot's turn has no
    # deadline for sweep_deadlines to find), so only the move itself is checked here.
    services.restart_broker()
    assert_each_sent_row_arrived_once(services, settle(services, [game]))
