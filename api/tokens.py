"""Making, finding and revoking personal API tokens.

A token reads ``fz_<key id>_<secret>``: the key id finds the row (unique index), the SHA-256
of the whole token is compared in constant time. ``last_used_at`` is written at most once a
minute per token (a conditional update), so a busy bot does not write a row per request.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from api.models import ApiToken
from games.errors import RequestRefused

PREFIX = "fz"
MAX_TOKENS = 20  # active tokens per account
TOUCH_EVERY = timedelta(minutes=1)
_SHAPE = re.compile(r"\Afz_([0-9a-f]{12})_([A-Za-z0-9_-]{32,64})\Z")
# token_id: a token was revoked (the live streams it opened end; streams.publish listens).
revoked = Signal()


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    secret: str  # the whole token: shown once, never stored


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def create(user: Any, name: str, scope: str) -> NewToken:
    """A new token for ``user``; RequestRefused past MAX_TOKENS active ones."""
    with transaction.atomic():
        active = ApiToken.objects.select_for_update().filter(user=user, revoked_at=None)
        if len(active) >= MAX_TOKENS:
            raise RequestRefused(
                _("You have %(count)s tokens; revoke one before making another.")
                % {"count": MAX_TOKENS}
            )
        key_id = secrets.token_hex(6)
        secret = f"{PREFIX}_{key_id}_{secrets.token_urlsafe(32)}"
        token = ApiToken.objects.create(
            user=user, name=name, scope=scope, key_id=key_id, key_hash=digest(secret)
        )
    return NewToken(token, secret)


def find(raw: str) -> ApiToken | None:
    """The active token this string is, with its (active) user; None for anything else."""
    match = _SHAPE.match(raw or "")
    if match is None:
        return None
    token = ApiToken.objects.select_related("user").filter(key_id=match.group(1)).first()
    if token is None or not constant_time_compare(token.key_hash, digest(raw)):
        return None
    if token.revoked_at is not None or not token.user.is_active:
        return None
    return token


def touch(token: ApiToken) -> None:
    """Note that the token was used (at most once per TOUCH_EVERY)."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < TOUCH_EVERY:
        return
    ApiToken.objects.filter(pk=token.pk).exclude(last_used_at__gt=now - TOUCH_EVERY).update(
        last_used_at=now
    )
    token.last_used_at = now


def revoke(user: Any, token_id: int) -> bool:
    """Revoke one of the user's tokens; False if there is no such active token."""
    done = bool(
        ApiToken.objects.filter(pk=token_id, user=user, revoked_at=None).update(
            revoked_at=timezone.now()
        )
    )
    if done:
        revoked.send(ApiToken, token_id=token_id)
    return done


def find_by_id(token_id: int) -> ApiToken | None:
    """The token if it is still active (an open stream asks now and then)."""
    return (
        ApiToken.objects.select_related("user")
        .filter(pk=token_id, revoked_at=None, user__is_active=True)
        .first()
    )
