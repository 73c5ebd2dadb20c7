"""What the club pages show, each read in a few queries: the list of clubs, a club's ladder
(with whom the viewer may challenge), its members and door, its members' games and its
tournaments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Prefetch, Q

from clubs import ladder
from clubs.models import Challenge, Club, ClubTournament, DoorEntry, Membership
from community.models import Block
from games.models import Game, Seat

GAMES_SHOWN = 30


def clubs_list() -> list[Club]:
    return list(
        Club.objects.annotate(members=Count("memberships")).order_by("-members", "name")[:200]
    )


def my_clubs(user: Any) -> list[Club]:
    if not getattr(user, "is_authenticated", False):
        return []
    return list(Club.objects.filter(memberships__user=user).order_by("name"))


def my_invitations(user: Any) -> list[DoorEntry]:
    """Clubs that invited the player and wait for their answer."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        DoorEntry.objects.filter(user=user, kind=DoorEntry.Kind.INVITATION)
        .select_related("club", "invited_by")
        .order_by("created")
    )


@dataclass(frozen=True)
class Rung:
    place: int
    member: Membership
    may_challenge: bool
    open_challenge: Challenge | None


def ladder_rows(club: Club, viewer: Any) -> list[Rung]:
    members = list(
        Membership.objects.filter(club=club).select_related("user").order_by("rung", "pk")
    )
    order = [m.user_id for m in members]
    viewer_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    reachable = (
        set(ladder.challengeable(order, viewer_id, settings.CLUB_LADDER_REACH))
        if viewer_id
        else set()
    )
    open_by_pair = {
        (c.challenger_id, c.challenged_id): c
        for c in Challenge.objects.filter(club=club, status__in=Challenge.OPEN_STATUSES)
    }
    return [
        Rung(
            place=place,
            member=member,
            may_challenge=member.user_id in reachable,
            open_challenge=open_by_pair.get((viewer_id, member.user_id)) if viewer_id else None,
        )
        for place, member in enumerate(members, start=1)
    ]


def challenges(club: Club, limit: int = 20) -> list[Challenge]:
    """The open challenges first, then the latest settled."""
    rows = Challenge.objects.filter(club=club).select_related("challenger", "challenged", "game")
    open_ = list(rows.filter(status__in=Challenge.OPEN_STATUSES).order_by("created"))
    done = list(rows.exclude(status__in=Challenge.OPEN_STATUSES).order_by("-settled")[:limit])
    return open_ + done


def waiting_for(club: Club, user: Any) -> list[Challenge]:
    """Challenges the viewer has yet to answer (take their seat in)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        Challenge.objects.filter(club=club, challenged=user, status=Challenge.Status.WAITING)
        .select_related("challenger", "game")
        .order_by("created")
    )


def members(club: Club) -> list[Membership]:
    return list(
        Membership.objects.filter(club=club).select_related("user").order_by("user__display_name")
    )


def door(club: Club) -> dict[str, list[DoorEntry]]:
    """Who waits at the door, for the admins. A request from a player that every admin has a
    block with (either way) is left off, as the admins were never told of it (clubs.news): the
    player still sees their request waiting, so a block stays silent. One query."""
    entries = list(
        DoorEntry.objects.filter(club=club)
        .annotate(heard=Exists(_admins_without_block()))
        .select_related("user", "invited_by")
        .order_by("created")
    )
    return {
        "requests": [e for e in entries if e.kind == DoorEntry.Kind.REQUEST and e.heard],
        "invitations": [e for e in entries if e.kind == DoorEntry.Kind.INVITATION],
    }


def _admins_without_block():
    """The admins of a door entry's club with no block between them and its player."""
    player, admin = OuterRef(OuterRef("user")), OuterRef("user")
    block = Block.objects.filter(
        Q(blocker=admin, blocked=player) | Q(blocker=player, blocked=admin)
    )
    return Membership.objects.filter(club=OuterRef("club"), role=Membership.Role.ADMIN).exclude(
        Exists(block)
    )


def door_entry(club: Club, user: Any) -> DoorEntry | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return DoorEntry.objects.filter(club=club, user=user).first()


def members_games(club: Club, viewer: Any) -> list[Game]:
    """Games being played or finished with a member seated: the public ones, and those the
    viewer sits in (a private game stays private, to other members too)."""
    in_club = Membership.objects.filter(club=club).values("user_id")
    sits = Seat.objects.filter(game=OuterRef("pk"), user__in=in_club)
    mine = Seat.objects.filter(game=OuterRef("pk"), user_id=getattr(viewer, "pk", None) or 0)
    seats = Seat.objects.select_related("user").order_by("number")
    return list(
        Game.objects.filter(status__in=[Game.Status.ACTIVE, Game.Status.FINISHED])
        .filter(Exists(sits))
        .filter(Q(is_public=True) | Exists(mine))
        .defer("state")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("-updated")[:GAMES_SHOWN]
    )


def tournaments(club: Club) -> list[ClubTournament]:
    return list(
        ClubTournament.objects.filter(club=club)
        .select_related("tournament")
        .order_by("-tournament__created")[:20]
    )
