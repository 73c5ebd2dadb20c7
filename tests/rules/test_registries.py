"""Every card and every pending decision has its one registry entry: adding a personnel card
or a decision without one fails here, not in a game."""

from __future__ import annotations

import re
from pathlib import Path

from firenze.rules.data import CARD_KIND, EVENT, PERSONNEL, PERSONNEL_PHASES
from firenze.rules.decisions import DECISIONS
from firenze.rules.events import EVENT_HANDLERS
from firenze.rules.personnel import PERSONNEL_CARDS

RULES = Path(__file__).resolve().parents[2] / "firenze" / "rules"


def test_every_personnel_card_has_an_entry_and_its_phases():
    personnel = {card for card, kind in CARD_KIND.items() if kind == PERSONNEL}
    assert set(PERSONNEL_CARDS) == personnel
    assert set(PERSONNEL_PHASES) == personnel


def test_every_event_card_has_a_handler():
    events = {card for card, kind in CARD_KIND.items() if kind == EVENT}
    assert set(EVENT_HANDLERS) == events


def test_every_pending_decision_the_engine_leaves_has_an_entry():
    left = set()
    for path in RULES.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        left |= set(re.findall(r'"kind": "(\w+)"', text))
        left |= set(re.findall(r'_decide\("(\w+)"', text))
    assert left <= set(DECISIONS)
    assert all(d.first for d in DECISIONS.values())
