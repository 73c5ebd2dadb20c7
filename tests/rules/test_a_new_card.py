"""Adding a card is one registry entry: a hypothetical personnel card, registered for the length
of a test only (monkeypatch restores the registry), is in the deck, offered and played in its
phase, refused outside it, and weighed by the greedy bot, without a line changed elsewhere.
tests/test_site.py shows the same card on the rules page."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.rules.firenze.rules import IllegalAction, apply_action, legal_actions, new_game, to_dict
from games.rules.firenze.rules.bots import greedy
from games.rules.firenze.rules.cards import CARDS, Personnel
from games.rules.firenze.rules.words import gettext_noop
from tests.rules.scenario import (
    choose,
    game,
    hand,
    log,
    play,
    play_card,
    set_hand,
    set_row,
    store,
    to_phase,
)


def _take_a_white_brick(s: dict[str, Any]) -> None:
    s["pouch"][0] -= 1
    s["players"][s["seat"]]["store"][0] += 1


# Not a real card: its text is not in the catalogue, so no `make messages` picks it up.
JESTER = Personnel(
    count=2,
    text=gettext_noop("Build phase: take a white brick from the pouch."),
    help=gettext_noop("Play it in the build phase to take one white brick from the pouch."),
    worth=50.0,
    phases=frozenset({"build"}),
    has_effect=lambda s: s["pouch"][0] > 0,
    effect=_take_a_white_brick,
)


ANNA = 0


@pytest.fixture
def jester(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(CARDS, "Jester", JESTER)
    return "Jester"


def _every_card(state: Any) -> list[str]:
    d = to_dict(state)
    held = [c for p in d["players"] for c in p["hand"] + p["buildings"]]
    return d["deck"] + [r["card"] for r in d["row"]] + d["discard"] + held


def test_a_registered_card_is_dealt_with_its_count(jester):
    cards = _every_card(new_game(3, 7))
    assert cards.count(jester) == 2
    assert len(cards) == 52 + 2 - 1  # the Campanile stays out without its option


def test_a_registered_personnel_card_is_played_in_its_phase_only(jester):
    state = set_hand(game(2), ANNA, jester)
    assert play_card(jester) not in legal_actions(state)
    with pytest.raises(IllegalAction):
        apply_action(state, play_card(jester))

    state = to_phase(state, "build")
    assert play_card(jester) in legal_actions(state)
    before = store(state, ANNA)["white"]
    after = play(state, play_card(jester))
    assert store(after, ANNA)["white"] == before + 1
    assert jester not in hand(after, ANNA)
    assert log(after) == ["Anna plays Jester."]


def test_the_greedy_bot_weighs_a_registered_card_by_its_entry(jester):
    state = set_row(game(2), "Fame", jester)
    assert greedy(state, random.Random(1)) == choose(1)  # worth 50: worth a brick's card cost
