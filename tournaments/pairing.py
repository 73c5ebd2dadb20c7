"""Swiss pairing for tables of two, three or four players: a pure function of the players'
scores, seeds, byes and who has met whom.

The rules, as docs/tournaments.md states them for players:

1. Players are ranked by score, then by seed (1 = the highest rating when the tournament began).
2. The round seats everyone at tables of the event's size, a few tables one seat short when the
   count does not divide (`table_sizes`), and gives byes only when even that cannot seat
   everyone (an odd count at 2-player tables, five players at 4-player tables). A bye goes to
   the lowest-ranked player who has not had one yet (the FIDE rule).
3. Tables are filled from the top, by score bracket: the highest-ranked player still unseated
   heads the next table, and the players of their score still unseated are their bracket. A
   bracket of m players at s-player tables makes t = m // s tables, table j taking the bracket's
   players j, j + t, j + 2t, ... (at two seats the top half meets the bottom half: the Dutch
   system's S1 against S2). Those left over float down and sit with the next bracket's best.
4. Nobody meets a player twice if any pairing of the round avoids it. When an ideal table would
   repeat a meeting, the players nearest in rank to the ideal ones are tried instead, the
   lower-ranked first (the Dutch system's transposition), backtracking across tables until the
   whole round works. Only when no repeat-free round exists (or, in a huge field, the search
   runs past its budget) is the round with the fewest repeats found greedily taken instead.

Seats have no colour: which seat a player gets at the table is drawn by the game from its seed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

# The exact search's budget, in players looked at (each table tried costs the players left
# to seat): an exhaustive search of any field of a few dozen players fits, a 1,024-player round
# that needs no backtracking costs about 260,000, and a hopeless search stops within a second.
BUDGET = 2_000_000

Met = Mapping[int, AbstractSet[int]]


@dataclass(frozen=True)
class Entrant:
    """A player to pair: their id, current score, seed (1 = strongest) and byes so far."""

    id: int
    score: Fraction | int
    seed: int
    byes: int = 0


@dataclass(frozen=True)
class Pairing:
    """The round: tables of player ids (each in rank order), the byes, and how many pairs of
    table-mates had met before (0 unless that was unavoidable)."""

    tables: list[tuple[int, ...]]
    byes: list[int]
    repeats: int


class _OverBudget(Exception):
    pass


def ranked(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, e.seed))


def table_sizes(count: int, size: int, smallest: int | None = None) -> tuple[list[int], int]:
    """The sizes of the round's tables (full ones first) and the number of byes: as many full
    tables as can be, the rest one seat short, byes only if that cannot seat everyone.
    ``smallest`` is the least players a game can have (a short table below it is not used)."""
    smallest = max(2, size - 1 if smallest is None else smallest)
    short = size - 1
    for byes in range(count + 1):
        rest = count - byes
        for full in range(rest // size, -1, -1):
            left = rest - full * size
            if left == 0:
                return [size] * full, byes
            if short >= smallest and left % short == 0:
                return [size] * full + [short] * (left // short), byes
    return [], count


def pair_round(
    entrants: Sequence[Entrant],
    met: Met,
    size: int,
    *,
    smallest: int | None = None,
    budget: int = BUDGET,
) -> Pairing:
    """The round's tables and byes (see the module's rules)."""
    order = ranked(entrants)
    sizes, bye_count = table_sizes(len(order), size, smallest)
    search = _Search(met, budget)
    choices = _bye_choices(order, bye_count)
    for byes in choices:
        rest = [e for e in order if e.id not in byes]
        try:
            tables = search.exact(rest, sizes)
        except _OverBudget:
            break
        if tables is not None:
            return Pairing(_ids(tables), _in_rank_order(byes, order), 0)
    byes = next(iter(_bye_choices(order, bye_count)))
    rest = [e for e in order if e.id not in byes]
    tables = _fewest_repeats(rest, sizes, met)
    found = _ids(tables)
    return Pairing(found, _in_rank_order(byes, order), repeats(found, met))


def repeats(tables: Sequence[Sequence[int]], met: Met) -> int:
    """Pairs of table-mates who had met before."""
    return sum(b in met.get(a, ()) for table in tables for a, b in combinations(table, 2))


def _ids(tables: list[tuple[Entrant, ...]]) -> list[tuple[int, ...]]:
    return [tuple(e.id for e in table) for table in tables]


def _in_rank_order(ids: AbstractSet[int], order: list[Entrant]) -> list[int]:
    return [e.id for e in order if e.id in ids]


def _bye_choices(order: list[Entrant], count: int) -> Iterator[frozenset[int]]:
    """Who may sit out, best first: the lowest-ranked among those with the fewest byes."""
    if count == 0:
        yield frozenset()
        return
    candidates = sorted(reversed(order), key=lambda e: e.byes)  # stable: lowest rank first
    for chosen in combinations(candidates, count):
        yield frozenset(e.id for e in chosen)


def _spacing(rest: list[Entrant], size: int) -> int:
    """t of the rules: how far apart the head's ideal table-mates sit in the ranking."""
    head = rest[0].score
    bracket = 0
    for entrant in rest:
        if entrant.score != head:
            break
        bracket += 1
    return bracket // size if bracket >= size else 1


