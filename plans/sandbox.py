"""Checking a plan against the sandbox of the seat's own view: every step one the sandbox
allowed, all within one turn, none after something hidden would come to light."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.rules.protocol import Action, Engine, State

MAX_STEPS = 40  # more than any turn of the engines here takes


class PlanRefused(ValueError):
    """The plan cannot be kept; the message says why, for the player."""


def sandbox(engine: Engine, view: dict[str, Any], seat: int, seed: int) -> State:
    state = engine.plan_sandbox(view, seat, random.Random(seed))
    if state is None:
        raise PlanRefused(_("This game offers no planning now."))
    return state


def after_steps(
    engine: Engine, start: State, seat: int, actions: Sequence[Any]
) -> tuple[State, bool]:
    """The sandbox after these steps (checked as checked_steps does), and whether the seat may
    take another: not once the turn ended or something hidden would come to light."""
    state = start
    if actions:
        checked_steps(engine, start, seat, actions)
        for action in actions:
            after = engine.apply_action(state, action)
            if engine.plan_stop(state, after, seat):
                return after, False
            state = after
    return state, engine.acting_seat(state) == seat and len(actions) < MAX_STEPS


def next_choices(
    engine: Engine, start: State, seat: int, actions: Sequence[Any]
) -> list[dict[str, Any]]:
    """What the sandbox offers after these steps: each legal action with its words; none
    once the turn ended or something hidden would come to light (the plan stops there)."""
    state, going_on = after_steps(engine, start, seat, actions)
    if not going_on:
        return []
    return [
        {"action": action, "text": engine.intent_text(engine.plan_intent(state, action))}
        for action in engine.legal_actions(state)
    ]


def checked_steps(
    engine: Engine, start: State, seat: int, actions: Sequence[Any]
) -> list[dict[str, Any]]:
    """The plan's steps with their intents and words; PlanRefused for a step the sandbox
    would not allow, a step after the turn ends or after something hidden comes to light."""
    if not actions:
        raise PlanRefused(_("A plan needs at least one step."))
    if len(actions) > MAX_STEPS:
        raise PlanRefused(_("A plan cannot have more steps than a turn."))
    state, steps = start, []
    for number, action in enumerate(actions, start=1):
        if engine.acting_seat(state) != seat:
            raise PlanRefused(_("Step %(n)s comes after your turn has ended.") % {"n": number})
        legal: list[Action] = engine.legal_actions(state)
        if action not in legal:
            raise PlanRefused(_("Step %(n)s is not possible at that point.") % {"n": number})
        intent = engine.plan_intent(state, action)
        after = engine.apply_action(state, action)
        steps.append({"intent": intent, "text": engine.intent_text(intent)})
        if number < len(actions) and engine.plan_stop(state, after, seat):
            raise PlanRefused(
                _("Step %(n)s reveals something hidden: a plan stops there.") % {"n": number}
            )
        state = after
    return steps
