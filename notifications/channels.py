"""The outbox beyond email: webhook POSTs and Web Push messages.

outbox.fan_out writes the rows inside the game's transaction, queued after commit like an email.
The rows go through the same claim / finish / release steps as emails (notifications.delivery),
so each is sent at most once; a request that may work later (timeout, 429, 5xx) is retried with
the same backoff, one that will not (4xx, a refused address) fails at once. Every request runs
in a Celery worker, never in a web request, and is over within its deadline (safe_http).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from firenze_site.language import language_of_user
from notifications import outbox, push, safe_http, webhooks
from notifications.models import Notification, PushSubscription

log = logging.getLogger(__name__)

Kind = Notification.Kind
Channel = Notification.Channel
Status = Notification.Status

TEST_INTERVAL = timedelta(seconds=10)
TOO_SOON = _("A test was sent a moment ago; wait a few seconds before the next one.")


def stale_reason(notification: Notification) -> str:
    """Why a webhook or push row should not go out any more (empty if it should)."""
    user, kind, channel = notification.user, notification.kind, notification.channel
    if not user.is_active:
        return "the account is closed"
    if channel == Channel.PUSH and (notification.subscription_id is None or not push.configured()):
        return "the device was removed"
    if channel == Channel.WEBHOOK and not outbox.active_webhook(user):
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
        if notification.kind == Kind.TEST or notification.attempts >= outbox.max_attempts():
            outbox.finish(notification, Status.FAILED, str(exc))
            return Status.FAILED
        outbox.release(notification, str(exc))
        raise  # the task retries with backoff
    except Exception as exc:
        outbox.finish(notification, Status.FAILED, f"{type(exc).__name__}: {exc}")
        raise
    outbox.finish(notification, Status.SENT)
    return Status.SENT


# --- the "send a test" buttons --------------------------------------------------------------


class TooSoon(Exception):
    pass


def send_test(user: Any, channel: str) -> list[Notification]:
    """Queue a test to the player's webhook, or to each of their devices, through the outbox:
    a worker sends it once the caller's transaction commits, and the rows tell how it went
    (pending until then; sent, or failed with the reason). Nothing is sent from here."""
    recent = Notification.objects.filter(
        user_id=user.pk,
        kind=Kind.TEST,
        channel=channel,
        created__gte=timezone.now() - TEST_INTERVAL,
    )
    if recent.exists():
        raise TooSoon(str(TOO_SOON))
    stamp = timezone.now().strftime("%Y%m%d%H%M%S%f")
    key = f"test:{channel}:{user.pk}:{stamp}"
    if channel == Channel.WEBHOOK:
        return [outbox.write(user, Kind.TEST, key=key, channel=channel)]
    return [
        outbox.write(
            user,
            Kind.TEST,
            key=f"{key}:{subscription.pk}",
            channel=channel,
            subscription=subscription,
        )
        for subscription in PushSubscription.objects.filter(user_id=user.pk)
    ]


def latest_tests(user: Any) -> dict[str, list[Notification]]:
    """The rows of the player's latest test per channel (one per device for push), for the
    settings page to show how it went."""
    found: dict[str, list[Notification]] = {}
    for channel in (Channel.WEBHOOK, Channel.PUSH):
        last = (
            Notification.objects.filter(user_id=user.pk, kind=Kind.TEST, channel=channel)
            .order_by("-created", "-pk")
            .first()
        )
        if last is None:
            continue
        batch = last.dedupe_key.rsplit(":", 1)[0] if channel == Channel.PUSH else last.dedupe_key
        rows = Notification.objects.filter(
            user_id=user.pk, kind=Kind.TEST, channel=channel, dedupe_key__startswith=batch
        ).select_related("subscription")
        found[channel] = list(rows.order_by("pk")) if channel == Channel.PUSH else [last]
    return found
