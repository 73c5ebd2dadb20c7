"""What the endpoints share: reading a game the caller may see, and a game's summary."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.access import game_for_user
from games.models import Game, Seat


def visible_game(request: HttpRequest, pk: int, *, with_state: bool = True) -> Game:
    """The game if the caller may see its page (the page's own rule: public games, seats,
    invitees, holders of the invite link's ``token``); Http404 otherwise."""
    return game_for_user(request, pk, with_state=with_state)


def my_seat_number(request: HttpRequest, seats: list[Seat]) -> int | None:
    user = request.user
    if not user.is_authenticated:
        return None
    return next((s.number for s in seats if s.user_id == user.pk), None)


def summary(game: Game, my_seat: int | None) -> dict[str, Any]:
    return {
        "id": game.pk,
        "title": game.title,
        "engine": game.engine_name,
        "rules_version": game.rules_version,
        "status": game.status,
        "is_public": game.is_public,
        "num_players": game.num_players,
        "version": game.version,
        "chat_version": game.chat_version,
        "time_limit_seconds": int(game.time_limit.total_seconds()),
        "deadline": game.deadline,
        "acting_seat": game.acting_seat,
        "my_seat": my_seat,
        "my_turn": game.is_active and my_seat is not None and game.acting_seat == my_seat,
    }


def seat_out(seat: Seat) -> dict[str, Any]:
    person = seat.user if seat.user_id is not None and not seat.is_bot else None
    return {
        "seat": seat.number,
        "name": seat.name,
        "colour": seat.colour,
        "player": person.display_name or None if person is not None else None,
        "bot_account": bool(person is not None and person.bot_account),
        "engine_bot": seat.is_bot,
        "bot_plays": seat.bot_plays,
        "resigned": seat.has_resigned,
        "away_until": getattr(seat, "away_until", None),
    }
