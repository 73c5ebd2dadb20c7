"""Finished games as portable JSON records: export, and import through the engine.

A record is what the game is (as on Terra Mystica's site): the engine and rules version, the
options, time control (games.timecontrol, as a dict) and seed, the seats and the ordered moves;
the final scores come along as a check. An
import replays every move through the engine and stores the game only if every move is legal
and the scores come out the same; anything else is refused with a message and nothing stored.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.functions import Lower

from games import events
from games.models import Game, Move, Seat
from games.rules import protocol, registry
from games.timecontrol import TimeControl

FORMAT = 1
MAX_BYTES = 2_000_000  # a long four-player game is about 100 kB
MAX_MOVES = 20_000


class ImportRefused(ValueError):
    """The record cannot be imported; the message says why, for the operator."""


def export_game(game: Game) -> dict[str, Any]:
    """The record of a finished game (the caller checks that it is finished)."""
    seats = list(game.seats.select_related("user").order_by("number"))
    moves = game.moves.order_by("seq").values_list("seat", "action")
    engine = game.engine
    state = game.load_state()
    return {
        "format": FORMAT,
        "engine": engine.name,
        "rules_version": engine.rules_version,
        "game": game.pk,
        "num_players": game.num_players,
        "options": game.options,
        "clock": game.time_control.to_dict(),
        "seed": game.seed,
        "seats": [{"seat": s.number, "name": s.name, "bot": s.bot} for s in seats],
        "moves": [{"seat": seat, "action": action} for seat, action in moves],
        "final_scores": engine.scores(state),
        "winners": engine.winners(state),
    }


def import_game(raw: bytes | str) -> Game:
    """Replay a record through the engine and store it as a finished, unrated game."""
    record = _parse(raw)
    engine = registry.get(record["engine"], record["rules_version"])
    people = _people(record["seats"])
    state, logs = _replay(engine, record)
    with transaction.atomic():
        game = _store(engine, record, people, state, logs)
        events.game_imported.send(Game, game=game, state=state)  # its record, unrated
    return game


# --- reading ------------------------------------------------------------------------------------


def _parse(raw: bytes | str) -> dict[str, Any]:
    if len(raw) > MAX_BYTES:
        raise ImportRefused(
            f"The file is larger than {MAX_BYTES // 1000} kB; no game is that long."
        )
    try:
        record = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ImportRefused(f"The file is not valid JSON: {str(exc)[:200]}") from None
    if not isinstance(record, dict):
        raise ImportRefused("The file must hold one JSON object (a game record).")
    try:
        engine = registry.get(str(record.get("engine")))
    except registry.UnknownEngine:
        raise ImportRefused(f"This is not a {registry.default_name()} game record.") from None
    version = record.get("rules_version")
    _check(
        isinstance(version, str) and version in registry.versions(engine.name),
        f"The record was played under rules version {str(version)[:20]!r}; "
        f"this site plays version {engine.rules_version!r}.",
    )
    _check(
        record.get("format") == FORMAT, f"Unknown record format {str(record.get('format'))[:20]!r}."
    )
    _check(_whole(record.get("num_players")), "num_players must be a whole number.")
    _check(
        _whole(record.get("seed")) and 0 <= record["seed"] < 2**63, "seed must be a whole number."
    )
    _check(isinstance(record.get("options"), dict), "options must be an object.")
    try:  # records from before time controls have none: the clock per turn
        record["clock"] = TimeControl.from_dict(record.get("clock", {}))
    except ValueError as exc:
        raise ImportRefused(f"The clock cannot be read: {exc}.") from None
    seats, moves = record.get("seats"), record.get("moves")
    if not isinstance(seats, list) or len(seats) != record["num_players"]:
        raise ImportRefused("There must be one seat per player.")
    for i, seat in enumerate(seats):
        _check(
            isinstance(seat, dict)
            and seat.get("seat") == i
            and isinstance(seat.get("name"), str)
            and 0 < len(seat["name"]) <= 40
            and "\x00" not in seat["name"]
            and isinstance(seat.get("bot", ""), str),
            f'Seat {i} must be {{"seat": {i}, "name": ..., "bot": ...}}.',
        )
        bot = seat.get("bot", "")
        _check(not bot or bot in engine.bots, f"Seat {i}: unknown bot {bot[:20]!r}.")
    if not isinstance(moves, list) or not 0 < len(moves) <= MAX_MOVES:
        raise ImportRefused("moves must be a list of moves.")
    for i, move in enumerate(moves, start=1):
        _check(
            isinstance(move, dict)
            and _whole(move.get("seat"))
            and isinstance(move.get("action"), dict),
            f'Move {i} must be {{"seat": n, "action": {{...}}}}.',
        )
    scores = record.get("final_scores")
    _check(
        isinstance(scores, list) and all(_whole(s) for s in scores),
        "final_scores must be a list of whole numbers.",
    )
    return record


def _whole(value: Any) -> bool:
    return type(value) is int


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise ImportRefused(message)


def _people(seats: list[dict[str, Any]]) -> dict[int, Any]:
    """The registered player behind each person's seat, found by display name."""
    User = get_user_model()
    wanted = {s["seat"]: s["name"] for s in seats if not s.get("bot")}
    _check(bool(wanted), "At least one seat must be a person (bots cannot own a game).")
    found = {
        u.lower_name: u
        for u in User.objects.annotate(lower_name=Lower("display_name")).filter(
            lower_name__in=[n.lower() for n in wanted.values()]
        )
    }
    missing = [name for name in wanted.values() if name.lower() not in found]
    _check(not missing, f"No player here is called {', '.join(sorted(missing))}.")
    people = {seat: found[name.lower()] for seat, name in wanted.items()}
    _check(len({u.pk for u in people.values()}) == len(people), "A player cannot hold two seats.")
    return people


