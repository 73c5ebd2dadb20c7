"""The one seam between the platform and a game: the engine protocol, split by who asks.

- `Rules`: the game itself, pure (state in, value out). The move service, the bots, replays,
  imports and the records ask it.
- `Presentation`: what people read and see of the game: its `Look` (names, words, template
  names), the game page's context, log lines and refusals in words, the create form's options.
- `Records`: what the history of finished games and the profiles keep of a game and show.

An `Engine` is all three (like open_spiel's Game/State or boardgame.io's Game object); code
that needs one part takes that part. The platform never imports a game's package: a game's
Django app registers its engine (games.rules.registry) and `Game.engine` finds it by name and
rules version, so a finished game keeps replaying under the rules it was played by. mypy
proves each engine satisfies `Engine` where it is registered (`make lint`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# An engine's state is opaque to the platform: it passes it back to the same engine only.
State = Any
Action = dict[str, Any]
Bot = Callable[[State, random.Random], Action]


class Rules(Protocol):
    """The game itself, pure: every method takes a state (or nothing) and returns a value."""

    name: str  # stored with every game and written into exports
    rules_version: str  # raised whenever a change would replay a stored move log differently
    min_players: int
    max_players: int
    bots: Mapping[str, Bot]  # by the name stored in Seat.bot; each sees only what apply sees
    default_bot: str  # a new bot seat's level, and who plays a seat taken over by default

    @property
    def illegal_action(self) -> type[Exception]:
        """What apply_action raises for a move the rules refuse (Presentation words it)."""
        ...

    def normalise_options(
        self, num_players: int, options: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        """Every default filled in; ValueError (with a message for people) for bad ones."""
        ...

    def new_game(self, num_players: int, seed: int, options: Mapping[str, Any] | None) -> State: ...
    def legal_actions(self, state: State) -> list[Action]: ...
    def apply_action(self, state: State, action: Action) -> State: ...
    def acting_seat(self, state: State) -> int | None: ...  # None once over
    def is_over(self, state: State) -> bool: ...
    def can_undo(self, state: State) -> bool: ...  # may the acting seat take back its last step
    def scores(self, state: State) -> list[int]: ...  # per seat: running, then final
    def winners(self, state: State) -> list[int]: ...
    def progress(self, state: State) -> float | None:
        """The share of the game played, 0 to 1, or None if it cannot tell (the clock's
        expected end at the current pace)."""
        ...

    def player_view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What one seat (None: a watcher) may see: the only picture of a game in progress
        that reaches a page (Presentation.page_context draws from it, never from the state)."""
        ...

    # The move log: each step's number and turn, its public lines (seats as {0}, {1}...) and
    # what it changed (public parts only), stored with the move.
    def step(self, state: State) -> int: ...
    def turn_no(self, state: State) -> int: ...
    def log_tokens(self, state: State) -> list[str]: ...
    def changes(self, before: State, after: State) -> dict[str, Any]: ...

    # Serialisation: the stored state is a cache of the log; from_dict raises ValueError for a
    # dict it cannot read (an older schema), and the game is then replayed from its log.
    def to_dict(self, state: State) -> dict[str, Any]: ...
    def from_dict(self, data: Any) -> State: ...

    # The post-game review (bots.reviews): the strongest bot's second opinion.
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

    def estimate_lines(
        self, state: State, seat: int, lines: Sequence[Sequence[Action]], seconds: float
    ) -> list[float | None] | None:
        """The strongest bot's estimate of each line of `seat`'s steps from `state` (a "what
        if" after the game), judged as the review judges a decision, from the seat's
        information then: the points margin (the seat's points minus the best other
        player's) it expects after the line, one per line (None for a line it found
        unplayable). `seconds`: the thinking time for all of them. An engine without an
        estimate returns None."""
        ...

    # Planned turns (plans): a seat prepares its next turn in a sandbox of its own view and the
    # site plays it when the turn comes, step by step, while each step still means the same.
    def plan_sandbox(self, view: dict[str, Any], seat: int, rng: random.Random) -> State | None:
        """A state for `seat`'s next turn built from its player_view alone (what it cannot see
        drawn at random by `rng`, never read from the real state), with `seat` acting at the
        start of its turn; None if the engine offers no planning now."""
        ...

    def plan_intent(self, state: State, action: Action) -> dict[str, Any]:
        """What `action` means in `state`, JSON-ready and independent of positions that shift
        (a card by name rather than by slot): a planned step holds in the real game when one
        of its legal actions has the same intent."""
        ...

    def plan_stop(self, before: State, after: State, seat: int) -> str | None:
        """Why a plan must stop after this step, or None: "revealed" when something hidden
        came to light (a drawn card, an event), or an engine's own key. The sandbox stops a
        plan there too, as its later steps would rest on a guess."""
        ...

    def plan_why(
        self, state: State, intent: Mapping[str, Any], seat: int, since: Sequence[str]
    ) -> dict[str, Any]:
        """Why a planned step (`intent`) no longer holds in the real `state` at `seat`'s turn,
        JSON-ready for Presentation.plan_why_text, from public facts alone: the state's open
        parts and `since`, the stored log lines (seats as {0}, {1}...) of the moves played
        since the plan was kept. {} when the engine cannot tell."""
        ...

    def standing_action(self, state: State, seat: int, order: str) -> Action | None:
        """The action the standing order `order` (a key of Presentation.standing_orders)
        takes for `seat` in `state`, or None: one of legal_actions(state), and only a step
        the player would make without a choice (ending a phase with nothing left in it)."""
        ...


