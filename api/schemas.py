"""The shapes the API reads and writes (pydantic, through django-ninja): the OpenAPI schema at
/api/v1/openapi.json is generated from these, and every request body is parsed by them."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from ninja import Field, Path, Schema

MAX_ID = 2**63 - 1  # the largest id the database stores; larger ones are "invalid", not a 500
GameId = Annotated[int, Path(ge=1, le=MAX_ID, description="The game's number")]
INVITE_TOKEN = r"^[A-Za-z0-9_-]*$"  # an invite link's token (games.models.new_token)
# Anything but a control character (PostgreSQL refuses a NUL in a query): the path's shape.
PlayerName = Annotated[
    str, Path(pattern=r"^[^\x00-\x1f\x7f]{1,100}$", description="A display name, any case")
]
Version = Annotated[int, Field(ge=0, le=999_999_999, description="The game's version you saw")]


class Error(Schema):
    code: str = Field(description="Stable: see the list in docs/api.md")
    message: str = Field(description="For people, in the caller's language")


class TokenInfo(Schema):
    name: str
    scope: Literal["read", "play"]


class Account(Schema):
    name: str
    bot_account: bool
    language: str
    time_zone: str
    token: TokenInfo


class SeatOut(Schema):
    seat: int | None = Field(description="The seat's number once the game started")
    name: str
    colour: str
    player: str | None = Field(description="The display name of the account, if a person's")
    bot_account: bool = Field(description="The account is a program's (api/bots)")
    engine_bot: bool = Field(description="A bot of the site plays the seat")
    bot_plays: bool = Field(description="The site's bot plays the seat now (also on autopilot)")
    resigned: bool
    away_until: datetime | None


class GameSummary(Schema):
    id: int
    title: str
    engine: str
    rules_version: str
    status: Literal["open", "active", "finished", "cancelled"]
    is_public: bool
    num_players: int
    version: int
    chat_version: int
    time_limit_seconds: int
    deadline: datetime | None
    acting_seat: int | None
    my_seat: int | None = Field(description="The caller's seat number, if they play")
    my_turn: bool


class GameOut(GameSummary):
    seats: list[SeatOut]
    view: dict[str, Any] | None = Field(
        description="The engine's picture of the game for the caller's seat (watchers: the "
        "public one). Never another player's hand or the deck order."
    )
    can_undo: bool
    scores: list[int] | None = Field(description="Final points per seat once over")
    winners: list[int] | None


class MyGame(GameSummary):
    acting_name: str | None
    unread_talk: int
    seats_taken: int


class Invitation(Schema):
    game: int
    title: str
    by: str


class MyGames(Schema):
    games: list[MyGame]
    invitations: list[Invitation]


class Actions(Schema):
    version: int
    my_turn: bool
    actions: list[dict[str, Any]]


class LogMove(Schema):
    step: int
    turn: int
    seat: int
    name: str
    lines: list[str]
    by_bot: bool
    timeout: bool
    at: datetime


class Log(Schema):
    version: int
    moves: list[LogMove]


class MoveIn(Schema):
    action: dict[str, Any] = Field(description="One of the legal actions, as listed")
    version: Version


class PlanIn(Schema):
    steps: list[dict[str, Any]] = Field(
        max_length=40, description="The planned steps, in order: actions the sandbox offered"
    )


class SandboxIn(Schema):
    steps: list[dict[str, Any]] = Field(
        default_factory=list, max_length=40, description="The steps taken so far in the sandbox"
    )


class PlanOutcomeOut(Schema):
    played: list[str]
    planned: int
    stopped_before: int | None
    reason: str
    why: str = Field(description="Why it stopped, in words (empty when played in full)")
    ordered: list[str] = Field(description="The steps my standing orders took after the plan")


class StandingOrderOut(Schema):
    key: str
    label: str
    on: bool


class StandingOrdersIn(Schema):
    orders: list[str] = Field(
        max_length=20, description="The keys of the standing orders to switch on; others go off"
    )


class PlanOut(Schema):
    steps: list[str] = Field(description="My planned steps in words; empty for no plan")
    last_outcome: PlanOutcomeOut | None
    standing_orders: list[StandingOrderOut] = Field(
        description="The game's standing orders, each with whether I switched it on"
    )


class SandboxChoice(Schema):
    action: dict[str, Any]
    text: str


class SandboxOut(Schema):
    choices: list[SandboxChoice]


class VersionIn(Schema):
    version: Version


class Moved(Schema):
    version: int
    status: str
    acting_seat: int | None
    my_turn: bool


class TalkMessage(Schema):
    id: int
    seat: int | None
    author: str
    text: str = Field(description="Empty once deleted")
    at: datetime
    deleted: bool
    mine: bool
    muted: bool = Field(description="You muted its author")
    unread: bool


class Talk(Schema):
    chat_version: int
    can_post: bool
    messages: list[TalkMessage]


class TalkIn(Schema):
    text: str = Field(max_length=2000)


class OpenGame(Schema):
    id: int
    title: str
    creator: str | None
    num_players: int
    seats_taken: int
    options: list[str]
    time_limit_seconds: int
    created: datetime


class Lobby(Schema):
    page: int
    pages: int
    games: list[OpenGame]


class CreateIn(Schema):
    name: str = Field("", max_length=60)
    num_players: int = Field(ge=1, le=99)
    time_limit_seconds: int = Field(3 * 86400, ge=0, le=10**9)
    is_public: bool = True
    auto_start: bool = True
    options: dict[str, bool | int | str] = Field(
        default_factory=dict, description="The game's options by name (see the create page)"
    )
    clock_mode: Literal["turn", "bank"] = Field(
        "turn", description="turn: time_limit_seconds for every turn; bank: a time bank"
    )
    bank_seconds: int | None = Field(None, ge=0, le=10**9, description="The starting bank")
    bonus_seconds: int | None = Field(None, ge=0, le=10**9, description="Added after each turn")
    bank_cap_seconds: int | None = Field(None, ge=0, le=10**9, description="Most a bank holds")
    days_off: list[int] = Field(
        default_factory=list, max_length=7, description="Weekdays the clock rests (0 = Monday)"
    )
    bots: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="Seats 2, 3...: a bot level, or '' for an open seat (see /bots/)",
    )


class JoinIn(Schema):
    token: str = Field(
        "",
        max_length=64,
        pattern=INVITE_TOKEN,
        description="The invite link's token, if invited by it",
    )


class InviteIn(Schema):
    name: str = Field(max_length=254, description="A display name or an email address")


class Invited(Schema):
    message: str


class Rating(Schema):
    rating: int
    games: int
    rank: int | None
    provisional: bool


class Profile(Schema):
    name: str
    bot_account: bool
    finished: int
    won: int
    win_rate: int | None
    average_score: float | None
    best_score: int | None
    abandoned: int
    rating: Rating | None = Field(description="Among people")
    bot_pool_rating: Rating | None = Field(description="In games with bot accounts")
    games_in_progress: list[int]
    latest_finished: list[int]


class LeaderRow(Schema):
    rank: int
    name: str
    bot_account: bool
    rating: int
    games: int


class Leaderboard(Schema):
    pool: Literal["people", "bots"]
    page: int
    pages: int
    rows: list[LeaderRow]


class ResultOut(Schema):
    seat: int
    name: str
    player: str | None
    place: int
    score: int
    won: bool
    resigned: bool
    rating_change: int | None


class FinishedGame(Schema):
    id: int
    finished_at: datetime
    started_at: datetime
    num_players: int
    turns: int
    rated: bool
    bot_pool: bool
    imported: bool
    results: list[ResultOut]


class History(Schema):
    page: int
    total: int
    more: bool = Field(description="The total was counted only up to its cap")
    notes: list[str] = Field(description="Filters that were dropped, and why")
    games: list[FinishedGame]


class HistoryQuery(Schema):
    player: str = Field("", max_length=40)
    players: int | None = Field(None, ge=2, le=4)
    since: date | None = None
    until: date | None = None
    mine: bool = False
    page: int = Field(1, ge=1, le=10**6)
