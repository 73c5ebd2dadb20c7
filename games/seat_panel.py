"""What the players' panel says beside each seat the engine draws: its clock, an absence, a
resignation, a bot at the seat; and the acting seat's clock and absence for the page's head.

The engine draws its players (protocol page_context's ``players``); the platform's part of each
line is kept here, in rows in seat order that the template puts beside the engine's, so the
engine's own dicts are never written to.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from games.models import Game, Seat, SeatClock


@dataclass(frozen=True)
class SeatRow:
    clock: SeatClock | None
    away_until: datetime | None  # the last day away (None: not away)
    resigned: bool
    bot_plays: bool
    is_bot: bool


@dataclass(frozen=True)
class SeatPanel:
    rows: list[SeatRow]  # in seat order, as the engine's players
    acting_clock: SeatClock | None
    acting_away_until: datetime | None

    def beside(self, players: list[dict[str, Any]]) -> list[tuple[dict[str, Any], SeatRow]]:
        """The engine's players, each with its row."""
        return list(zip(players, self.rows, strict=True))

    def page_part(self, players: list[dict[str, Any]]) -> dict[str, Any]:
        """The game page's part, finished: the rows beside the engine's ``players``, and the
        acting seat's clock and absence for the page's head."""
        return {
            "player_rows": self.beside(players),
            "acting_clock": self.acting_clock,
            "acting_away_until": self.acting_away_until,
        }


def seat_panel(game: Game, seats: list[Seat]) -> SeatPanel:
    """``seats`` as Game.seats_for_page reads them (with their absences): no query."""
    clocks = game.seat_clocks(seats)  # everyone's time left (bank or turn)
    rows = [
        SeatRow(
            clock=clocks.get(seat.number) if seat.number is not None else None,
            away_until=_last_day(_away_until(seat)),
            resigned=seat.has_resigned,
            bot_plays=seat.bot_plays,
            is_bot=seat.is_bot,
        )
        for seat in seats
    ]
    acting = next((s for s in seats if s.number == game.acting_seat), None)
    return SeatPanel(
        rows=rows,
        acting_clock=clocks.get(game.acting_seat) if game.acting_seat is not None else None,
        acting_away_until=_last_day(_away_until(acting)) if acting and game.is_active else None,
    )


def _away_until(seat: Seat) -> datetime | None:
    """When the seat's player is back, annotated by Game.seats_for_page (None: not away)."""
    ends: datetime | None = getattr(seat, "away_until", None)
    return ends


def _last_day(ends: datetime | None) -> datetime | None:
    """An absence ends at midnight of the day the player is back: its last day is the one
    before ("away until Thursday")."""
    return ends - timedelta(microseconds=1) if ends else None
