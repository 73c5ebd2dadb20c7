"""Playing a plan when its turn comes, inside the transaction (and under the game's lock) of
the move that passed the turn: each step goes through games.play.store_step like any move, so
a hand move, a bot or a timeout racing it finds the version moved on. The plan row is claimed
by deleting it, so it is played once or not at all.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db.models import Max

from games import events
from games.models import Game, Move, Seat
from games.play import store_step
from games.rules import moves
from plans.models import Plan, PlanOutcome, StandingOrders
from plans.sandbox import MAX_STEPS

log = logging.getLogger(__name__)


def on_turn_passed(sender: Any, game: Game, seats: list[Seat] | None = None, **kw: Any) -> None:
    seat = game.acting_seat
    if seat is None or game.is_finished:
        return
    plan = Plan.objects.filter(game=game, seat=seat).first()
    if plan is None:
        return
    claimed, _rows = Plan.objects.filter(pk=plan.pk).delete()
    if not claimed:
        return
    owner = Seat.objects.filter(game=game, number=seat, user_id=plan.user_id).first()
    if owner is None or owner.resigned_at is not None:
        return
    orders = StandingOrders.objects.filter(game=game, seat=seat, user_id=plan.user_id).first()
    run(game, plan, seats, orders.orders if orders else [])


def run(
    game: Game, plan: Plan, seats: list[Seat] | None, orders: list[str] | None = None
) -> PlanOutcome:
    """Play the plan's steps while each still holds, then (if it held to the end) the owner's
    standing orders; keep what happened for its owner and publish it (to the owner alone)."""
    engine = game.engine
    played: list[str] = []
    stopped_before: int | None = None
    reason = ""
    why: dict[str, Any] = {}
    intents: list[dict[str, Any]] = []
    start_version = game.version
    for index, planned in enumerate(plan.steps):
        state = game.load_state()
        if engine.acting_seat(state) != plan.seat:
            stopped_before, reason = index, "ended"
            break
        action = next(
            (
                legal
                for legal in engine.legal_actions(state)
                if engine.plan_intent(state, legal) == planned["intent"]
            ),
            None,
        )
        if action is None:
            stopped_before, reason = index, "changed"
            why = engine.plan_why(
                state, planned["intent"], plan.seat, _since(game, plan.seat, start_version)
            )
            break
        step = moves.step_of(engine, state, action, engine.apply_action(state, action))
        store_step(game, plan.seat, step, seats=seats)
        played.append(planned["text"])
        intents.append(planned["intent"])
        stop = engine.plan_stop(state, step.after, plan.seat)
        if stop and index + 1 < len(plan.steps):
            stopped_before, reason, why = index + 1, stop, {"key": stop}
            break
    ordered = _standing(game, plan.seat, orders or [], seats) if stopped_before is None else []
    intents += [intent for intent, _text in ordered]
    outcome = PlanOutcome.objects.create(
        game=game,
        seat=plan.seat,
        user_id=plan.user_id,
        played=played,
        planned=len(plan.steps),
        stopped_before=stopped_before,
        reason=reason,
        why=why,
        ordered=[text for _intent, text in ordered],
        intents=intents,
    )
    events.plan_played.send(
        Game,
        game=game,
        seat=plan.seat,
        user_id=plan.user_id,
        outcome_id=outcome.pk,
        in_full=outcome.in_full,
    )
    return outcome


def _standing(
    game: Game, seat: int, orders: list[str], seats: list[Seat] | None
) -> list[tuple[dict[str, Any], str]]:
    """Play the standing orders the owner switched on, in the engine's order, while one of them
    has a step to take on the seat's turn (each a legal action, stored like any move): each
    step's intent and words."""
    engine = game.engine
    keys = [order.key for order in engine.standing_orders if order.key in orders]
    taken: list[tuple[dict[str, Any], str]] = []
    while keys and len(taken) < MAX_STEPS:
        state = game.load_state()
        if engine.acting_seat(state) != seat:
            break
        action = next(
            (a for key in keys if (a := engine.standing_action(state, seat, key)) is not None),
            None,
        )
        if action is None or action not in engine.legal_actions(state):
            break
        step = moves.step_of(engine, state, action, engine.apply_action(state, action))
        store_step(game, seat, step, seats=seats)
        intent = engine.plan_intent(state, action)
        taken.append((intent, engine.intent_text(intent)))
        if engine.plan_stop(state, step.after, seat):
            break
    return taken


def _since(game: Game, seat: int, upto: int) -> list[str]:
    """The public log lines of the moves played between the seat's last move and the plan."""
    mine = Move.objects.filter(game=game, seat=seat, seq__lte=upto).aggregate(last=Max("seq"))
    rows = Move.objects.filter(game=game, seq__gt=mine["last"] or 0, seq__lte=upto)
    return [line for log_lines in rows.values_list("log", flat=True) for line in log_lines]
