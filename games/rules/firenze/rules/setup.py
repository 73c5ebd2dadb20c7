"""A new game, fully determined by player count, seed and options (rules.md §3)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .bricks import draw_from_pouch
from .cards import CARDS
from .data import (
    BALCONY_GROUPS,
    BRICKS_PER_ROW_CARD,
    COLOR_INDEX,
    LEVEL_TILE_PP,
    LEVELS,
    NEUTRAL_SEALS_DEFAULT,
    NEUTRAL_SEALS_MAX,
    ROW_SIZE,
    SEAL_PLACEMENTS,
    SEALS_PER_PLAYER,
    START_CARDS,
    START_WHITE_BRICKS,
    SUPPLY,
    commission_index,
)
from .state import PP_SOURCES, SCHEMA_VERSION, State
from .turns import start_turn

NEUTRAL = -1  # a neutral seal on a board square; player seals are seat numbers


def normalize_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill in defaults and reject anything rules.md §3 does not offer."""
    options = dict(options or {})
    unknown = set(options) - {"campanile", "neutral_seals", "seal_placement"}
    if unknown:
        raise ValueError(f"Unknown game option: {', '.join(sorted(unknown))}.")
    campanile = options.get("campanile", False)
    if not isinstance(campanile, bool):
        raise ValueError("The option campanile must be true or false.")
    seals = options.get("neutral_seals", NEUTRAL_SEALS_DEFAULT)
    if isinstance(seals, bool) or not isinstance(seals, int) or not 0 <= seals <= NEUTRAL_SEALS_MAX:
        raise ValueError(f"neutral_seals must be a whole number from 0 to {NEUTRAL_SEALS_MAX}.")
    placement = options.get("seal_placement", "recommended")
    if placement not in SEAL_PLACEMENTS:
        raise ValueError(f"seal_placement must be one of: {', '.join(SEAL_PLACEMENTS)}.")
    return {"campanile": campanile, "neutral_seals": seals, "seal_placement": placement}


def new_game(num_players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
    """Set up a game; the same arguments always give the same game."""
    if type(num_players) is not int or num_players not in SEALS_PER_PLAYER:
        raise ValueError("Firenze is played by 2 to 4 players.")
    if type(seed) is not int:
        raise ValueError("The seed must be a whole number.")
    opts = normalize_options(options)
    rng = random.Random(f"{seed}/setup")

    start_seat = rng.randrange(num_players)
    dead = rng.randrange(6) if opts["seal_placement"] == "dead_color" else None
    balconies = _draw_balconies(rng, dead)
    board: list[int | None] = [None] * 36
    _place_neutral_seals(board, balconies, opts, dead, rng)

    pouch = list(SUPPLY)
    players = []
    for seat in range(num_players):
        store = [0] * 6
        store[0] = START_WHITE_BRICKS[(seat - start_seat) % num_players]
        pouch[0] -= store[0]
        players.append(
            {
                "store": store,
                "towers": [],
                "hand": [],
                "buildings": [],
                "pp": 0,
                "earned": {source: 0 for source in PP_SOURCES},
                "seals": SEALS_PER_PLAYER[num_players],
            }
        )

    deck = _build_deck(rng, opts["campanile"])
    row = [{"card": deck.pop(0), "bricks": [0] * 6} for _ in range(ROW_SIZE)]
    for slot in row:
        slot["bricks"] = draw_from_pouch(pouch, BRICKS_PER_ROW_CARD, rng)

    s: dict[str, Any] = {
        "v": SCHEMA_VERSION,
        "seed": seed,
        "options": opts,
        "n": num_players,
        "rng": 0,
        "step": 0,
        "start_seat": start_seat,
        "turn_no": 0,
        "seat": start_seat,
        "phase": "choose",
        "pending": None,
        "transit": None,
        "turn": {},
        "players": players,
        "board": board,
        "balconies": balconies,
        "balcony_next": 0,
        "level_tiles": sorted(LEVEL_TILE_PP),
        "church": [],
        "row": row,
        "deck": deck,
        "discard": [],
        "pouch": pouch,
        "end_tile": None,
        "final": None,
        "log": [],
    }
    start_turn(s, start_seat)
    return State(s)


def _draw_balconies(rng: random.Random, dead: int | None) -> list[dict[str, int]]:
    balconies = []
    for group in BALCONY_GROUPS:
        tiles = [t for t in group if COLOR_INDEX[t[0]] != dead]
        color, level, pp = rng.choice(tiles)
        balconies.append({"c": COLOR_INDEX[color], "l": level, "pp": pp})
    return balconies


def _place_neutral_seals(
    board: list[int | None],
    balconies: list[dict[str, int]],
    opts: dict[str, Any],
    dead: int | None,
    rng: random.Random,
) -> None:
    if dead is not None:
        for level in LEVELS:
            board[commission_index(dead, level)] = NEUTRAL
        return
    balcony_squares = {commission_index(b["c"], b["l"]) for b in balconies}
    free = [i for i in range(36) if i not in balcony_squares]
    count = opts["neutral_seals"]
    if opts["seal_placement"] == "random":
        chosen = rng.sample(free, count)
    else:
        chosen = _recommended_squares(free, balconies, count, rng)
    for i in chosen:
        board[i] = NEUTRAL


def _recommended_squares(
    free: list[int], balconies: list[dict[str, int]], count: int, rng: random.Random
) -> list[int]:
    """At most 2 tiles per tower, 2 or 3 seals on levels 3 and 4 together, none on balconies.

    Random tries with these constraints always succeed within a few attempts for 0-7 seals.
    """
    low = [i for i in free if i % 6 < 2]
    high = [i for i in free if i % 6 >= 2]
    for _ in range(1000):
        on_low = min(count, rng.choice((2, 3)))
        tiles = [0] * 6
        for b in balconies:
            tiles[b["c"]] += 1
        chosen: list[int] = []
        for pool, wanted in ((low, on_low), (high, count - on_low)):
            for i in rng.sample(pool, len(pool)):
                if wanted == 0:
                    break
                if tiles[i // 6] < 2:
                    tiles[i // 6] += 1
                    chosen.append(i)
                    wanted -= 1
        if len(chosen) == count:
            return chosen
    raise RuntimeError("No neutral seal placement satisfies the recommended constraints.")


def _build_deck(rng: random.Random, campanile: bool) -> list[str]:
    """The 10 start cards shuffled on top of the shuffled rest; deck[0] is the top card."""
    rest: list[str] = []
    start = list(START_CARDS)
    remaining_start = list(START_CARDS)
    for name, card in CARDS.items():
        for _ in range(card.count):
            if name in remaining_start:
                remaining_start.remove(name)
            elif name != "Campanile" or campanile:
                rest.append(name)
    rng.shuffle(start)
    rng.shuffle(rest)
    return start + rest
