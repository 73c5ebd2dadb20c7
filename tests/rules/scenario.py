"""Building small, readable rule scenarios through the engine's public API only.

A scenario starts from new_game, edits the stored dict (to_dict/from_dict, as documented in
firenze/rules/README.md) while keeping every brick and card accounted for, then plays actions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.rules.firenze.rules import (
    IllegalAction,
    State,
    apply_action,
    from_dict,
    legal_actions,
    log_lines,
    new_game,
    player_view,
    to_dict,
)
from games.rules.firenze.rules.data import COLOR_INDEX, COLORS

CAST = ["Anna", "Ben", "Carla", "Dario"]
Action = dict[str, Any]


def game(players: int = 2, seed: int = 1, **options: Any) -> State:
    """A new game whose first player is seat 0, for scenarios that read in seat order."""
    state = new_game(players, seed, options or None)
    return edit(state, lambda d: _rotate_to_seat_zero(d))


def _rotate_to_seat_zero(d: dict[str, Any]) -> None:
    shift = d["start_seat"]
    d["players"] = d["players"][shift:] + d["players"][:shift]
    d["start_seat"] = 0
    d["seat"] = 0


def edit(state: State, change: Callable[[dict[str, Any]], Any]) -> State:
    d = to_dict(state)
    change(d)
    return from_dict(d)


def bricks(**counts: int) -> list[int]:
    out = [0] * 6
    for color, n in counts.items():
        out[COLOR_INDEX[color]] = n
    return out


def set_store(state: State, seat: int, **counts: int) -> State:
    """Give a seat exactly these storehouse bricks; the difference moves to or from the pouch."""

    def change(d: dict[str, Any]) -> None:
        store = d["players"][seat]["store"]
        wanted = bricks(**counts)
        for c in range(6):
            d["pouch"][c] += store[c] - wanted[c]
            assert d["pouch"][c] >= 0, f"not enough {COLORS[c]} bricks in the pouch"
            store[c] = wanted[c]

    return edit(state, change)


def set_towers(state: State, seat: int, *towers: tuple[str, int], old: bool = True) -> State:
    """Give a seat these towers (colour, height), standing since the start of the turn."""

    def change(d: dict[str, Any]) -> None:
        player = d["players"][seat]
        for t in player["towers"]:
            d["pouch"][t["c"]] += t["h"]
        player["towers"] = []
        for color, height in towers:
            c = COLOR_INDEX[color]
            d["pouch"][c] -= height
            assert d["pouch"][c] >= 0, f"not enough {color} bricks in the pouch"
            player["towers"].append({"c": c, "h": height, "add": 0, "old": old})

    return edit(state, change)


def _take_card(d: dict[str, Any], card: str) -> None:
    for pile in (d["deck"], d["discard"]):
        if card in pile:
            pile.remove(card)
            return
    for slot in d["row"]:
        if slot["card"] == card:
            # Swap with a deck card so the row stays full.
            slot["card"] = d["deck"].pop()
            return
    raise AssertionError(f"no {card} left outside hands to hand out")


def set_hand(state: State, seat: int, *cards: str) -> State:
    """Put these cards (taken from deck or discard pile) into a seat's hand."""

    def change(d: dict[str, Any]) -> None:
        player = d["players"][seat]
        d["discard"].extend(player["hand"])
        player["hand"] = []
        for card in cards:
            _take_card(d, card)
            player["hand"].append(card)

    return edit(state, change)


def set_buildings(state: State, seat: int, *cards: str) -> State:
    def change(d: dict[str, Any]) -> None:
        player = d["players"][seat]
        d["discard"].extend(player["buildings"])
        player["buildings"] = []
        for card in cards:
            _take_card(d, card)
            player["buildings"].append(card)

    return edit(state, change)


def set_row(state: State, *cards: str, bricks_on: Iterable[list[int]] | None = None) -> State:
    """Lay these cards in the row from the left (the others stay), with no bricks unless given."""

    def change(d: dict[str, Any]) -> None:
        brick_lists = list(bricks_on) if bricks_on is not None else [[0] * 6 for _ in cards]
        for i, card in enumerate(cards):
            slot = d["row"][i]
            for c in range(6):
                d["pouch"][c] += slot["bricks"][c]
            d["deck"].append(slot["card"])
            _take_card(d, card)
            slot["card"] = card
            slot["bricks"] = list(brick_lists[i])
            for c in range(6):
                d["pouch"][c] -= slot["bricks"][c]

    return edit(state, change)


def set_deck_top(state: State, *cards: str) -> State:
    """Make these the next cards to come into the row."""

    def change(d: dict[str, Any]) -> None:
        for card in reversed(cards):
            _take_card(d, card)
            d["deck"].insert(0, card)

    return edit(state, change)


def set_seals(state: State, seat: int, seals: int) -> State:
    """Leave a seat with this many seals."""

    def change(d: dict[str, Any]) -> None:
        d["players"][seat]["seals"] = seals

    return edit(state, change)


def set_board(state: State, color: str, level: int, seal: int | None) -> State:
    """Put a seal (seat, -1 for neutral, None to clear) on a commission square."""

    def change(d: dict[str, Any]) -> None:
        d["board"][COLOR_INDEX[color] * 6 + level - 3] = seal

    return edit(state, change)


def data(state: State) -> dict[str, Any]:
    return to_dict(state)


def player(state: State, seat: int) -> dict[str, Any]:
    return to_dict(state)["players"][seat]


