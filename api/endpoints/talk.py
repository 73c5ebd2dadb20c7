"""Table talk: read a game's thread (as its page shows it to the caller) and post to it."""

from __future__ import annotations

from typing import Any, cast

from django.http import HttpRequest
from ninja import Query, Router, Status

from api import limits
from api.auth import need_play
from api.endpoints.common import visible_game
from api.schemas import Error, GameId, Talk, TalkIn, TalkMessage
from chat import services
from chat.models import Message

router = Router(tags=["table talk"])


def _message(entry: services.Entry) -> dict[str, Any]:
    message: Message = entry.message
    return {
        "id": message.pk,
        "seat": message.seat,
        "author": message.author.public_name if message.author else "",
        "text": "" if message.is_deleted else message.text,
        "at": message.created,
        "deleted": message.is_deleted,
        "mine": entry.mine,
        "muted": entry.muted,
        "unread": entry.unread,
    }


@router.get("/games/{pk}/talk", response={200: Talk, 401: Error, 404: Error})
def read(
    request: HttpRequest,
    pk: GameId,
    limit: int = Query(services.PAGE_MESSAGES, ge=1, le=1000, description="The latest so many"),
    token: str = Query("", max_length=64),
) -> dict[str, Any]:
    """The latest messages, oldest first. Reading them as a seated player marks them read, as
    opening the page does."""
    game = visible_game(request, pk, with_state=False)
    thread = services.thread(game, request.user, limit=limit)
    return {
        "chat_version": game.chat_version,
        "can_post": thread.can_post,
        "messages": [_message(entry) for entry in thread.entries],
    }


@router.post(
    "/games/{pk}/talk",
    response={201: TalkMessage, 400: Error, 401: Error, 403: Error, 404: Error, 409: Error,
              429: Error, 503: Error},
)  # fmt: skip
def post(request: HttpRequest, pk: GameId, data: TalkIn) -> Status:
    """Write to the table (players of the game only; the page's rules on text apply)."""
    token = need_play(request)
    game = visible_game(request, pk, with_state=False)
    limits.consume("talk", token.pk)
    message = services.post(game, request.user, data.text)
    message.author = cast(Any, request.user)
    entry = services.Entry(message, mine=True, muted=False, unread=False, deletable=True)
    return Status(201, _message(entry))
