"""The score breakdown of a finished game: PP by source during play, then the final scoring,
as rows (sources) by columns (players) whose cells add up to each player's total."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from games.rules.firenze.rules.data import COLORS
from games.rules.firenze.wording import card_name, colour_name

IN_PLAY = [
    ("commissions", gettext_lazy("Commissions")),
    ("balconies", gettext_lazy("Balconies")),
    ("level_tiles", gettext_lazy("Level tiles")),
    ("privileges", gettext_lazy("Church privileges")),
    ("end_tile", gettext_lazy("End-of-game tile")),
]


@dataclass
class Row:
    label: str
    cells: list[int]
    kind: str = ""  # "", "majority" (with a colour), "card", "subtotal"
    colour: str = ""
    counts: list[int] = field(default_factory=list)  # cards: copies each player held

    @property
    def shown(self) -> list[tuple[int, int]]:
        """(PP, copies of the card or 0) per player, for the table's cells."""
        return list(zip(self.cells, self.counts or [0] * len(self.cells), strict=True))


@dataclass
class ScoreSheet:
    in_play: list[Row]
    at_end: list[Row]
    totals: list[int]
    winners: list[bool]
    seats: list[int] = field(default_factory=list)  # the seat of each column, in column order

    @property
    def columns(self) -> list[tuple[int, bool]]:
        """(seat, winner) per column."""
        return list(zip(self.seats, self.winners, strict=True))

    @property
    def scoring_rows(self) -> list[Row]:
        """Every row that scores (no subtotals): these add up to the totals."""
        return [r for r in self.in_play + self.at_end if r.kind != "subtotal"]


def ranked(final: list[dict[str, Any]], order: list[int] | None = None) -> list[int]:
    """The seats in the ranking's order: `order` (the platform's standings, which know who
    resigned) when given, else winners first, then by total, then by seat."""
    seats = range(len(final))
    if order and sorted(order) == list(seats):
        return list(order)
    return sorted(seats, key=lambda i: (not final[i].get("winner"), -final[i]["total"], i))


def score_sheet(
    final: list[dict[str, Any]], order: list[int] | None = None, won: set[int] | None = None
) -> ScoreSheet:
    """From the final scores the engine's player_view gives (one dict per seat, in seat order):
    one column per player, in the ranking's order, so the winner's column comes first.
    ``won``: the seats the platform's standings call winners (a resigned seat never wins);
    without it, the engine's own."""
    seats = ranked(final, order)
    winners = [(i in won) if won is not None else bool(final[i].get("winner")) for i in seats]
    final = [final[i] for i in seats]
    in_play = [Row(str(label), [p["earned"][key] for p in final]) for key, label in IN_PLAY]
    in_play.append(Row(gettext("In play"), [p["pp_in_game"] for p in final], kind="subtotal"))
    at_end = [
        Row(
            gettext("%(colour)s majority") % {"colour": colour_name(colour).capitalize()},
            [p["majority"].get(colour, 0) for p in final],
            kind="majority",
            colour=colour,
        )
        for colour in COLORS
        if any(colour in p["majority"] for p in final)
    ]
    cards = sorted({c["card"] for p in final for c in p["celebrations"]})
    for card in cards:
        held = [[c for c in p["celebrations"] if c["card"] == card] for p in final]
        at_end.append(
            Row(
                card_name(card),
                [sum(c["pp"] for c in h) for h in held],
                kind="card",
                counts=[len(h) for h in held],
            )
        )
    return ScoreSheet(
        in_play=in_play,
        at_end=at_end,
        totals=[p["total"] for p in final],
        winners=winners,
        seats=seats,
    )
