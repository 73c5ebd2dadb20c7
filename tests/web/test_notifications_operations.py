"""What the operator sees of emails: failures are recorded with their reason (never resent:
email is at most once), filtered in the admin and listed by ``manage.py email_report``; old
outbox rows and sign-in links are deleted by the nightly retention task."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from notifications import links, tasks
from notifications.models import LoginToken, Notification
from tests.factories import UserFactory
from tests.web import test_notifications as base
from tests.web.test_notifications import acting_user, backdate, notify_turn, pending_row

pytestmark = pytest.mark.django_db
Status, Failure = Notification.Status, Notification.Failure
# The outbox tests' fixtures: a three-player game, an SMTP server that fails on demand.
game = base.game
flaky_smtp = base.flaky_smtp


def stuck_row(game):
    return pending_row(
        acting_user(game),
        game,
        status=Status.SENDING,
        attempts=1,
        claimed_at=timezone.now() - timedelta(minutes=16),
    )


def report(*args) -> str:
    out = StringIO()
    call_command("email_report", *args, stdout=out)
    return out.getvalue()


def test_it_records_why_an_email_failed_and_when(
    game, flaky_smtp, settings, django_capture_on_commit_callbacks
):
    settings.NOTIFICATIONS_MAX_ATTEMPTS = 2
    flaky_smtp.failures = 100
    smtp = notify_turn(game, acting_user(game), django_capture_on_commit_callbacks)
    stuck = stuck_row(game)
    tasks.send_pending()

    smtp.refresh_from_db()
    stuck.refresh_from_db()
    assert (smtp.status, smtp.failure) == (Status.FAILED, Failure.SMTP)
    assert (stuck.status, stuck.failure) == (Status.FAILED, Failure.STUCK)
    assert smtp.failed_at and stuck.failed_at


def test_the_report_counts_emails_and_lists_each_failure(game):
    stuck = stuck_row(game)
    tasks.send_pending()
    pending_row(acting_user(game), game, kind="reminder", status=Status.SENT)

    text = report("--days", "2")

    assert "Sent     1" in text and "Failed   1" in text
    assert f"#{stuck.pk}" in text
    assert "Worker stopped mid-send (delivery unknown)" in text
    assert "not sent again: email is at most once" in text
    with pytest.raises(CommandError, match="1 emails failed"):
        report("--fail-on-failures")


def test_the_report_says_so_when_nothing_failed():
    assert "No email failed." in report()
    with pytest.raises(CommandError):
        report("--days", "0")


def test_the_admin_filters_the_outbox_by_failure(game):
    stuck = stuck_row(game)
    tasks.send_pending()
    pending_row(acting_user(game), game, kind="reminder", status=Status.SENT)
    admin = Client()
    admin.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))

    page = admin.get("/admin/notifications/notification/?failure=stuck").content.decode()

    assert "Worker stopped mid-send (delivery unknown)" in page
    assert f"/admin/notifications/notification/{stuck.pk}/change/" in page
    results = page.split('id="result_list"')[1].split("</table>")[0]
    assert f"/admin/notifications/notification/{stuck.pk}/change/" in results
    assert "Reminder" not in results


def test_retention_deletes_old_finished_rows_and_spent_sign_in_links(game, settings):
    settings.NOTIFICATIONS_RETENTION_DAYS = 30
    user = acting_user(game)
    old_sent = pending_row(user, game, status=Status.SENT)
    old_pending = pending_row(user, game, kind="reminder")
    recent = pending_row(user, game, kind="game_over", status=Status.SENT)
    for row in (old_sent, old_pending):
        backdate(row, 31 * 24 * 60)
    links.login_url(user, game)
    links.login_url(user, game)
    expired, live = LoginToken.objects.order_by("created")
    LoginToken.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(days=2))

    assert tasks.purge_old_rows() == {"notifications": 1, "sign_in_links": 1}

    assert set(Notification.objects.values_list("pk", flat=True)) == {old_pending.pk, recent.pk}
    assert list(LoginToken.objects.values_list("pk", flat=True)) == [live.pk]


def test_retention_runs_nightly_from_beat(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["notifications-purge"]
    assert entry["task"] == "notifications.tasks.purge_old_rows"
