"""A game for the caller: its view, legal actions and log; moves and undo; the export.

The view is exactly what the caller's page draws from: the engine's player_view for their seat
(a watcher's for anyone else), never another hand or the deck order. Moves go through the same
service as the page's (games.play: lock, version check, the engine's validation and refusal
wording), with the page's per-account limit and the token's own; refusals come back in the
caller's language with a stable code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import Query, Router

from api import limits
from api.auth import need_play
from api.endpoints.common import my_seat_number, seat_out, summary, visible_game
from api.errors import ApiError
from api.schemas import INVITE_TOKEN, Actions, Error, GameId, GameOut, Log, Moved, MoveIn, VersionIn
from games import limits as page_limits
from games import play
from games.errors import GameError
from games.forms import MAX_ACTION_DEPTH, MAX_ACTION_LENGTH, MOVE_NOT_READ, json_depth
from games.models import Game, Move
from games.standings import standings
from games.transfer import export_game

router = Router(tags=["games"])
REFUSED = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 429: Error, 503: Error}
InviteToken = Query(
    "", max_length=64, pattern=INVITE_TOKEN, description="The invite link's token, for its holders"
)


@router.get("/games/{pk}", response={200: GameOut, 401: Error, 404: Error})
def game_view(request: HttpRequest, pk: GameId, token: str = InviteToken) -> dict[str, Any]:
    """The game as the caller's page shows it."""
    game = visible_game(request, pk)
    seats = game.seats_for_page()
    mine = my_seat_number(request, seats)
    out = summary(game, mine)
    out["seats"] = [seat_out(seat) for seat in seats]
    out.update(view=None, can_undo=False, scores=None, winners=None)
    if game.is_active or game.is_finished:
        engine = game.engine
        state = game.load_state()
        out["view"] = engine.player_view(state, mine)
        out["can_undo"] = out["my_turn"] and engine.can_undo(state)
        if game.is_finished:
            ranking = standings(state, seats, engine)
            by_seat = sorted(ranking, key=lambda row: row.seat)
            out["scores"] = [row.score for row in by_seat]
            out["winners"] = [row.seat for row in ranking if row.winner]
    return out


@router.get("/games/{pk}/actions", response={200: Actions, 401: Error, 404: Error})
def legal_actions(request: HttpRequest, pk: GameId, token: str = InviteToken) -> dict[str, Any]:
    """The actions the caller may take now: every legal one on their turn, none otherwise."""
    game = visible_game(request, pk)
    mine = my_seat_number(request, game.seats_for_page())
    my_turn = game.is_active and mine is not None and game.acting_seat == mine
    actions = game.engine.legal_actions(game.load_state()) if my_turn else []
    return {"version": game.version, "my_turn": my_turn, "actions": actions}


@router.get("/games/{pk}/log", response={200: Log, 401: Error, 404: Error})
def game_log(
    request: HttpRequest,
    pk: GameId,
    since: int = Query(0, ge=0, le=10**9, description="Only the steps after this one"),
    token: str = InviteToken,
) -> dict[str, Any]:
    """The game's log, oldest step first: what the page's log says, line by line."""
    game = visible_game(request, pk, with_state=False)
    names = [seat.name for seat in game.seats_for_page()]
    engine = game.engine
    moves = Move.objects.filter(game=game, seq__gt=since).order_by("seq")
    return {
        "version": game.version,
        "moves": [
            {
                "step": move.seq,
                "turn": move.turn,
                "seat": move.seat,
                "name": names[move.seat] if move.seat < len(names) else "",
                "lines": [engine.format_line(line, names) for line in move.log],
                "by_bot": move.by_bot,
                "timeout": move.timeout,
                "at": move.created,
            }
            for move in moves.only("seq", "turn", "seat", "log", "by_bot", "timeout", "created")
        ],
    }


def _checked_action(action: dict[str, Any]) -> dict[str, Any]:
    """The page's bounds on a move: a short JSON object of little depth."""
    text = json.dumps(action)
    if len(text) > MAX_ACTION_LENGTH or json_depth(text) > MAX_ACTION_DEPTH:
        raise ApiError(400, "invalid", str(MOVE_NOT_READ))
    return action


def _played(request: HttpRequest, pk: int, run: Callable[[], play.Moved]) -> dict[str, Any]:
    """Run a move or undo as the page does; a refusal of a game the caller may not see is
    "not found", as on the page."""
    token = need_play(request)
    try:
        limits.consume("move", token.pk)
        page_limits.check(request, "move")
        moved = run()
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None
    except GameError:
        visible_game(request, pk, with_state=False)
        raise
    game = moved.game
    return {
        "version": game.version,
        "status": game.status,
        "acting_seat": game.acting_seat,
        "my_turn": game.is_active and game.acting_seat == my_seat_number(request, moved.seats),
    }


@router.post("/games/{pk}/move", response={200: Moved, **REFUSED})
def move(request: HttpRequest, pk: GameId, data: MoveIn) -> dict[str, Any]:
    """Make one step: an action from /actions, at the version it was listed at."""
    action = _checked_action(data.action)
    return _played(request, pk, lambda: play.move(pk, request.user, action, data.version))


@router.post("/games/{pk}/undo", response={200: Moved, **REFUSED})
def undo(request: HttpRequest, pk: GameId, data: VersionIn) -> dict[str, Any]:
    """Take back your last step, when the game allows it (can_undo)."""
    return _played(request, pk, lambda: play.undo_move(pk, request.user, data.version))


@router.get(
    "/games/{pk}/export", response={200: dict[str, Any], 401: Error, 403: Error, 404: Error}
)
def export(request: HttpRequest, pk: GameId, token: str = InviteToken) -> dict[str, Any]:
    """A finished game's record (seed, options, every move): what "Download the game" gives."""
    game = visible_game(request, pk)
    if not game.is_finished:
        raise ApiError(
            403, "not_over", _("A game in progress cannot be downloaded: it would show every hand.")
        )
    return export_game(game)
