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

# Points are counted in twelfths (UNIT): exact, in integers, for tables of two to four (halves
# for ties, thirds and quarters for the scaled short tables), and far faster than fractions
# over the thousands of tables a big event has.
UNIT = 12


def table_units(places: Sequence[int], size: int) -> list[int]:
    """Each seat's points in twelfths at a table of ``len(places)`` (at most four) in an event
    of ``size``-player tables (1 = first place; equal places are ties)."""
    count = len(places)
    if count < 2:
        return [bye_units(size)] * count
    step = (size - 1) * (UNIT // (2 * (count - 1)))  # per half point, scaled to a full table
    return [
        (2 * sum(other > mine for other in places) + places.count(mine) - 1) * step
        for mine in places
    ]


def table_points(places: Sequence[int], size: int) -> list[Fraction]:
    """The same as fractions of a point."""
    return [Fraction(units, UNIT) for units in table_units(places, size)]


def bye_units(size: int) -> int:
    """A bye counts as winning a table."""
    return (size - 1) * UNIT


def bye_points(size: int) -> Fraction:
    return Fraction(size - 1)


def against(mine: int, theirs: int) -> Fraction:
    """One player's result against a table-mate: 1 ahead, ½ level, 0 behind."""
    if mine < theirs:
        return Fraction(1)
    return Fraction(1, 2) if mine == theirs else Fraction(0)
