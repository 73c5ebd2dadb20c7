"""Rate limits of founding clubs, joining, inviting and challenging: counted like the games'
invitations (allauth's limiter, ACCOUNT_RATE_LIMITS in settings)."""

from __future__ import annotations

from allauth.core import ratelimit
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "club_found": _("You have founded several clubs today; wait a day before the next."),
    "club_join": _("You have joined many clubs in a short time; wait a while before the next."),
    "club_invite": _("You have invited many players in a short time; wait a while."),
    "club_challenge": _("You have challenged many players in a short time; wait a while."),
    "create_tournament": _(
        "You have created many tournaments in a short time; wait a while before the next."
    ),
}


class TooMany(Exception):
    status = 429

    def __init__(self, action: str) -> None:
        super().__init__(action)
        self.message = str(MESSAGES[action])


def check(request: HttpRequest, action: str) -> None:
    if not ratelimit.consume(request, action=action, user=request.user):
        raise TooMany(action)
