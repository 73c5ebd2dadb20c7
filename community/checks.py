"""The checks the lobby asks before it seats a person (games.admission): a limit on games at
once, the table's requirements, and blocks. Each answers the reason the player reads, except a
block's, which answers as plainly as a full table: a blocked player is never told."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from community import reliability, standing
from community.models import Block, TableRequirement
from games import admission
from games.models import Game, Seat
from players.models import Rating

NOT_FOR_YOU = gettext_lazy("This table is not open to you.")


def active_limit(finished: int) -> int:
    return reliability.active_games_allowed(
        finished,
        base=settings.ACTIVE_GAMES_BASE,
        per_finished=settings.ACTIVE_GAMES_PER_FINISHED,
        most=settings.ACTIVE_GAMES_MOST,
    )


def active_games(user: Any) -> int:
    """Games the person sits in that are forming or being played (not resigned from)."""
    return (
        Seat.objects.filter(
            user=user,
            resigned_at=None,
            game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
        )
        .order_by()
        .count()
    )


def too_many_games(user: Any, game: Any) -> str | None:
    if getattr(user, "bot_account", False):
        return None  # a program's account plays as many games as its owner lets it
    figures = standing.figures_of(user)
    allowed = active_limit(figures.games_finished)
    if active_games(user) < allowed:
        return None
    return _(
        "You are in %(count)s games at once, the most you may be in for now. Finish one of "
        "them before you take another seat: each game you play to the end allows %(more)s "
        "more."
    ) % {"count": allowed, "more": settings.ACTIVE_GAMES_PER_FINISHED}


def tournament_refusal(user: Any, min_finished: int | None) -> str | None:
    """Why the player falls short of a tournament's least finished share, or None."""
    if not min_finished:
        return None
    figures = standing.figures_of(user)
    if reliability.meets(figures, min_finished):
        return None
    if figures.new_player:
        return _(
            "This tournament asks for players who finished at least %(share)s%% of their "
            "games; you are a new player, with too few games yet to show a share."
        ) % {"share": min_finished}
    return _(
        "This tournament asks for players who finished at least %(share)s%% of their games; "
        "you finished %(yours)s%%."
    ) % {"share": min_finished, "yours": figures.finished_percent}


def requirement_refusal(requirement: TableRequirement, user: Any) -> str | None:
    """Why the player is outside what the table asks for, or None."""
    figures = standing.figures_of(user)
    if not reliability.meets(figures, requirement.min_finished):
        if figures.new_player:
            return _(
                "This table asks for players who finished at least %(share)s%% of their games; "
                "you are a new player, with too few games yet to show a share."
            ) % {"share": requirement.min_finished}
        return _(
            "This table asks for players who finished at least %(share)s%% of their games; "
            "you finished %(yours)s%%."
        ) % {"share": requirement.min_finished, "yours": figures.finished_percent}
    if requirement.min_rating is None and requirement.max_rating is None:
        return None
    rating = Rating.objects.filter(user=user).values_list("shown", flat=True).first()
    if requirement.min_rating is not None and (rating is None or rating < requirement.min_rating):
        if rating is None:
            return _("This table asks for a rating of at least %(low)s; you are not rated yet.") % {
                "low": requirement.min_rating
            }
        return _("This table asks for a rating of at least %(low)s; yours is %(yours)s.") % {
            "low": requirement.min_rating,
            "yours": rating,
        }
    if (
        requirement.max_rating is not None
        and rating is not None
        and rating > requirement.max_rating
    ):
        return _("This table asks for a rating of at most %(high)s; yours is %(yours)s.") % {
            "high": requirement.max_rating,
            "yours": rating,
        }
    return None


def outside_requirements(user: Any, game: Any) -> str | None:
    if game is None:
        return None
    requirement = TableRequirement.objects.filter(game=game).first()
    if requirement is None or game.creator_id == user.pk:
        return None
    return requirement_refusal(requirement, user)


def blocked_between(user: Any, others: Any) -> bool:
    """Whether the user and any of these players blocked one another (either way)."""
    return Block.objects.filter(
        Q(blocker=user, blocked__in=others) | Q(blocked=user, blocker__in=others)
    ).exists()


def meets_blocked(user: Any, game: Any) -> str | None:
    if game is None:
        return None
    seated = Seat.objects.filter(game=game, user__isnull=False).values("user_id")
    return str(NOT_FOR_YOU) if blocked_between(user, seated) else None


def connect() -> None:
    admission.register("community.blocks", meets_blocked)
    admission.register("community.requirements", outside_requirements)
    admission.register("community.active_games", too_many_games)
    connect_invitations()


def invite_blocked(by: Any, user: Any, game: Any) -> str | None:
    if not Block.objects.filter(Q(blocker=by, blocked=user) | Q(blocker=user, blocked=by)).exists():
        return None
    return _("%(public_name)s cannot be invited to this game.") % {"public_name": user.public_name}


def connect_invitations() -> None:
    admission.register_invite("community.blocks", invite_blocked)