@dataclass(frozen=True)
class BotLevel:
    """One level of an engine's bots, as the create form, the levels page and profiles show it:
    `key` is stored in Seat.bot (and in `Rules.bots`), `aliases` are older stored names of the
    same bot, `label` and `summary` (how it plays, a sentence) are in the reader's language."""

    key: str
    label: StrOrPromise
    summary: StrOrPromise
    aliases: Sequence[str] = ()


@dataclass(frozen=True)
class StandingOrder:
    """A standing order a player may switch on beside a plan (Rules.standing_action says what
    it does): `key` is stored, `label` is in the reader's language."""

    key: str
    label: StrOrPromise


@dataclass(frozen=True)
class Look:
    """How a game names and draws itself: fixed words (lazy, in the reader's language) and the
    templates the platform's pages include."""

    title: str  # the game's name ("Firenze"): "Your turn in Firenze", the create form's choice
    tagline: StrOrPromise  # the game in one line (every page's footer)
    pitch: StrOrPromise  # the game in a sentence for a newcomer (the home page)
    score_unit: StrOrPromise  # what a score is counted in, short ("points")
    score_name: StrOrPromise  # the same in full
    seat_colours: Sequence[str]  # one per seat, distinct from anything drawn on the board
    bot_names: Sequence[str]  # what seated bots are called, in order, at least max_players
    # The engine's parts of the game page (templates/games/game.html says where each goes):
    # template names by part, "board" required; "actions", "hand", "player", "turn", "phases"
    # and "css" (a static stylesheet) optional; "options" (a forming game's options in words,
    # `game.options`) for a game still forming; "hands" (every hand, face up, from
    # replay_context) for the replay of a finished game.
    page_parts: Mapping[str, str] = field(default_factory=dict)
    score_template: str = ""  # the final score breakdown (page and replay), "" for none
    rules_template: str = ""  # the rules page


@dataclass(frozen=True)
class Seen:
    """What one viewer may see of a position, as the platform hands it to the presentation:
    the seat's player_view and its own choices, never the state, so no page can show a hand
    or the deck to anyone else."""

    view: dict[str, Any]  # Rules.player_view(state, viewer)
    viewer: int | None  # the viewer's seat; None for a watcher (or a replay)
    acting: int | None  # the acting seat
    choices: list[Action]  # the viewer's legal actions when it is their turn, else []
    can_undo: bool  # the viewer may take back their last step
    scores: list[int]  # per seat
    names: list[str]  # per seat
    colours: list[str]  # per seat
    moves: Sequence[Any] = ()  # the moves the log shows, oldest first: seq, turn, seat, changes
    # False once the game has ended, however it ended: a resignation leaves the engine's state
    # mid-turn, so only the platform knows. Then no choices and no hints about the next turn.
    live: bool = True

    # What changed since the viewer last acted (issue 30): the same seat's player_view when
    # its last turn ended, None when none is kept or nobody moved since (games.since). The
    # presentation compares the two views (Presentation.changes_since): never hidden facts.
    since_view: dict[str, Any] | None = None
    since_turn: int | None = None  # the turn that followed (the log's link to it)

    @property
    def my_turn(self) -> bool:
        return self.live and self.viewer is not None and self.acting == self.viewer


