"""The outbox beyond email: the same events as webhook POSTs and Web Push messages.

``fan_out`` is called by outbox.notify inside the game's transaction: for each channel the
player set up and wants this kind of news on (notifications.preferences), it writes one outbox
row (a webhook row, and one push row per device), queued after commit like an email. The rows go
through the same claim / finish / release steps as emails (notifications.delivery), so each is
sent at most once; a request that may work later (timeout, 429, 5xx) is retried with the same
backoff, one that will not (4xx, a refused address) fails at once.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.utils import timezone, translation

from firenze_site.language import language_of_user
from notifications import outbox, preferences, push, safe_http, webhooks
from notifications.models import Notification, PushSubscription, Webhook

log = logging.getLogger(__name__)

Kind = Notification.Kind
Channel = Notification.Channel
Status = Notification.Status

# What may go out by webhook and push: game news (the preferences table decides) and the test.
FANNED_OUT = set(preferences.KIND_OF)
TEST_INTERVAL = timedelta(seconds=10)


def fan_out(
    user: Any, kind: str, *, game: Any, key: str, context: dict, cells: dict | None = None
) -> list[Notification]:
    rows: list[Notification] = []
    if kind not in FANNED_OUT:
        return rows
    if preferences.wants(user, kind, Channel.WEBHOOK, cells) and _active_webhook(user):
        rows.append(
            outbox.write(
                user,
                kind,
                key=f"{key}:webhook",
                channel=Channel.WEBHOOK,
                game=game,
                context=context,
            )
        )
    if preferences.wants(user, kind, Channel.PUSH, cells) and push.configured():
        for subscription in PushSubscription.objects.filter(user_id=user.pk):
            rows.append(
                outbox.write(
                    user,
                    kind,
                    key=f"{key}:push:{subscription.pk}",
                    channel=Channel.PUSH,
                    game=game,
                    context=context,
                    subscription=subscription,
                )
            )
    return rows


def _active_webhook(user: Any) -> bool:
    return Webhook.objects.filter(user_id=user.pk, active=True).exists()


def stale_reason(notification: Notification) -> str:
    """Why a webhook or push row should not go out any more (empty if it should)."""
    user, kind, channel = notification.user, notification.kind, notification.channel
    if not user.is_active:
        return "the account is closed"
    if channel == Channel.PUSH and (notification.subscription_id is None or not push.configured()):
        return "the device was removed"
    if channel == Channel.WEBHOOK and not _active_webhook(user):
        return "the webhook is switched off"
    reason = outbox.opt_out_reason(user, kind, channel)
    if reason:
        return reason
    return outbox.event_stale_reason(notification)


def deliver(notification: Notification) -> str:
    """Send one claimed webhook or push row (called by delivery.deliver)."""
    try:
        # Written in the player's language, whoever triggered it (like the emails).
        with translation.override(language_of_user(notification.user)):
            if notification.channel == Channel.WEBHOOK:
                webhooks.deliver(notification)
            else:
                push.deliver(notification)
    except push.Gone as exc:
        outbox.finish(notification, Status.SKIPPED, str(exc))
        return Status.SKIPPED
    except safe_http.GiveUp as exc:
        outbox.finish(notification, Status.FAILED, str(exc))
        return Status.FAILED
    except safe_http.RetryLater as exc:
        if notification.kind == Kind.TEST or notification.attempts >= _max_attempts():
            outbox.finish(notification, Status.FAILED, str(exc))
            return Status.FAILED
        outbox.release(notification, str(exc))
        raise  # the task retries with backoff
    except Exception as exc:
        outbox.finish(notification, Status.FAILED, f"{type(exc).__name__}: {exc}")
        raise
    outbox.finish(notification, Status.SENT)
    return Status.SENT


def _max_attempts() -> int:
    from notifications.delivery import max_attempts

    return max_attempts()


# --- the "send a test" buttons --------------------------------------------------------------


class TooSoon(Exception):
    pass


def send_test(user: Any, channel: str) -> list[Notification]:
    """Send a test to the player's webhook, or to each of their devices, now and through the
    outbox; the rows tell how it went (sent, or failed with the reason)."""
    from notifications import delivery

    recent = Notification.objects.filter(
        user_id=user.pk,
        kind=Kind.TEST,
        channel=channel,
        created__gte=timezone.now() - TEST_INTERVAL,
    )
    if recent.exists():
        raise TooSoon("A test was sent a moment ago; wait a few seconds before the next one.")
    stamp = timezone.now().strftime("%Y%m%d%H%M%S%f")
    key = f"test:{channel}:{user.pk}:{stamp}"
    if channel == Channel.WEBHOOK:
        rows = [outbox.write(user, Kind.TEST, key=key, channel=channel, queue=False)]
    else:
        rows = [
            outbox.write(
                user,
                Kind.TEST,
                key=f"{key}:{subscription.pk}",
                channel=channel,
                subscription=subscription,
                queue=False,
            )
            for subscription in PushSubscription.objects.filter(user_id=user.pk)
        ]
    for row in rows:
        delivery.deliver(row.pk)
        row.refresh_from_db()
    return rows
