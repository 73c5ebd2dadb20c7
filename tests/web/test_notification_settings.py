"""The preferences table (kinds x channels) on the notification settings page, its defaults,
what the outbox makes of it, the migration of the old email choices, and hostile posts."""

from __future__ import annotations

import re

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notifications import outbox, preferences
from notifications.forms import cell_name
from notifications.models import Notification, Preference
from tests.web.helpers import signed_in
from tests.web.test_notifications import acting_user, new_game

pytestmark = pytest.mark.django_db

PAGE = "/accounts/notifications/"


def checked(page: str) -> set[str]:
    """The names of the ticked boxes of the table."""
    boxes = re.findall(r'<input type="checkbox" name="([a-z_]+__[a-z]+)"[^>]*?( checked)?>', page)
    return {name for name, ticked in boxes if ticked}


def table_post(**changes) -> dict[str, str]:
    """A full post of the form as a browser sends it: the default ticks, changed by
    ``changes`` (cell name -> bool), and the turn timing."""
    data = {
        cell_name(kind, channel): "on"
        for (kind, channel), value in preferences.DEFAULTS.items()
        if value != "off"
    }
    for name, on in changes.items():
        if name == "turn_email_timing":
            continue
        if on:
            data[name] = "on"
        else:
            data.pop(name, None)
    data["turn_email_timing"] = changes.get("turn_email_timing", "on")
    return data


def test_it_shows_the_table_with_sensible_defaults(anna):
    page = signed_in(anna).get(PAGE).content.decode()
    kinds = ["your_turn", "reminder", "timeout", "game_over", "invitations", "tournaments"]
    expected = {cell_name(k, c) for k in kinds for c in ("email", "webhook", "push")}
    assert checked(page) == expected  # everything but new messages
    labels = ("Your turn", "Reminders", "Timeouts", "Game over", "New messages", "Invitations")
    for label in (*labels, "Tournaments"):
        assert f'<th scope="row" class="prefs-kind">{label}<small>' in page
    assert re.search(r'<input type="radio" name="turn_email_timing" value="on"[^>]*checked', page)
    assert '<span class="vh">Your turn by email</span>' in page  # every box has a label


def test_it_saves_the_table_and_the_outbox_follows_it(
    anna, ben, django_capture_on_commit_callbacks
):
    client = signed_in(anna)
    data = table_post(reminder__push=False, new_messages__email=True, turn_email_timing="daily")
    answer = client.post(reverse("notification_settings:save"), data)
    assert answer.status_code == 302
    cells = preferences.table(anna)
    assert cells["reminder", "push"] == "off"
    assert cells["new_messages", "email"] == "on"
    assert cells["your_turn", "email"] == "daily"
    page = client.get(PAGE).content.decode()
    assert "Your notification preferences are saved." in page
    assert "reminder__push" not in checked(page) and "new_messages__email" in checked(page)
    assert re.search(
        r'<input type="radio" name="turn_email_timing" value="daily"[^>]*checked', page
    )

    game = new_game(anna, ben)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        row = outbox.notify(anna, "your_turn", game=game, key="your_turn:table")
    assert row.digest and row.status == Notification.Status.PENDING  # waits for the digest


def test_it_turns_a_kind_off_for_email_without_touching_the_others(anna, ben):
    signed_in(anna).post(reverse("notification_settings:save"), table_post(game_over__email=False))
    game = new_game(anna, ben)
    over = outbox.notify(anna, "game_over", game=game, key="over")
    started = outbox.notify(anna, "game_started", game=game, key="started")
    assert over.status == Notification.Status.SKIPPED
    assert started.status == Notification.Status.PENDING


def test_it_refuses_a_daily_digest_of_anything_but_turn_emails(anna):
    with pytest.raises(ValueError, match="Only your-turn emails come as a daily digest"):
        preferences.save(anna, {("reminder", "email"): "daily"})
    with pytest.raises(ValueError, match="No preference 'chess'"):
        preferences.save(anna, {("chess", "email"): "on"})


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.dictionaries(
        st.sampled_from(
            [
                "turn_email_timing",
                "your_turn__email",
                "url",
                "format",
                "endpoint",
                "p256dh",
                "auth",
                "reminder__push",
                "kind",
                "text",
                "game",
            ]
        ),
        st.one_of(st.text(max_size=300), st.sampled_from(["on", "daily", "https://x.y/", "1"])),
    )
)
def test_it_never_answers_500_to_whatever_the_settings_forms_get(anna, data):
    client = signed_in(anna)
    for name in ("save", "webhook", "subscribe", "unsubscribe", "webhook_test", "push_test"):
        answer = client.post(reverse(f"notification_settings:{name}"), data)
        assert answer.status_code in (200, 302, 400, 409), (name, answer.status_code)


# --- the migration of the old email choices -------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_it_carries_the_old_email_choices_over_to_the_table():
    executor = MigrationExecutor(connection)
    before = [
        ("accounts", "0002_email_preferences"),
        ("notifications", "0002_webhooks_push_and_preferences"),
    ]
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate(before)
        old = MigrationExecutor(connection).loader.project_state(before).apps
        User = old.get_model("accounts", "User")
        for name, turn_emails, reminders in [
            ("immediate", "immediate", True),
            ("daily", "daily", True),
            ("never", "never", True),
            ("quiet", "immediate", False),
        ]:
            User.objects.create(username=name, turn_emails=turn_emails, reminders=reminders)
        MigrationExecutor(connection).migrate(latest)
        rows = {
            (username, kind): setting
            for username, kind, setting in Preference.objects.values_list(
                "user__username", "kind", "setting"
            )
        }
        assert rows == {
            ("daily", "your_turn"): "daily",
            ("never", "your_turn"): "off",
            ("never", "timeout"): "off",
            ("never", "game_over"): "off",
            ("never", "invitations"): "off",
            ("quiet", "reminder"): "off",
        }
    finally:
        MigrationExecutor(connection).migrate(latest)


def test_it_has_emails_that_name_the_settings_page(anna, ben):
    from django.core import mail

    from notifications import tasks

    game = new_game(anna, ben)
    player = acting_user(game)
    row = outbox.notify(player, "reminder", game=game, key="reminder:page")
    tasks.send_notification(row.pk)
    assert "Notification preferences: http://localhost:8000/accounts/notifications/" in (
        mail.outbox[-1].body
    )
