"""Every card and every pending decision has its one registry entry, and everything the engine,
the pages and the bots know about a card is read from that entry: adding a card of a known
pattern is one entry in firenze.rules.cards (plus its docs and tests), and a card or decision
without its entry fails here, not in a game."""

from __future__ import annotations

import re
from pathlib import Path

from games.rules.firenze.rules import data
from games.rules.firenze.rules.cards import (
    CARD_KIND,
    CARDS,
    PERSONNEL_PHASES,
    Building,
    Celebration,
    Church,
    Event,
    Personnel,
    final_pp,
    privilege,
)
from games.rules.firenze.rules.decisions import DECISIONS

RULES = Path(__file__).resolve().parents[2] / "games" / "rules" / "firenze" / "rules"
KINDS = {data.EVENT, data.PERSONNEL, data.CELEBRATION, data.BUILDING, data.CHURCH}


def test_every_card_is_one_entry_of_a_known_kind_with_its_words():
    assert len(CARDS) == 27
    for name, card in CARDS.items():
        assert isinstance(card, Event | Personnel | Celebration | Building | Church), name
        assert card.kind in KINDS and card.count >= 1, name
        assert card.text.strip() and card.help.strip(), name
    assert set(data.START_CARDS) <= set(CARDS)


def test_every_personnel_card_has_its_phases_and_its_effect():
    for name, card in CARDS.items():
        if isinstance(card, Personnel):
            assert card.phases and card.phases <= data.ALL_PHASES, name
            assert callable(card.has_effect) and callable(card.effect), name


def test_the_card_tables_are_read_from_the_entries():
    """The tables other modules read are the registry's fields, not lists of their own."""
    assert {name: card.kind for name, card in CARDS.items()} == CARD_KIND
    assert {
        name: card.phases for name, card in CARDS.items() if isinstance(card, Personnel)
    } == PERSONNEL_PHASES
    assert {n: privilege(n) for n in CARDS if privilege(n)} == {
        "Major Privilege": (7, 4),
        "Minor Privilege": (5, 2),
        "Privilege": (6, 3),
    }
    fixed = {n: final_pp(n) for n in CARDS if final_pp(n) is not None}
    assert fixed == {"Disgrace": -2, "Fame": 3, "Monument": 3, "Scandal": -3}
    assert privilege("Campanile") is None and final_pp("Recognition") is None
    left_by_hand = {
        "CARDS",
        "CARD_KIND",
        "CARD_TEXT",
        "PERSONNEL_PHASES",
        "PRIVILEGES",
        "CELEBRATION_PP",
    }
    assert not left_by_hand & set(vars(data)), "data.py lists cards again"


def test_no_module_keeps_its_own_list_of_cards():
    """A card's name appears in code only where a one-off rule of that card lives, never as a
    table keyed by card names (such a table belongs in the card's registry entry)."""
    names = "|".join(re.escape(name) for name in CARDS)
    table_row = re.compile(rf'^\s*"(?:{names})": ', re.MULTILINE)
    outside = sorted(
        str(path.relative_to(RULES.parent))
        for path in [*RULES.glob("*.py"), *RULES.parent.glob("*.py")]
        if path.name != "cards.py" and table_row.search(path.read_text(encoding="utf-8"))
    )
    assert outside == []


def test_every_pending_decision_the_engine_leaves_has_an_entry():
    left = set()
    for path in RULES.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        left |= set(re.findall(r'"kind": "(\w+)"', text))
        left |= set(re.findall(r'_decide\("(\w+)"', text))
    assert left <= set(DECISIONS)
    assert all(d.first for d in DECISIONS.values())
