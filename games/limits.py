"""Per-player rate limits of the games app: creating games, inviting, taking seats, moving,
absences (and the Strong bot's "what if" estimates, asked from a finished game's replay).

They are counted by allauth's limiter (the one that guards sign-in) in the shared cache, so
they hold across every worker process; the rates are ACCOUNT_RATE_LIMITS in settings, in its
``amount/period/per`` format. A refused request raises TooManyRequests with the player's
message and status 429.

While the shared cache is down a limit counts nothing (firenze_site/cache.py). The limits of
actions that send an email (SENDS_EMAIL) then refuse with 503 and "try again in a few minutes"
rather than let an inviter mail anyone without limit; moves and the rest go on.
"""

from __future__ import annotations

from typing import Any

from allauth.core import ratelimit
from allauth.core.internal import ratelimit as allauth_ratelimit
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from firenze_site import cache as shared_cache
from games.errors import GameError

MESSAGES = {
    "create_game": _("You have created many games in a short time; wait a while before the next."),
    "invite": _("You have sent many invitations in a short time; wait a while before the next."),
    "invite_pair": _("You have invited this player several times today; try again tomorrow."),
    "invite_email": _("You have invited many people by email today; try again tomorrow."),
    "join_game": _("You have taken many seats in a short time; wait a while before the next."),
    "move": _("That is a lot of moves in a short time; wait a moment and try again."),
    "away": _("You have changed your absences many times in a short time; try again later."),
    "profile": _("You have changed your account many times in a short time; try again later."),
    "what_if_estimate": _(
        "You have asked the Strong bot for many estimates in a short time; try again later."
    ),
}


# Actions that send an email: their limits fail closed while the shared cache is down.
SENDS_EMAIL = {"invite", "invite_pair", "invite_email"}


class TooManyRequests(GameError):
    status = 429


class Paused(GameError):
    status = 503


def check(request: HttpRequest, action: str, *, user: Any = None, key: str | None = None) -> None:
    """Count one ``action`` for the signed-in player (and ``key``); raise if over the limit,
    or if it sends an email and the limits cannot count right now."""
    if action in SENDS_EMAIL and not shared_cache.limits_hold():
        raise Paused(str(shared_cache.EMAILS_PAUSED))
    if not _consume(request, action, user or request.user, key):
        raise TooManyRequests(str(MESSAGES[action]))


def _consume(request: HttpRequest, action: str, user: Any, key: str | None) -> bool:
    """allauth's public limiter counts no GET: an ask made by a GET (the Strong bot's estimate,
    asked and polled by htmx) is counted through the call it wraps, told to count it."""
    if request.method != "GET":
        return ratelimit.consume(request, action=action, user=user, key=key)
    usage = allauth_ratelimit.consume(
        request, app="allauth.account", action=action, user=user, key=key, limit_get=True
    )
    return bool(usage)
