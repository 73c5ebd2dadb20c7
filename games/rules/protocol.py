"""The one seam between the platform and a game: the engine protocol.

The lobby, the clock, the move service, e-mails, profiles, replays and exports know a game
only through an `Engine` (like open_spiel's Game/State or boardgame.io's Game object): they
never import a game's package. A game's Django app registers its engine when the app is
ready; `Game.engine` looks up the engine a stored game was created with, by name and rules
version, so a finished game keeps replaying under the rules it was played by.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from django.utils.functional import Promise

# An engine's state is opaque to the platform: it passes it back to the same engine only.
State = Any
Action = dict[str, Any]
Bot = Callable[[State, random.Random], Action]


@dataclass(frozen=True)
class RecordFacet:
    """Something the history of finished games can be filtered by (a game option, say): the
    query parameter and its choices, ("", "any") first. A record keeps the values of its
    game's facets (Engine.record_details) in one short indexed column (players.GameRecord)."""

    key: str
    label: str
    choices: Sequence[tuple[str, str]]


@dataclass(frozen=True)
class BotLevel:
    """One level of an engine's bots, as the create form, the levels page and profiles show it:
    `key` is stored in Seat.bot (and in `Engine.bots`), `aliases` are older stored names of the
    same bot, `label` and `summary` (how it plays, a sentence) are in the reader's language."""

    key: str
    label: str | Promise
    summary: str | Promise
    aliases: Sequence[str] = ()


def bot_level(engine: Engine, bot: str) -> BotLevel | None:
    """The level a stored bot name plays at (its key or an alias), None for none."""
    return next((lv for lv in engine.bot_levels if bot == lv.key or bot in lv.aliases), None)


def facet_text(values: Mapping[str, str]) -> str:
    """The stored form of a record's facet values: ";key=value;" per facet, sorted."""
    return "".join(f";{key}={values[key]};" for key in sorted(values))


def facet_token(key: str, value: str) -> str:
    """What a record's facet text contains when that facet has that value."""
    return f";{key}={value};"


