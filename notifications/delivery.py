"""Sending outbox rows: what the Celery tasks in tasks.py do, kept out of them so they stay thin.

At most once: a row is sent only by the caller whose conditional UPDATE moved it from pending
to sending (outbox.claim). An SMTP error puts it back to pending and raises, so the task retries
with backoff; after NOTIFICATIONS_MAX_ATTEMPTS tries it is marked failed. Any other error marks
it failed at once: it is better to lose one email than to send it twice.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from notifications import channels, emails, outbox
from notifications.models import LoginToken, Notification
from notifications.safe_http import RetryLater

log = logging.getLogger(__name__)

Status = Notification.Status
SMTP_ERRORS = (smtplib.SMTPException, OSError)
# What the send tasks retry with backoff: SMTP errors, and webhook or push requests that may
# work later (a timeout, 429, 5xx).
RETRYABLE = (*SMTP_ERRORS, RetryLater)

# send_pending: rows older than this are assumed to have lost their task (default a minute,
# settings.NOTIFICATIONS_PENDING_AFTER_SECONDS)...
PENDING_AFTER = timedelta(minutes=1)
# ...unless a try in the last RETRY_GRACE may still have its retry waiting (backoff <= 10 min).
RETRY_GRACE = timedelta(minutes=15)
# A row in "sending" this long belongs to a worker that died mid-send: marked failed, not resent
# (settings.NOTIFICATIONS_STUCK_AFTER_SECONDS; at least the send tasks' hard time limit, after
# which no worker can still be sending it).
STUCK_AFTER = timedelta(minutes=15)
BATCH = 500


max_attempts = outbox.max_attempts


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def deliver(notification_id: int) -> str:
    """Send one immediate row if this caller claims it; returns what became of it."""
    notification = outbox.claim(notification_id)
    if notification is None:
        return "not claimed"
    by_email = notification.channel == Notification.Channel.EMAIL
    reason = (outbox if by_email else channels).stale_reason(notification)
    if reason:
        outbox.finish(notification, Status.SKIPPED, reason)
        return Status.SKIPPED
    if not by_email:
        return channels.deliver(notification)  # webhook or push
    return _send([notification], lambda: emails.notification_message(notification))


def deliver_digest(user_id: int) -> str:
    """Send one digest with every pending digest row of this player that this caller claims."""
    ids = Notification.objects.filter(
        user_id=user_id, status=Status.PENDING, digest=True
    ).values_list("pk", flat=True)
    claimed = [n for n in (outbox.claim(pk, digest=True) for pk in list(ids)) if n is not None]
    rows = []
    for notification in claimed:
        reason = outbox.stale_reason(notification)
        if reason:
            outbox.finish(notification, Status.SKIPPED, reason)
        else:
            rows.append(notification)
    if not rows:
        return "nothing to send"
    return _send(rows, lambda: emails.digest_message(rows[0].user, rows))


def _send(rows: list[Notification], build: Any) -> str:
    try:
        email = build()
        emails.send(email)
    except SMTP_ERRORS as exc:
        if max(row.attempts for row in rows) >= max_attempts():
            for row in rows:
                outbox.finish(row, Status.FAILED, _error(exc), Notification.Failure.SMTP)
            log.error("giving up on notifications %s: %s", [r.pk for r in rows], _error(exc))
            return Status.FAILED
        for row in rows:
            outbox.release(row, _error(exc))
        raise  # the task retries with backoff
    except Exception as exc:
        for row in rows:
            outbox.finish(row, Status.FAILED, _error(exc))
        raise
    for row in rows:
        outbox.finish(row, Status.SENT)
    return Status.SENT


def deliver_address_invitation(invitation_id: int) -> str:
    """Send the one email of an invitation to an address without an account.

    The invitation row is its own outbox row: whoever sets ``email_sent_at`` by a conditional
    UPDATE sends; an SMTP error clears it again and raises, so the task retries.
    """
    from games.models import Invitation

    claimed = Invitation.objects.filter(pk=invitation_id, email_sent_at=None).update(
        email_sent_at=timezone.now()
    )
    if not claimed:
        return "not claimed"
    invitation = (
        Invitation.objects.select_related("game", "invited_by").filter(pk=invitation_id).first()
    )
    if invitation is None or not invitation.game.is_open or invitation.user_id is not None:
        return Status.SKIPPED
    try:
        emails.send(emails.address_invitation_message(invitation))
    except SMTP_ERRORS:
        Invitation.objects.filter(pk=invitation_id).update(email_sent_at=None)
        raise
    return Status.SENT


def pending_after() -> timedelta:
    seconds = getattr(settings, "NOTIFICATIONS_PENDING_AFTER_SECONDS", None)
    return PENDING_AFTER if seconds is None else timedelta(seconds=float(seconds))


def pending_ids(now=None) -> list[int]:
    """Immediate rows that should have gone out by now and have no retry waiting."""
    now = now or timezone.now()
    rows = Notification.objects.filter(
        status=Status.PENDING, digest=False, created__lt=now - pending_after()
    ).filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - RETRY_GRACE))
    return list(rows.order_by("created").values_list("pk", flat=True)[:BATCH])


def stuck_after() -> timedelta:
    seconds = getattr(settings, "NOTIFICATIONS_STUCK_AFTER_SECONDS", None)
    return STUCK_AFTER if seconds is None else timedelta(seconds=float(seconds))


def fail_stuck(now=None) -> int:
    """Rows a worker claimed but never finished (it died mid-send, perhaps after sending):
    marked failed rather than sent again."""
    now = now or timezone.now()
    stuck = Notification.objects.filter(status=Status.SENDING, claimed_at__lt=now - stuck_after())
    ids = list(stuck.values_list("pk", flat=True)[:BATCH])
    if not ids:
        return 0
    count = Notification.objects.filter(pk__in=ids, status=Status.SENDING).update(
        status=Status.FAILED,
        last_error="stuck in sending: the worker stopped mid-send",
        failure=Notification.Failure.STUCK,
        failed_at=now,
    )
    log.error("notifications stuck in sending, marked failed (not resent): %s", ids)
    return count


def digest_user_ids() -> list[int]:
    pending = Notification.objects.filter(status=Status.PENDING, digest=True)
    return list(pending.values_list("user_id", flat=True).distinct().order_by("user_id"))


def delete_expired_login_tokens(now=None) -> int:
    """Sign-in links a day past their expiry or their use."""
    now = now or timezone.now()
    old = now - timedelta(days=1)
    deleted, _ = LoginToken.objects.filter(Q(expires_at__lt=old) | Q(used_at__lt=old)).delete()
    return deleted


def retention_days() -> int:
    return int(getattr(settings, "NOTIFICATIONS_RETENTION_DAYS", 90))


def delete_old_notifications(now=None) -> int:
    """Outbox rows that are done with (sent, skipped, failed) and older than the retention
    period; pending and sending rows are never deleted."""
    now = now or timezone.now()
    done = [Status.SENT, Status.SKIPPED, Status.FAILED]
    old = Notification.objects.filter(
        status__in=done, created__lt=now - timedelta(days=retention_days())
    )
    deleted, _ = old.delete()
    return deleted


def failure_report(since) -> dict[str, Any]:
    """What the operator needs to know about emails since ``since``: counts per status, and
    every failed row with its reason (manage.py email_report)."""
    from django.db.models import Count

    rows = Notification.objects.filter(created__gte=since)
    counts = dict(rows.values_list("status").annotate(n=Count("pk")).order_by())
    failed = rows.filter(status=Status.FAILED).select_related("user").order_by("failed_at", "pk")
    return {"counts": counts, "failed": list(failed)}
