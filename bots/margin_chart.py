"""The review's chart: the player's margin (their points minus the best other player's) at each
of their reviewed turns and at the end, drawn as an inline SVG line with the zero line (level)
marked. Drawn from the game's own points, so the review's estimates sit beside real figures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT, PAD = 320, 120, 8


@dataclass(frozen=True)
class MarginChart:
    points: str  # the SVG polyline's points
    zero_y: float  # where the level line runs
    first: int  # the margin at the first reviewed turn
    last: int  # the final margin
    low: int
    high: int
    width: int = WIDTH
    height: int = HEIGHT


def margin_chart(rows: list[dict[str, Any]]) -> MarginChart | None:
    """The chart from the worded review rows (bots.reviews.worded), or None for a review
    computed before the margins were kept, or with too few turns to draw a line."""
    by_turn: dict[int, int] = {}
    final = None
    for row in rows:
        if row.get("margin") is None:
            return None
        by_turn.setdefault(int(row["turn"]), int(row["margin"]))
        final = row.get("final_margin")
    if final is None or not by_turn:
        return None
    turns = sorted(by_turn)
    series = [(turn, by_turn[turn]) for turn in turns] + [(turns[-1] + 1, int(final))]
    low, high = min(0, *(m for _, m in series)), max(0, *(m for _, m in series))
    span_x, span_y = max(1, series[-1][0] - series[0][0]), max(1, high - low)

    def x(turn: int) -> float:
        return round(PAD + (turn - series[0][0]) * (WIDTH - 2 * PAD) / span_x, 1)

    def y(value: int) -> float:
        return round(PAD + (high - value) * (HEIGHT - 2 * PAD) / span_y, 1)

    points = " ".join(f"{x(t)},{y(m)}" for t, m in series)
    return MarginChart(points, y(0), series[0][1], series[-1][1], low, high)
