"""Firenze's standing orders and why a plan stopped (issue 31): an order takes only the step
that leaves no choice (never an illegal one), and a stopped plan names who took its card."""

from __future__ import annotations

import copy

from games.rules.firenze.rules import apply_action, legal_actions, log_tokens, new_game
from games.rules.firenze.rules.planned import END_TURN, SKIP_EXCHANGE, intent, standing_action, why
from games.rules.firenze.rules.state import State


def _free_card(state: State) -> dict:
    """Taking the leftmost card: no bricks to pay."""
    return next(a for a in legal_actions(state) if a == {"type": "choose_card", "slot": 0})


def _empty_handed(state: State) -> State:
    """The acting player with no card to play and no brick to build with."""
    data = copy.deepcopy(state._d)
    player = data["players"][data["seat"]]
    player["hand"], player["store"] = [], [0] * len(player["store"])
    return State(data)


def test_it_skips_the_exchange_only_in_the_exchange_phase() -> None:
    state = new_game(2, 31, None)
    seat = state._d["seat"]
    assert standing_action(state, seat, SKIP_EXCHANGE) is None  # choosing: a choice is open
    after = apply_action(state, _free_card(state))  # seed 31: an Alchemist, no event
    assert after._d["pending"] is None and after._d["phase"] == "exchange"
    action = standing_action(after, seat, SKIP_EXCHANGE)
    assert action == {"type": "end_phase"} and action in legal_actions(after)
    assert apply_action(after, action)._d["phase"] == "build"
    assert standing_action(apply_action(after, action), seat, SKIP_EXCHANGE) is None
    assert standing_action(after, 1 - seat, SKIP_EXCHANGE) is None  # never for another seat


def test_it_ends_the_turn_only_when_ending_is_all_that_is_left() -> None:
    state = new_game(2, 7, None)
    seat = state._d["seat"]
    assert standing_action(state, seat, END_TURN) is None
    # Through the phases with nothing to build, play or fulfil: each step ends a phase, then
    # the turn; every step is legal and the turn passes.
    s = apply_action(state, _free_card(state))  # seed 7: an Alchemist, no event
    assert s._d["pending"] is None
    assert standing_action(s, seat, END_TURN) is None  # 3 bricks to build with: a choice
    s = _empty_handed(s)
    taken = []
    while (action := standing_action(s, seat, END_TURN)) is not None:
        assert action in legal_actions(s)
        taken.append(action["type"])
        s = apply_action(s, action)
    assert taken[-1] == "end_turn" and s._d["seat"] != seat


def test_it_does_nothing_for_an_unknown_order() -> None:
    state = new_game(2, 31, None)
    assert standing_action(state, state._d["seat"], "fetch_coffee") is None


def test_it_names_who_took_the_card_a_plan_relied_on() -> None:
    state = new_game(2, 7, None)  # the row holds one Alchemist, and none comes in its place
    mover = state._d["seat"]
    planner = 1 - mover
    action = _free_card(state)
    wanted = intent(state, action)
    after = apply_action(state, action)
    since = log_tokens(after)
    assert any(wanted["card"] in line for line in since)
    assert all(e["card"] != wanted["card"] for e in after._d["row"])
    assert why(after, wanted, planner, since) == {
        "key": "taken",
        "card": wanted["card"],
        "by": mover,
    }
    assert why(after, wanted, planner, []) == {"key": "gone", "card": wanted["card"]}
    assert why(after, {"type": "end_phase"}, planner, since) == {}


def test_it_names_who_took_the_card_though_a_dearer_copy_lies_further_right() -> None:
    """Seed 31's row holds an Alchemist first (free) and another fifth: an opponent taking the
    free one is why the plan stopped, though a copy is still there."""
    state = new_game(2, 31, None)
    row = [e["card"] for e in state._d["row"]]
    assert row[0] == "Alchemist" and row.count("Alchemist") == 2
    mover = state._d["seat"]
    planner = 1 - mover
    wanted = intent(state, {"type": "choose_card", "slot": 0})
    after = apply_action(state, {"type": "choose_card", "slot": 0})
    assert "Alchemist" in [e["card"] for e in after._d["row"]]

    assert why(after, wanted, planner, log_tokens(after)) == {
        "key": "taken",
        "card": "Alchemist",
        "by": mover,
    }
    assert why(after, wanted, planner, []) == {}  # still in the row: no reason to name
