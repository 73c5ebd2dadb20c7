"""Rate limits of following, blocking and setting a table's requirements: counted like the
invitations (allauth's limiter, ACCOUNT_RATE_LIMITS in settings)."""

from __future__ import annotations

from allauth.core import ratelimit
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "follow": _("You have followed many players in a short time; wait a while before the next."),
    "block": _("You have blocked many players in a short time; wait a while before the next."),
    "requirements": _("You have changed this many times in a short time; try again later."),
}


class TooMany(Exception):
    status = 429

    def __init__(self, action: str) -> None:
        super().__init__(action)
        self.message = str(MESSAGES[action])


def check(request: HttpRequest, action: str) -> None:
    if not ratelimit.consume(request, action=action, user=request.user):
        raise TooMany(action)
