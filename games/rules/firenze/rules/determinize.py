"""A full game state sampled from one seat's view: what a bot that never peeks searches over.

`player_view(state, seat)` holds everything public plus that seat's own hand. Everything else,
the deck order and the other players' hands, is drawn afresh here: the cards nobody can see
are the full deck minus every card in sight (the row, the discard pile, buildings, church
cards, an event being resolved, one's own hand), dealt at random into the other hands (their
sizes are public) and the deck (its size is public). Future draws (new row cards, bricks from
the pouch, reshuffles) come from a new random seed. The bots and the post-game review call
this; nothing else needs a state a seat could not have seen.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .cards import CARDS
from .data import BALCONY_NUMERALS, COLOR_INDEX, COLORS
from .state import PP_SOURCES, SCHEMA_VERSION

View = dict[str, Any]
S = dict[str, Any]

_ARCHITECT = {"none": 0, "ready": 1, "used": 2}


def unseen_cards(view: View) -> list[str]:
    """The cards the viewer cannot see (the deck and the other hands), sorted."""
    left = Counter(
        {
            name: card.count
            for name, card in CARDS.items()
            if name != "Campanile" or view["options"]["campanile"]
        }
    )
    seen: list[str] = [r["card"] for r in view["row"]] + list(view["discard"])
    seen += [c["card"] for c in view["church"]]
    if view["event"] is not None:
        seen.append(view["event"]["card"])
    for player in view["players"]:
        seen += player["buildings"]
        seen += player.get("hand", [])
    left.subtract(seen)
    if any(n < 0 for n in left.values()):
        raise ValueError("The view shows more copies of a card than the game has.")
    return sorted(left.elements())


def sample_state(view: View, rng: random.Random) -> S:
    """A state dict (the engine's internal form) consistent with `view`, hidden parts drawn
    at random. `view` must be a seat's view (it names its `viewer`) of a game not yet over."""
    seat = view["viewer"]
    if seat is None or view["phase"] == "over":
        raise ValueError("Only a seated player's view of a running game can be sampled.")
    pool = unseen_cards(view)
    rng.shuffle(pool)
    hands: list[list[str]] = []
    for player in view["players"]:
        if player["seat"] == seat:
            hands.append(list(player["hand"]))
        else:
            hands.append(pool[: player["hand_count"]])
            pool = pool[player["hand_count"] :]
    if len(pool) != view["deck_count"]:
        raise ValueError("The view's card counts do not add up.")
    return {
        "v": SCHEMA_VERSION,
        "seed": rng.getrandbits(48),
        "options": dict(view["options"]),
        "n": view["num_players"],
        "rng": 0,
        "step": view["step"],
        "start_seat": view["start_seat"],
        "turn_no": view["turn_no"],
        "seat": view["acting_seat"],
        "phase": view["phase"],
        "pending": _pending(view["pending"]),
        "transit": (
            {"card": view["event"]["card"], "bricks": _counts(view["event"]["bricks"])}
            if view["event"] is not None
            else None
        ),
        "turn": _turn(view["turn"]),
        "players": [_player(p, hand) for p, hand in zip(view["players"], hands, strict=True)],
        **_board(view["board"]),
        "church": [{"card": c["card"], "sealed": list(c["sealed"])} for c in view["church"]],
        "row": [{"card": r["card"], "bricks": _counts(r["bricks"])} for r in view["row"]],
        "deck": pool,
        "discard": list(view["discard"]),
        "pouch": _counts(view["pouch"]),
        "end_tile": view["board"]["end_tile"],
        "final": None,
        "log": [],
    }


def _counts(named: dict[str, int]) -> list[int]:
    return [named[color] for color in COLORS]


def _pending(public: dict[str, Any] | None) -> dict[str, Any] | None:
    """The inverse of view._pending: colour names back to indices, view-only keys dropped."""
    if public is None:
        return None
    pending = {k: v for k, v in public.items() if k != "onto"}
    if pending["kind"] == "fire":
        pending.pop("due", None)
    for key in ("paid", "before"):
        if key in pending:
            pending[key] = [COLOR_INDEX[c] for c in pending[key]]
    for key in ("gave", "took"):
        if key in pending:
            pending[key] = COLOR_INDEX[pending[key]]
    return pending


def _turn(public: dict[str, Any]) -> dict[str, Any]:
    return {
        "played": list(public["played"]),
        "princess": public["princess"],
        "mason": public["mason"],
        "architect": _ARCHITECT[public["architect"]],
        "exchanged": public["exchanged"],
        "built": public["built"],
        "undo": 0,
    }


def _player(public: dict[str, Any], hand: list[str]) -> dict[str, Any]:
    earned = dict.fromkeys(PP_SOURCES, 0)
    earned["commissions"] = public["pp"]  # only the total matters to a search
    return {
        "store": _counts(public["store"]),
        "towers": [
            {
                "c": COLOR_INDEX[t["color"]],
                "h": t["height"],
                "add": t["added"],
                "old": t["standing"],
            }
            for t in public["towers"]
        ],
        "hand": hand,
        "buildings": list(public["buildings"]),
        "pp": public["pp"],
        "earned": earned,
        "seals": public["seals_left"],
    }


def _board(public: dict[str, Any]) -> dict[str, Any]:
    board: list[int | None] = []
    balconies: list[dict[str, int] | None] = [None] * len(BALCONY_NUMERALS)
    for square in public["commissions"]:
        seal = square["seal"]
        board.append(-1 if seal == "neutral" else seal)
        if square["balcony"] is not None:
            balconies[BALCONY_NUMERALS.index(square["balcony"])] = {
                "c": COLOR_INDEX[square["color"]],
                "l": square["level"],
                "pp": square["pp"],
            }
    following = public["balcony_next"]
    return {
        "board": board,
        "balconies": balconies,
        "balcony_next": len(BALCONY_NUMERALS)
        if following is None
        else BALCONY_NUMERALS.index(following),
        "level_tiles": [tile["level"] for tile in public["level_tiles"]],
    }
