"""Play by email, the outbox: rows written with the game change, sent once after commit,
retried on SMTP errors, picked up by send_pending when their task was lost, collected into the
daily digest, and never sent to players who opted out.

pytest-django runs each test in a transaction that never commits, so on_commit callbacks (the
queued sends) run only inside ``django_capture_on_commit_callbacks(execute=True)``. Celery runs
eagerly and e-mail stays in ``django.core.mail.outbox``.
"""

from __future__ import annotations

import random
import smtplib
import socket
from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from games import lobby, play
from games.models import Game
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy
from notifications import outbox, preferences, tasks
from notifications.models import Notification
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

Status = Notification.Status


# --- helpers shared with the other test_notifications_* files -------------------------------


def new_game(creator, *others, bots: int = 0, seed: int = 1504) -> Game:
    """A started game with a fixed seed (so the seat order and the cards are always the same),
    with the outbox and mailbox emptied of what starting it wrote."""
    game = lobby.create_game(creator, num_players=1 + len(others) + bots, auto_start=False)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in others:
        lobby.join(game, user)
    for _ in range(bots):
        lobby.add_bot(game, creator)
    lobby.start(game, creator)
    game.refresh_from_db()
    forget_notifications()
    return game


def forget_notifications() -> None:
    Notification.objects.all().delete()
    mail.outbox.clear()


def play_until(game: Game, until, max_moves: int = 3000) -> None:
    """Greedy moves for whoever acts, stored the way bot moves are (games.play.record_move),
    until ``until(game)`` holds; the rows the moves wrote (never sent: the test transaction
    does not commit) are deleted again."""
    before = Notification.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    rng = random.Random(f"{game.seed}/notifications/{game.version}")
    for _ in range(max_moves):
        game.refresh_from_db()
        if until(game) or not game.is_active:
            break
        state = game.load_state()
        action = greedy(state, rng)
        with transaction.atomic():
            play.record_move(
                game, rules.acting_seat(state), action, rules.apply_action(state, action)
            )
    game.refresh_from_db()
    Notification.objects.filter(pk__gt=before).delete()


def acting_user(game: Game):
    return game.seats.get(number=game.acting_seat).user


def seat_of(game: Game, user) -> int:
    return game.seats.get(user=user).number


def turn_of(user):
    """until(): this player's turn has just begun (they have not moved in it yet)."""

    def until(game: Game) -> bool:
        if not game.is_active or acting_user(game) != user:
            return False
        last = game.moves.order_by("-seq").first()
        return last is None or last.seat != seat_of(game, user)

    return until


def second_turn_of(user):
    """until(): this player's turn has just begun again, after a turn of theirs."""
    return lambda game: turn_of(user)(game) and game.moves.filter(seat=seat_of(game, user)).exists()


def notify_turn(game: Game, user, capture, *, execute: bool = True) -> Notification | None:
    """What the games code does when a turn passes, in its own committed transaction."""
    with capture(execute=execute), transaction.atomic():
        return outbox.notify(
            user, "your_turn", game=game, key=f"your_turn:{game.pk}:{game.version}"
        )


def pending_row(user, game: Game, kind: str = "your_turn", **fields) -> Notification:
    """A row as notify() leaves it when its queued task never ran (broker down)."""
    row = outbox.notify(user, kind, game=game, key=f"{kind}:{game.pk}:{user.pk}:{game.version}")
    Notification.objects.filter(pk=row.pk).update(**fields)
    row.refresh_from_db()
    return row


def backdate(row: Notification, minutes: int) -> None:
    Notification.objects.filter(pk=row.pk).update(
        created=timezone.now() - timedelta(minutes=minutes)
    )


class FlakyBackend(LocmemBackend):
    """The locmem backend after ``failures`` SMTP errors."""

    failures = 0
    error = smtplib.SMTPServerDisconnected("Connection unexpectedly closed")

    def send_messages(self, messages):
        if FlakyBackend.failures:
            FlakyBackend.failures -= 1
            raise FlakyBackend.error
        return super().send_messages(messages)


@pytest.fixture
def flaky_smtp(settings, eager_retries):
    settings.EMAIL_BACKEND = "tests.web.test_notifications.FlakyBackend"
    error = FlakyBackend.error
    yield FlakyBackend
    FlakyBackend.failures, FlakyBackend.error = 0, error


