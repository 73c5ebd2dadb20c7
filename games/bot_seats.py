"""Which bot plays a seat: a bot seat's own level; a person's seat taken over (their turn timed
out, or the autopilot keeps it) the level they chose in their preferences; a resigned or
deleted player's seat, and everyone who chose nothing, the engine's default (Standard).

The preference is read through the user's reverse relation `bot_takeover` (bots.models), so the
games app needs no import of the app that keeps it.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist

from games.rules import protocol


def seat_bot_name(engine: protocol.Engine, seat: Any) -> str:
    """The name (a key of engine.bots) of the bot that plays this seat when a bot plays it."""
    if seat.bot:
        return seat.bot if seat.bot in engine.bots else engine.default_bot
    if seat.user is None or seat.resigned_at is not None or seat.former_player:
        return engine.default_bot
    try:
        level = seat.user.bot_takeover.level
    except ObjectDoesNotExist:
        return engine.default_bot
    return level if level in engine.bots else engine.default_bot
