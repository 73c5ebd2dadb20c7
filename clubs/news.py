"""What players hear about a club's door, through the notifications outbox (email, webhook,
push, each as the player's preferences say for invitations, in the player's language).

Called inside the transaction that wrote the door entry; the outbox sends after commit. Each
key names the door entry, so a double click tells nobody twice. A block either way between the
two players keeps the news from the other one, silently (the caller's answer is unchanged).
News is checked again when it is sent (stale_reason): an invitation or request answered,
withdrawn, or whose club is gone by then is not sent.
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
        "entry": entry.pk,
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
        "entry": entry.pk,
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


def stale_reason(notification: Any) -> str:
    """Why a club notice is not worth sending any more (empty if it is). A door entry is
    deleted when it is answered (accepted, turned down) or withdrawn, and with its club."""
    entry_id = notification.context.get("entry")
    if entry_id is None:
        return ""  # written before notices named their entry
    entry = DoorEntry.objects.filter(pk=entry_id).first()
    if entry is None:
        return "the invitation or request was answered or withdrawn, or its club is gone"
    other: Any = entry.invited_by
    if notification.context.get("event") == "asked":
        if not Membership.objects.filter(
            club_id=entry.club_id, user_id=notification.user_id, role=Membership.Role.ADMIN
        ).exists():
            return "no longer an admin of the club"
        other = entry.user
    if other is not None and is_blocked_between(notification.user, other):
        return "blocked since"  # silent, as a block is
    return ""
