"""Following and blocking. A follow is one way and tells the followed once (FollowNotice); a
block is private: nobody is told, the blocked player's attempts simply fail (community.checks),
and it ends any follow between the two."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils.translation import gettext as _

from chat import services as chat
from community.models import Block, Follow, FollowNotice
from games.models import Game, Seat

FRIENDS_GAMES = 20


def is_blocked_between(one: Any, other: Any) -> bool:
    return Block.objects.filter(
        Q(blocker=one, blocked=other) | Q(blocker=other, blocked=one)
    ).exists()


def do_follow(user: Any, player: Any) -> str:
    """Follow ``player``; the first follow ever tells them. Between two players where either
    blocks the other it does nothing, and says the same as it would have."""
    done = _("You follow %(public_name)s.") % {"public_name": player.public_name}
    if is_blocked_between(user, player):
        return done
    with transaction.atomic():
        Follow.objects.get_or_create(follower=user, followed=player)
        try:
            with transaction.atomic():
                FollowNotice.objects.get_or_create(follower=user, followed=player)
        except IntegrityError:
            pass  # told already, by a request at the same moment
    return done


def do_unfollow(user: Any, player: Any) -> str:
    Follow.objects.filter(follower=user, followed=player).delete()
    return _("You no longer follow %(public_name)s.") % {"public_name": player.public_name}


def blocked_among(user: Any, author_ids: set[int]) -> set[int]:
    """Those of these authors the user blocked: their table talk stays closed to the user."""
    return set(
        Block.objects.filter(blocker_id=user.pk, blocked_id__in=author_ids).values_list(
            "blocked_id", flat=True
        )
    )


def connect() -> None:
    chat.register_closed_talk(blocked_among)


def do_block(user: Any, player: Any) -> str:
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=player)
        chat.mute(user, player)  # their table talk is hidden from the blocker (a tournament table)
        Follow.objects.filter(
            Q(follower=user, followed=player) | Q(follower=player, followed=user)
        ).delete()
    return _(
        "You blocked %(public_name)s: they can no longer invite you, join your tables or write "
        "to you. Nobody is told."
    ) % {"public_name": player.public_name}


def do_unblock(user: Any, player: Any) -> str:
    Block.objects.filter(blocker=user, blocked=player).delete()
    return _("You no longer block %(public_name)s.") % {"public_name": player.public_name}


ACTIONS = {
    "follow": do_follow,
    "unfollow": do_unfollow,
    "block": do_block,
    "unblock": do_unblock,
}


def relation(viewer: Any, player: Any) -> dict[str, bool]:
    """What the viewer's buttons on a profile show (one query)."""
    follows = Follow.objects.filter(follower=viewer, followed=player)
    blocks = Block.objects.filter(blocker=viewer, blocked=player)
    row = (
        type(player)
        .objects.filter(pk=player.pk)
        .annotate(follows=Exists(follows), blocks=Exists(blocks))
        .values("follows", "blocks")
        .first()
    )
    return row or {"follows": False, "blocks": False}


def following(user: Any) -> list[Any]:
    rows = Follow.objects.filter(follower=user).select_related("followed")
    return [row.followed for row in rows.order_by("followed__display_name")]


def take_new_followers(user: Any) -> list[Any]:
    """Who started following the user since they last looked: shown once, then marked seen."""
    notices = list(
        FollowNotice.objects.filter(followed=user, seen=False)
        .select_related("follower")
        .order_by("-created")[:50]
    )
    if notices:
        FollowNotice.objects.filter(pk__in=[n.pk for n in notices]).update(seen=True)
    return [notice.follower for notice in notices]


def new_follower_count(user: Any) -> int:
    return FollowNotice.objects.filter(followed=user, seen=False).count()


def blocked(user: Any) -> list[Any]:
    rows = Block.objects.filter(blocker=user).select_related("blocked")
    return [row.blocked for row in rows.order_by("blocked__display_name")]


def my_open_tables(user: Any) -> list[Game]:
    """The user's own games still forming with a seat free: where a friend can be invited."""
    return list(
        Game.objects.filter(creator=user, status=Game.Status.OPEN)
        .defer("state")
        .order_by("-created")[:20]
    )


def friends_games(user: Any) -> list[Game]:
    """Public games being played in which a player the user follows sits."""
    followed = Follow.objects.filter(follower=user).values("followed_id")
    sits = Seat.objects.filter(game=OuterRef("pk"), user__in=followed)
    seats = Seat.objects.select_related("user").order_by("number")
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, is_public=True)
        .filter(Exists(sits))
        .defer("state")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("-updated")[:FRIENDS_GAMES]
    )
