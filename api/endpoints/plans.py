"""My planned turn of a game (plans): read it, set it, drop it, and ask the sandbox of my own
view what it offers after some steps. Only the plan's owner ever reads it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.http import HttpRequest
from ninja import Router

from api import limits
from api.auth import need_play
from api.endpoints.common import visible_game
from api.schemas import (
    Error,
    GameId,
    PlanIn,
    PlanOut,
    SandboxIn,
    SandboxOut,
    StandingOrdersIn,
)
from games.errors import GameError
from plans import service
from plans.models import Plan, PlanOutcome

router = Router(tags=["plans"])
REFUSED = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 429: Error, 503: Error}
T = TypeVar("T")


def _guarded(request: HttpRequest, pk: int, run: Callable[[], T]) -> T:
    """A refusal about a game the caller may not see is "not found", as for moves."""
    try:
        return run()
    except GameError:
        visible_game(request, pk, with_state=False)
        raise


def _out(
    plan: Plan | None, outcome: PlanOutcome | None, words: dict[str, Any], orders: list[Any]
) -> dict[str, Any]:
    return {
        "steps": [step["text"] for step in plan.steps] if plan else [],
        "last_outcome": None
        if outcome is None
        else {
            "played": words["played"],
            "planned": outcome.planned,
            "stopped_before": outcome.stopped_before,
            "reason": outcome.reason,
            "why": words["why"],
            "ordered": words["ordered"],
        },
        "standing_orders": orders,
    }


def _mine(pk: int, user: Any) -> dict[str, Any]:
    """My plan, what my last plan did and my orders, from one read of the game."""
    part = service.owners_part(pk, user)
    return _out(part["plan"], part["last_outcome"], part["outcome"] or {}, part["orders"])


@router.get("/games/{pk}/plan", response={200: PlanOut, **REFUSED})
def read_plan(request: HttpRequest, pk: GameId) -> dict[str, Any]:
    """My planned next turn in words (empty for none) and what my last plan did."""
    user = request.user
    return _guarded(
        request,
        pk,
        lambda: _mine(pk, user),
    )


@router.put("/games/{pk}/plan", response={200: PlanOut, **REFUSED})
def set_plan(request: HttpRequest, pk: GameId, data: PlanIn) -> dict[str, Any]:
    """Keep these steps (actions the sandbox offered, in order) as my next turn."""
    token = need_play(request)
    limits.consume("move", token.pk)
    user = request.user
    return _guarded(
        request,
        pk,
        lambda: _out(
            service.set_plan(pk, user, data.steps), None, {}, service.standing_orders_of(pk, user)
        ),
    )


@router.delete("/games/{pk}/plan", response={200: PlanOut, **REFUSED})
def drop_plan(request: HttpRequest, pk: GameId) -> dict[str, Any]:
    """Drop my plan (nothing happens if there is none)."""
    token = need_play(request)
    limits.consume("move", token.pk)
    user = request.user
    _guarded(request, pk, lambda: service.drop_plan(pk, user))
    return _guarded(request, pk, lambda: _out(None, None, {}, service.standing_orders_of(pk, user)))


@router.put("/games/{pk}/plan/orders", response={200: PlanOut, **REFUSED})
def set_standing_orders(request: HttpRequest, pk: GameId, data: StandingOrdersIn) -> dict[str, Any]:
    """Switch on exactly these standing orders beside my plan (keys from standing_orders)."""
    token = need_play(request)
    limits.consume("move", token.pk)
    user = request.user

    def kept() -> dict[str, Any]:
        service.set_standing_orders(pk, user, data.orders)
        return _mine(pk, user)

    return _guarded(request, pk, kept)


@router.post("/games/{pk}/plan/sandbox", response={200: SandboxOut, **REFUSED})
def sandbox(request: HttpRequest, pk: GameId, data: SandboxIn) -> dict[str, Any]:
    """What the sandbox of my view offers after these steps (none once the turn would end or
    something hidden would come to light). Nothing is kept."""
    user = request.user
    choices = _guarded(request, pk, lambda: service.sandbox_choices(pk, user, data.steps))
    return {"choices": choices}