def _replay(
    engine: protocol.Engine, record: dict[str, Any]
) -> tuple[protocol.State, list[list[str]]]:
    """The final state, and each move's log lines to store with it."""
    logs = []
    try:
        state = engine.new_game(record["num_players"], record["seed"], record["options"])
    except ValueError as exc:
        raise ImportRefused(f"The game cannot be set up: {exc}") from None
    for i, move in enumerate(record["moves"], start=1):
        _check(not engine.is_over(state), f"Move {i} comes after the end of the game.")
        acting = engine.acting_seat(state)
        _check(
            move["seat"] == acting,
            f"Move {i} is by seat {move['seat']}, but seat {acting} was to act.",
        )
        try:
            state = engine.apply_action(state, move["action"])
        except engine.illegal_action as exc:
            raise ImportRefused(f"Move {i} is illegal: {exc}") from None
        logs.append(engine.log_tokens(state))
    _check(
        engine.is_over(state),
        f"The moves end before the game does (after {len(record['moves'])} moves).",
    )
    replayed = engine.scores(state)
    _check(
        record["final_scores"] == replayed,
        f"The final scores differ: the file says {record['final_scores']}, "
        f"the replay gives {replayed}.",
    )
    return state, logs


# --- storing ------------------------------------------------------------------------------------


def _store(
    engine: protocol.Engine,
    record: dict[str, Any],
    people: dict[int, Any],
    state: protocol.State,
    logs: list[list[str]],
) -> Game:
    creator = people[min(people)]
    game = Game(
        creator=creator,
        engine_name=engine.name,
        rules_version=engine.rules_version,
        num_players=record["num_players"],
        options=engine.normalise_options(record["num_players"], record["options"]),
        seed=record["seed"],
        is_public=True,
        version=len(record["moves"]),
    )
    game.set_time_control(record["clock"])
    game.store_state(state)
    game.save()
    Seat.objects.bulk_create(
        Seat(
            game=game,
            user=people.get(seat["seat"]),
            bot=seat.get("bot", ""),
            number=seat["seat"],
            colour=engine.look.seat_colours[seat["seat"]],
        )
        for seat in record["seats"]
    )
    Move.objects.bulk_create(
        Move(
            game=game,
            seq=seq,
            seat=move["seat"],
            action=move["action"],
            log=log,
            by_bot=bool(record["seats"][move["seat"]].get("bot")),
        )
        for seq, (move, log) in enumerate(zip(record["moves"], logs, strict=True), start=1)
    )
    return game