class Presentation(Protocol):
    """What people read and see of the game: pages, emails, the create form."""

    look: Look

    def page_context(self, seen: Seen) -> dict[str, Any]:
        """What the game page draws: at least my_turn, acting_name, can_undo, final (the score
        breakdown or None) and players, one dict per seat with seat, name, colour, initial,
        is_me, is_acting and score (score_change optional); board_hint (a line under the
        choices) and undo_note (why no undo is offered mid-turn) optional; anything else the
        engine's parts read."""
        ...

    def replay_context(self, state: State, names: list[str]) -> dict[str, Any]:
        """What the replay of a finished game adds (every hand may be shown then)."""
        ...

    def rules_context(self) -> dict[str, Any]: ...  # for look.rules_template
    def format_line(self, line: str, names: Sequence[str]) -> str: ...  # a log line, in words
    def minor_line(self, line: str) -> bool:
        """Whether a stored log line is a pass or a step the rules made for the player (a
        refill, a forced discard): the log lets a player hide those."""
        ...

    def refusal_text(self, exc: Exception) -> str:
        """Why apply_action refused (its illegal_action), in the active language."""
        ...

    # The create form: the game's own option fields, read back into options; and a game's
    # notable options as short tags for the list of open games.
    def option_fields(self) -> dict[str, Any]: ...
    def options_from_form(self, cleaned_data: Mapping[str, Any]) -> dict[str, Any]: ...
    def option_tags(self, options: Mapping[str, Any]) -> list[str]: ...

    # The bots people choose from (create form, levels page, profiles), weakest first; and one
    # entry of Rules.review in words: "decision" (what was decided), "played" (what the player
    # did) and "suggested" (what the bot would have done).
    bot_levels: Sequence[BotLevel]

    def review_text(self, entry: Mapping[str, Any]) -> dict[str, str]: ...

    # Planned turns: a step's intent (Rules.plan_intent) in words, in the active language;
    # why a plan stopped (Rules.plan_why, or {"key": plan_stop's key}) in words, seats named by
    # `names`, "" when the engine has no words for it; and the standing orders it offers.
    def intent_text(self, intent: Mapping[str, Any]) -> str: ...
    def plan_why_text(self, why: Mapping[str, Any], names: Sequence[str]) -> str: ...

    standing_orders: Sequence[StandingOrder]

    # What happened since my last turn (issue 30).
    def changes_since(
        self, before: dict[str, Any], after: dict[str, Any], seat: int, names: Sequence[str]
    ) -> ChangesSince:
        """The changes between two player_views of the same seat (`before`: just after the
        seat's last move; `after`: now), in words and marks: what affected the seat first."""
        ...


@dataclass(frozen=True)
class ChangesSince:
    """What happened since a seat last acted, as the game page shows it at the top: `for_you`
    (what affected that player, in the engine's judgement) before `others` (one line per other
    player's moves), in the reader's language; `marks` is the engine's own picture of what to
    mark on its board (its page parts read it) until the player acts."""

    for_you: Sequence[str] = ()
    others: Sequence[str] = ()
    marks: Mapping[str, Any] = field(default_factory=dict)

    @property
    def any(self) -> bool:
        return bool(self.for_you or self.others)


@dataclass(frozen=True)
class RecordFacet:
    """Something the history of finished games can be filtered by (a game option, say): the
    query parameter and its choices, ("", "any") first. A record keeps the values of its
    game's facets (Records.record_details) in one short indexed column (players.GameRecord)."""

    key: str
    label: StrOrPromise
    choices: Sequence[tuple[str, StrOrPromise]]


class Records(Protocol):
    """What the history of finished games and the profiles keep of a game and show."""

    record_facets: Sequence[RecordFacet]
    seat_tallies: Sequence[str]  # the per-seat counts a profile sums over a player's games

    def record_details(self, state: State) -> dict[str, Any]:
        """What a finished game's record keeps beyond places and points: "game" (a small dict,
        shown by describe_record), "facets" (the value of each of record_facets) and "seats"
        (a small dict per seat, with the ints of seat_tallies)."""
        ...

    def describe_record(self, details: Mapping[str, Any]) -> list[str]: ...  # "game", in words
    def career_facts(self, tallies: Mapping[str, int]) -> list[tuple[str, str]]:
        """(label, safe HTML) lines for a profile, from seat_tallies summed over its games."""
        ...

    def score_breakdown(self, state: State) -> list[dict[str, Any]] | None:
        """Each seat's final score by source once the game reached its final scoring."""
        ...


class Engine(Rules, Presentation, Records, Protocol):
    """A game as the platform plays, shows and records it."""


def bot_level(engine: Presentation, bot: str) -> BotLevel | None:
    """The level a stored bot name plays at (its key or an alias), None for none."""
    return next((lv for lv in engine.bot_levels if bot == lv.key or bot in lv.aliases), None)


def facet_text(values: Mapping[str, str]) -> str:
    """The stored form of a record's facet values: ";key=value;" per facet, sorted."""
    return "".join(f";{key}={values[key]};" for key in sorted(values))


def facet_token(key: str, value: str) -> str:
    """What a record's facet text contains when that facet has that value."""
    return f";{key}={value};"


def progress(engine: Rules, state: State) -> float | None:
    """The share of the game played, 0 to 1 (the engine's own estimate, clamped; 1 once over),
    or None if it cannot tell: the clock's expected end reads it."""
    if engine.is_over(state):
        return 1.0
    value = engine.progress(state)
    return None if value is None else min(1.0, max(0.0, float(value)))
