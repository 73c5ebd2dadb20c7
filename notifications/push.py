"""Web Push: "Your turn in Game 12" on a player's phone or desktop, through their browser's push
service, encrypted to the device (RFC 8291, aes128gcm) and signed with our VAPID key (RFC 8292).

pywebpush does the encryption (http_ece) and the VAPID header (py_vapid); the request itself goes
through notifications.safe_http, like webhooks, because the endpoint URL comes from the browser
and so, in the end, from whoever posts to our subscribe view.

The VAPID key comes from the environment (WEBPUSH_VAPID_PRIVATE_KEY: the raw 32-byte key in
base64url, or a DER key in base64; WEBPUSH_VAPID_SUBJECT: a mailto: or https: contact). Without
it push is simply off: the preferences page says so and no push rows are written.
"""

from __future__ import annotations

import base64
import json
from functools import lru_cache
from typing import Any

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from games.listings import waiting_seats
from notifications import notices, safe_http
from notifications.models import Notification, PushSubscription

# How long a push service keeps a message for a device that is offline (seconds).
TTL: dict[str, int] = {
    Notification.Kind.YOUR_TURN: 24 * 3600,
    Notification.Kind.REMINDER: 6 * 3600,
    Notification.Kind.NEW_MESSAGES: 6 * 3600,
}
DEFAULT_TTL = 24 * 3600


class Gone(safe_http.GiveUp):
    """The push service no longer knows this device (404/410): the subscription is removed."""


def configured() -> bool:
    return bool(getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", ""))


@lru_cache(maxsize=4)
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key=private_key)


def vapid() -> Vapid:
    return _vapid(settings.WEBPUSH_VAPID_PRIVATE_KEY)


def public_key() -> str:
    """The applicationServerKey a browser subscribes with: the uncompressed P-256 point."""
    raw = vapid().public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def subject() -> str:
    return getattr(settings, "WEBPUSH_VAPID_SUBJECT", "") or "mailto:noreply@localhost"


def payload(notice: notices.Notice, *, badge: int) -> dict[str, Any]:
    """What the service worker (static/js/sw.js) shows: title, body, where a click goes; and
    the app badge, the number of games waiting for the player's move, which the worker sets on
    the installed app's icon even while none of its pages is open."""
    return {
        "title": notice.title,
        "body": notice.text,
        "url": notice.url,
        "tag": notice.tag,
        "kind": notice.kind,
        "badge": badge,
    }


def message(notification: Notification) -> dict[str, Any]:
    """The push for one outbox row, counted when it is sent (the move it tells of committed)."""
    notice = notices.for_notification(notification)
    return payload(notice, badge=waiting_seats(notification.user).count())


class _GuardedSession:
    """What pywebpush calls ``requests_session``: only ``post`` is used; ours goes through
    safe_http (address checks, pinned connection) and answers like a requests.Response."""

    def post(self, endpoint: str, *, data: bytes, headers: Any, timeout: Any = None, **_: Any):
        return _Answer(safe_http.post(endpoint, data or b"", dict(headers)))


class _Answer:
    def __init__(self, response: safe_http.Response) -> None:
        self.status_code = response.status
        self.reason = response.reason
        self.text = response.text
        self.headers = response.headers


def send(subscription: PushSubscription, message: dict[str, Any], *, ttl: int) -> None:
    """Encrypt and send; raises Gone, safe_http.GiveUp or safe_http.RetryLater."""
    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        webpush(
            info,
            data=json.dumps(message),
            vapid_private_key=vapid(),
            vapid_claims={"sub": subject()},
            ttl=ttl,
            headers={"Topic": message.get("tag", "firenze")[:32]},
            requests_session=_GuardedSession(),
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status is not None and 200 <= status < 300:
            return  # pywebpush counts only 200-202 as success; any 2xx is one
        if status in (404, 410):
            raise Gone(f"the push service forgot this device ({status})") from None
        if status is None or status in (408, 425, 429) or status >= 500:
            raise safe_http.RetryLater(f"push service answered {status}") from None
        raise safe_http.GiveUp(f"push service answered {status}") from None


def deliver(notification: Notification) -> None:
    subscription = notification.subscription
    if subscription is None:
        raise Gone("the device was removed")
    try:
        send(subscription, message(notification), ttl=TTL.get(notification.kind, DEFAULT_TTL))
    except Gone:
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        raise
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=timezone.now())
