"""The fixed schedules: round robin in groups and the knock-out bracket. Pure functions of the
seeds (1 = the highest rating when the tournament began) and the results.

Groups are dealt like cards by seed, snaking (1 2 3 3 2 1 ...), so every group has about the
same strength; in a group every pair (2-player tables) or every combination of three or four
plays once, all at the same time. The knock-out bracket is the usual seeded one: 1 meets the
lowest seed, and 1 and 2 can meet only in the final; when the field is not a power of two the
top seeds get a bye in the first round.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import ceil, comb

# The most games at once a player gets in a group, per table size: 7 at 2-player tables
# (groups of 8), 10 at 3 and at 4 (groups of 6).
MAX_GROUP = {2: 8, 3: 6, 4: 6}


def group_count(players: int, group_size: int, table_size: int) -> int:
    """How many groups: enough for groups of at most ``group_size``, never so many that a group
    has fewer players than a table."""
    count = max(1, ceil(players / group_size))
    while count > 1 and players // count < table_size:
        count -= 1
    return count


def snake_groups(seeded: Sequence[int], count: int) -> list[list[int]]:
    """Players (in seed order) dealt into ``count`` groups: 1..n, then n..1, and so on."""
    groups: list[list[int]] = [[] for _ in range(count)]
    for index, player in enumerate(seeded):
        lap, place = divmod(index, count)
        groups[place if lap % 2 == 0 else count - 1 - place].append(player)
    return groups


def group_tables(group: Sequence[int], table_size: int) -> list[tuple[int, ...]]:
    """Every combination of ``table_size`` players of the group, once."""
    return list(combinations(group, table_size))


def games_per_player(group_size: int, table_size: int) -> int:
    return comb(group_size - 1, table_size - 1)


# --- knock-out -----------------------------------------------------------------------------


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return size


def knockout_rounds(players: int) -> int:
    return max(1, bracket_size(players).bit_length() - 1)


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket order (1, 8, 4, 5, 2, 7, 3, 6 for 8): neighbours meet in round one, and
    the best seeds as late as possible."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def first_round(seeded: Sequence[int]) -> list[tuple[int, ...]]:
    """Round one: pairs by bracket position; a seed whose opponent does not exist has a bye
    (a table of one)."""
    size = bracket_size(len(seeded))
    order = bracket_order(size)
    tables = []
    for top, bottom in zip(order[::2], order[1::2], strict=True):
        pair = [seeded[seed - 1] for seed in (top, bottom) if seed <= len(seeded)]
        tables.append(tuple(pair))
    return tables


def next_round(winners: Sequence[int]) -> list[tuple[int, ...]]:
    """The winners of neighbouring matches meet (the previous round's table order)."""
    return [tuple(winners[index : index + 2]) for index in range(0, len(winners), 2)]


def match_winner(
    players: Sequence[int],
    places: Sequence[int] | None,
    seeds: dict[int, int],
    withdrawn: set[int],
) -> int:
    """Who goes through: the better place; level, the higher seed. A withdrawn player does not
    go through while their opponent is still in (a walkover)."""
    if len(players) == 1:
        return players[0]
    order = list(range(len(players)))
    order.sort(
        key=lambda i: (
            players[i] in withdrawn,
            places[i] if places is not None else 0,
            seeds.get(players[i], 0),
        )
    )
    return players[order[0]]
