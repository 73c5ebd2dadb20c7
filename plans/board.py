"""The planning sandbox drawn as the game page draws a turn: the engine's board, action panel,
hand and players, from the sandbox state of the seat's own view (plans.sandbox), with the
panel's forms posting to the sandbox instead of the game.

The engine's presentation gets a protocol.Seen built from the sandbox's player_view for the
seat, as for a real turn, so the page shows no other seat's hand and no deck order: the
sandbox itself was sampled from what the seat may see. The "what if" of a finished game
draws the same parts with every hand face up, as the replay does: the game is over.
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


def _cache_key(where: str, steps: list[Any]) -> str:
    """What tells this sandbox's board apart in the engine's board cache (keyed by the game's
    version and the replay step): where it starts from and the steps taken."""
    digest = hashlib.sha256(json.dumps(steps, sort_keys=True).encode()).hexdigest()[:16]
    return f"{where}-{digest}"


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
    query = steps_query(steps)
    return _drawn(
        game,
        seats,
        seat,
        state,
        going_on=going_on,
        move_url=reverse("plans:sandbox", args=[game.pk]) + query,
        undo_url=reverse("plans:sandbox_undo", args=[game.pk]) + query,
        cache_key=_cache_key(f"plan-{seat}", steps),
    )


def what_if_query(step: int, steps: list[Any]) -> str:
    """The what-if's replay step and tried steps as its addresses carry them."""
    fields: dict[str, Any] = {"step": step}
    if steps:
        fields["steps"] = json.dumps(steps, separators=(",", ":"))
    return "?" + urlencode(fields)


def what_if_context(
    game: Game,
    seats: list[Seat],
    seat: int | None,
    state: protocol.State,
    step: int,
    steps: list[Any],
    *,
    going_on: bool,
) -> dict[str, Any]:
    """The same parts for the what-if of a finished game, with every hand face up (the
    engine's replay context: the game is over, nothing is secret any more) and the forms
    posting to the what-if's own endpoints."""
    query = what_if_query(step, steps)
    context = _drawn(
        game,
        seats,
        seat,
        state,
        going_on=going_on and seat is not None,
        move_url=reverse("plans:what_if_step", args=[game.pk]) + query,
        undo_url=reverse("plans:what_if_undo", args=[game.pk]) + query,
        cache_key=_cache_key(f"what-if-{step}", steps),
    )
    context.update(game.engine.replay_context(state, [s.name for s in seats]))
    # Whoever looks, the seat trying the line is not "you": nobody is seated in a what-if.
    context["player_rows"] = [({**p, "is_me": False}, None) for p, _row in context["player_rows"]]
    return context


def _drawn(
    game: Game,
    seats: list[Seat],
    seat: int | None,
    state: protocol.State,
    *,
    going_on: bool,
    move_url: str,
    undo_url: str,
    cache_key: str,
) -> dict[str, Any]:
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
    context.update(
        game=game,
        seats=seats,
        going_on=going_on,
        player_rows=[(player, None) for player in context["players"]],  # no clocks here
        move_url=move_url,
        undo_url=undo_url,
        replay_step=cache_key,
        my_turn=mine,
    )
    return context
