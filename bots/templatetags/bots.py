"""Template tags of the bots app: the review panel beside a replay's turn."""

from __future__ import annotations

from typing import Any

from django import template

from bots import reviews
from bots.forms import TakeoverForm
from bots.margin_chart import margin_chart
from bots.models import Review
from bots.records import record_against_levels
from games.rules import protocol

register = template.Library()


@register.inclusion_tag("bots/_review_panel.html", takes_context=True)
def review_panel(context: dict[str, Any]) -> dict[str, Any]:
    """The player's own review of this finished game at the replay's turn: the button that
    asks for it, its progress, or its entries for this turn and the list of all of them.
    Nothing for anyone who did not play the game: a review is its player's own."""
    request, game, replay = context["request"], context["game"], context["replay"]
    seat, review = reviews.own_review(game, request.user)
    if seat is None:
        return {"show": False}
    rows = []
    if review is not None and review.status == Review.Status.DONE:
        rows = reviews.worded(game, review, replay.turn_starts)
    return {
        "show": True,
        "game": game,
        "review": review,
        "rows": rows,
        "here": [row for row in rows if row["turn"] == replay.turn],
        "turn": replay.turn,
        "csrf_token": context.get("csrf_token"),
        "costliest": reviews.costliest(rows),
        "chart": margin_chart(rows),
        "score_unit": game.engine.look.score_unit,
        "agreed": sum(1 for row in rows if row["agree"]),
    }


@register.inclusion_tag("bots/_level_record.html")
def bot_record(player: Any) -> dict[str, Any]:
    """A profile's record against each bot level the player has met."""
    return {"lines": record_against_levels(player)}


@register.inclusion_tag("bots/_takeover.html", takes_context=True)
def takeover_form(context: dict[str, Any]) -> dict[str, Any]:
    """The account page's choice of the bot that plays a timed-out turn."""
    user = context["request"].user
    form = TakeoverForm()
    preference = getattr(user, "bot_takeover", None) if user.is_authenticated else None
    offered = {level.key for level in form.engine.bot_levels}
    if preference is not None and preference.level in offered:
        form.initial["level"] = preference.level
    return {"form": form, "csrf_token": context.get("csrf_token")}


@register.simple_tag
def bot_level_label(game: Any, bot: str) -> str:
    """A bot seat's level in words ("Strong"), or its stored name for a bot of no level."""
    level = protocol.bot_level(game.engine, bot)
    return str(level.label) if level is not None else bot
