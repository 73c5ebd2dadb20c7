"""The move service of every engine: validate an action, apply it, canonicalise it, word a
refusal, and say what the move log keeps of the step. Stored games are games.play's business:
this module knows only an engine and a state, so a player's move, a bot's, a timeout's, an
import's and a replay's all go through the same few functions.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from games.rules.protocol import Action, Engine, Rules, State

log = logging.getLogger(__name__)


class Refused(Exception):
    """The rules refuse the action; ``text`` says why, in the active language."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@dataclass(frozen=True)
class Step:
    """One applied action and what the move log keeps of it."""

    action: Action  # as the engine lists it among the legal actions (or as a bot chose it)
    before: State
    after: State
    number: int  # the step's number in the game (1 for the first): Move.seq
    turn: int  # the turn it belongs to
    log: list[str]  # its public log lines, seats as {0}, {1}...
    changes: dict[str, Any]  # what it changed, public parts only (the page's highlights)
    acting_seat: int | None  # who acts after it (None once over)
    over: bool

    def turn_passed(self, before_seat: int | None) -> bool:
        return self.acting_seat != before_seat


def step_of(rules: Rules, before: State, action: Action, after: State) -> Step:
    """The step from ``before`` to ``after`` by ``action``, as the move log keeps it."""
    return Step(
        action=action,
        before=before,
        after=after,
        number=rules.step(after),
        turn=rules.turn_no(before),
        log=rules.log_tokens(after),
        changes=rules.changes(before, after),
        acting_seat=rules.acting_seat(after),
        over=rules.is_over(after),
    )


def play(engine: Engine, state: State, action: Any) -> Step:
    """A player's action, validated and applied; Refused (worded for them) if the rules say no.

    The step keeps the legal action the sent one equals (the engine's own form of it: key
    order, 2 rather than 2.0). An engine that applies an action it does not list has a bug;
    the player is refused rather than shown an error, and the bug is logged."""
    try:
        after = engine.apply_action(state, action)
    except engine.illegal_action as exc:
        raise Refused(engine.refusal_text(exc)) from None
    canonical = next((legal for legal in engine.legal_actions(state) if legal == action), None)
    if canonical is None:
        log.error("engine %s applied %r, which it does not list as legal", engine.name, action)
        raise Refused(gettext("That move is not possible now."))
    return step_of(engine, state, canonical, after)


def bot_step(rules: Rules, state: State, bot: str, rng: random.Random) -> Step:
    """The named bot's step (the engine's default bot for a name it does not know). A bot that
    chooses an illegal action raises the engine's illegal_action: a bug, for the caller to log."""
    choose = rules.bots.get(bot) or rules.bots[rules.default_bot]
    action = choose(state, rng)
    return step_of(rules, state, action, rules.apply_action(state, action))


def replay(rules: Rules, state: State, actions: Iterable[Action]) -> State:
    """The state after the actions of a stored log (each legal when it was stored)."""
    for action in actions:
        state = rules.apply_action(state, action)
    return state
