"""Celery tasks that send the outbox (emails, webhooks, pushes): thin, take ids, retry with
backoff.

send_notification is queued by outbox.notify once the game's transaction commits;
send_pending (every minute) and send_daily_digests (once a day) run from Celery beat
(CELERY_BEAT_SCHEDULE in settings). The rules of sending live in notifications.delivery.
"""

from __future__ import annotations

from celery import shared_task

from notifications import delivery, morning

# Retries wait about 30 s, 1 min, 2 min... up to 10 min (with jitter); the row's attempts
# count (not the retry count) decides when to give up, so send_pending cannot reset it.
# One send is one SMTP conversation (EMAIL_TIMEOUT per step) or one request within its
# deadline (safe_http, 10 s): past the soft limit the row is marked failed with the reason
# (delivery), past the hard one the worker process is replaced and send_pending's sweep marks
# the row failed as stuck. Neither sends it twice.
RETRY = {
    "autoretry_for": delivery.RETRYABLE,
    "retry_backoff": 30,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 20,
    "acks_late": True,
    "soft_time_limit": 30,
    "time_limit": 45,
}


@shared_task(**RETRY)
def send_notification(notification_id: int) -> str:
    return delivery.deliver(notification_id)


@shared_task(**RETRY)
def send_digest(user_id: int) -> str:
    return delivery.deliver_digest(user_id)


@shared_task(**RETRY)
def send_address_invitation(invitation_id: int) -> str:
    return delivery.deliver_address_invitation(invitation_id)


@shared_task(soft_time_limit=60, time_limit=90)
def send_pending() -> dict[str, int]:
    """Periodic: send what was left pending (the broker was down at commit, a retry was lost)
    and give up on rows stuck in sending."""
    ids = delivery.pending_ids()
    for notification_id in ids:
        send_notification.delay(notification_id)
    return {"queued": len(ids), "stuck": delivery.fail_stuck()}


@shared_task(soft_time_limit=120, time_limit=180)
def send_daily_digests() -> dict[str, int]:
    """Daily: one digest per player with turns waiting."""
    user_ids = delivery.digest_user_ids()
    for user_id in user_ids:
        send_digest.delay(user_id)
    return {"digests": len(user_ids)}


@shared_task(soft_time_limit=120, time_limit=180)
def send_morning_summaries() -> dict[str, int]:
    """Every quarter hour: the summaries whose local hour has come (notifications.morning)."""
    user_ids = morning.due_user_ids()
    for user_id in user_ids:
        send_morning_summary.delay(user_id)
    return {"summaries": len(user_ids)}


@shared_task(soft_time_limit=30, time_limit=45)
def send_morning_summary(user_id: int) -> bool:
    """One player's summary; claimed for their local day before it is sent, so never twice
    (an SMTP failure loses that day's summary rather than risk a second one)."""
    return morning.send_summary(user_id)


@shared_task(soft_time_limit=300, time_limit=360)
def purge_old_rows() -> dict[str, int]:
    """Nightly retention: old outbox rows (NOTIFICATIONS_RETENTION_DAYS) and sign-in links a
    day past their expiry or use."""
    return {
        "notifications": delivery.delete_old_notifications(),
        "sign_in_links": delivery.delete_expired_login_tokens(),
    }
