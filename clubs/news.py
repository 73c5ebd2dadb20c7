"""What players hear about a club's door, through the notifications outbox (email, webhook,
push, each as the player's preferences say for invitations, in the player's language).

Called inside the transaction that wrote the door entry; the outbox sends after commit. Each
key names the door entry, so a double click tells nobody twice. A block either way between the
two players keeps the news from the other one, silently (the caller's answer is unchanged).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from clubs.models import Club, DoorEntry, Membership
from community.social import is_blocked_between
from notifications import outbox

KIND = outbox.Kind.CLUB


def invited(entry: DoorEntry, by: Any) -> None:
    """An admin invited a player: the player hears it."""
    club = entry.club
    context = {
        "event": "invited",
        "club": club.name,
        "by": by.public_name,
        "url": reverse("clubs:detail", args=[club.slug]),
    }
    outbox.notify(entry.user, KIND, key=f"club:invited:{entry.pk}", context=context)


def asked(club: Club, entry: DoorEntry, player: Any) -> None:
    """A player asked to join a club by invitation: each of its admins hears it, but for an
    admin with a block either way between them."""
    context = {
        "event": "asked",
        "club": club.name,
        "by": player.public_name,
        "url": reverse("clubs:members", args=[club.slug]),
    }
    admins = Membership.objects.filter(club=club, role=Membership.Role.ADMIN).select_related("user")
    for admin in admins:
        if is_blocked_between(admin.user, player):
            continue
        key = f"club:asked:{entry.pk}:{admin.user_id}"
        outbox.notify(admin.user, KIND, key=key, context=context)
