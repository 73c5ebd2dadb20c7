"""The lobby: open public games; creating a game, taking a seat, inviting a player."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Query, Router, Status

from api import limits
from api.auth import need_play
from api.endpoints.common import my_seat_number, summary, visible_game
from api.errors import ApiError
from api.schemas import CreateIn, Error, GameId, GameSummary, Invited, InviteIn, JoinIn, Lobby
from games import creation, lobby
from games import limits as page_limits
from games.errors import GameError
from games.forms import CreateGameForm, InviteForm
from games.listings import LOBBY_PAGE_SIZE, lobby_listing
from games.models import Game

router = Router(tags=["lobby"])
REFUSED = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 429: Error, 503: Error}


@router.get("/lobby", response={200: Lobby, 401: Error})
def open_games(request: HttpRequest, page: int = Query(1, ge=1, le=10**6)) -> dict[str, Any]:
    """Open public games, newest first, a page at a time."""
    games = lobby_listing()
    shown = Paginator(games, LOBBY_PAGE_SIZE).get_page(page)
    return {
        "page": shown.number,
        "pages": shown.paginator.num_pages,
        "games": [
            {
                "id": game.pk,
                "title": game.title,
                "creator": game.creator.public_name if game.creator else None,
                "num_players": game.num_players,
                "seats_taken": game.seats_taken,
                "options": game.option_tags,
                "time_limit_seconds": int(game.time_limit.total_seconds()),
                "created": game.created,
            }
            for game in shown.object_list
        ],
    }


@router.post("/lobby", response={201: GameSummary, **REFUSED})
def create(request: HttpRequest, data: CreateIn) -> Status:
    """Create a game, as the create page does (its form checks every value), with your seat."""
    token = need_play(request)
    fields: dict[str, Any] = {
        "name": data.name,
        "num_players": str(data.num_players),
        "time_limit": str(data.time_limit_seconds),
        "is_public": "1" if data.is_public else "0",
    }
    if data.auto_start:
        fields["auto_start"] = "on"
    fields.update(clock_fields(data))
    for number, level in enumerate(data.bots, start=2):  # seat 1 is the creator's
        fields[f"bot_seat_{number}"] = level
    blank = CreateGameForm()
    unknown = set(data.options) - set(blank.option_names)
    if unknown:
        raise ApiError(
            400,
            "refused",
            _("This game has no option called %(names)s.") % {"names": ", ".join(sorted(unknown))},
        )
    for name in blank.option_names:  # an option not sent takes the create page's default
        value = data.options.get(name, blank.fields[name].initial)
        if value not in (False, None):  # an unticked box is a missing field, as from the page
            fields[name] = "on" if value is True else str(value)
    form = CreateGameForm(fields)
    if not form.is_valid():
        where, errors = next(iter(form.errors.items()))
        raise ApiError(400, "refused", f"{where}: {errors[0]}")
    limits.consume("lobby", token.pk)
    page_limits.check(request, "create_game")
    try:
        game = creation.create_from_form(request.user, form)
    except GameError as exc:
        raise ApiError(exc.status, "refused", exc.message) from exc
    return Status(201, summary(game, my_seat_number(request, list(game.seats.all()))))


def clock_fields(data: CreateIn) -> dict[str, Any]:
    """The clock as the create page's fields: a time bank's amounts only when they are sent
    (else the page's defaults), the days off as the ticked boxes."""
    fields: dict[str, Any] = {
        "clock_mode": data.clock_mode,
        "days_off": [str(d) for d in data.days_off],
    }
    sent = {
        "bank": data.bank_seconds,
        "bonus": data.bonus_seconds,
        "bank_cap": data.bank_cap_seconds,
    }
    blank = CreateGameForm()
    for name, seconds in sent.items():
        fields[name] = str(seconds) if seconds is not None else blank.fields[name].initial
    return fields


@router.post("/games/{pk}/join", response={200: GameSummary, **REFUSED})
def join(request: HttpRequest, pk: GameId, data: JoinIn) -> dict[str, Any]:
    """Take a seat: in a public game, or one you are invited to (or hold the link's token)."""
    token = need_play(request)
    game = Game.objects.defer("state").filter(pk=pk).first()
    if game is None or not game.admits(data.token):  # compared in constant time
        game = visible_game(request, pk, with_state=False)  # the page's rule, else not found
    limits.consume("lobby", token.pk)
    page_limits.check(request, "join_game")
    lobby.join(game, request.user, token=data.token or None)
    game.refresh_from_db()
    return summary(game, my_seat_number(request, list(game.seats.all())))


@router.post("/games/{pk}/invite", response={200: Invited, **REFUSED})
def invite(request: HttpRequest, pk: GameId, data: InviteIn) -> dict[str, Any]:
    """Invite a player (by display name) to a game you created: a bot account too."""
    token = need_play(request)
    game = visible_game(request, pk, with_state=False)
    form = InviteForm({"display_name": data.name})
    if not form.is_valid() or form.email:
        raise ApiError(400, "refused", str(form.errors.get("display_name", [data.name])[0]))
    limits.consume("lobby", token.pk)
    page_limits.check(request, "invite")
    invitation = lobby.invite(
        game,
        request.user,
        form.cleaned_data["display_name"],
        before_email=lambda invitee: page_limits.check(
            request, "invite_pair", key=f"{request.user.pk}:{invitee.pk}"
        ),
    )
    invitee: Any = invitation.user
    return {"message": _("%(public_name)s is invited.") % {"public_name": invitee.public_name}}
