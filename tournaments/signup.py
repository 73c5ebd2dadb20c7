"""Before the first round: creating a tournament, signing up and leaving, cancelling, featuring.

Each function checks who may do what and raises a games.errors.GameError with the player's
message; the views stay thin. Sign-ups take the tournament's row lock, so the player limit
holds however many players click at once, and the unique (tournament, player) constraint turns
a double click into one entry.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from community import checks
from games.errors import Conflict, NotAllowed, RequestRefused
from games.rules import protocol, registry
from games.timecontrol import TimeControl
from players import ratings
from players.models import Rating
from tournaments import gates
from tournaments.models import Entry, Tournament


def player_rating(user: Any) -> int:
    """The rating a sign-up is checked against: the player's, or a newcomer's."""
    shown = Rating.objects.filter(user_id=user.pk).values_list("shown", flat=True).first()
    return int(shown) if shown is not None else ratings.NEW.shown


def option_facets(engine: Any, table_size: int, options: dict[str, Any]) -> str:
    """The options as the history's filters see them (Engine.record_facets), read off a fresh
    game's record details: the list of tournaments filters by the same values."""
    try:
        details = engine.record_details(engine.new_game(table_size, 0, options))
    except Exception:
        return ""
    return protocol.facet_text(details.get("facets", {}))[:120]


def create(
    creator: Any,
    *,
    name: str,
    fmt: str,
    table_size: int,
    signup_closes: datetime,
    max_players: int,
    options: dict[str, Any] | None = None,
    clock: dict[str, Any] | None = None,
    engine_name: str = "",
    description: str = "",
    rounds: int = 0,
    group_size: int | None = None,
    final_table: bool = False,
    min_rating: int | None = None,
    max_rating: int | None = None,
    min_finished: int | None = None,
    is_public: bool = True,
) -> Tournament:
    engine = registry.get(engine_name) if engine_name else registry.default()
    try:
        options = engine.normalise_options(table_size, options)
    except ValueError as exc:
        raise RequestRefused(str(exc)) from None
    return Tournament.objects.create(
        name=name,
        description=description,
        creator=creator,
        format=fmt,
        engine_name=engine.name,
        options=options,
        clock=dict(clock or TimeControl().to_dict()),
        facets=option_facets(engine, table_size, options),
        table_size=table_size,
        rounds=rounds if fmt == Tournament.Format.SWISS else 0,
        group_size=group_size if fmt == Tournament.Format.GROUPS else None,
        final_table=final_table and fmt == Tournament.Format.GROUPS,
        signup_closes=signup_closes,
        max_players=max_players,
        min_rating=min_rating,
        max_rating=max_rating,
        min_finished=min_finished or None,
        is_public=is_public,
    )


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _bump(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)


def may_see(tournament: Tournament, user: Any, token: str = "") -> bool:
    """Public tournaments, and private ones to their creator, players, staff and holders of
    the invitation link; never one another app hides from them (tournaments.gates)."""
    if gates.hidden_from(tournament, user):
        return bool(getattr(user, "is_staff", False))
    if tournament.is_public or (token and token == tournament.invite_token):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return (
        user.is_staff
        or tournament.creator_id == user.pk
        or tournament.entries.filter(user_id=user.pk).exists()
    )


def refusal(tournament: Tournament, user: Any, rating: int | None = None) -> str | None:
    """Why this player may not sign up for the tournament (its rating range, the share of
    their games they finished), or None: the page shows it in place of the button."""
    rating = player_rating(user) if rating is None else rating
    if not tournament.rating_allowed(rating):
        return _("Your rating (%(rating)s) is outside this tournament's range (%(range)s).") % {
            "rating": rating,
            "range": tournament.rating_range,
        }
    return checks.tournament_refusal(user, tournament.min_finished)


def sign_up(tournament: Tournament, user: Any, *, token: str = "") -> Entry:
    with transaction.atomic():
        tournament = _lock(tournament)
        now = timezone.now()
        if not tournament.is_signup or now >= tournament.signup_closes:
            when = formats.date_format(
                timezone.localtime(tournament.signup_closes), "DATETIME_FORMAT"
            )
            raise Conflict(_("Sign-up for this tournament closed on %(when)s.") % {"when": when})
        invited = tournament.is_public or token == tournament.invite_token
        if not (invited or tournament.creator_id == user.pk):
            raise NotAllowed(_("This tournament is by invitation: ask its creator for the link."))
        if tournament.entries.filter(user_id=user.pk).exists():
            raise Conflict(_("You are signed up already."))
        refused = gates.signup_refusal(tournament, user)
        if refused:
            raise NotAllowed(refused)
        if tournament.entries.count() >= tournament.max_players:
            raise Conflict(
                _("This tournament is full: %(count)s players have signed up.")
                % {"count": tournament.max_players}
            )
        rating = player_rating(user)
        refused = refusal(tournament, user, rating)
        if refused:
            raise RequestRefused(refused)
        try:
            with transaction.atomic():
                entry = Entry.objects.create(tournament=tournament, user=user, rating=rating)
        except IntegrityError:
            raise Conflict(_("You are signed up already.")) from None
        _bump(tournament)
    return entry


def leave(tournament: Tournament, user: Any) -> None:
    """Take back a sign-up before the tournament starts."""
    with transaction.atomic():
        tournament = _lock(tournament)
        if not tournament.is_signup:
            raise Conflict(_("The tournament has started: withdraw from it instead."))
        deleted, _rows = tournament.entries.filter(user_id=user.pk).delete()
        if not deleted:
            raise RequestRefused(_("You are not signed up for this tournament."))
        _bump(tournament)


def may_manage(tournament: Tournament, user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_staff or tournament.creator_id == user.pk))


def cancel(tournament: Tournament, by: Any) -> None:
    with transaction.atomic():
        tournament = _lock(tournament)
        if not may_manage(tournament, by):
            raise NotAllowed(_("Only the tournament's creator can cancel it."))
        if not tournament.is_signup:
            raise Conflict(_("A tournament that has started cannot be cancelled."))
        tournament.status = Tournament.Status.CANCELLED
        tournament.version += 1
        tournament.save(update_fields=["status", "version"])


def close_signup_now(tournament: Tournament, by: Any) -> None:
    """The creator starts at once with the players signed up so far (the beat or the next
    page view then deals the first round, as at the end of the window)."""
    with transaction.atomic():
        tournament = _lock(tournament)
        if not may_manage(tournament, by):
            raise NotAllowed(_("Only the tournament's creator can start it."))
        if not tournament.is_signup:
            raise Conflict(_("The tournament has already started."))
        count = tournament.entries.count()
        if count < tournament.min_players:
            raise Conflict(
                _("At least %(count)s players must sign up before it can start.")
                % {"count": tournament.min_players}
            )
        tournament.signup_closes = timezone.now()
        tournament.version += 1
        tournament.save(update_fields=["signup_closes", "version"])


def feature(tournament: Tournament, by: Any, featured: bool) -> None:
    if not getattr(by, "is_staff", False):
        raise NotAllowed(_("Only staff can feature a tournament."))
    Tournament.objects.filter(pk=tournament.pk).update(featured=featured, version=F("version") + 1)
