"""Ranking points at a table, from its places alone: the one scoring rule of every format.

A player gets one point for each player at the table they finished ahead of and half a point
for each they tied with (chess's 1 / ½ / 0 at a 2-player table). A table one seat short of the
tournament's size (the count did not divide) is scaled up so that winning it is worth the same
as winning a full table: at 3 players in a 4-player event, 3 / 1½ / 0 instead of 2 / 1 / 0.
A bye is worth a win, as in the FIDE rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def table_points(places: Sequence[int], size: int) -> list[Fraction]:
    """Each seat's points at a table of ``len(places)`` in an event of ``size``-player tables
    (1 = first place; equal places are ties)."""
    count = len(places)
    if count < 2:
        return [bye_points(size)] * count
    scale = Fraction(size - 1, count - 1)
    return [
        (sum(other > mine for other in places) + Fraction(places.count(mine) - 1, 2)) * scale
        for mine in places
    ]


def bye_points(size: int) -> Fraction:
    """A bye counts as winning a table."""
    return Fraction(size - 1)


def against(mine: int, theirs: int) -> Fraction:
    """One player's result against a table-mate: 1 ahead, ½ level, 0 behind."""
    if mine < theirs:
        return Fraction(1)
    return Fraction(1, 2) if mine == theirs else Fraction(0)
