"""Build phase, its construction cost, and the tear-down of abandoned towers that follows."""

from __future__ import annotations

from typing import Any

from .bricks import describe, describe_colors, tear_down
from .data import BUILD_COST, COLOR_INDEX, COLORS, MAX_BUILD_PER_TURN
from .errors import NO_BRICK_IN_STORE, NO_SUCH_TOWER, Refusal, color_refusal
from .players import build_discount
from .words import gettext_noop, plural, seat_ref


def construction_cost(s: dict[str, Any], bricks: int) -> int:
    discount = build_discount(s["players"][s["seat"]], s["turn"]["mason"])
    return max(0, BUILD_COST[bricks] - discount)


def build_count_gate(s: dict[str, Any]) -> Refusal | None:
    """At most MAX_BUILD_PER_TURN bricks a turn."""
    return _AT_MOST if s["turn"]["built"] >= MAX_BUILD_PER_TURN else None


def build_cost_gate(s: dict[str, Any]) -> Refusal | None:
    """One more brick must leave enough in the storehouse to pay the construction cost of the
    new total."""
    built = s["turn"]["built"]
    cost = construction_cost(s, built + 1)
    left = sum(s["players"][s["seat"]]["store"]) - 1
    if left < cost:
        return Refusal(
            gettext_noop(
                "Building %(bricks)s bricks this turn costs %(cost)s; you would have only "
                "%(left)s left in your storehouse to pay with."
            ),
            {"bricks": built + 1, "cost": cost, "left": left},
        )
    return None


def brick_refusal(s: dict[str, Any], action: dict[str, Any]) -> Refusal | None:
    """Whether this brick exists: onto one of the player's towers ("tower") or starting a
    tower ("color"), of a colour the storehouse holds."""
    player = s["players"][s["seat"]]
    if "tower" in action:
        if "color" in action:
            return _SAY_WHICH
        i = action["tower"]
        if type(i) is not int or not 0 <= i < len(player["towers"]):
            return NO_SUCH_TOWER
        color = player["towers"][i]["c"]
    elif "color" in action:
        key = action["color"]
        color = COLOR_INDEX.get(key, -1) if type(key) is str else -1
        if color < 0:
            return color_refusal(action)
    else:
        return _SAY_WHICH
    return None if player["store"][color] else NO_BRICK_IN_STORE[color]


_AT_MOST = Refusal(
    gettext_noop("You may add at most %(max)s bricks per turn."), {"max": MAX_BUILD_PER_TURN}
)
_SAY_WHICH = Refusal(
    gettext_noop('Say which tower to add to ("tower") or which colour to start ("color").')
)


def add_to_tower(s: dict[str, Any], tower_index: int) -> None:
    player = s["players"][s["seat"]]
    tower = player["towers"][tower_index]
    player["store"][tower["c"]] -= 1
    tower["h"] += 1
    tower["add"] += 1
    s["turn"]["built"] += 1
    s["log"].append(
        f"{seat_ref(s['seat'])} adds a {COLORS[tower['c']]} brick: tower of {tower['h']}."
    )


def start_tower(s: dict[str, Any], color: int) -> None:
    player = s["players"][s["seat"]]
    player["store"][color] -= 1
    player["towers"].append({"c": color, "h": 1, "add": 1, "old": False})
    s["turn"]["built"] += 1
    s["log"].append(f"{seat_ref(s['seat'])} starts a {COLORS[color]} tower.")


def end_build(s: dict[str, Any]) -> None:
    due = construction_cost(s, s["turn"]["built"])
    if due:
        s["pending"] = {"kind": "build_cost", "due": due, "paid": []}
    else:
        _after_build(s)


def pay_cost(s: dict[str, Any], color: int) -> None:
    s["players"][s["seat"]]["store"][color] -= 1
    s["pouch"][color] += 1
    pending = s["pending"]
    paid = pending["paid"] + [color]
    if len(paid) < pending["due"]:
        pending["paid"] = paid
        return
    s["pending"] = None
    s["log"].append(
        f"{seat_ref(s['seat'])} pays {describe_colors(paid)} construction cost for "
        f"{plural(s['turn']['built'], 'brick')}."
    )
    _after_build(s)


def _after_build(s: dict[str, Any]) -> None:
    tear_down_abandoned(s)
    s["phase"] = "fulfil"


def tear_down_abandoned(s: dict[str, Any]) -> None:
    """Towers that stood at the start of the turn and got no brick this turn come down."""
    seat = s["seat"]
    player = s["players"][seat]
    index = 0
    while index < len(player["towers"]):
        tower = player["towers"][index]
        if tower["old"] and tower["add"] == 0:
            to_pouch, to_store = tear_down(player, index, s["pouch"])
            back = [0] * 6
            back[tower["c"]] = to_store
            s["log"].append(
                f"{seat_ref(seat)}'s abandoned {COLORS[tower['c']]} tower of {tower['h']} is torn "
                f"down: {to_pouch} to the pouch, {describe(back)} back to the storehouse."
            )
        else:
            index += 1