@runtime_checkable
class Engine(Protocol):
    """What the platform may ask of a game. Every method is pure: state in, value out."""

    name: str  # stored with every game and written into exports
    rules_version: str  # raised whenever a change would replay a stored move log differently
    title: str  # the game's name for people ("Firenze")
    min_players: int
    max_players: int
    seat_colours: Sequence[str]  # one per seat, distinct from anything drawn on the board
    bots: Mapping[str, Bot]  # by the name stored in Seat.bot
    default_bot: str  # a new bot seat's level, and who plays a seat taken over by default
    bot_levels: Sequence[BotLevel]  # the levels people choose from, weakest first
    bot_names: Sequence[str]  # what seated bots are called, in order, at least max_players
    illegal_action: type[Exception]  # what apply_action raises; refusal_text words it
    # The engine's parts of the platform's game page (templates/games/game.html says where
    # each goes): template names by part, "board" required; "actions", "hand", "player",
    # "turn", "phases" and "css" (a static stylesheet) optional; "options" (a forming game's
    # options in words, `game.options`) for the page of a game still forming; "hands" (every
    # hand, face up, from replay_context) for the replay of a finished game.
    page_parts: Mapping[str, str]
    score_template: str  # the final score breakdown (page and replay), "" for none
    score_unit: str  # what a score is counted in, short (e.g. "PP"), in the reader's language
    score_name: str  # the same in full
    tagline: str  # the game in one line, in the reader's language (every page's footer)
    pitch: str  # the game in a sentence for a newcomer (the home page)
    rules_template: str  # the rules page

    # --- options: read by the create form, normalised for storage -------------------------
    def option_fields(self) -> dict[str, Any]: ...
    def options_from_form(self, cleaned_data: Mapping[str, Any]) -> dict[str, Any]: ...
    def normalise_options(self, num_players: int, options: dict[str, Any] | None) -> dict: ...

    # --- play -----------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: dict[str, Any] | None) -> State: ...
    def legal_actions(self, state: State) -> list[Action]: ...
    def apply_action(self, state: State, action: Action) -> State: ...
    def refusal_text(self, exc: Exception) -> str:
        """Why apply_action refused (its illegal_action exception), in the active language:
        the engine stays language-free, its adapter words the reason for the player."""
        ...

    def acting_seat(self, state: State) -> int | None: ...
    def is_over(self, state: State) -> bool: ...
    def scores(self, state: State) -> list[int]: ...
    def winners(self, state: State) -> list[int]: ...
    def can_undo(self, state: State) -> bool: ...
    def step(self, state: State) -> int: ...
    def turn_no(self, state: State) -> int: ...
    def first_seat(self, state: State) -> int | None: ...

    # --- what may be shown ----------------------------------------------------------------
    def player_view(self, state: State, seat: int | None) -> dict[str, Any]: ...
    def to_dict(self, state: State) -> dict[str, Any]: ...
    def from_dict(self, data: Any) -> State: ...
    def ended_normally(self, data: Any) -> bool: ...
    def log_tokens(self, state: State) -> list[str]: ...
    def format_line(self, line: str, names: Sequence[str]) -> str: ...
    def changes(self, before: State, after: State) -> dict[str, Any]: ...
    def score_breakdown(self, state: State) -> list[dict[str, Any]] | None: ...
    def record_details(self, state: State) -> dict[str, Any]:
        """What a finished game's record keeps beyond places and points: "game" (a small dict,
        shown by describe_record), "facets" (the value of each of record_facets) and "seats"
        (a small dict per seat, with ints summed by a profile for seat_tallies)."""
        ...

    def option_tags(self, options: Mapping[str, Any]) -> list[str]:
        """A game's notable options as short tags, for the list of open games."""
        ...

    # --- history and profiles: what records keep and show ------------------------------------
    record_facets: Sequence[RecordFacet]
    seat_tallies: Sequence[str]  # the per-seat counts a profile sums over a player's games

    def describe_record(self, details: Mapping[str, Any]) -> list[str]:
        """A record's "game" details in words, for lists of finished games."""
        ...

    def career_facts(self, tallies: Mapping[str, int]) -> list[tuple[str, str]]:
        """(label, safe HTML) lines for a profile, from the seat_tallies summed over a
        player's games."""
        ...

    def page_context(
        self,
        state: State,
        viewer: int | None,
        names: list[str],
        colours: list[str],
        moves: list[dict[str, Any]],
    ) -> dict[str, Any]:
        """What the game page draws, from the viewer's seat: at least my_turn, acting_name,
        can_undo, final (the score breakdown or None) and players, one dict per seat with
        seat, name, colour, initial, is_me, is_acting and score (score_change optional); board_hint
        (a line under the choices) optional; anything else the engine's parts read."""
        ...

    def replay_context(self, state: State, names: list[str]) -> dict[str, Any]: ...
    def rules_context(self) -> dict[str, Any]: ...

    # --- post-game review ---------------------------------------------------------------------
    def review(
        self, initial: State, actions: Sequence[Action], seat: int, seconds: float
    ) -> list[dict[str, Any]]:
        """For each decision of `seat` worth reviewing in a finished game (played from
        `initial` by `actions`), what the engine's strongest bot would have done instead,
        judged from that seat's information then: JSON-ready dicts with at least "step" (the
        number of moves played before the decision) and "loss" (the estimated points the
        player's choice gave away against the bot's, 0 when they agree). `seconds` is the
        thinking time per decision. An engine without a review returns []."""
        ...

    def review_text(self, entry: Mapping[str, Any]) -> dict[str, str]:
        """One review entry in the reader's language: "decision" (what was decided),
        "played" (what the player did) and "suggested" (what the bot would have done)."""
        ...


PAGE_TEMPLATE = "games/game.html"  # the game page of every engine, with the engine's parts


def page_names(engine: Engine) -> dict[str, Any]:
    """What the platform's game page and replay take from the engine itself (not its state)."""
    return {
        "page_parts": engine.page_parts,
        "score_template": engine.score_template,
        "score_unit": engine.score_unit,
        "score_name": engine.score_name,
    }
