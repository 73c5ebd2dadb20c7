"""Playing a plan when its turn comes, inside the transaction (and under the game's lock) of
the move that passed the turn: each step goes through games.play.store_step like any move, so
a hand move, a bot or a timeout racing it finds the version moved on. The plan row is claimed
by deleting it, so it is played once or not at all.
"""

from __future__ import annotations

import logging
from typing import Any

from games.models import Game, Seat
from games.play import store_step
from games.rules import moves
from plans.models import Plan, PlanOutcome

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
    run(game, plan, seats)


def run(game: Game, plan: Plan, seats: list[Seat] | None) -> PlanOutcome:
    """Play the plan's steps while each still holds; keep what happened for its owner."""
    engine = game.engine
    played: list[str] = []
    stopped_before: int | None = None
    reason = ""
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
            break
        step = moves.step_of(engine, state, action, engine.apply_action(state, action))
        store_step(game, plan.seat, step, seats=seats)
        played.append(planned["text"])
        why = engine.plan_stop(state, step.after, plan.seat)
        if why and index + 1 < len(plan.steps):
            stopped_before, reason = index + 1, why
            break
    return PlanOutcome.objects.create(
        game=game,
        seat=plan.seat,
        user_id=plan.user_id,
        played=played,
        planned=len(plan.steps),
        stopped_before=stopped_before,
        reason=reason,
    )
