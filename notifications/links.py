"""Signed links in emails: one-click unsubscribe (per kind of email), and the single-use sign-in
link to a game.

Both are signed with django.core.signing (SECRET_KEY, one salt per purpose) and carry a
timestamp. The unsubscribe link never expires (it must work in old emails too). The sign-in
link carries the id of a LoginToken row: the signature proves we made it, its age is checked
against NOTIFICATIONS_LOGIN_LINK_MAX_AGE, the row's ``used_at`` makes it single-use, and its
``fingerprint`` (an HMAC of the password hash and the email addresses, as Django's password
reset tokens do) voids every unused link once the password or an address changes.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import ngettext

from notifications.models import LoginToken

# Set in the session a sign-in link opened (notifications.views): it may play, but sees no
# secret of the account (a webhook's URL) until the password is given again.
LINK_SESSION = "firenze_signed_in_by_email_link"
UNSUBSCRIBE_SALT = "notifications.unsubscribe"
LOGIN_SALT = "notifications.login-link"
# Mail scanners follow links within moments of delivery; older links are opened by people, so
# their confirmation pages may submit themselves (see views).
SCANNER_WINDOW = 300


def sees_secrets(request: Any) -> bool:
    """A session opened with the password, or one from a sign-in link that has given the
    password again in the last minutes (allauth's reauthentication)."""
    from allauth.account.internal.flows.reauthentication import did_recently_reauthenticate

    if not request.session.get(LINK_SESSION):
        return True
    return did_recently_reauthenticate(request)


def masked_url(url: str) -> str:
    """What a session that may not see a webhook's URL is shown of it: scheme and host."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.hostname}/…"
    except ValueError:
        return "…"


def absolute(path: str) -> str:
    return f"{settings.SITE_URL.rstrip('/')}{path}"


def game_url(game: Any) -> str:
    return absolute(reverse("games:detail", args=[game.pk]))


def _is_fresh(signer: signing.TimestampSigner, value: str) -> bool:
    try:
        signer.unsign(value, max_age=SCANNER_WINDOW)
    except signing.SignatureExpired:
        return False
    return True


# --- unsubscribe ----------------------------------------------------------------------------


def unsubscribe_token(user: Any, kind: str | None = None) -> str:
    """Signs the user id, and the kind of email (a row of the preferences table) if given."""
    value = f"{user.pk}:{kind}" if kind else str(user.pk)
    return signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).sign(value)


def unsubscribe_url(user: Any, kind: str | None = None) -> str:
    return absolute(reverse("notifications:unsubscribe", args=[unsubscribe_token(user, kind)]))


def read_unsubscribe_token(token: str) -> tuple[int, str | None, bool]:
    """The user id and kind (None: every kind, as links from before the preferences table
    said) in a valid token, and whether the link is only minutes old; raises
    signing.BadSignature for anything we did not sign."""
    from notifications.preferences import KIND_LABELS

    signer = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT)
    value = signer.unsign(token)
    user_id, _, kind = value.partition(":")
    if not user_id.isdigit() or (kind and kind not in KIND_LABELS):
        raise signing.BadSignature("not a user id and kind")
    return int(user_id), kind or None, _is_fresh(signer, token)


# --- sign-in link ---------------------------------------------------------------------------


def login_max_age() -> int:
    return int(getattr(settings, "NOTIFICATIONS_LOGIN_LINK_MAX_AGE", 3 * 24 * 3600))


def login_validity() -> str:
    """How long a sign-in link works, in words ("3 days", "12 hours")."""
    hours = max(1, login_max_age() // 3600)
    if hours % 24 == 0:
        days = hours // 24
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}


def account_fingerprint(user: Any) -> str:
    """Changes whenever the password or any of the account's email addresses does."""
    from allauth.account.models import EmailAddress

    addresses = sorted(
        f"{address}:{verified}"
        for address, verified in EmailAddress.objects.filter(user=user).values_list(
            "email", "verified"
        )
    )
    value = "|".join([user.password or "", user.email or "", *addresses])
    return salted_hmac(f"{LOGIN_SALT}.fingerprint", value, algorithm="sha256").hexdigest()


def fingerprint_matches(token: LoginToken) -> bool:
    return bool(token.fingerprint) and constant_time_compare(
        token.fingerprint, account_fingerprint(token.user)
    )


def login_url(user: Any, game: Any) -> str:
    """A new single-use link that signs ``user`` in and opens ``game``."""
    token = LoginToken.objects.create(
        user=user,
        game=game,
        expires_at=timezone.now() + timedelta(seconds=login_max_age()),
        fingerprint=account_fingerprint(user),
    )
    signed = signing.TimestampSigner(salt=LOGIN_SALT).sign(token.pk.hex)
    return absolute(reverse("notifications:login", args=[game.pk, signed]))


def read_login_token(value: str, game_id: int) -> tuple[LoginToken | None, bool]:
    """The LoginToken a link names (used or not) if its signature is ours, it is not too old
    and it belongs to this game; plus whether the link is only minutes old."""
    signer = signing.TimestampSigner(salt=LOGIN_SALT)
    try:
        raw = signer.unsign(value[:200], max_age=login_max_age())
        token_id = uuid.UUID(hex=raw)
    except (signing.BadSignature, ValueError):
        return None, False
    token = (
        LoginToken.objects.select_related("user")
        .filter(pk=token_id, game_id=game_id, expires_at__gt=timezone.now())
        .first()
    )
    return token, _is_fresh(signer, value)


def use_login_token(token: LoginToken) -> bool:
    """Mark the link used; True only for the one request that did."""
    now = timezone.now()
    return bool(
        LoginToken.objects.filter(pk=token.pk, used_at__isnull=True, expires_at__gt=now).update(
            used_at=now
        )
    )
