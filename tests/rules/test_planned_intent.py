"""A planned step means the kind of card, not its slot nor the bricks lying on it (issue 31)."""

from __future__ import annotations

import copy

from games.rules.firenze.rules import apply_action, legal_actions, new_game
from games.rules.firenze.rules.planned import intent, stop
from games.rules.firenze.rules.state import State


def _take_first_card(state: State) -> tuple[dict, dict]:
    action = next(a for a in legal_actions(state) if a["type"] == "choose_card")
    return action, intent(state, action)


def _changed(state: State, change) -> State:
    data = copy.deepcopy(state._d)
    change(data)
    return State(data)


def test_it_holds_a_taken_card_when_a_brick_joined_it_and_it_slid_left() -> None:
    """An opponent taking a card to its left slides it left (cheaper); a brick joins it."""
    state = new_game(2, 31, None)
    action = [a for a in legal_actions(state) if a["type"] == "choose_card"][-1]
    wanted = intent(state, action)
    slot = action["slot"]
    assert slot > 0

    def brick_and_shift(data: dict) -> None:
        data["row"][slot]["bricks"][0] += 1
        data["row"].insert(0, data["row"].pop(slot))

    later = _changed(state, brick_and_shift)
    matches = [a for a in legal_actions(later) if intent(later, a) == wanted]

    assert matches, "the plan should still hold"
    after = apply_action(later, matches[0])  # raises on an illegal move
    assert after._d["row"] != later._d["row"]


def test_it_stops_when_an_opponent_took_every_card_of_that_kind() -> None:
    state = new_game(2, 31, None)
    _action, wanted = _take_first_card(state)

    def take_kind(data: dict) -> None:
        data["row"] = [e for e in data["row"] if e["card"] != wanted["card"]]

    later = _changed(state, take_kind)

    assert not [a for a in legal_actions(later) if intent(later, a) == wanted]


def test_it_plays_on_after_a_take_refilled_the_row_but_stops_at_a_card_drawn_elsewhere() -> None:
    """The row's refill is open to everyone and every later step is checked against the real
    row: a plan goes on. A card off the deck that did not land in the row is a guess: it stops."""
    state = new_game(2, 31, None)
    action, _ = _take_first_card(state)
    after = apply_action(state, action)
    assert len(after._d["deck"]) < len(state._d["deck"]), "the take refilled the row"

    assert stop(state, after, 0) is None

    def draw_into_hand(data: dict) -> None:
        data["log"] = []  # a step's log holds that step's lines alone
        data["players"][0]["hand"].append(data["deck"].pop())

    assert stop(after, _changed(after, draw_into_hand), 0) == "revealed"


def test_it_plays_on_when_the_refill_is_the_same_kind_as_the_card_taken() -> None:
    """The sandbox's guessed deck may turn up a second copy of the card just taken: the row then
    holds the same cards as before, yet nothing hidden came to light."""
    state = new_game(2, 31, None)
    action, wanted = _take_first_card(state)

    def same_kind_on_top(data: dict) -> None:
        deck, card = data["deck"], wanted["card"]
        deck.insert(0, deck.pop(deck.index(card)) if card in deck else card)

    later = _changed(state, same_kind_on_top)
    after = apply_action(later, action)
    assert sorted(e["card"] for e in after._d["row"]) == sorted(e["card"] for e in later._d["row"])

    assert stop(later, after, 0) is None
