"""The ranking of a finished game: places with ties, and where resigned players stand.

Most points win and equal totals share a place (1st, 2nd, 2nd, 4th), as the rules say a tie
gives several winners. A game ended because every person left it to the bot for a week
(games.timeouts.end_abandoned) ranks those absent players below the bots, by their points.
A player who resigned is ranked below everyone who did not, whatever
the bot playing their seat scored afterwards: conceding is a loss. A game a resignation ended
early is ranked by the points in play at that moment (there was no final scoring).

The game page, emails and (later) history and ratings all read this one ranking.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.rules.protocol import Engine
from games.rules.wording import place as place_words


@dataclass
class Standing:
    seat: int
    name: str
    colour: str
    score: int
    place: int
    tied: bool = False
    resigned: bool = False
    absent: bool = False
    breakdown: dict[str, Any] | None = field(default=None)

    @property
    def winner(self) -> bool:
        return self.place == 1 and not self.resigned

    @property
    def place_label(self) -> str:
        return f"{place_words(self.place)}{'=' if self.tied else ''}"


def standings(
    state: Any, seats: list[Any], engine: Engine | None = None, *, abandoned: bool = False
) -> list[Standing]:
    """Every seat from first to last place. ``seats`` are the game's Seat rows (any order);
    ``engine`` is their game's (looked up from the first seat when not given). In a game ended
    as ``abandoned`` (Game.ended_abandoned) the people whose seat the bot kept rank below the
    rest, then those who resigned."""
    engine = engine or seats[0].game.engine
    by_number = {seat.number: seat for seat in seats}
    totals = engine.scores(state)
    final = engine.score_breakdown(state)
    rows = [
        Standing(
            seat=number,
            name=by_number[number].name,
            colour=by_number[number].colour,
            score=score,
            place=0,
            resigned=by_number[number].has_resigned,
            absent=abandoned and _absent(by_number[number]),
            breakdown=final[number] if final else None,
        )
        for number, score in enumerate(totals)
    ]
    rows.sort(key=lambda row: (row.resigned, row.absent, -row.score, row.seat))
    keys = [(row.resigned, row.absent, row.score) for row in rows]
    for row, key in zip(rows, keys, strict=True):
        row.place = 1 + keys.index(key)  # the first row with this result
        row.tied = keys.count(key) > 1
    return rows


def page_part(game: Any, state: Any, seats: list[Any]) -> dict[str, Any]:
    """The game page's ending, finished: the standings once ``game`` is over (None before),
    and the names of those who resigned (the note under them)."""
    ranked = (
        standings(state, seats, game.engine, abandoned=game.ended_abandoned)
        if game.is_finished
        else None
    )
    return {
        "standings": ranked,
        "resigned_names": [s.name for s in seats if s.has_resigned],
    }


def _absent(seat: Any) -> bool:
    """A person's seat the bot kept (after timeouts), not a resignation."""
    return bool(seat.autopilot and not seat.has_resigned and not seat.bot and seat.user_id)


def winners(state: Any, seats: list[Any], engine: Engine | None = None) -> list[int]:
    """The winning seats: first place among those who did not resign."""
    return [row.seat for row in standings(state, seats, engine) if row.winner]
