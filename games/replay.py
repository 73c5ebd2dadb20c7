"""Replays of finished games: any position rebuilt from the move log by the engine.

A replay is only ever built for a finished game: then every hand and the whole log may be
shown. A game in progress has no replay (its page shows what each seat may see), so nothing
here needs a per-seat view of the past.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from games.look import look_context
from games.models import Game, Move, Seat
from games.page import PAGE_TEMPLATE
from games.seen import seen_by

_NUMBER = re.compile(r"[0-9]{1,7}")
LOG_MOVES = 12  # moves of the log shown beside a position, the latest first


@dataclass
class Replay:
    game: Game
    seats: list[Seat]
    step: int
    last: int
    turn_starts: list[int]  # the step at which each turn begins: turn 1 at step 0
    state: Any = None
    context: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def turn(self) -> int:
        return bisect_right(self.turn_starts, self.step)

    @property
    def turns(self) -> int:
        return len(self.turn_starts)

    @property
    def previous_turn_step(self) -> int:
        """Back to the start of this turn, or of the one before when already there."""
        start = self.turn_starts[self.turn - 1]
        if self.step > start:
            return start
        return self.turn_starts[self.turn - 2] if self.turn > 1 else 0

    @property
    def next_turn_step(self) -> int:
        return self.turn_starts[self.turn] if self.turn < self.turns else self.last


def read_number(raw: str | None) -> int | None:
    """A step or turn number from the query string: ASCII digits only, else None."""
    return int(raw) if raw and _NUMBER.fullmatch(raw) else None


def turn_starts(seats_of_moves: list[int]) -> list[int]:
    """A turn is one seat's run of steps: a new turn starts wherever the moving seat changes."""
    return [0] + [
        i for i in range(1, len(seats_of_moves)) if seats_of_moves[i] != seats_of_moves[i - 1]
    ]


def build(game: Game, params: Any) -> Replay:
    """The position asked for by ?step=N or ?turn=N (the first when neither is given)."""
    if not game.is_finished:
        raise ValueError("Only a finished game can be replayed: a replay shows every hand.")
    moves = list(
        Move.objects.filter(game=game).order_by("seq").values_list("seat", "action", "log")
    )
    seats = list(game.seats.select_related("user").order_by("number"))
    replay = Replay(game, seats, 0, len(moves), turn_starts([m[0] for m in moves]))
    replay.step = _asked_step(replay, params)
    engine = game.engine
    state = game.initial_state()
    for _, action, _ in moves[: replay.step]:
        state = engine.apply_action(state, action)
    names = [s.name for s in seats]
    log = [
        {"seq": seq, "text": engine.format_line(line, names), "current": seq == replay.step}
        for seq in range(replay.step, max(0, replay.step - LOG_MOVES), -1)
        for line in moves[seq - 1][2]
    ]
    seen = seen_by(engine, state, None, names=names, colours=[s.colour for s in seats])
    context = engine.page_context(seen)
    context.update(engine.replay_context(state, names))
    context["log"] = log
    context.update(look_context(engine))
    context["board_template"] = f"{PAGE_TEMPLATE}#board"
    context["players_template"] = f"{PAGE_TEMPLATE}#players"
    context["player_rows"] = [(player, None) for player in context["players"]]  # no clocks
    context["seats"] = seats
    replay.state, replay.context = state, context
    return replay


def _asked_step(replay: Replay, params: Any) -> int:
    step, turn = params.get("step"), params.get("turn")
    if turn not in (None, ""):
        number = read_number(turn)
        if number is None or not 1 <= number <= replay.turns:
            replay.notes.append(
                gettext("There is no turn %(turn)s: turns run from 1 to %(last)s.")
                % {"turn": turn[:12], "last": replay.turns}
            )
            return 0
        return replay.turn_starts[number - 1]
    if step not in (None, ""):
        number = read_number(step)
        if number is None or number > replay.last:
            text = gettext("There is no step %(step)s: steps run from 0 to %(last)s.")
            replay.notes.append(text % {"step": step[:12], "last": replay.last})
            return 0
        return number
    return 0
