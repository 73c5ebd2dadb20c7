"""What players hear about a tournament, through the notifications outbox (email, webhook, push
and the inbox alike): their table in each new round (which names the game, and stands in for
the game's own start notice), a bye, a withdrawal, the end with their place, a cancellation.

Called inside the transaction that made the change; the outbox sends after commit. Each key
names the event and the player, so a replayed round or end tells nobody twice.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import translation

from firenze_site.language import language_of_user
from notifications import outbox
from tournaments.models import Entry, Round, Table, Tournament

KIND = "tournament"


def _context(tournament: Tournament, event: str, user: Any, **more: Any) -> dict[str, Any]:
    with translation.override(language_of_user(user)):  # a season's title is worded
        title = tournament.title
    return {
        "event": event,
        "tournament": title,
        "tournament_id": tournament.pk,
        "url": reverse("tournaments:detail", args=[tournament.pk]),
        **more,
    }


def round_started(tournament: Tournament, round_: Round, tables: list[Table]) -> None:
    final = round_.stage == Round.Stage.FINAL
    for table in tables:
        seats = list(table.seats.select_related("entry__user"))
        for seat in seats:
            user = seat.entry.user
            if user is None:
                continue
            key = f"tournament:{tournament.pk}:round:{round_.number}:{user.pk}"
            if table.game_id is None:
                context = _context(tournament, "bye", user, round=round_.number)
                outbox.notify(user, KIND, key=key, context=context)
                continue
            mates = [s.entry.name for s in seats if s is not seat]
            context = _context(
                tournament, "round", user, round=round_.number, table=table.number,
                mates=mates, final=final,
            )  # fmt: skip
            outbox.notify(user, KIND, game=table.game, key=key, context=context)


def withdrawn(entry: Entry) -> None:
    if entry.user is None:
        return
    tournament = entry.tournament
    key = f"tournament:{tournament.pk}:withdrawn:{entry.user_id}"
    outbox.notify(entry.user, KIND, key=key, context=_context(tournament, "withdrawn", entry.user))


def finished(tournament: Tournament, entries: list[Entry]) -> None:
    count = len(entries)
    for entry in entries:
        if entry.user is None or entry.final_place is None:
            continue
        key = f"tournament:{tournament.pk}:over:{entry.user_id}"
        context = _context(tournament, "over", entry.user, place=entry.final_place, players=count)
        outbox.notify(entry.user, KIND, key=key, context=context)


def cancelled(tournament: Tournament, entries: list[Entry]) -> None:
    for entry in entries:
        if entry.user is None:
            continue
        key = f"tournament:{tournament.pk}:cancelled:{entry.user_id}"
        outbox.notify(
            entry.user, KIND, key=key, context=_context(tournament, "cancelled", entry.user)
        )