def table(state: State) -> dict[str, Any]:
    """What a spectator sees: the public table."""
    return player_view(state, None)


def hand(state: State, seat: int = 0) -> list[str]:
    """The seat's hand as its player sees it (in the order the page shows)."""
    return player_view(state, seat)["players"][seat]["hand"]


def pp(state: State, seat: int) -> int:
    return player(state, seat)["pp"]


def pouch(state: State) -> dict[str, int]:
    """The pouch by colour name, every colour (zero counts too)."""
    return {COLORS[c]: n for c, n in enumerate(data(state)["pouch"])}


def store(state: State, seat: int) -> dict[str, int]:
    return {COLORS[c]: n for c, n in enumerate(player(state, seat)["store"]) if n}


def towers(state: State, seat: int) -> list[tuple[str, int]]:
    return [(COLORS[t["c"]], t["h"]) for t in player(state, seat)["towers"]]


def play(state: State, *actions: Action) -> State:
    for action in actions:
        state = apply_action(state, action)
    return state


def rejects(state: State, action: Action) -> str:
    """Apply an action that must be illegal; return the message the player would read."""
    try:
        apply_action(state, action)
    except IllegalAction as exc:
        return str(exc)
    raise AssertionError(f"{action} was accepted")


def log(state: State) -> list[str]:
    return log_lines(state, CAST)


# Actions, named as a player would say them.
def choose(slot: int) -> Action:
    return {"type": "choose_card", "slot": slot}


def pay(color: str) -> Action:
    return {"type": "pay_brick", "color": color}


def take(color: str, seat: int | None = None) -> Action:
    return (
        {"type": "take_brick", "color": color}
        if seat is None
        else {"type": "take_brick", "seat": seat, "color": color}
    )


def build(tower: int) -> Action:
    return {"type": "build", "tower": tower}


def start_tower(color: str) -> Action:
    return {"type": "build", "color": color}


def fulfil(tower: int, level: int) -> Action:
    return {"type": "fulfil", "tower": tower, "level": level}


def play_card(card: str) -> Action:
    return {"type": "play_card", "card": card}


def resolve() -> Action:
    return {"type": "resolve_event"}


def pick_tower(tower: int, seat: int | None = None) -> Action:
    return (
        {"type": "pick_tower", "tower": tower}
        if seat is None
        else {"type": "pick_tower", "seat": seat, "tower": tower}
    )


def pick_slot(slot: int) -> Action:
    return {"type": "pick_slot", "slot": slot}


def discard(card: str) -> Action:
    return {"type": "discard_card", "card": card}


def exchange(slot: int) -> Action:
    return {"type": "exchange", "slot": slot}


END_PHASE: Action = {"type": "end_phase"}
END_TURN: Action = {"type": "end_turn"}


def take_plain_card(state: State, card: str = "Fame") -> State:
    """Choose phase done the quick way: a harmless card with no bricks in the leftmost slot."""
    return play(set_row(state, card), choose(0))


def to_phase(state: State, phase: str, card: str = "Fame") -> State:
    """Walk the acting player to the start of `phase` (build costs must be zero on the way)."""
    order = ["choose", "exchange", "build", "fulfil"]
    current = to_dict(state)["phase"]
    if current == "choose" and phase != "choose":
        state = take_plain_card(state, card)
    while order.index(to_dict(state)["phase"]) < order.index(phase):
        state = apply_action(state, END_PHASE)
    return state


# One balcony from each group I-IV, on towers the fulfil scenarios do not otherwise use.
BALCONIES = (("white", 7, 7), ("red", 6, 9), ("blue", 6, 11), ("purple", 7, 14))


def open_board(
    state: State,
    balconies: tuple[tuple[str, int, int], ...] = BALCONIES,
    fulfilled: int = 0,
    level_tiles: tuple[int, ...] = (5, 6, 7, 8),
) -> State:
    """No seal anywhere but the first `fulfilled` balconies (sealed by seat 1); these balconies
    and level tiles. The row cards' bricks go back to the pouch, so tall towers can be set up.
    """

    def change(d: dict[str, Any]) -> None:
        for slot in d["row"]:
            d["pouch"] = [a + b for a, b in zip(d["pouch"], slot["bricks"], strict=True)]
            slot["bricks"] = [0] * 6
        d["board"] = [None] * 36
        d["balconies"] = [{"c": COLOR_INDEX[c], "l": lv, "pp": pp} for c, lv, pp in balconies]
        for c, lv, _ in balconies[:fulfilled]:
            d["board"][COLOR_INDEX[c] * 6 + lv - 3] = 1
        d["players"][1]["seals"] -= fulfilled
        d["balcony_next"] = fulfilled
        d["level_tiles"] = list(level_tiles)

    return edit(state, change)


def at_fulfil(
    *towers: tuple[str, int],
    balconies: tuple[tuple[str, int, int], ...] = BALCONIES,
    fulfilled: int = 0,
    level_tiles: tuple[int, ...] = (5, 6, 7, 8),
    hand: tuple[str, ...] = (),
    seat: int = 0,
    players: int = 2,
) -> State:
    """The first player in their fulfil phase with these towers, built up this turn."""
    state = open_board(game(players), balconies, fulfilled, level_tiles)
    state = set_towers(state, seat, *towers, old=False)
    state = to_phase(state, "fulfil")
    if hand:
        state = set_hand(state, seat, *hand)
    return state


def is_legal(state: State, action: Action) -> bool:
    return action in legal_actions(state)
