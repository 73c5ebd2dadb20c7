"""The club ladder's challenges: made, answered, played out, or lost by silence.

A member challenges someone up to CLUB_LADDER_REACH places above them (clubs.ladder); the
challenge is a game for two made by the platform's creation service, the challenged invited to
it. Taking the seat answers it; its end moves the ladder (the winner takes the higher place).
A challenge left unanswered CLUB_CHALLENGE_DAYS days is lost by the challenged: the beat's
sweep (``expire_due``) gives the challenger the place and cancels the game. Every change of a
club's ladder takes the club's row lock, and a settled challenge is never settled again.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import ladder
from clubs.models import Challenge, Club, Membership
from community.social import is_blocked_between
from games import creation
from games.errors import Conflict, NotAllowed, RequestRefused
from games.models import Game


def ladder_ids(club: Club) -> list[int]:
    """The members' ids from the top of the ladder down."""
    return list(
        Membership.objects.filter(club=club)
        .order_by("rung", "pk")
        .values_list("user_id", flat=True)
    )


def _store(club: Club, order: list[int]) -> None:
    members = {m.user_id: m for m in Membership.objects.filter(club=club)}
    changed = []
    for rung, user_id in enumerate(order, start=1):
        member = members[user_id]
        if member.rung != rung:
            member.rung = rung
            changed.append(member)
    Membership.objects.bulk_update(changed, ["rung"])


def _lock(club_id: int) -> Club:
    return Club.objects.select_for_update().get(pk=club_id)


def open_challenge_of(club: Club, user: Any) -> Challenge | None:
    """The challenge the member made that is still waiting or being played (one at a time)."""
    return (
        Challenge.objects.filter(club=club, challenger=user, status__in=Challenge.OPEN_STATUSES)
        .select_related("game")
        .first()
    )


def challenge(club: Club, challenger: Any, challenged: Any) -> str:
    """Challenge a member above. A challenge between players where either blocks the other is
    silently not made: the challenger reads what they would have read."""
    done = _("You challenged %(public_name)s: they have %(days)s days to take their seat.") % {
        "public_name": challenged.public_name,
        "days": settings.CLUB_CHALLENGE_DAYS,
    }
    with transaction.atomic():
        club = _lock(club.pk)
        order = ladder_ids(club)
        if challenger.pk not in order:
            raise NotAllowed(_("Only the club's members can challenge on its ladder."))
        if not ladder.may_challenge(
            order, challenger.pk, challenged.pk, settings.CLUB_LADDER_REACH
        ):
            raise RequestRefused(
                _("You may challenge only members up to %(reach)s places above you.")
                % {"reach": settings.CLUB_LADDER_REACH}
            )
        _tidy(club, challenger)
        if open_challenge_of(club, challenger) is not None:
            raise Conflict(_("Your last challenge is still open: play it out first."))
        if is_blocked_between(challenger, challenged):
            return done
        name = _("Ladder: %(club)s") % {"club": club.name} if club.is_open else _("Ladder")
        game = creation.create_for_two(challenger, challenged, name=name, is_public=club.is_open)
        Challenge.objects.create(
            club=club,
            challenger=challenger,
            challenged=challenged,
            game=game,
            created=timezone.now(),
        )
    return done


def _tidy(club: Club, challenger: Any) -> None:
    """A challenge whose game its challenger cancelled is over."""
    Challenge.objects.filter(
        club=club,
        challenger=challenger,
        status__in=Challenge.OPEN_STATUSES,
        game__status=Game.Status.CANCELLED,
    ).update(status=Challenge.Status.CANCELLED, settled=timezone.now())


def cancel(challenge: Challenge) -> None:
    """End an open challenge without moving the ladder (a player left the club); a game
    still waiting for its second player is cancelled."""
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().get(pk=challenge.pk)
        if not challenge.is_open:
            return
        if challenge.game_id is not None:
            Game.objects.filter(pk=challenge.game_id, status=Game.Status.OPEN).update(
                status=Game.Status.CANCELLED
            )
        challenge.status = Challenge.Status.CANCELLED
        challenge.settled = timezone.now()
        challenge.save(update_fields=["status", "settled"])


