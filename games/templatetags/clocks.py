"""Everyone's clock on a page: each seat's time left and the game's expected end.

For any page that lists games or seats (the game page's strip, My games, an inbox, a
tournament table), without a query per game: the values come from Game.seat_clocks and
Game.expected_end, which read only the game's row and its seats.

    {% load clocks %}
    {% seat_clock game seat as c %}{% if c %}{{ c.left|clock_words }}{% endif %}
    {% clock_badge game seat %}      the seat's time left as a small badge, with its deadline
    {{ game|expected_end_words }}    "about 3 weeks left" (empty while unknown)
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from games.models import Game, SeatClock
from games.timecontrol import clock_words, pace_words

register = template.Library()

register.filter("clock_words", clock_words)


@register.filter
def expected_end_words(game: Game) -> str:
    end = game.expected_end()
    return pace_words(end - timezone.now()) if end is not None else ""


@register.simple_tag
def seat_clock(game: Game, seat: Any) -> SeatClock | None:
    """The seat's clock (Game.time_left), or None when it shows nothing."""
    return game.time_left(seat)


@register.inclusion_tag("games/_seat_clock.html")
def clock_badge(game: Game, seat: Any) -> dict[str, Any]:
    return {"clock": game.time_left(seat)}
