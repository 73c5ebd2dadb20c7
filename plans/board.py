"""The planning sandbox drawn as the game page draws a turn: the engine's board, action panel,
hand and players, from the sandbox state of the seat's own view (plans.sandbox), with the
panel's forms posting to the sandbox instead of the game.

The engine's presentation gets a protocol.Seen built from the sandbox's player_view for the
seat, as for a real turn, so the page shows no other seat's hand and no deck order: the
sandbox itself was sampled from what the seat may see.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from games.models import Game, Seat
from games.rules import protocol

PLAN_PAGE = "plans/plan.html"


def steps_query(steps: list[Any]) -> str:
    """The steps taken so far as the query string the sandbox's addresses carry: the page
    keeps no state of its own, so a reload or a form without scripts shows the same sandbox."""
    return "?" + urlencode({"steps": json.dumps(steps, separators=(",", ":"))}) if steps else ""


def _cache_key(seat: int, steps: list[Any]) -> str:
    """What tells this sandbox's board apart in the engine's board cache (keyed by the game's
    version and the replay step): the seat and the steps taken."""
    digest = hashlib.sha256(json.dumps(steps, sort_keys=True).encode()).hexdigest()[:16]
    return f"plan-{seat}-{digest}"


def board_context(
    game: Game,
    seats: list[Seat],
    seat: int,
    state: protocol.State,
    steps: list[Any],
    *,
    going_on: bool,
) -> dict[str, Any]:
    """The engine's parts of the game page for the sandbox after `steps`; choices only while
    the seat may take another step (not after its turn ended or a plan stop)."""
    engine = game.engine
    acting = engine.acting_seat(state)
    mine = going_on and acting == seat
    seen = protocol.Seen(
        view=engine.player_view(state, seat),
        viewer=seat,
        acting=acting,
        choices=engine.legal_actions(state) if mine else [],
        can_undo=False,
        scores=engine.scores(state),
        names=[s.name for s in seats],
        colours=[s.colour for s in seats],
        live=True,
    )
    look = engine.look
    context: dict[str, Any] = {
        "page_parts": look.page_parts,
        "score_template": look.score_template,
        "score_unit": look.score_unit,
        "score_name": look.score_name,
        **engine.page_context(seen),
    }
    query = steps_query(steps)
    context.update(
        game=game,
        seats=seats,
        going_on=going_on,
        player_rows=[(player, None) for player in context["players"]],  # no clocks here
        move_url=reverse("plans:sandbox", args=[game.pk]) + query,
        undo_url=reverse("plans:sandbox_undo", args=[game.pk]) + query,
        replay_step=_cache_key(seat, steps),
        my_turn=mine,
    )
    return context
