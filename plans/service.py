"""Reading, setting and dropping one's plan: the only ways in, each for the plan's owner alone.

A plan is set under the game's lock and only while it is not the seat's turn, so it is either
in place when the turn passes to the seat (and played then) or refused: never half of both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict, GameError, NotInGame, RequestRefused
from games.models import Game, Seat
from games.rules import moves
from plans.models import Plan, PlanOutcome
from plans.sandbox import PlanRefused, after_steps, checked_steps, next_choices, sandbox


class NoSuchPlan(GameError):
    """Someone else's plan, or one of a game that is not there: it does not exist for the
    asker (404, never 403), so an outsider learns nothing, as games.access does."""

    status = 404


def _my_seat(game: Game, user: Any) -> Seat:
    if not getattr(user, "is_authenticated", False):
        raise NotInGame(_("Sign in to plan a turn."))
    mine = next((s for s in game.seats_for_page() if s.user_id == user.pk), None)
    if mine is None or mine.number is None:
        raise NoSuchPlan(_("No such game."))
    if mine.resigned_at is not None:
        raise Conflict(_("You resigned this game; a bot plays your seat."))
    return mine


def _my_number(game: Game, user: Any) -> int:
    """The user's seat number in the game (their seat is checked as _my_seat does)."""
    number = _my_seat(game, user).number
    assert number is not None  # _my_seat refuses a seat without a number
    return number


def _game(game_id: int, *, lock: bool = False) -> Game:
    games = Game.objects.select_for_update() if lock else Game.objects
    game = games.filter(pk=game_id).first()
    if game is None:
        raise NoSuchPlan(_("No such game."))
    return game


def sandbox_state(game: Game, seat: int) -> Any:
    """The sandbox of the seat's next turn, from its view alone (seeded by the game's version,
    so the same page shows the same sandbox)."""
    engine = game.engine
    view = engine.player_view(game.load_state(), seat)
    try:
        return sandbox(engine, view, seat, seed=game.pk * 1_000_003 + game.version)
    except PlanRefused as refused:
        raise RequestRefused(str(refused)) from None


def _plannable(game: Game, user: Any) -> int:
    """The user's seat, if they may plan its next turn now; a GameError says why not."""
    mine = _my_seat(game, user)
    if game.is_finished:
        raise Conflict(_("This game is over; there is no next turn to plan."))
    if not game.is_active:
        raise Conflict(_("This game has not started yet."))
    if game.acting_seat == mine.number:
        raise Conflict(_("It is your turn now: play it rather than plan it."))
    assert mine.number is not None
    return mine.number


def sandbox_choices(game_id: int, user: Any, actions: Sequence[Any]) -> list[dict[str, Any]]:
    """What the user's sandbox offers after these planned steps (nothing is kept)."""
    game = _game(game_id)
    seat = _plannable(game, user)
    try:
        return next_choices(game.engine, sandbox_state(game, seat), seat, actions)
    except PlanRefused as refused:
        raise RequestRefused(str(refused)) from None


def step_words(game_id: int, user: Any, actions: Sequence[Any]) -> list[str]:
    """The steps taken so far in the user's sandbox, in words."""
    if not actions:
        return []
    game = _game(game_id)
    seat = _plannable(game, user)
    try:
        steps = checked_steps(game.engine, sandbox_state(game, seat), seat, actions)
    except PlanRefused as refused:
        raise RequestRefused(str(refused)) from None
    return [step["text"] for step in steps]


def set_plan(game_id: int, user: Any, actions: Sequence[Any]) -> Plan:
    """Keep the steps as the user's plan (replacing any); a GameError says why not."""
    with transaction.atomic():
        game = _game(game_id, lock=True)
        seat = _plannable(game, user)
        start = sandbox_state(game, seat)
        try:
            steps = checked_steps(game.engine, start, seat, actions)
        except PlanRefused as refused:
            raise RequestRefused(str(refused)) from None
        plan, _created = Plan.objects.update_or_create(
            game=game, seat=seat, defaults={"user": user, "steps": steps}
        )
    return plan


def drop_plan(game_id: int, user: Any) -> bool:
    """Drop the user's plan of the game; whether there was one."""
    with transaction.atomic():
        game = _game(game_id, lock=True)
        number = _my_number(game, user)
        deleted, _rows = Plan.objects.filter(game=game, seat=number, user=user).delete()
    return bool(deleted)


def plan_of(game_id: int, user: Any) -> Plan | None:
    """The user's plan of the game, if any (for its owner only)."""
    number = _my_number(_game(game_id), user)
    return Plan.objects.filter(game_id=game_id, seat=number, user=user).first()


def last_outcome(game_id: int, user: Any) -> PlanOutcome | None:
    """What the user's last plan in the game did (for its owner only)."""
    number = _my_number(_game(game_id), user)
    return (
        PlanOutcome.objects.filter(game_id=game_id, seat=number, user=user).order_by("-pk").first()
    )


@dataclass
class Sandbox:
    """The user's sandbox after the steps taken: what the planning page draws."""

    game: Game
    seats: list[Seat]
    seat: int
    state: Any
    steps: list[Any]
    words: list[str]  # the steps in words
    going_on: bool  # another step may be taken (the turn goes on, nothing hidden came up)


def open_sandbox(game_id: int, user: Any, actions: Sequence[Any]) -> Sandbox:
    """The user's sandbox after these steps; a GameError says why there is none or why a step
    was never one the sandbox allowed."""
    game = _game(game_id)
    seat = _plannable(game, user)
    engine = game.engine
    start = sandbox_state(game, seat)
    try:
        words = (
            [step["text"] for step in checked_steps(engine, start, seat, actions)]
            if actions
            else []
        )
        state, going_on = after_steps(engine, start, seat, actions)
    except PlanRefused as refused:
        raise RequestRefused(str(refused)) from None
    return Sandbox(game, game.seats_for_page(), seat, state, list(actions), words, going_on)


def take_step(
    game_id: int, user: Any, actions: Sequence[Any], action: Any, version: int
) -> list[Any]:
    """The steps with one more, if the sandbox allows it where they left it: refused as a real
    turn would refuse it (the engine's words), or because the game moved on since the sandbox
    was opened (its version), which starts the sandbox afresh."""
    box = open_sandbox(game_id, user, actions)
    _same_version(box.game, version)
    if not box.going_on:
        raise RequestRefused(
            _("Your turn ends here, or something hidden would come to light: the plan stops here.")
        )
    try:
        step = moves.play(box.game.engine, box.state, action)
    except moves.Refused as refused:
        raise RequestRefused(refused.text) from None
    return [*actions, step.action]


def take_back(game_id: int, user: Any, actions: Sequence[Any], version: int) -> list[Any]:
    """The steps without the last one (undo in the sandbox is always free)."""
    box = open_sandbox(game_id, user, actions)
    _same_version(box.game, version)
    return list(actions[:-1])


def _same_version(game: Game, version: int) -> None:
    if version != game.version:
        raise Conflict(
            _(
                "The game moved on since you opened the sandbox: "
                "it starts again from the new position."
            )
        )
