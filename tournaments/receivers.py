"""The games' events a tournament listens to (games.events; connected in TournamentsConfig):
a game ending ends its table, a timeout counts towards a withdrawal. Both run inside the
transaction that changed the game, so a table's result exists if and only if its game's end
was committed. Games that are no tournament's table cost one indexed lookup."""

from __future__ import annotations

from typing import Any

from games import events
from games.models import Game, Seat
from tournaments import results, withdrawals
from tournaments.models import Table


def game_over(sender: Any, *, game: Game, **kw: Any) -> None:
    table_id = Table.objects.filter(game_id=game.pk).values_list("pk", flat=True).first()
    if table_id is not None:
        results.record_table(table_id, game)


def timed_out(sender: Any, *, game: Game, seat: Seat, **kw: Any) -> None:
    withdrawals.timed_out(game, seat)


RECEIVERS = {events.game_over: game_over, events.timed_out: timed_out}


def connect() -> None:
    for signal, receiver in RECEIVERS.items():
        signal.connect(receiver, sender=Game, dispatch_uid=f"tournaments.{receiver.__name__}")
