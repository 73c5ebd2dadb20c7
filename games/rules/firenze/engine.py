"""Firenze as the platform sees it: the engine protocol of games.rules.protocol (its rules,
presentation and records), implemented by delegating to the pure rules package and this app's
presenters. Registered by FirenzeConfig, where mypy checks it against the protocol."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games.rules.firenze import (
    bot_words,
    forms,
    plan_words,
    presenters,
    records,
    rules,
    rules_help,
    since_words,
)
from games.rules.firenze.log_words import word_line
from games.rules.firenze.refusals import illegal_action_text
from games.rules.firenze.rules import levels, planned
from games.rules.firenze.rules.data import COLORS
from games.rules.firenze.rules.review import estimate_lines, review_game
from games.rules.firenze.rules.strong import Budget
from games.rules.protocol import (
    Bot,
    BotLevel,
    ChangesSince,
    Look,
    RecordFacet,
    Seen,
    StandingOrder,
)

# Player seals, distinct from the brick colours on the board.
SEAT_COLOURS = ["black", "orange", "teal", "pink"]


class FirenzeEngine:
    name = rules.ENGINE_NAME
    rules_version = rules.RULES_VERSION
    min_players = 2
    max_players = 4
    # Every level by name, and the names stored games use: "greedy" (the Standard bot's old
    # name) and "random". Each one decides from the acting seat's view alone (rules/levels.py).
    bots: Mapping[str, Bot] = dict(levels.BOTS)
    default_bot = levels.DEFAULT_LEVEL
    illegal_action = rules.IllegalAction
    look = Look(
        title="Firenze",
        tagline=gettext_lazy("Firenze — build the towers of Florence, one turn at a time."),
        pitch=gettext_lazy(
            "Build the towers of Renaissance Florence with friends, at your own pace."
        ),
        score_unit=pgettext_lazy("prestige points", "PP"),
        score_name=gettext_lazy("Prestige points"),
        seat_colours=SEAT_COLOURS,
        # Bots are named after Florentines: distinct in a game, readable in a log, and with
        # distinct initials so their seals (BL, BC, BF) tell them apart.
        bot_names=("Lorenzo", "Cosimo", "Filippo", "Giotto", "Matilde", "Dante"),
        page_parts={
            part: f"firenze/parts.html#{part}"
            for part in ("board", "turn", "phases", "actions", "hand", "player", "options", "hands")
        },
        score_template="firenze/_score_breakdown.html",
        rules_template="firenze/rules.html",
    )

    def __init__(self, strong_seconds: float | None = None) -> None:
        """`strong_seconds`: the Strong bot's CPU time per decision (settings.BOTS_THINK_SECONDS;
        None keeps the engine's own budget)."""
        if strong_seconds is not None:
            self.bots = {**self.bots, "strong": levels.bot("strong", Budget(strong_seconds))}

    # --- rules ------------------------------------------------------------------------------

    def normalise_options(
        self, num_players: int, options: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        """Every default filled in; ValueError (with a message for people) for bad ones."""
        normal: dict[str, Any] = rules.to_dict(rules.new_game(num_players, 0, options))["options"]
        return normal

    def new_game(
        self, num_players: int, seed: int, options: Mapping[str, Any] | None
    ) -> rules.State:
        return rules.new_game(num_players, seed, options)

    def legal_actions(self, state: rules.State) -> list[dict[str, Any]]:
        return rules.legal_actions(state)

    def apply_action(self, state: rules.State, action: dict[str, Any]) -> rules.State:
        return rules.apply_action(state, action)

    def acting_seat(self, state: rules.State) -> int | None:
        return rules.acting_seat(state)

    def is_over(self, state: rules.State) -> bool:
        return rules.is_over(state)

    def can_undo(self, state: rules.State) -> bool:
        return rules.can_undo(state)

    def progress(self, state: rules.State) -> float:
        return rules.progress(state)

    def scores(self, state: rules.State) -> list[int]:
        return rules.scores(state)

    def winners(self, state: rules.State) -> list[int]:
        return rules.winners(state)

    def player_view(self, state: rules.State, seat: int | None) -> dict[str, Any]:
        return rules.player_view(state, seat)

    def step(self, state: rules.State) -> int:
        return state.step

    def turn_no(self, state: rules.State) -> int:
        return state.turn_no

    def log_tokens(self, state: rules.State) -> list[str]:
        return rules.log_tokens(state)

    def changes(self, before: rules.State, after: rules.State) -> dict[str, Any]:
        return rules.changes(before, after)

    def to_dict(self, state: rules.State) -> dict[str, Any]:
        return rules.to_dict(state)

    def from_dict(self, data: Any) -> rules.State:
        return rules.from_dict(data)

    def review(
        self,
        initial: rules.State,
        actions: Sequence[dict[str, Any]],
        seat: int,
        seconds: float,
    ) -> list[dict[str, Any]]:
        """The seat's card choices and builds beside the Strong bot's (rules/review.py)."""
        return review_game(initial, actions, seat, Budget(seconds=seconds))

    def estimate_lines(
        self,
        state: rules.State,
        seat: int,
        lines: Sequence[Sequence[dict[str, Any]]],
        seconds: float,
    ) -> list[float | None] | None:
        """The lines side by side by the Strong bot, as the review measures (rules/review.py)."""
        if rules.acting_seat(state) != seat:
            return None
        return estimate_lines(state, lines, Budget(seconds=seconds), random.Random(0))

    # --- presentation -----------------------------------------------------------------------

    def page_context(self, seen: Seen) -> dict[str, Any]:
        context = presenters.game_context(seen)
        context["board_hint"] = gettext(
            "You can also click the board: a card to take it, a tower to add a brick, a "
            "commission to fulfil it, a brick to pay with it."
        )
        return context

    def changes_since(
        self, before: dict[str, Any], after: dict[str, Any], seat: int, names: Sequence[str]
    ) -> ChangesSince:
        """What happened since the seat's last move (since_words.py)."""
        return since_words.changes_since(before, after, seat, names)

    def replay_context(self, state: rules.State, names: list[str]) -> dict[str, Any]:
        """Every hand, face up: only ever shown once the game is over."""
        return {"hands": presenters.replay_hands(state, names)}

    def rules_context(self) -> dict[str, Any]:
        return rules_help.rules_context()

    def format_line(self, line: str, names: Sequence[str]) -> str:
        """The line in the reader's language (firenze/log_words.py), names filled in."""
        return rules.format_line(word_line(line), list(names))

    def minor_line(self, line: str) -> bool:
        return rules.minor_line(line)

    def refusal_text(self, exc: Exception) -> str:
        return illegal_action_text(exc)

    def option_fields(self) -> dict[str, Any]:
        return dict(forms.option_fields())

    def options_from_form(self, cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
        return forms.options_from_form(cleaned_data)

    def option_tags(self, options: Mapping[str, Any]) -> list[str]:
        return ["Campanile"] if options.get("campanile") else []

    bot_levels: Sequence[BotLevel] = bot_words.LEVELS

    def review_text(self, entry: Mapping[str, Any]) -> dict[str, str]:
        return bot_words.review_text(entry)

    # --- records ----------------------------------------------------------------------------

    record_facets: Sequence[RecordFacet] = records.FACETS
    seat_tallies: Sequence[str] = COLORS

    def record_details(self, state: rules.State) -> dict[str, Any]:
        return records.record_details(state)

    def describe_record(self, details: Mapping[str, Any]) -> list[str]:
        return records.describe_options(details)

    def career_facts(self, tallies: Mapping[str, int]) -> list[tuple[str, str]]:
        return records.career_facts(tallies)

    def score_breakdown(self, state: rules.State) -> list[dict[str, Any]] | None:
        """Each seat's final PP by source, once the game reached its final scoring."""
        if not rules.is_over(state):
            return None
        breakdown: list[dict[str, Any]] = rules.player_view(state, None)["final"]["players"]
        return breakdown

    # --- planned turns --------------------------------------------------------------------

    def plan_sandbox(
        self, view: dict[str, Any], seat: int, rng: random.Random
    ) -> rules.State | None:
        return planned.sandbox(view, seat, rng)

    def plan_intent(self, state: rules.State, action: dict[str, Any]) -> dict[str, Any]:
        return planned.intent(state, action)

    def plan_stop(self, before: rules.State, after: rules.State, seat: int) -> str | None:
        return planned.stop(before, after, seat)

    def plan_why(
        self, state: rules.State, intent: Mapping[str, Any], seat: int, since: Sequence[str]
    ) -> dict[str, Any]:
        return planned.why(state, dict(intent), seat, list(since))

    def standing_action(self, state: rules.State, seat: int, order: str) -> dict[str, Any] | None:
        return planned.standing_action(state, seat, order)

    def intent_text(self, intent: Mapping[str, Any]) -> str:
        return plan_words.intent_text(intent)

    def plan_why_text(self, why: Mapping[str, Any], names: Sequence[str]) -> str:
        return plan_words.why_text(why, names)

    standing_orders: Sequence[StandingOrder] = plan_words.STANDING_ORDERS
