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
from plans.models import Plan, PlanOutcome, StandingOrders
from plans.sandbox import PlanRefused, after_steps, checked_steps, next_choices, sandbox


class NoSuchPlan(GameError):
    """Someone else's plan, or one of a game that is not there: it does not exist for the
    asker (404, never 403), so an outsider learns nothing, as games.access does."""

    status = 404


def _my_seat(game: Game, user: Any, seats: Sequence[Seat] | None = None) -> Seat:
    if not getattr(user, "is_authenticated", False):
        raise NotInGame(_("Sign in to plan a turn."))
    seats = game.seats_for_page() if seats is None else seats
    mine = next((s for s in seats if s.user_id == user.pk), None)
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


def standing_orders_of(game_id: int, user: Any) -> list[dict[str, Any]]:
    """The engine's standing orders, each with the user's choice ("key", "label", "on")."""
    game = _game(game_id)
    number = _my_number(game, user)
    row = StandingOrders.objects.filter(game=game, seat=number, user=user).first()
    chosen = set(row.orders) if row else set()
    return [
        {"key": order.key, "label": str(order.label), "on": order.key in chosen}
        for order in game.engine.standing_orders
    ]


def set_standing_orders(game_id: int, user: Any, keys: Sequence[str]) -> list[str]:
    """Switch on exactly these standing orders (the rest off); a GameError says why not."""
    with transaction.atomic():
        game = _game(game_id, lock=True)
        number = _my_number(game, user)
        if game.is_finished:
            raise Conflict(_("This game is over; standing orders no longer apply."))
        known = [order.key for order in game.engine.standing_orders]
        unknown = [key for key in keys if key not in known]
        if unknown:
            raise RequestRefused(
                _("This game has no standing order “%(key)s”.") % {"key": str(unknown[0])[:40]}
            )
        orders = [key for key in known if key in keys]
        StandingOrders.objects.update_or_create(
            game=game, seat=number, defaults={"user": user, "orders": orders}
        )
    return orders


def owners_part(game_id: int, user: Any) -> dict[str, Any]:
    """What the plan page and the API show its owner beside the sandbox: the kept plan, what the
    last plan did (worded, and ``last_outcome`` itself), the standing orders. The game and its
    seats are read once for all three."""
    game = _game(game_id)
    seats = game.seats_for_page()
    mine = {"game_id": game_id, "seat": _my_seat(game, user, seats).number, "user": user}
    outcome = PlanOutcome.objects.filter(**mine).order_by("-pk").first()
    row = StandingOrders.objects.filter(**mine).first()
    chosen = set(row.orders) if row else set()
    return {
        "plan": Plan.objects.filter(**mine).first(),
        "outcome": outcome_words(game, outcome, [s.name for s in seats]) if outcome else None,
        "last_outcome": outcome,
        "orders": [
            {"key": order.key, "label": str(order.label), "on": order.key in chosen}
            for order in game.engine.standing_orders
        ],
    }


def stop_text(game: Game, outcome: PlanOutcome, names: Sequence[str]) -> str:
    """Why the plan stopped, in the active language: the engine's words if it has them."""
    worded = game.engine.plan_why_text(outcome.why, names) if outcome.why else ""
    if worded:
        return worded
    if outcome.reason == "ended":
        return _("your turn had already ended")
    if outcome.reason == "revealed":
        return _("something hidden came to light")
    return _("the game changed and that step no longer holds")


def outcome_words(game: Game, outcome: PlanOutcome, names: Sequence[str]) -> dict[str, Any]:
    """What a plan did, for its owner's eyes: the steps played (as planned), the steps the
    standing orders took, and, if it stopped, before which step (1-based) and why."""
    stopped = outcome.stopped_before
    played, ordered = list(outcome.played), list(outcome.ordered)
    if len(outcome.intents) == len(played) + len(ordered):  # worded in the reader's language
        words = [game.engine.intent_text(intent) for intent in outcome.intents]
        played, ordered = words[: len(played)], words[len(played) :]
    return {
        "played": played,
        "ordered": ordered,
        "in_full": stopped is None,
        "stopped_at": None if stopped is None else stopped + 1,
        "why": "" if stopped is None else stop_text(game, outcome, names),
    }


def outcome_for(game: Game, user: Any, outcome_id: Any) -> PlanOutcome | None:
    """One outcome of the user's own plan in the game (None for anyone else's)."""
    if not isinstance(outcome_id, int):
        return None
    return PlanOutcome.objects.filter(pk=outcome_id, game=game, user_id=user.pk).first()


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