def started(game: Game) -> None:
    Challenge.objects.filter(game=game, status=Challenge.Status.WAITING).update(
        status=Challenge.Status.PLAYING
    )


def _winner(game: Game, state: Any, challenge: Challenge) -> int | None:
    """The one of the two who won, or None (a draw, or a seat lost to deletion). A player
    who resigned lost, whatever the score."""
    seats = list(game.seats.all())
    pair = {challenge.challenger_id, challenge.challenged_id}
    standing = {s.user_id for s in seats if s.resigned_at is None} & pair
    if len(standing) == 1:
        return standing.pop()
    numbers = {s.number: s.user_id for s in seats}
    won = {numbers.get(n) for n in game.engine.winners(state)} & pair
    return won.pop() if len(won) == 1 else None


def game_ended(game: Game, state: Any) -> None:
    """The challenge's game is over: the winner takes the higher place."""
    row = Challenge.objects.filter(game=game).values_list("pk", "club_id").first()
    if row is None:
        return
    with transaction.atomic():
        _lock(row[1])
        challenge = Challenge.objects.select_for_update().get(pk=row[0])
        if not challenge.is_open:
            return
        winner = _winner(game, state, challenge)
        order = ladder_ids(challenge.club)
        if winner == challenge.challenger_id:
            _store(challenge.club, ladder.after_game(order, winner, challenge.challenged_id))
            challenge.status = Challenge.Status.WON
        else:
            challenge.status = Challenge.Status.HELD
        challenge.settled = timezone.now()
        challenge.save(update_fields=["status", "settled"])


def due(now: datetime | None = None) -> list[int]:
    """Waiting challenges a week old, and those whose game its challenger cancelled."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.CLUB_CHALLENGE_DAYS)
    return list(
        Challenge.objects.filter(status=Challenge.Status.WAITING)
        .filter(Q(created__lte=cutoff) | Q(game__status=Game.Status.CANCELLED))
        .order_by("created")
        .values_list("pk", flat=True)[:500]
    )


def expire(challenge_id: int, now: datetime | None = None) -> bool:
    """Settle one unanswered challenge: the challenger takes the place, the game is cancelled.
    One whose game the challenger cancelled ends without a move. Idempotent: a challenge
    answered, settled or not yet due is left as it is."""
    now = now or timezone.now()
    club_id = Challenge.objects.filter(pk=challenge_id).values_list("club_id", flat=True).first()
    if club_id is None:
        return False
    with transaction.atomic():
        club = _lock(club_id)
        challenge = Challenge.objects.select_for_update().get(pk=challenge_id)
        if challenge.status != Challenge.Status.WAITING:
            return False
        game = None
        if challenge.game_id is not None:
            game = Game.objects.select_for_update().filter(pk=challenge.game_id).first()
        if game is not None and game.status == Game.Status.CANCELLED:
            challenge.status = Challenge.Status.CANCELLED  # called off: nobody moves
            challenge.settled = now
            challenge.save(update_fields=["status", "settled"])
            return False
        cutoff = now - timedelta(days=settings.CLUB_CHALLENGE_DAYS)
        if challenge.created > cutoff or (game is not None and game.status != Game.Status.OPEN):
            return False  # not due, or answered: the game's end settles it
        if game is not None:
            game.status = Game.Status.CANCELLED
            game.save(update_fields=["status", "updated"])
        order = ladder_ids(club)
        _store(club, ladder.after_game(order, challenge.challenger_id, challenge.challenged_id))
        challenge.status = Challenge.Status.FORFEITED
        challenge.settled = now
        challenge.save(update_fields=["status", "settled"])
    return True


def expire_due(now: datetime | None = None) -> int:
    return sum(expire(pk, now) for pk in due(now))
