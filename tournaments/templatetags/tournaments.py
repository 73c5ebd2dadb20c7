"""The tournament on other apps' pages, without those apps importing tournaments: the game page
says which tournament (and round, table) a game belongs to, a profile lists the player's
tournaments and season podiums. One template tag each, a fixed number of indexed queries."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Count, Min

from tournaments.models import Entry, Table, Tournament

register = template.Library()
LATEST = 5
PODIUMS = 12


@register.inclusion_tag("tournaments/_game_note.html")
def tournament_note(game_id: int) -> dict[str, Any]:
    """`{% tournament_note game.pk %}`: one lookup on the tables' unique game index."""
    table = Table.objects.filter(game_id=game_id).select_related("round", "tournament").first()
    return {"table": table}


@register.inclusion_tag("tournaments/_profile.html")
def tournament_record(player: Any) -> dict[str, Any]:
    """`{% tournament_record player %}`: public tournaments finished, the best place and the
    latest ones; the seasons in which the player made the first three."""
    finished = Entry.objects.filter(
        user=player,
        final_place__isnull=False,
        tournament__status=Tournament.Status.FINISHED,
        tournament__is_public=True,
    )
    played = finished.exclude(tournament__format=Tournament.Format.SEASON)
    totals = played.aggregate(played=Count("pk"), best=Min("final_place"))
    best = totals["best"]
    latest = (
        played.select_related("tournament")
        .annotate(players=Count("tournament__entries"))
        .order_by("-tournament__finished_at", "-pk")[:LATEST]
    )
    podiums = (
        finished.filter(tournament__format=Tournament.Format.SEASON, final_place__lte=3)
        .select_related("tournament")
        .order_by("-tournament__season_month", "tournament__table_size")[:PODIUMS]
    )
    return {
        "record": {
            "played": totals["played"],
            "best": best,
            "best_count": played.filter(final_place=best).count() if best else 0,
            "latest": list(latest),
            "podiums": list(podiums),
        }
    }
