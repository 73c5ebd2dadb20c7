"""The caller's account and their games: whose turn, the deadline, unread table talk."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from api.auth import TOKEN, token_of
from api.endpoints.common import summary
from api.schemas import Account, Error, MyGames
from chat.services import unread_count
from games import listings

router = Router(tags=["account"], auth=TOKEN)


@router.get("/account", response={200: Account, 401: Error})
def account(request: HttpRequest) -> dict[str, Any]:
    """The account the token belongs to."""
    user: Any = request.user
    token = token_of(request)
    assert token is not None
    return {
        "name": user.public_name,
        "bot_account": user.bot_account,
        "language": user.language or "en",
        "time_zone": user.time_zone or "UTC",
        "token": {"name": token.name, "scope": token.scope},
    }


@router.get("/account/games", response={200: MyGames, 401: Error})
def my_games(request: HttpRequest) -> dict[str, Any]:
    """Every game the account sits in that is forming or being played, most recently changed
    first, with whose turn it is, the deadline and the unread table talk; and its open
    invitations."""
    me: Any = request.user
    games = listings.my_games(me)
    rows = []
    for game in games:
        taken = list(game.seats.all())
        mine = next(s for s in taken if s.user_id == me.pk)
        acting = next((s for s in taken if s.number == game.acting_seat), None)
        row = summary(game, mine.number)
        row["acting_name"] = acting.name if acting is not None and game.is_active else None
        row["unread_talk"] = unread_count(game, me) if game.chat_version else 0
        row["seats_taken"] = len(taken)
        rows.append(row)
    invitations = listings.open_invitations(me)
    return {
        "games": rows,
        "invitations": [
            {"game": i.game_id, "title": i.game.title, "by": i.invited_by.public_name}
            for i in invitations
        ],
    }
