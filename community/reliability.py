"""A player's reliability, from the log of their games alone: pure functions (no Django), so
each figure is tested on plain rows.

Three figures, as strangers on a site of slow games want to know them: the share of the games
they started that they played to the end (not resigned, not left to the bot, not ended as
abandoned), the share of their turns made before the clock ran out, and how long they usually
take to move (the median: one holiday does not make a slow player).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Ending:
    """How one ended game ended for the player's seat."""

    resigned: bool = False
    left_to_bot: bool = False  # the bot finished the seat (autopilot) or played most of it
    game_abandoned: bool = False  # every person's seat was on autopilot: the site ended it


@dataclass(frozen=True)
class LoggedMove:
    """One row of a game's move log, in the order it was played."""

    seat: int
    turn: int
    created: datetime
    by_bot: bool = False
    timeout: bool = False  # the clock ran out and the bot played it


@dataclass(frozen=True)
class Turn:
    """One of the player's turns: when it began and when they made its first move."""

    began: datetime
    moved: datetime
    on_time: bool
    by_player: bool

    @property
    def seconds(self) -> float:
        return max(0.0, (self.moved - self.began).total_seconds())


@dataclass(frozen=True)
class Reliability:
    games_started: int
    games_finished: int
    turns: int
    turns_on_time: int
    median_seconds: int | None
    new_player: bool

    @property
    def finished_percent(self) -> int | None:
        """Games played to the end, in percent of those started (None before any ended)."""
        return percent(self.games_finished, self.games_started)

    @property
    def on_time_percent(self) -> int | None:
        return percent(self.turns_on_time, self.turns)


NEW = Reliability(0, 0, 0, 0, None, True)


def percent(part: int, whole: int) -> int | None:
    """Rounded down, so 99.6 % is not shown as a perfect 100."""
    return None if whole <= 0 else (100 * part) // whole


def played_to_the_end(ending: Ending) -> bool:
    return not (ending.resigned or ending.left_to_bot or ending.game_abandoned)


def seat_turns(moves: Sequence[LoggedMove], seat: int, started: datetime | None) -> list[Turn]:
    """The seat's turns in one game's log: a turn begins when the move before it was made (the
    game's start for the first) and counts from its first move; it was on time unless a move
    in it was the clock's. Moves are in the log's order."""
    turns: list[Turn] = []
    previous: LoggedMove | None = None
    current: tuple[int, int] | None = None
    for move in moves:
        key = (move.seat, move.turn)
        if key != current:
            current = key
            if move.seat == seat:
                began = previous.created if previous is not None else (started or move.created)
                turns.append(
                    Turn(began, move.created, not move.timeout, not move.by_bot or move.timeout)
                )
        elif move.seat == seat and move.timeout and turns:
            last = turns[-1]
            turns[-1] = Turn(last.began, last.moved, False, last.by_player)
        previous = move
    return turns


def summarise(endings: Iterable[Ending], turns: Iterable[Turn], *, new_below: int) -> Reliability:
    """The figures. Turns the bot played by the player's choice (autopilot, after resigning)
    are not theirs to be late with and count neither way; a turn the clock ended counts as
    late, and its time is not a time to move. Fewer than ``new_below`` ended games: a new
    player, whose figures say too little yet."""
    endings = list(endings)
    finished = sum(1 for ending in endings if played_to_the_end(ending))
    own = [turn for turn in turns if turn.by_player]
    on_time = [turn for turn in own if turn.on_time]
    median = round(statistics.median(t.seconds for t in on_time)) if on_time else None
    return Reliability(
        games_started=len(endings),
        games_finished=finished,
        turns=len(own),
        turns_on_time=len(on_time),
        median_seconds=median,
        new_player=len(endings) < new_below,
    )


def meets(reliability: Reliability, minimum: int | None) -> bool:
    """Whether the player's finished share reaches a table's minimum (percent). A new player
    has no share to show yet, so a table asking for one is not theirs."""
    if not minimum:
        return True
    share = reliability.finished_percent
    return not reliability.new_player and share is not None and share >= minimum


def active_games_allowed(finished: int, *, base: int, per_finished: int, most: int) -> int:
    """How many games a person may be in at once: more as they finish games, up to a ceiling."""
    return min(most, base + per_finished * max(0, finished))
