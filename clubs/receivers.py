"""What clubs listen to (connected in ClubsConfig.ready): a ladder game starting and ending
(games.events, inside the game's transaction; a game that is no challenge costs one indexed
lookup), the lobby's admission (a ladder game's seat is the challenged player's), the
tournaments' gate (a club's tournament admits its members only and does not
exist for outsiders of a club by invitation), and an account about to be deleted."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import pre_delete
from django.utils.translation import gettext as _

from clubs import challenges, membership
from clubs.models import Challenge, ClubTournament, Membership
from games import admission, events
from games.models import Game
from tournaments import gates


def game_started(sender: Any, *, game: Game, **kw: Any) -> None:
    challenges.started(game)


def game_over(sender: Any, *, game: Game, state: Any = None, **kw: Any) -> None:
    challenges.game_ended(game, state if state is not None else game.load_state())


def _link(tournament: Any) -> ClubTournament | None:
    return ClubTournament.objects.filter(tournament_id=tournament.pk).select_related("club").first()


def _member(link: ClubTournament, user: Any) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and Membership.objects.filter(club_id=link.club_id, user_id=user.pk).exists()
    )


def signup_refusal(tournament: Any, user: Any) -> str | None:
    link = _link(tournament)
    if link is None or _member(link, user):
        return None
    return _("This tournament is open to the members of %(club)s only.") % {"club": link.club.name}


def hidden(tournament: Any, user: Any) -> bool:
    link = _link(tournament)
    return link is not None and not link.club.is_open and not _member(link, user)


def challenge_seat(user: Any, game: Any) -> str | None:
    """A ladder game's free seat is the challenged player's alone (an open club's ladder
    games are public: watched by anyone, joined by nobody else)."""
    if game is None:
        return None
    challenged = (
        Challenge.objects.filter(game_id=game.pk).values_list("challenged_id", flat=True).first()
    )
    if challenged is None or challenged == user.pk:
        return None
    return _("This game is a ladder challenge: its seat is kept for the player challenged.")


def account_deleted(sender: Any, *, instance: Any, **kw: Any) -> None:
    membership.account_going(instance)


def connect() -> None:
    events.game_started.connect(game_started, sender=Game, dispatch_uid="clubs.game_started")
    events.game_over.connect(game_over, sender=Game, dispatch_uid="clubs.game_over")
    gates.register("clubs", signup=signup_refusal, hidden=hidden)
    admission.register("clubs.challenges", challenge_seat)
    pre_delete.connect(account_deleted, sender=settings.AUTH_USER_MODEL, dispatch_uid="clubs.user")
