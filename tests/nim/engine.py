"""Nim with a hidden card: the second engine that keeps the platform's seam honest.

A pile of stones; in turn each player takes 1 to 3 (or up to 4 once, with the joker card only
they can see), then ends the turn (the take can be undone until then). Whoever takes the last
stone wins with 1 point. Nothing here imports the platform or Firenze: only the seam,
games.rules.protocol, whose Engine mypy proves it satisfies (the check at the end, `make lint`).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from games.rules.protocol import (
    BotLevel,
    ChangesSince,
    Engine,
    Look,
    RecordFacet,
    Seen,
    StandingOrder,
)


class NimRefused(ValueError):
    """A move that is not legal now; the message is for the player."""


class State:
    def __init__(self, data: dict[str, Any]) -> None:
        self.d = data


def _legal(d: dict[str, Any]) -> list[dict[str, Any]]:
    if d["winner"] is not None:
        return []
    if d["taken"]:
        return [{"type": "end_turn"}]
    most = 4 if d["jokers"][d["seat"]] else 3
    return [{"type": "take", "n": n} for n in range(1, min(most, d["pile"]) + 1)]


def _label(action: dict[str, Any]) -> str:
    return f"Take {action['n']}" if action["type"] == "take" else "End the turn"


def _bot(state: State, rng: random.Random) -> dict[str, Any]:
    return rng.choice(_legal(state.d))


class NimEngine:
    name = "nim"
    rules_version = "1"
    min_players = 2
    max_players = 3
    bots: Mapping[str, Any] = {"random": _bot}
    default_bot = "random"
    bot_levels: Sequence[BotLevel] = (BotLevel("random", "Random", "Takes any number of stones."),)
    illegal_action = NimRefused
    look = Look(
        title="Nim",
        tagline="Nim — whoever takes the last stone wins.",
        pitch="Take stones from a pile, a few at a time.",
        score_unit="points",
        score_name="Points",
        seat_colours=("red", "blue", "green"),
        bot_names=("Ada", "Bea", "Cy"),
        # Only the board, the choices and the joker: the platform draws the rest of the page.
        page_parts={
            "board": "nim/parts.html#board",
            "actions": "nim/parts.html#actions",
            "hand": "nim/parts.html#hand",
        },
        rules_template="nim/rules.html",
    )

    def option_fields(self) -> dict[str, Any]:
        return {"stones": forms.IntegerField(label="Stones", min_value=5, max_value=30, initial=9)}

    def options_from_form(self, cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
        return {"stones": cleaned_data["stones"]}

    def normalise_options(
        self, num_players: int, options: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError("Nim is for 2 or 3 players.")
        return {"stones": int((options or {}).get("stones", 9))}

    def new_game(self, num_players: int, seed: int, options: Mapping[str, Any] | None) -> State:
        options = self.normalise_options(num_players, options)
        joker = random.Random(f"{seed}/joker").randrange(num_players)
        return State(
            {
                "n": num_players,
                "pile": options["stones"],
                "options": options,
                "seat": 0,
                "taken": 0,
                "step": 0,
                "turn_no": 1,
                "jokers": [seat == joker for seat in range(num_players)],
                "winner": None,
                "log": [],
            }
        )

    def legal_actions(self, state: State) -> list[dict[str, Any]]:
        return _legal(state.d)

    def apply_action(self, state: State, action: dict[str, Any]) -> State:
        if action not in _legal(state.d):
            raise NimRefused("You cannot do that now.")
        d = copy.deepcopy(state.d)
        d["step"] += 1
        me = d["seat"]
        if action["type"] == "take":
            d["pile"] -= action["n"]
            d["taken"] = action["n"]
            d["jokers"][me] = d["jokers"][me] and action["n"] < 4
            d["log"] = [f"{{{me}}} takes {action['n']}."]
            if d["pile"] == 0:
                d["winner"] = me
                d["log"].append(f"{{{me}}} takes the last stone and wins.")
        else:
            d["seat"], d["taken"], d["turn_no"] = (me + 1) % d["n"], 0, d["turn_no"] + 1
            d["log"] = [f"{{{me}}} ends the turn."]
        return State(d)

    def refusal_text(self, exc: Exception) -> str:
        return str(exc)  # Nim's one refusal is English only: a test engine

    def acting_seat(self, state: State) -> int | None:
        return None if state.d["winner"] is not None else state.d["seat"]

    def is_over(self, state: State) -> bool:
        return state.d["winner"] is not None

    def scores(self, state: State) -> list[int]:
        return [int(seat == state.d["winner"]) for seat in range(state.d["n"])]

    def winners(self, state: State) -> list[int]:
        return [] if state.d["winner"] is None else [state.d["winner"]]

    def progress(self, state: State) -> float | None:
        return (
            state.d["taken"] / state.d["options"]["stones"]
            if state.d["options"]["stones"]
            else None
        )

    def can_undo(self, state: State) -> bool:
        return bool(state.d["taken"]) and state.d["winner"] is None

    def step(self, state: State) -> int:
        return int(state.d["step"])

    def turn_no(self, state: State) -> int:
        return int(state.d["turn_no"])

    def player_view(self, state: State, seat: int | None) -> dict[str, Any]:
        d = state.d
        return {
            "pile": d["pile"],
            "acting_seat": self.acting_seat(state),
            "my_joker": d["jokers"][seat] if seat is not None else None,
            "players": d["n"],
        }

    def to_dict(self, state: State) -> dict[str, Any]:
        return copy.deepcopy(state.d)

    def from_dict(self, data: Any) -> State:
        if not isinstance(data, dict) or "pile" not in data:
            raise ValueError("not a Nim state")
        return State(copy.deepcopy(data))

    def log_tokens(self, state: State) -> list[str]:
        return list(state.d["log"])

    def format_line(self, line: str, names: Sequence[str]) -> str:
        return line.format(*names)

    def minor_line(self, line: str) -> bool:
        return line.endswith("ends the turn.")  # a turn that took nothing: a pass

    def changes(self, before: State, after: State) -> dict[str, Any]:
        return {"pile": after.d["pile"]}

    def score_breakdown(self, state: State) -> list[dict[str, Any]] | None:
        return None

    record_facets: Sequence[RecordFacet] = (
        RecordFacet(
            key="pile",
            label="Pile",
            choices=(("", "Any pile"), ("small", "9 stones or fewer"), ("large", "More")),
        ),
    )
    seat_tallies: Sequence[str] = ("jokers",)

    def record_details(self, state: State) -> dict[str, Any]:
        d = state.d
        stones = d["options"]["stones"]
        return {
            "game": {"stones": stones},
            "facets": {"pile": "small" if stones <= 9 else "large"},
            "seats": [{"jokers": int(kept)} for kept in d["jokers"]],
        }

    def option_tags(self, options: Mapping[str, Any]) -> list[str]:
        return [f"{options.get('stones', '?')} stones"]

    def describe_record(self, details: Mapping[str, Any]) -> list[str]:
        return [f"{details.get('stones', '?')} stones"]

    def career_facts(self, tallies: Mapping[str, int]) -> list[tuple[str, str]]:
        return [("Jokers kept", str(tallies.get("jokers") or 0))]

    def page_context(self, seen: Seen) -> dict[str, Any]:
        acting, viewer, names = seen.acting, seen.viewer, seen.names
        return {
            "view": seen.view,
            "my_turn": seen.my_turn,
            "acting_name": names[acting] if acting is not None else "",
            "choices": [
                {"payload": json.dumps(a, separators=(",", ":")), "label": _label(a)}
                for a in seen.choices
            ],
            "can_undo": seen.can_undo,
            "players": [
                {
                    "seat": seat,
                    "name": name,
                    "colour": colour,
                    "initial": name[:1].upper(),
                    "is_me": seat == viewer,
                    "is_acting": seat == acting,
                    "score": seen.scores[seat],
                }
                for seat, (name, colour) in enumerate(zip(names, seen.colours, strict=True))
            ],
            "final": None,
        }

    def replay_context(self, state: State, names: list[str]) -> dict[str, Any]:
        return {"jokers": [n for n, j in zip(names, state.d["jokers"], strict=True) if j]}

    def rules_context(self) -> dict[str, Any]:
        return {}

    def review(
        self, initial: State, actions: Sequence[dict[str, Any]], seat: int, seconds: float
    ) -> list[dict[str, Any]]:
        """Each of the seat's takes beside the winning take (leave the pile a multiple of 4)."""
        entries: list[dict[str, Any]] = []
        d = initial.d
        for step, action in enumerate(actions):
            if d["seat"] == seat and action["type"] == "take":
                best = d["pile"] % 4 or 1
                loss = 0.0 if action["n"] == best else 1.0
                entries.append({"step": step, "loss": loss, "took": action["n"], "best": best})
            d = self.apply_action(State(d), action).d
        return entries

    def estimate_lines(
        self,
        state: State,
        seat: int,
        lines: Sequence[Sequence[dict[str, Any]]],
        seconds: float,
    ) -> list[float | None] | None:
        """Each line's margin with the winning take played from there on: +1 when the next
        mover faces a multiple of 4 (or the seat took the last stone), else -1."""
        out: list[float | None] = []
        for line in lines:
            d = state.d
            for action in line:
                d = self.apply_action(State(d), action).d
            if d["winner"] is not None:
                out.append(1.0 if d["winner"] == seat else -1.0)
                continue
            they_face = d["seat"] != seat or d["taken"]  # the seat's turn is over or ending
            out.append(1.0 if (d["pile"] % 4 == 0) == bool(they_face) else -1.0)
        return out

    def review_text(self, entry: Mapping[str, Any]) -> dict[str, str]:
        return {
            "decision": "Take",
            "played": f"Take {entry['took']}",
            "suggested": f"Take {entry['best']}",
        }

    # What happened since my last turn (issue 30): from two of the seat's views only, so the
    # others' jokers stay hidden.
    def changes_since(
        self, before: dict[str, Any], after: dict[str, Any], seat: int, names: Sequence[str]
    ) -> ChangesSince:
        taken = before["pile"] - after["pile"]
        if taken <= 0:
            return ChangesSince()
        for_you = [f"The pile is down to {after['pile']}."] if after["pile"] <= 4 else []
        others = [f"The others took {taken} stones: {before['pile']} → {after['pile']}."]
        return ChangesSince(for_you=for_you, others=others, marks={"pile": True})

    # Planned turns: Nim hides only the jokers, and nobody draws, so a plan never stops early.
    def plan_sandbox(self, view: dict[str, Any], seat: int, rng: random.Random) -> State | None:
        if view["acting_seat"] is None:
            return None
        jokers = [bool(view["my_joker"]) if s == seat else False for s in range(view["players"])]
        stones = {"stones": view["pile"]}
        return State(
            {
                "n": view["players"],
                "pile": view["pile"],
                "options": stones,
                "seat": seat,
                "taken": 0,
                "step": 0,
                "turn_no": 1,
                "jokers": jokers,
                "winner": None,
                "log": [],
            }
        )

    def plan_intent(self, state: State, action: dict[str, Any]) -> dict[str, Any]:
        return dict(action)

    def plan_stop(self, before: State, after: State, seat: int) -> str | None:
        return None

    def intent_text(self, intent: Mapping[str, Any]) -> str:
        return _label(dict(intent))

    def plan_why(
        self, state: State, intent: Mapping[str, Any], seat: int, since: Sequence[str]
    ) -> dict[str, Any]:
        """A take no longer possible: the pile is smaller than the plan thought."""
        if intent.get("type") == "take" and state.d["pile"] < intent.get("n", 0):
            return {"key": "pile", "pile": state.d["pile"]}
        return {}

    def plan_why_text(self, why: Mapping[str, Any], names: Sequence[str]) -> str:
        if why.get("key") == "pile":
            return f"only {why['pile']} stones are left"
        return ""

    # Nim's turn is a take, then ending the turn: the one step that leaves no choice.
    standing_orders: Sequence[StandingOrder] = (
        StandingOrder("end_after_take", "End my turn once I have taken"),
    )

    def standing_action(self, state: State, seat: int, order: str) -> dict[str, Any] | None:
        d = state.d
        if order != "end_after_take" or d["winner"] is not None or d["seat"] != seat:
            return None
        return {"type": "end_turn"} if d["taken"] else None


# The proof that Nim is an engine the platform can play (mypy, `make lint`).
_CHECKED: Engine = NimEngine()
