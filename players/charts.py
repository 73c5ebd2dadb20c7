"""A small line chart drawn on the server as inline SVG: no JavaScript library, readable
without colour (the line, its points and the labelled axis carry it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT = 600, 160
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 64, 14, 14, 30


@dataclass
class LineChart:
    points: str  # "x,y x,y ...", for <polyline points>
    dots: list[tuple[float, float, int]]  # x, y and the value, for a few marked points
    low: int
    high: int
    first: Any
    last: Any
    count: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = PAD_LEFT
    right: int = WIDTH - PAD_RIGHT
    top: int = PAD_TOP
    bottom: int = HEIGHT - PAD_BOTTOM


def line_chart(series: list[tuple[Any, int]]) -> LineChart | None:
    """Values in order (label, value); None when there are fewer than two to join."""
    if len(series) < 2:
        return None
    values = [value for _, value in series]
    low, high = min(values), max(values)
    if high - low < 20:  # a flat line still gets a readable scale
        middle = (high + low) // 2
        low, high = middle - 10, middle + 10
    span_x = WIDTH - PAD_LEFT - PAD_RIGHT
    span_y = HEIGHT - PAD_TOP - PAD_BOTTOM

    def xy(i: int, value: int) -> tuple[float, float]:
        x = PAD_LEFT + span_x * i / (len(values) - 1)
        y = PAD_TOP + span_y * (high - value) / (high - low)
        return round(x, 1), round(y, 1)

    coords = [xy(i, v) for i, v in enumerate(values)]
    marked = {0, len(values) - 1, values.index(max(values)), values.index(min(values))}
    return LineChart(
        points=" ".join(f"{x},{y}" for x, y in coords),
        dots=[(*coords[i], values[i]) for i in sorted(marked)],
        low=low,
        high=high,
        first=series[0][0],
        last=series[-1][0],
        count=len(series),
    )
