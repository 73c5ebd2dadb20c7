"""Forming a game: creating it, filling seats (join, invite, invite link, bot), starting it.

Each function checks who may do what and raises a GameError with the player's message;
the views stay thin. When the last seat is taken the game starts by itself (``auto_start``,
on by default), or its creator is told the table is full: a full table that waits silently
would stall an asynchronous game for days.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import admission, events
from games.errors import Conflict, NotAllowed, NotInGame, RequestRefused
from games.models import GAME_NAME_MAX_LENGTH, TIME_LIMITS, Game, Invitation, Seat, new_token
from games.play import queue_bots
from games.rules import registry
from games.timecontrol import TimeControl

ALLOWED_LIMITS = {limit for limit, _ in TIME_LIMITS}


def create_game(
    creator: Any,
    *,
    num_players: int,
    options: dict[str, Any] | None = None,
    time_limit: timedelta = timedelta(days=3),
    is_public: bool = True,
    name: str = "",
    auto_start: bool = True,
    engine_name: str = "",
    time_control: TimeControl | None = None,
) -> Game:
    """A new game with its creator seated. ``time_control`` (games.timecontrol) sets the
    clock; without one the game has ``time_limit`` per turn."""
    engine = registry.get(engine_name) if engine_name else registry.default()
    try:  # validates count and options; stored with every default filled in
        options = engine.normalise_options(num_players, options)
    except ValueError as exc:
        raise RequestRefused(str(exc)) from None
    control = time_control or TimeControl(per_turn=time_limit)
    refused = admission.refusal(creator, None)
    if refused:
        raise NotAllowed(refused)
    if not control.is_bank and control.per_turn not in ALLOWED_LIMITS:
        raise RequestRefused(_("Choose one of the offered time limits."))
    try:
        control.check()
    except ValueError:
        raise RequestRefused(_("Choose one of the offered time limits.")) from None
    with transaction.atomic():
        game = Game(
            creator=creator,
            engine_name=engine.name,
            rules_version=engine.rules_version,
            name=name,
            num_players=num_players,
            options=options,
            is_public=is_public,
            auto_start=auto_start,
        )
        game.set_time_control(control)
        game.save()
        Seat.objects.create(game=game, user=creator)
    return game


def create_table(
    players: list[Any],
    *,
    options: dict[str, Any] | None = None,
    time_limit: timedelta = timedelta(days=3),
    is_public: bool = True,
    name: str = "",
    engine_name: str = "",
    time_control: TimeControl | None = None,
) -> Game:
    """A table the site forms itself (a tournament's round, a season's week): these players
    seated and the game dealt at once, with no creator. Its start is announced by whoever
    formed it (game_started says ``announced``), so players get one notice, not two.
    ``time_control`` sets the clock as in create_game (checked by the caller's form)."""
    engine = registry.get(engine_name) if engine_name else registry.default()
    try:
        options = engine.normalise_options(len(players), options)
    except ValueError as exc:
        raise RequestRefused(str(exc)) from None
    control = time_control or TimeControl(per_turn=time_limit)
    try:
        control.check()
    except ValueError:
        raise RequestRefused(_("Choose one of the offered time limits.")) from None
    with transaction.atomic():
        game = Game(
            engine_name=engine.name,
            rules_version=engine.rules_version,
            name=name[:GAME_NAME_MAX_LENGTH],
            num_players=len(players),
            options=options,
            is_public=is_public,
            auto_start=False,
        )
        game.set_time_control(control)
        game.save()
        Seat.objects.bulk_create([Seat(game=game, user=user) for user in players])
        _deal(game, announced=True)
    return game


def _lock_open(game: Game) -> Game:
    game = Game.objects.select_for_update().get(pk=game.pk)
    if not game.is_open:
        raise Conflict(_("This game has already started or was cancelled."))
    return game


def _free_seats(game: Game) -> int:
    return game.num_players - game.seats.count()


def join(game: Game, user: Any, *, token: str | None = None) -> Seat:
    """Take an open seat: public games for anyone, invite-only with an invitation or a live
    invite link. A link seats one player: the game's shared link is replaced by a new one
    (the creator's page shows it), an invitee's own link goes with their invitation."""
    with transaction.atomic():
        game = _lock_open(game)
        if game.seats.filter(user=user).exists():
            raise Conflict(_("You already have a seat in this game."))
        invited = game.invitations.filter(user=user).exists()
        by_link = not game.is_public and not invited and bool(token) and game.admits(token or "")
        if not (game.is_public or invited or by_link):
            if token:
                raise NotAllowed(
                    _("This invite link no longer works: it was used or withdrawn. Ask the "
                      "game's creator for a new one.")
                )  # fmt: skip
            raise NotAllowed(_("This game is by invitation only."))
        if _free_seats(game) <= 0:
            raise Conflict(_("All seats of this game are taken."))
        refused = admission.refusal(user, game)
        if refused:
            raise NotAllowed(refused)
        try:
            with transaction.atomic():
                seat = Seat.objects.create(game=game, user=user)
        except IntegrityError:
            raise Conflict(_("You already have a seat in this game.")) from None
        game.invitations.filter(user=user).delete()
        if by_link:
            _use_link(game, token or "")
        events.access_changed.send(Game, game=game)
        _when_full(game, by=user)
    if game.is_active:
        queue_bots(game)
    return seat


def _use_link(game: Game, token: str) -> None:
    """A link that seated someone opens nothing more."""
    if token == game.invite_token:
        game.invite_token = new_token()
        game.save(update_fields=["invite_token"])
    else:
        game.invitations.filter(token=token).delete()


def revoke(game: Game, by: Any, invitation_id: int | None = None) -> None:
    """The creator withdraws an invitation (its link with it), or, without one, replaces the
    game's shared link so the old one opens nothing."""
    with transaction.atomic():
        game = _lock_open(game)
        if by != game.creator:
            raise NotAllowed(_("Only the game's creator can withdraw invitations."))
        events.access_changed.send(Game, game=game)
        if invitation_id is None:
            game.invite_token = new_token()
            game.save(update_fields=["invite_token"])
            return
        deleted, _counts = game.invitations.filter(pk=invitation_id).delete()
        if not deleted:
            raise RequestRefused(_("There is no such invitation to withdraw."))


def add_bot(game: Game, by: Any, bot: str = "") -> Seat:
    """The creator seats a bot (the engine's default kind unless one is named)."""
    bot = bot or game.engine.default_bot
    if bot not in game.engine.bots:
        raise RequestRefused(_("Choose one of the bot levels offered."))
    with transaction.atomic():
        game = _lock_open(game)
        if by != game.creator:
            raise NotAllowed(_("Only the game's creator can seat a bot."))
        if _free_seats(game) <= 0:
            raise Conflict(_("All seats of this game are taken."))
        taken = set(game.seats.exclude(bot="").values_list("bot_name", flat=True))
        bot_name = next(name for name in game.engine.look.bot_names if name not in taken)
        seat = Seat.objects.create(game=game, bot=bot, bot_name=bot_name)
        _when_full(game, by=by)
    if game.is_active:
        queue_bots(game)
    return seat


def _when_full(game: Game, *, by: Any) -> None:
    """The last seat was just taken: start, or tell the creator (unless they took it)."""
    if _free_seats(game) > 0:
        return
    if game.auto_start:
        _deal(game)
    elif by != game.creator:
        events.table_full.send(Game, game=game)


def remove_seat(game: Game, by: Any, seat_id: int) -> None:
    """The creator frees a seat (a bot's or a player's) before the start."""
    with transaction.atomic():
        game = _lock_open(game)
        if by != game.creator:
            raise NotAllowed(_("Only the game's creator can free a seat."))
        seat = game.seats.filter(pk=seat_id).exclude(user=game.creator).first()
        if seat is None:
            raise RequestRefused(_("There is no such seat to free."))
        seat.delete()
        events.access_changed.send(Game, game=game)


def leave(game: Game, user: Any) -> None:
    with transaction.atomic():
        game = _lock_open(game)
        if user == game.creator:
            raise NotAllowed(_("As the creator you can cancel the game instead of leaving it."))
        deleted, _counts = game.seats.filter(user=user).delete()
        if not deleted:
            raise RequestRefused(_("You have no seat in this game."))
        events.access_changed.send(Game, game=game)


def cancel(game: Game, by: Any) -> None:
    with transaction.atomic():
        game = _lock_open(game)
        if by != game.creator:
            raise NotAllowed(_("Only the game's creator can cancel it."))
        game.status = Game.Status.CANCELLED
        game.save(update_fields=["status", "updated"])


def _check_can_invite(game: Game, by: Any) -> None:
    if by != game.creator:
        raise NotAllowed(_("Only the game's creator can invite players."))
    if _free_seats(game) <= 0:
        raise Conflict(_("Every seat is taken; there is nobody left to invite."))


def invite(game: Game, by: Any, display_name: str, *, before_email: Any = None) -> Invitation:
    """Invite a player by display name; the invitation (and its email) names the real player.
    ``before_email(key)`` may refuse (raise a GameError) before a new invitation and its email
    are made, e.g. a rate limit per pair of players."""
    User = get_user_model()
    name = (display_name or "").strip()
    with transaction.atomic():
        game = _lock_open(game)
        _check_can_invite(game, by)
        user = User.objects.filter(display_name__iexact=name).exclude(display_name="").first()
        if user is None:
            raise RequestRefused(f'There is no player called "{name}".')
        if game.seats.filter(user=user).exists():
            raise Conflict(
                _("%(public_name)s already has a seat in this game.")
                % {"public_name": user.public_name}
            )
        # Invited already, by name or by an address of theirs: the same one invitation.
        invitation = Invitation.objects.filter(game=game, user=user).first()
        if invitation is not None:
            return invitation
        refused = admission.invite_refusal(by, user, game)
        if refused:
            raise NotAllowed(refused)
        if before_email is not None:
            before_email(user)
        invitation, created = Invitation.objects.get_or_create(
            game=game, user=user, defaults={"invited_by": by}
        )
        if created:
            events.invited.send(Game, game=game, user=user, by=by)
    return invitation


def invite_by_email(
    game: Game, by: Any, email: str, *, before_email: Any = None
) -> Invitation | None:
    """Invite whoever reads this address. An account with it (a confirmed address) is invited
    like by name; an address without one gets an email whose link leads through sign-up to
    the seat. Either way the inviter gets the same answer, and the invitation is listed
    under the address, shown to the creator only. A person seated or invited already (by
    display name) is not invited again: no second row, no second email (None then)."""
    address = email.strip()
    with transaction.atomic():
        game = _lock_open(game)
        _check_can_invite(game, by)
        existing = game.invitations.filter(email__iexact=address).first()
        if existing is not None:
            return existing
        user = account_with_address(address)
        known = user is not None and (
            game.seats.filter(user=user).exists() or game.invitations.filter(user=user).exists()
        )
        if known:  # seated or invited already: one person, one invitation
            return game.invitations.filter(user=user).first()
        if before_email is not None:
            before_email(user if user is not None else address.lower())
        if user is not None and admission.invite_refusal(by, user, game):
            # Refused (a block): the inviter reads and sees what any invitation by address
            # gives, but it names no account and no email goes out, so it reaches nobody.
            return Invitation.objects.create(
                game=game, email=address, invited_by=by, token=new_token()
            )
        invitation = Invitation.objects.create(
            game=game, email=address, user=user, invited_by=by, token=new_token()
        )
        if user is not None:
            events.invited.send(Game, game=game, user=user, by=by)
        else:
            events.invited_address.send(Game, invitation=invitation)
    return invitation


def account_with_address(address: str) -> Any:
    """The account that confirmed this email address, if any."""
    from allauth.account.models import EmailAddress

    found = (
        EmailAddress.objects.filter(email__iexact=address, verified=True)
        .select_related("user")
        .first()
    )
    return found.user if found is not None else None


def link_invitations(user: Any, address: str) -> int:
    """A new account confirmed this address: invitations sent to it become the account's."""
    invited_games = Invitation.objects.filter(user=user).values("game_id")
    seated_games = Seat.objects.filter(user=user).values("game_id")
    return (
        Invitation.objects.filter(email__iexact=address, user=None, game__status=Game.Status.OPEN)
        .exclude(game_id__in=invited_games)
        .exclude(game_id__in=seated_games)
        .update(user=user)
    )


def start(game: Game, by: Any) -> Game:
    """The creator starts a full table (games created without auto-start)."""
    with transaction.atomic():
        game = _lock_open(game)
        if by != game.creator:
            raise NotAllowed(_("Only the game's creator can start it."))
        if _free_seats(game) > 0:
            raise Conflict(_("Every seat must be taken before the game can start."))
        _deal(game)
    queue_bots(game)
    return game


def _deal(game: Game, *, announced: bool = False) -> None:
    """All seats taken: draw the seat order from the seed and deal the game (in the caller's
    transaction, with the game locked)."""
    seats = list(game.seats.order_by("joined", "pk"))
    random.Random(f"{game.seed}/seats").shuffle(seats)
    for number, seat in enumerate(seats):
        seat.number = number
        seat.colour = game.seat_colour(number)
        seat.save(update_fields=["number", "colour"])
    state = game.initial_state()
    game.status = Game.Status.ACTIVE
    game.store_state(state)
    game.version += 1
    game.start_turn_clock()
    game.save()
    game.invitations.all().delete()
    events.game_started.send(Game, game=game, announced=announced)
    events.turn_passed.send(Game, game=game, step=0)


def reclaim_seat(game: Game, user: Any) -> None:
    """The player takes their seat back from the bot (autopilot after repeated timeouts)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        seat = game.seats.filter(user=user).first() if user.is_authenticated else None
        if seat is None:
            raise NotInGame(_("You have no seat in this game to take back."))
        if not game.is_active:
            raise Conflict(_("This game is not in progress."))
        if seat.resigned_at is not None:
            raise Conflict(_("You resigned this game: the bot plays your seat to the end."))
        updated = game.seats.filter(pk=seat.pk, autopilot=True).update(
            autopilot=False, timeouts_in_row=0
        )
        if not updated:
            raise Conflict(_("The bot is not playing for you: your seat is already yours."))
        if updated and game.is_active:
            # A game that waited with every seat on autopilot plays on from now.
            started = game.turn_started_at
            game.schedule_turn(timezone.now() if game.is_halted or started is None else started)
            game.save_clock()
    queue_bots(game)


def play_bots_now(user: Any, num_players: int, level: str = "") -> Game:
    """One click to play: a game of the default engine with its default options, the player
    in one seat and bots of one level (the engine's default unless named) in the others; it
    starts at once."""
    game = create_game(user, num_players=num_players)
    for _seat in range(num_players - 1):
        add_bot(game, user, level)
    game.refresh_from_db()
    return game


def rematch(game: Game, by: Any) -> Game:
    """A new game like a finished one (players, options, time limit, visibility, name): the
    player asking takes a seat, the bots are seated again, every other player is invited (a
    deleted account's seat stays open, and so does the seat of a player with a block between
    them and the asker). It starts once everyone has joined."""
    if not game.is_finished:
        raise Conflict(_("Only a finished game can be played again."))
    seats = list(game.seats.select_related("user"))
    if not any(s.user_id == getattr(by, "pk", None) for s in seats):
        raise NotInGame(_("Only the game's players can ask for a rematch."))
    new = create_game(
        by,
        num_players=game.num_players,
        options=dict(game.options or {}),
        time_limit=game.time_limit,
        time_control=game.time_control,
        is_public=game.is_public,
        name=game.name,
        engine_name=game.engine_name,
    )
    for seat in seats:
        if seat.is_bot and not seat.former_player:
            add_bot(new, by, seat.bot)
    people = [s.user for s in seats if s.user is not None and s.user.pk != by.pk and not s.is_bot]
    # As any invitation: a player who may not be invited (a block) is left out, silently.
    people = [p for p in people if not admission.invite_refusal(by, p, new)]
    if people:
        with transaction.atomic():
            new = _lock_open(new)
            for person in people:
                Invitation.objects.create(game=new, user=person, invited_by=by)
                events.invited.send(Game, game=new, user=person, by=by)
    new.refresh_from_db()
    return new
