""" "What if" after the game: from any step of a finished game's replay, try another line in a
sandbox of the full state (every hand shown: the game is over, nothing is secret any more) and
compare it with what was played, by the game's own figures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.errors import GameError, RequestRefused
from games.models import Game, Move
from plans.sandbox import MAX_STEPS


class NoWhatIf(GameError):
    """No such finished game: a 404 with a message that says why."""

    status = 404


@dataclass
class WhatIf:
    step: int
    seat: int | None
    tried: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    choices: list[dict[str, Any]] = field(default_factory=list)
    margin_tried: int | None = None
    margin_played: int | None = None
    state: Any = None  # the full state after the tried steps: the board draws it
    going_on: bool = False  # the seat may take another step


def margin(scores: list[int], seat: int) -> int:
    """The seat's points minus the best other player's, as the post-game review reads a
    position (bots.reviews.margin; plans stand below bots and cannot import it)."""
    others = [score for i, score in enumerate(scores) if i != seat]
    return scores[seat] - max(others, default=0)


def finished_game(pk: int) -> Game:
    """The game, if it is finished; else a refusal that says a "what if" waits for the end."""
    game = Game.objects.filter(pk=pk).first()
    if game is None:
        raise NoWhatIf(_("There is no such game."))
    if not game.is_finished:
        raise NoWhatIf(_("A “what if” opens only once the game is over."))
    return game


def build(game: Game, step: int, actions: Sequence[Any]) -> WhatIf:
    """The sandbox at this step after the tried actions, beside the turn actually played."""
    moves = list(Move.objects.filter(game=game).order_by("seq").values_list("seat", "action"))
    if not 0 <= step < len(moves):
        raise RequestRefused(
            _("There is no step %(step)s to try from: steps run from 0 to %(last)s.")
            % {"step": step, "last": max(0, len(moves) - 1)}
        )
    if len(actions) > MAX_STEPS:
        raise RequestRefused(_("A plan cannot have more steps than a turn."))
    engine = game.engine
    state = game.initial_state()
    for _seat, action in moves[:step]:
        state = engine.apply_action(state, action)
    seat = engine.acting_seat(state)
    result = WhatIf(step=step, seat=seat)
    played_state = state
    for mover, action in moves[step:]:
        if mover != seat:
            break
        result.played.append(engine.intent_text(engine.plan_intent(played_state, action)))
        played_state = engine.apply_action(played_state, action)
    tried_state = state
    for number, action in enumerate(actions, start=1):
        if engine.acting_seat(tried_state) != seat or action not in engine.legal_actions(
            tried_state
        ):
            raise RequestRefused(_("Step %(n)s is not possible at that point.") % {"n": number})
        result.tried.append(engine.intent_text(engine.plan_intent(tried_state, action)))
        tried_state = engine.apply_action(tried_state, action)
    result.state = tried_state
    result.going_on = seat is not None and engine.acting_seat(tried_state) == seat
    if result.going_on:
        result.choices = [
            {"action": a, "text": engine.intent_text(engine.plan_intent(tried_state, a))}
            for a in engine.legal_actions(tried_state)
        ]
    if seat is not None and actions:
        result.margin_tried = margin(list(engine.scores(tried_state)), seat)
        result.margin_played = margin(list(engine.scores(played_state)), seat)
    return result
