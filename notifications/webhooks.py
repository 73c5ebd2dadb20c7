"""Webhooks: a player's URL that gets a POST for their turns, reminders, timeouts and results.

Three body formats: Discord (``content`` plus an embed linking the game; mentions switched off so
a name or a chat line cannot ping a whole server), Slack (``text`` in mrkdwn with the game as a
link; &, < and > escaped as Slack asks) and plain JSON ``{"text", "game", "url"}`` (plus
``title``, ``event`` and ``game_id`` for scripts).

Every failed request counts; WEBHOOK_MAX_FAILURES in a row switch the webhook off and the
player gets an email saying so. A success resets the count.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from notifications import notices, outbox, safe_http
from notifications.models import Notification, Webhook

log = logging.getLogger(__name__)

Format = Webhook.Format
DISCORD_COLOUR = 0x8E3A1F  # the site's red
DISCORD_CONTENT_MAX = 2000
SLACK_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def max_failures() -> int:
    return int(getattr(settings, "WEBHOOK_MAX_FAILURES", 10))


# --- bodies ---------------------------------------------------------------------------------


def body(format: str, notice: notices.Notice) -> dict[str, Any]:
    if format == Format.DISCORD:
        return {
            "username": settings.SITE_NAME,
            "content": notice.text[:DISCORD_CONTENT_MAX],
            "allowed_mentions": {"parse": []},
            "embeds": [
                {
                    "title": notice.title[:256],
                    "url": notice.url,
                    "description": gettext("Open %(title)s")
                    % {"title": notice.game_title or settings.SITE_NAME},
                    "color": DISCORD_COLOUR,
                }
            ],
        }
    if format == Format.SLACK:
        label = slack_escape(notice.game_title or settings.SITE_NAME)
        return {
            "text": f"{slack_escape(notice.text)} <{notice.url}|{label}>",
            "unfurl_links": False,
        }
    return {
        "text": notice.text,
        "game": notice.game_title,
        "url": notice.url,
        "title": notice.title,
        "event": notice.kind,
        "game_id": notice.game_id,
    }


def slack_escape(text: str) -> str:
    return "".join(SLACK_ESCAPES.get(character, character) for character in text)


# --- sending --------------------------------------------------------------------------------


def deliver(notification: Notification) -> None:
    """POST one row to the player's webhook; raises safe_http.RetryLater or GiveUp."""
    webhook = Webhook.objects.filter(user_id=notification.user_id).first()
    if webhook is None or not webhook.active:
        raise safe_http.GiveUp("no active webhook")
    payload = json.dumps(body(webhook.format, notices.for_notification(notification)))
    try:
        response = safe_http.post(
            webhook.url, payload.encode(), {"Content-Type": "application/json"}
        )
    except safe_http.GiveUp as exc:
        record_failure(webhook, str(exc))
        raise
    except safe_http.RetryLater as exc:
        record_failure(webhook, str(exc))
        raise
    if 200 <= response.status < 300:
        record_success(webhook)
        return
    error = f"{webhook.url.split('?')[0][:80]} answered {response.status} {response.reason}"
    record_failure(webhook, error)
    if response.status in (408, 425, 429) or response.status >= 500:
        raise safe_http.RetryLater(error)
    raise safe_http.GiveUp(error)


def record_success(webhook: Webhook) -> None:
    Webhook.objects.filter(pk=webhook.pk).update(
        failures=0, last_success_at=timezone.now(), last_error=""
    )


def record_failure(webhook: Webhook, error: str) -> None:
    """Count a failed request; the one that reaches the limit switches the webhook off (a
    conditional update, so two workers cannot both do it) and tells the player by email."""
    Webhook.objects.filter(pk=webhook.pk).update(failures=F("failures") + 1, last_error=error[:300])
    now = timezone.now()
    with transaction.atomic():
        switched = Webhook.objects.filter(
            pk=webhook.pk, active=True, failures__gte=max_failures()
        ).update(active=False, disabled_at=now)
        if switched:
            log.warning(
                "webhook %s of user %s switched off: %s", webhook.pk, webhook.user_id, error
            )
            outbox.notify(
                webhook.user,
                Notification.Kind.WEBHOOK_OFF,
                key=f"webhook_off:{webhook.pk}:{int(now.timestamp())}",
                context={"error": error[:300], "failures": max_failures()},
            )
