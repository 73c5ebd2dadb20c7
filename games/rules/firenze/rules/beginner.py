"""The Beginner bot: the Standard bot with a learner's habits, so a new player can win.

It plays only legal, sensible moves, but: it often takes a cheap card whatever lies on it,
never spends a Princess, Mason or Architect, never exchanges, never cancels an event with a
Patrician, and never builds more than two bricks a turn (it will not pay a construction cost),
so its towers grow slowly and an abandoned one now and then falls. Every habit is one a
player can see and exploit.
"""

from __future__ import annotations

import random
from typing import Any

from .greedy import Me, choice_value, greedy_decide

Action = dict[str, Any]
S = dict[str, Any]

CHEAP_CARD_SHARE = 0.4  # how often it just takes one of the two leftmost cards
MAX_BRICKS = 2  # it never builds a third brick in a turn (no construction cost)


def beginner_decide(s: S, legal: list[Action], rng: random.Random) -> Action:
    """The Beginner's choice among `legal` (the legal actions of state dict `s`)."""
    if len(legal) == 1:
        return legal[0]
    plain = [a for a in legal if a["type"] != "play_card"]
    if not plain:  # only cards to play (a pending answer would be listed): play none of them
        return legal[0]
    if s["pending"] is not None:
        if s["pending"]["kind"] == "event":
            return {"type": "resolve_event"}
        return greedy_decide(s, legal, rng)
    phase = s["phase"]
    if phase == "choose":
        return _choose(s, plain, rng)
    if phase == "build" and s["turn"]["built"] >= MAX_BRICKS:
        return {"type": "end_phase"}
    return greedy_decide(s, plain, rng)


def _choose(s: S, legal: list[Action], rng: random.Random) -> Action:
    cards = [a for a in legal if a["type"] == "choose_card"]
    if not cards:
        return legal[0]
    cheap = [a for a in cards if a["slot"] <= 1]
    if cheap and rng.random() < CHEAP_CARD_SHARE:
        return rng.choice(cheap)
    me = Me(s)
    return max(cards, key=lambda a: choice_value(s, me, a["slot"]))
