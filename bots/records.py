"""A player's record against each bot level, from the finished games' results: a win where the
player finished ahead of the bot, a loss where behind, a draw where level."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.rules import protocol, registry
from players.models import SeatResult


@dataclass
class LevelRecord:
    label: str
    games: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0


def record_against_levels(user: Any) -> list[LevelRecord]:
    """One line per level the player has met (weakest first), in the site game's levels."""
    engine = registry.default()
    records = SeatResult.objects.filter(user=user, record__engine_name__in=["", engine.name])
    places = dict(records.values_list("record_id", "place"))
    if not places:
        return []
    bots = (
        SeatResult.objects.filter(record_id__in=records.values("record_id"))
        .exclude(bot="")
        .values_list("record_id", "bot", "place")
    )
    lines = {level.key: LevelRecord(str(level.label)) for level in engine.bot_levels}
    met: set[str] = set()
    for record_id, bot, place in bots:
        level = protocol.bot_level(engine, bot)
        if level is None:
            continue
        line = lines[level.key]
        met.add(level.key)
        line.games += 1
        mine = places[record_id]
        if mine < place:
            line.won += 1
        elif mine > place:
            line.lost += 1
        else:
            line.drawn += 1
    return [lines[level.key] for level in engine.bot_levels if level.key in met]