def _nearest(target: int, low: int, high: int) -> Iterator[int]:
    """Indices low..high by distance from target, the higher index (lower rank) first."""
    if low > high:
        return
    target = min(max(target, low), high)
    yield target
    for distance in range(1, high - low + 1):
        if target + distance <= high:
            yield target + distance
        if target - distance >= low:
            yield target - distance
        if target + distance > high and target - distance < low:
            return


class _Search:
    def __init__(self, met: Met, budget: int) -> None:
        self.met = met
        self.left = budget

    def exact(self, rest: list[Entrant], sizes: list[int]) -> list[tuple[Entrant, ...]] | None:
        """A repeat-free round, nearest the ideal; None if there is none. Depth-first with an
        explicit stack (a 1,024-player round is 512 tables deep)."""
        if not rest:
            return []
        stack = [self._choices(rest, sizes)]
        chosen: list[tuple[Entrant, ...]] = []
        while stack:
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                del chosen[len(stack) :]
                continue
            table, remaining, sizes_left = step
            del chosen[len(stack) - 1 :]
            chosen.append(table)
            if not remaining:
                return chosen
            stack.append(self._choices(remaining, sizes_left))
        return None

    def _choices(
        self, rest: list[Entrant], sizes: list[int]
    ) -> Iterator[tuple[tuple[Entrant, ...], list[Entrant], list[int]]]:
        """Every table the head of ``rest`` can sit at, nearest the ideal first, with the
        players and table sizes left after it."""
        for size in sorted(set(sizes), reverse=True):
            spacing = _spacing(rest, size)
            targets = [spacing * seat for seat in range(1, size)]
            sizes_left = list(sizes)
            sizes_left.remove(size)
            for mates in self._mates(rest, targets, [rest[0]], 0):
                self.left -= len(rest)
                if self.left < 0:
                    raise _OverBudget
                taken = set(mates)
                remaining = [e for index, e in enumerate(rest) if index and index not in taken]
                yield (rest[0], *(rest[i] for i in mates)), remaining, sizes_left

    def _mates(
        self, rest: list[Entrant], targets: list[int], table: list[Entrant], after: int
    ) -> Iterator[list[int]]:
        """Indices into ``rest`` (increasing: each set once) of table-mates who have met
        nobody at the table yet."""
        seat = len(table) - 1
        if seat == len(targets):
            yield []
            return
        highest = len(rest) - (len(targets) - seat)
        for index in _nearest(targets[seat], after + 1, highest):
            candidate = rest[index]
            if any(candidate.id in self.met.get(e.id, ()) for e in table):
                continue
            for more in self._mates(rest, targets, [*table, candidate], index):
                yield [index, *more]


def _fewest_repeats(rest: list[Entrant], sizes: list[int], met: Met) -> list[tuple[Entrant, ...]]:
    """No repeat-free round exists: each seat takes the nearest-to-ideal player who has met
    the fewest of those already at the table."""
    tables = []
    rest = list(rest)
    for size in sizes:
        spacing = _spacing(rest, size)
        table = [rest[0]]
        taken = {0}
        for seat in range(1, size):
            best, best_clashes = -1, size
            for index in _nearest(spacing * seat, 1, len(rest) - 1):
                if index in taken:
                    continue
                clashes = sum(rest[index].id in met.get(e.id, ()) for e in table)
                if clashes < best_clashes:
                    best, best_clashes = index, clashes
                    if clashes == 0:
                        break
            taken.add(best)
            table.append(rest[best])
        tables.append(tuple(sorted(table, key=rest.index)))
        rest = [e for index, e in enumerate(rest) if index not in taken]
    return tables
