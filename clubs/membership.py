"""Who is in a club: founding one, the door (join an open club; ask to join or be invited to
one by invitation, an admin or the invited player accepting), leaving and removal, admins.

Each function checks who may do what and raises a games.errors.GameError with the player's
message; the views stay thin. Changes to one club take its row lock, so two admins clicking at
once, or a double click, leave one membership and a ladder without two members on one rung.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs import news
from clubs.models import Challenge, Club, DoorEntry, Membership
from community.social import is_blocked_between
from games.errors import Conflict, NotAllowed, RequestRefused

RESERVED_SLUGS = {"new"}  # the clubs' own paths


def membership(club: Club, user: Any) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(club=club, user=user).first()


def _lock(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)


def _free_slug(name: str) -> str:
    base = slugify(name)[:60] or "club"
    if base in RESERVED_SLUGS:
        base = f"{base}-club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def found(user: Any, *, name: str, description: str, door: str) -> Club:
    """A new club with its founder as its admin and the top of its ladder."""
    name = name.strip()
    if Club.objects.filter(name__iexact=name).exists():
        raise Conflict(_("There is a club called %(name)s already.") % {"name": name})
    try:
        with transaction.atomic():
            club = Club.objects.create(
                name=name,
                slug=_free_slug(name),
                description=description,
                door=door,
                created_by=user,
            )
            Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN, rung=1)
    except IntegrityError:
        raise Conflict(_("There is a club called %(name)s already.") % {"name": name}) from None
    return club


def change_settings(club: Club, by: Any, *, name: str, description: str, door: str) -> str:
    """An admin renames the club, rewrites its description or changes its door. The slug
    stays as it was, so every link to the club keeps working. Closing the door hides the
    inside from outsiders at once (clubs.access reads the door on each request); opening it
    leaves waiting requests at the door, each let in on its next click of Join."""
    name = name.strip()
    with transaction.atomic():
        club = _lock(club)
        _admin(club, by)
        if Club.objects.filter(name__iexact=name).exclude(pk=club.pk).exists():
            raise Conflict(_("There is a club called %(name)s already.") % {"name": name})
        club.name, club.description, club.door = name, description, door
        try:
            with transaction.atomic():
                club.save(update_fields=["name", "description", "door"])
        except IntegrityError:
            raise Conflict(_("There is a club called %(name)s already.") % {"name": name}) from None
    return _("The club's settings are saved.")


def _add(club: Club, user: Any) -> Membership:
    """A new member at the foot of the ladder (inside the club's lock)."""
    foot = Membership.objects.filter(club=club).aggregate(most=Max("rung"))["most"] or 0
    DoorEntry.objects.filter(club=club, user=user).delete()
    return Membership.objects.create(club=club, user=user, rung=foot + 1)


def join(club: Club, user: Any) -> str:
    """Join an open club, accept an invitation to a closed one, or ask to be let in."""
    with transaction.atomic():
        club = _lock(club)
        if Membership.objects.filter(club=club, user=user).exists():
            raise Conflict(_("You are a member of this club already."))
        entry = DoorEntry.objects.filter(club=club, user=user).first()
        if club.is_open or (entry is not None and entry.kind == DoorEntry.Kind.INVITATION):
            _add(club, user)
            return _("Welcome to %(club)s: you start at the foot of its ladder.") % {
                "club": club.name
            }
        if entry is None:
            entry = DoorEntry.objects.create(club=club, user=user, kind=DoorEntry.Kind.REQUEST)
            news.asked(club, entry, user)
        return _("You asked to join %(club)s; its admins will answer.") % {"club": club.name}


def withdraw_request(club: Club, user: Any) -> str:
    """Take back a request to join, or turn down an invitation."""
    DoorEntry.objects.filter(club=club, user=user).delete()
    return _("Done: you are not waiting at the door of %(club)s.") % {"club": club.name}


def _admin(club: Club, by: Any) -> Membership:
    member = Membership.objects.filter(club=club, user=by).first()
    if member is None or not member.is_admin:
        raise NotAllowed(_("Only the club's admins can do that."))
    return member


def invite(club: Club, by: Any, player: Any) -> str:
    """An admin invites a player (who accepts by joining); a player who asked to join is let
    in at once. A player who blocked the admin, or whom the admin blocked, is silently not
    invited: the admin reads what they would have read."""
    done = _("%(public_name)s is invited to %(club)s.") % {
        "public_name": player.public_name,
        "club": club.name,
    }
    with transaction.atomic():
        club = _lock(club)
        _admin(club, by)
        if Membership.objects.filter(club=club, user=player).exists():
            raise Conflict(
                _("%(public_name)s is a member already.") % {"public_name": player.public_name}
            )
        if is_blocked_between(by, player):
            return done
        entry = DoorEntry.objects.filter(club=club, user=player).first()
        if entry is not None and entry.kind == DoorEntry.Kind.REQUEST:
            _add(club, player)
            return _("%(public_name)s is now a member.") % {"public_name": player.public_name}
        if entry is None:
            entry = DoorEntry.objects.create(
                club=club, user=player, kind=DoorEntry.Kind.INVITATION, invited_by=by
            )
            news.invited(entry, by)
    return done


def accept(club: Club, by: Any, user_id: int) -> str:
    """An admin lets in a player who asked to join."""
    with transaction.atomic():
        club = _lock(club)
        _admin(club, by)
        entry = (
            DoorEntry.objects.filter(club=club, user_id=user_id, kind=DoorEntry.Kind.REQUEST)
            .select_related("user")
            .first()
        )
        if entry is None:
            raise RequestRefused(_("Nobody by that name is asking to join."))
        _add(club, entry.user)
    return _("%(public_name)s is now a member.") % {"public_name": entry.user.public_name}


def refuse(club: Club, by: Any, user_id: int) -> str:
    with transaction.atomic():
        club = _lock(club)
        _admin(club, by)
        DoorEntry.objects.filter(club=club, user_id=user_id).delete()
    return _("The request is turned down.")


def _cancel_challenges_of(club: Club, user_id: int) -> None:
    from clubs import challenges

    for challenge in Challenge.objects.filter(
        Q(challenger_id=user_id) | Q(challenged_id=user_id),
        club=club,
        status__in=Challenge.OPEN_STATUSES,
    ):
        challenges.cancel(challenge)


def _go(club: Club, member: Membership) -> None:
    """A member leaves (inside the club's lock): their open challenges end, and a club left
    without an admin gets its longest-standing member as one; a club left empty ends."""
    _cancel_challenges_of(club, member.user_id)
    member.delete()
    others = Membership.objects.filter(club=club)
    if not others.exists():
        club.delete()
    elif not others.filter(role=Membership.Role.ADMIN).exists():
        first = others.order_by("joined", "pk").first()
        if first is not None:
            first.role = Membership.Role.ADMIN
            first.save(update_fields=["role"])


def leave(club: Club, user: Any) -> str:
    with transaction.atomic():
        club = _lock(club)
        member = Membership.objects.filter(club=club, user=user).first()
        if member is None:
            raise RequestRefused(_("You are not a member of this club."))
        _go(club, member)
    return _("You left %(club)s.") % {"club": club.name}


def remove(club: Club, by: Any, user_id: int) -> str:
    """An admin removes a member (not another admin, not themself: they leave instead)."""
    with transaction.atomic():
        club = _lock(club)
        _admin(club, by)
        member = (
            Membership.objects.filter(club=club, user_id=user_id).select_related("user").first()
        )
        if member is None:
            raise RequestRefused(_("That player is not a member of this club."))
        if member.is_admin:
            raise NotAllowed(_("An admin cannot be removed; they may leave the club."))
        _go(club, member)
    return _("%(public_name)s is no longer a member.") % {"public_name": member.user.public_name}


def promote(club: Club, by: Any, user_id: int) -> str:
    with transaction.atomic():
        club = _lock(club)
        _admin(club, by)
        member = (
            Membership.objects.filter(club=club, user_id=user_id).select_related("user").first()
        )
        if member is None:
            raise RequestRefused(_("That player is not a member of this club."))
        member.role = Membership.Role.ADMIN
        member.save(update_fields=["role"])
    return _("%(public_name)s is now an admin.") % {"public_name": member.user.public_name}


def account_going(user: Any) -> None:
    """Before an account is deleted: leave each club as by hand, so no club is left without
    an admin and its challenges end."""
    for member in Membership.objects.filter(user=user).select_related("club"):
        with transaction.atomic():
            club = _lock(member.club)
            _go(club, member)