@pytest.fixture
def game(anna, ben, carla):
    return new_game(anna, ben, carla)


# --- writing rows ---------------------------------------------------------------------------


def test_it_writes_one_row_per_event_and_sends_it_after_commit(
    game, django_capture_on_commit_callbacks
):
    user = acting_user(game)
    with django_capture_on_commit_callbacks(execute=False) as callbacks, transaction.atomic():
        row = outbox.notify(user, "your_turn", game=game, key=f"your_turn:{game.pk}:1")
        again = outbox.notify(user, "your_turn", game=game, key=f"your_turn:{game.pk}:1")
    assert again == row
    assert len(callbacks) == 1  # one queued send for one event
    assert mail.outbox == []  # nothing before the commit
    callbacks[0]()
    row.refresh_from_db()
    assert row.status == Status.SENT and row.attempts == 1 and row.sent_at is not None
    assert [m.to for m in mail.outbox] == [[user.email]]


def test_it_writes_nothing_when_the_move_is_rolled_back(game, django_capture_on_commit_callbacks):
    with (  # noqa: PT012 - the move's transaction is what fails: the raise must be inside it
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        outbox.notify(acting_user(game), "your_turn", game=game, key="your_turn:rolled-back")
        raise RuntimeError("the move failed")
    assert callbacks == []
    assert not Notification.objects.exists()
    assert mail.outbox == []


def test_it_writes_no_row_for_a_bot_or_a_player_without_an_email_address(game):
    assert outbox.notify(None, "your_turn", game=game, key="your_turn:bot") is None
    nobody = UserFactory(username="nobody", email="", verified=False)
    assert outbox.notify(nobody, "game_over", game=game, key="game_over:nobody") is None
    assert not Notification.objects.exists()


def test_it_sends_nothing_to_an_address_that_was_never_confirmed(
    game, django_capture_on_commit_callbacks
):
    unconfirmed = UserFactory(username="dario", verified=False)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        row = outbox.notify(unconfirmed, "invited", game=game, key="invited:unconfirmed")
    row.refresh_from_db()
    assert row.status == Status.SKIPPED and row.last_error == "email address not verified"
    assert mail.outbox == []


def test_it_records_which_moves_a_turn_email_reports(anna, ben, carla):
    game = new_game(anna, ben, carla)
    play_until(game, second_turn_of(anna))
    row = outbox.notify(anna, "your_turn", game=game, key="your_turn:window")
    anna_moves = game.moves.filter(seat=seat_of(game, anna)).order_by("-seq")
    assert row.context == {
        "since": anna_moves.first().seq,
        "upto": game.moves.order_by("-seq").first().seq,
    }
    assert row.context["since"] < row.context["upto"]


# --- sending once ---------------------------------------------------------------------------


def test_it_sends_a_notification_once_when_the_task_runs_twice(
    game, django_capture_on_commit_callbacks
):
    row = notify_turn(game, acting_user(game), django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1
    assert tasks.send_notification.delay(row.pk).get() == "not claimed"
    tasks.send_notification(row.pk)
    assert len(mail.outbox) == 1
    row.refresh_from_db()
    assert row.status == Status.SENT and row.attempts == 1


def test_it_lets_only_one_of_two_racing_claims_win(game):
    row = pending_row(acting_user(game), game)
    first, second = outbox.claim(row.pk), outbox.claim(row.pk)
    assert first is not None and first.status == Status.SENDING and first.attempts == 1
    assert second is None


def test_it_does_not_send_twice_when_a_second_worker_runs_the_task_mid_send(game):
    """Two workers with the same task (a redelivered message): the one that runs while the
    first is talking to the SMTP server finds the row claimed and does nothing."""
    row = pending_row(acting_user(game), game)
    second_worker = []

    class SlowBackend(LocmemBackend):
        def send_messages(self, messages):
            second_worker.append(tasks.send_notification(row.pk))
            return super().send_messages(messages)

    with mock.patch("notifications.emails.get_connection", return_value=SlowBackend()):
        assert tasks.send_notification(row.pk) == Status.SENT
    assert second_worker == ["not claimed"]
    assert len(mail.outbox) == 1


def test_it_retries_smtp_errors_with_backoff_then_sends_once(
    game, flaky_smtp, django_capture_on_commit_callbacks
):
    flaky_smtp.failures = 2
    row = notify_turn(game, acting_user(game), django_capture_on_commit_callbacks)
    row.refresh_from_db()
    assert row.status == Status.SENT
    assert row.attempts == 3
    assert len(mail.outbox) == 1
    # Eager tasks retry at once; a worker waits 30 s, 60 s, 120 s ... (at most 10 min).
    task = tasks.send_notification
    assert smtplib.SMTPException in task.autoretry_for and OSError in task.autoretry_for
    assert task.retry_backoff == 30 and task.retry_backoff_max == 600 and task.retry_jitter


def test_it_gives_up_after_the_last_attempt(
    game, flaky_smtp, settings, django_capture_on_commit_callbacks
):
    settings.NOTIFICATIONS_MAX_ATTEMPTS = 3
    flaky_smtp.failures = 100
    flaky_smtp.error = ConnectionRefusedError(111, "Connection refused")
    row = notify_turn(game, acting_user(game), django_capture_on_commit_callbacks)
    row.refresh_from_db()
    assert row.status == Status.FAILED
    assert row.attempts == 3
    assert "Connection refused" in row.last_error
    assert mail.outbox == []
    # A failed row is not picked up again.
    backdate(row, 30)
    Notification.objects.filter(pk=row.pk).update(claimed_at=timezone.now() - timedelta(hours=1))
    flaky_smtp.failures = 0
    tasks.send_pending()
    assert mail.outbox == []


def test_it_marks_a_row_failed_without_retrying_when_rendering_breaks(
    game, django_capture_on_commit_callbacks
):
    with mock.patch("notifications.emails.notification_message", side_effect=KeyError("oops")):
        row = notify_turn(game, acting_user(game), django_capture_on_commit_callbacks)  # no raise
    row.refresh_from_db()
    assert row.status == Status.FAILED and row.attempts == 1
    assert "KeyError" in row.last_error
    assert mail.outbox == []


# --- nothing lost ---------------------------------------------------------------------------


def test_it_sends_rows_left_pending_while_the_broker_was_down(
    game, django_capture_on_commit_callbacks, caplog
):
    user = acting_user(game)
    with mock.patch.object(
        tasks.send_notification, "delay", side_effect=OperationalError("broker down")
    ):
        row = notify_turn(game, user, django_capture_on_commit_callbacks)  # the move still commits
    assert "not queued" in caplog.text
    row.refresh_from_db()
    assert row.status == Status.PENDING and mail.outbox == []

    # Under a minute old, its task may still come; after that send_pending sends it, once.
    assert tasks.send_pending() == {"queued": 0, "stuck": 0}
    backdate(row, 2)
    assert tasks.send_pending() == {"queued": 1, "stuck": 0}
    assert tasks.send_pending() == {"queued": 0, "stuck": 0}
    row.refresh_from_db()
    assert row.status == Status.SENT
    assert [m.to for m in mail.outbox] == [[user.email]]


def test_it_leaves_a_row_whose_retry_is_waiting_to_that_retry(game):
    row = pending_row(acting_user(game), game, attempts=1, claimed_at=timezone.now())
    backdate(row, 5)
    assert tasks.send_pending()["queued"] == 0
    Notification.objects.filter(pk=row.pk).update(claimed_at=timezone.now() - timedelta(minutes=20))
    assert tasks.send_pending()["queued"] == 1  # the retry was lost too
    row.refresh_from_db()
    assert row.status == Status.SENT and row.attempts == 2
    assert len(mail.outbox) == 1


def test_it_marks_rows_stuck_in_sending_failed_instead_of_sending_them_again(game, caplog):
    row = pending_row(
        acting_user(game),
        game,
        status=Status.SENDING,
        attempts=1,
        claimed_at=timezone.now() - timedelta(minutes=16),
    )
    recent = pending_row(
        acting_user(game), game, kind="reminder", status=Status.SENDING, claimed_at=timezone.now()
    )
    assert tasks.send_pending() == {"queued": 0, "stuck": 1}
    row.refresh_from_db()
    recent.refresh_from_db()
    assert row.status == Status.FAILED and "stuck" in row.last_error
    assert recent.status == Status.SENDING
    assert f"[{row.pk}]" in caplog.text
    assert mail.outbox == []


# --- preferences ----------------------------------------------------------------------------


def switch(user, *cells: tuple[str, str], setting: str = "off") -> None:
    """Set cells of the player's preferences table (kind, channel) as the settings page does."""
    preferences.save(user, {cell: setting for cell in cells})


def test_it_honours_kinds_switched_off_by_email(game, django_capture_on_commit_callbacks):
    user = acting_user(game)
    switch(user, ("your_turn", "email"), ("game_over", "email"))
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        turn = outbox.notify(user, "your_turn", game=game, key="your_turn:never")
        over = outbox.notify(user, "game_over", game=game, key="game_over:never")
        timeout = outbox.notify(user, "timed_out", game=game, key="timed_out:still-on")
    assert len(callbacks) == 1
    assert {turn.status, over.status} == {Status.SKIPPED}
    assert turn.last_error == "switched off: your turn by email"
    timeout.refresh_from_db()
    assert timeout.status == Status.SENT
    assert [m.subject for m in mail.outbox] == [f"You ran out of time in Firenze Game {game.pk}"]


def test_it_honours_reminders_off_and_sends_them_when_on(game, django_capture_on_commit_callbacks):
    user = acting_user(game)
    switch(user, ("reminder", "email"))
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        off = outbox.notify(user, "reminder", game=game, key="reminder:off")
    assert off.status == Status.SKIPPED and off.last_error == "switched off: reminders by email"
    assert mail.outbox == []

    switch(user, ("reminder", "email"), setting="on")
    switch(user, ("your_turn", "email"))  # each kind has its own switch
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        on = outbox.notify(user, "reminder", game=game, key="reminder:on")
    on.refresh_from_db()
    assert on.status == Status.SENT
    assert [m.to for m in mail.outbox] == [[user.email]]


def test_it_checks_preferences_again_when_sending(game, django_capture_on_commit_callbacks):
    """A player who unsubscribes after the row was written gets nothing."""
    user = acting_user(game)
    row = pending_row(user, game)
    switch(user, ("your_turn", "email"))
    backdate(row, 2)
    tasks.send_pending()
    row.refresh_from_db()
    assert row.status == Status.SKIPPED
    assert mail.outbox == []


def test_it_skips_a_turn_email_the_player_has_already_answered(anna, ben, carla):
    game = new_game(anna, ben, carla)
    play_until(game, turn_of(anna))
    row = pending_row(anna, game)  # written, but its task was lost
    play_until(game, lambda g: not turn_of(anna)(g))  # Anna plays her turn
    backdate(row, 2)
    tasks.send_pending()
    row.refresh_from_db()
    assert row.status == Status.SKIPPED and row.last_error == "they have moved since"
    assert mail.outbox == []


def test_it_skips_an_invitation_to_a_game_that_has_started(anna, ben, carla):
    game = lobby.create_game(anna, num_players=2, auto_start=False)
    lobby.invite(game, anna, "Carla")
    row = Notification.objects.get(kind="invited", user=carla)
    lobby.join(game, ben)
    lobby.start(game, anna)
    backdate(row, 2)
    tasks.send_pending()
    row.refresh_from_db()
    assert row.status == Status.SKIPPED and row.last_error == "the game is no longer open"
    assert carla.email not in [m.to[0] for m in mail.outbox]


# --- daily digest ---------------------------------------------------------------------------


def test_it_collects_several_turns_into_one_daily_digest(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    switch(anna, ("your_turn", "email"), setting="daily")
    first = new_game(anna, ben, seed=1)
    second = new_game(carla, anna, seed=2)
    third = new_game(anna, carla, seed=3)
    for game in (first, second, third):
        play_until(game, second_turn_of(anna))
    rows = [notify_turn(game, anna, django_capture_on_commit_callbacks) for game in (first, second)]
    assert all(row.digest and row.status == Status.PENDING for row in rows)
    assert mail.outbox == []  # nothing right away
    # A turn Anna has played before the digest goes out is left out of it.
    stale = notify_turn(third, anna, django_capture_on_commit_callbacks)
    play_until(third, lambda g: not turn_of(anna)(g))
    # Other emails still go out right away.
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        outbox.notify(anna, "timed_out", game=first, key="timed_out:digest-test")
    assert len(mail.outbox) == 1
    mail.outbox.clear()

    assert tasks.send_pending()["queued"] == 0  # digest rows wait for the digest
    assert tasks.send_daily_digests()["digests"] == 1
    assert len(mail.outbox) == 1
    digest = mail.outbox[0]
    assert digest.to == [anna.email]
    assert digest.subject == "Firenze: it is your turn in 2 games"
    for game in (first, second):
        assert f"Game {game.pk}" in digest.body
        assert f"/email/play/{game.pk}/" in digest.body
    assert f"Game {third.pk}" not in digest.body
    assert "List-Unsubscribe" in digest.extra_headers
    statuses = dict(Notification.objects.filter(user=anna).values_list("pk", "status"))
    assert [statuses[row.pk] for row in rows] == [Status.SENT, Status.SENT]
    assert statuses[stale.pk] == Status.SKIPPED
    assert tasks.send_daily_digests()["digests"] == 0
    assert len(mail.outbox) == 1


def test_it_sends_one_digest_even_if_two_digest_tasks_run(
    anna, ben, django_capture_on_commit_callbacks
):
    switch(anna, ("your_turn", "email"), setting="daily")
    game = new_game(anna, ben)
    play_until(game, turn_of(anna))
    notify_turn(game, anna, django_capture_on_commit_callbacks)
    assert tasks.send_digest(anna.pk) == Status.SENT
    assert tasks.send_digest(anna.pk) == "nothing to send"
    assert len(mail.outbox) == 1


def test_it_retries_a_digest_after_an_smtp_error(
    anna, ben, flaky_smtp, django_capture_on_commit_callbacks
):
    switch(anna, ("your_turn", "email"), setting="daily")
    game = new_game(anna, ben)
    play_until(game, turn_of(anna))
    row = notify_turn(game, anna, django_capture_on_commit_callbacks)
    flaky_smtp.failures = 1
    tasks.send_daily_digests()
    row.refresh_from_db()
    assert row.status == Status.SENT and row.attempts == 2
    assert len(mail.outbox) == 1


# --- through the games code -----------------------------------------------------------------


def test_it_emails_the_next_player_when_a_move_ends_the_turn(
    anna, ben, django_capture_on_commit_callbacks
):
    game = new_game(anna, ben)
    mover, waiting = acting_user(game), next(u for u in (anna, ben) if u != acting_user(game))
    rng = random.Random(0)
    with django_capture_on_commit_callbacks(execute=True):
        while acting_user(game) == mover:
            play.submit_move(game.pk, mover, greedy(game.load_state(), rng), game.version)
            game.refresh_from_db()
    turn_emails = [m for m in mail.outbox if m.subject.startswith("Your turn")]
    assert [m.to for m in turn_emails] == [[waiting.email]]
    assert f"/games/{game.pk}/" in turn_emails[0].body
    assert Notification.objects.get(user=waiting, kind="your_turn").status == Status.SENT


# --- a real SMTP server ---------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TryAgainOnce:
    """An aiosmtpd handler that answers the first message with 451 (try again later)."""

    def __init__(self):
        self.calls = 0
        self.received = []

    async def handle_DATA(self, server, session, envelope):
        self.calls += 1
        if self.calls == 1:
            return "451 4.3.0 Try again later"
        self.received.append(envelope)
        return "250 OK"


def test_it_delivers_through_a_real_smtp_server_that_asks_to_try_again(
    game, settings, eager_retries, django_capture_on_commit_callbacks
):
    from aiosmtpd.controller import Controller

    handler = TryAgainOnce()
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        user = acting_user(game)
        row = notify_turn(game, user, django_capture_on_commit_callbacks)
    finally:
        controller.stop()
    row.refresh_from_db()
    assert row.status == Status.SENT and row.attempts == 2
    assert "451" in row.last_error  # kept: what delayed it
    assert len(handler.received) == 1
    envelope = handler.received[0]
    assert envelope.rcpt_tos == [user.email]
    raw = envelope.content.decode()
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in raw
    assert "multipart/alternative" in raw
