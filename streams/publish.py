"""The games' and the table talk's events, published to the live streams once committed.

Receivers of games.events and chat.signals (connected in StreamsConfig.ready): each runs inside
the transaction that changed the game and only notes what to announce; the announcement goes to
Redis in ``transaction.on_commit``, so a rolled-back move is never announced. Redis being down
costs a move nothing but its announcement (logged): pages fall back to their poll.

What an event carries is public: ids, seat numbers, steps, versions, a display name. Never a
card or a hand: a client that wants the game asks the API, which shows it only what its seat
may see.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import Signal

from api import tokens
from chat.signals import message_posted
from games import events
from games.models import Game, Seat
from streams import channels

log = logging.getLogger(__name__)
TIMEOUT = 0.5  # seconds: a move waits at most this long for Redis once it has committed


def enabled() -> bool:
    return bool(settings.STREAMS_REDIS_URL)


@cache
def _client(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)


def send(announcements: list[tuple[str, str, dict[str, Any]]]) -> None:
    """Append and publish (channel, kind, data) events now, in one round trip."""
    if not announcements or not enabled():
        return
    from redis.exceptions import RedisError

    client = _client(settings.STREAMS_REDIS_URL)
    at = time.time()
    try:
        script = client.register_script(channels.APPEND_AND_PUBLISH)
        pipe = client.pipeline(transaction=False)
        for channel, kind, data in announcements:
            payload = json.dumps({**data, "at": at}, separators=(",", ":"))
            script(
                keys=[channels.log_key(channel), channels.pubsub_name(channel)],
                args=[kind, payload, channels.LOG_LENGTH, channels.LOG_SECONDS],
                client=pipe,
            )
        pipe.execute()
    except RedisError as exc:
        log.warning("live events not published (%s): %s", len(announcements), exc)


def access_changed(*tags: str) -> None:
    """Ask the open streams these access tags name (streams.channels.access_tag) to check their
    caller again, once the change has committed."""
    if enabled() and tags:
        transaction.on_commit(lambda: _notify(tags))


def _notify(tags: tuple[str, ...]) -> None:
    from redis.exceptions import RedisError

    try:
        name = channels.pubsub_name(channels.ACCESS)
        _client(settings.STREAMS_REDIS_URL).publish(name, " ".join(tags))
    except RedisError as exc:  # the streams' timer checks again within a minute anyway
        log.warning("access notice not published (%s): %s", tags, exc)


def announce_on_commit(announcements: list[tuple[str, str, dict[str, Any]]]) -> None:
    if enabled() and announcements:
        transaction.on_commit(lambda: send(announcements))


def _people(game: Game, seats: list[Seat] | None = None) -> list[int]:
    """The accounts seated at the game (a move's own read of the seats, if it made one)."""
    if seats is not None:
        return [s.user_id for s in seats if s.user_id is not None and not s.bot]
    rows = game.seats.filter(bot="", user__isnull=False).values_list("user_id", flat=True)
    return list(rows)


def _to_game_and_players(
    game: Game, kind: str, data: dict[str, Any], seats: list[Seat] | None = None
) -> None:
    data = {"game": game.pk, **data}
    people = _people(game, seats)
    targets = [channels.game(game.pk)] + [channels.account(uid) for uid in people]
    announce_on_commit([(channel, kind, data) for channel in targets])


def move_made(sender: Any, *, game: Game, seat: int, step: int, **kw: Any) -> None:
    _to_game_and_players(
        game,
        "move",
        {
            "step": step,
            "seat": seat,
            "version": game.version,
            "acting_seat": game.acting_seat,
            "status": game.status,
            "by_bot": bool(kw.get("by_bot")),
        },
        kw.get("seats"),
    )


def move_undone(sender: Any, *, game: Game, step: int, **kw: Any) -> None:
    data = {"step": step, "version": game.version, "acting_seat": game.acting_seat}
    _to_game_and_players(game, "undo", data)


def game_started(sender: Any, *, game: Game, **kw: Any) -> None:
    _to_game_and_players(game, "started", {"version": game.version})
    access_changed(channels.access_tag("game", game.pk))  # an invite link opens it no more


def game_access_changed(sender: Any, *, game: Game, **kw: Any) -> None:
    access_changed(channels.access_tag("game", game.pk))


def signed_out(sender: Any, *, request: Any = None, **kw: Any) -> None:
    """The session's streams end (sent before the session is flushed: a check now would still
    find it signed in, so the notice ends them outright)."""
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        access_changed(channels.END_MARK + channels.session_tag(key))


def token_revoked(sender: Any, *, token_id: int, **kw: Any) -> None:
    access_changed(channels.access_tag("token", token_id))


def game_over(sender: Any, *, game: Game, **kw: Any) -> None:
    _to_game_and_players(game, "over", {"version": game.version})


def turn_passed(sender: Any, *, game: Game, step: int, seats: Any = None, **kw: Any) -> None:
    """The acting player's account hears "your_turn" (not when the site's bot plays it)."""
    if not game.is_active:
        return
    rows = seats if seats is not None else list(game.seats.all())
    seat = next((s for s in rows if s.number == game.acting_seat), None)
    if seat is None or seat.bot_plays or seat.user_id is None:
        return
    data = {"game": game.pk, "step": step, "version": game.version, "seat": seat.number}
    announce_on_commit([(channels.account(seat.user_id), "your_turn", data)])


def invited(sender: Any, *, game: Game, user: Any, by: Any, **kw: Any) -> None:
    data = {"game": game.pk, "title": game.title, "by": by.public_name}
    announce_on_commit([(channels.account(user.pk), "invited", data)])


def talk(sender: Any, *, game: Game, message: Any, **kw: Any) -> None:
    data = {"message": message.pk, "seat": message.seat, "chat_version": game.chat_version}
    _to_game_and_players(game, "talk", data)


RECEIVERS: dict[Signal, Callable[..., None]] = {
    events.move_made: move_made,
    events.move_undone: move_undone,
    events.game_started: game_started,
    events.game_over: game_over,
    events.turn_passed: turn_passed,
    events.invited: invited,
    events.access_changed: game_access_changed,
}


def connect() -> None:
    for signal, receiver in RECEIVERS.items():
        signal.connect(receiver, sender=Game, dispatch_uid=f"streams.{receiver.__name__}")
    message_posted.connect(talk, dispatch_uid="streams.talk")
    user_logged_out.connect(signed_out, dispatch_uid="streams.signed_out")
    tokens.revoked.connect(token_revoked, dispatch_uid="streams.token_revoked")
