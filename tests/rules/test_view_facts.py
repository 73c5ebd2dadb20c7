"""What the player view tells a page about costs, payments in progress and why nothing can be
fulfilled, and what `changes` reports about a step: the facts the game page shows and
highlights (issue 9). All of it public; none of it a hand or the deck."""

from __future__ import annotations

import json

from games.rules.firenze.rules import changes, legal_actions, player_view
from games.rules.firenze.rules.cards import CARDS

from .scenario import (
    END_PHASE,
    at_fulfil,
    build,
    choose,
    exchange,
    fulfil,
    game,
    pay,
    play,
    play_card,
    resolve,
    set_board,
    set_buildings,
    set_hand,
    set_row,
    set_seals,
    set_store,
    set_towers,
    start_tower,
    take,
    to_phase,
)

ANNA, BEN = 0, 1


def turn(state) -> dict:
    return player_view(state, None)["turn"]


def pending(state) -> dict:
    return player_view(state, None)["pending"]


# --- costs ----------------------------------------------------------------------------------


def test_the_construction_cost_table_follows_workshop_and_mason():
    state = to_phase(set_store(game(2), ANNA, white=8, yellow=4), "build")
    assert turn(state)["build_costs"] == [0, 0, 0, 1, 3, 6, 10]

    with_workshop = set_buildings(state, ANNA, "Workshop")
    assert turn(with_workshop)["build_costs"] == [0, 0, 0, 0, 2, 5, 9]

    with_mason = play(set_hand(state, ANNA, "Mason"), play_card("Mason"))
    assert turn(with_mason)["build_costs"] == [0, 0, 0, 0, 0, 3, 7]

    both = play(set_hand(with_workshop, ANNA, "Mason"), play_card("Mason"))
    assert turn(both)["build_costs"] == [0, 0, 0, 0, 0, 2, 6]


def test_the_current_construction_cost_rises_with_each_brick():
    state = to_phase(set_store(game(2), ANNA, white=9), "build")
    state = play(state, start_tower("white"), build(0), build(0))
    assert turn(state)["built"] == 3
    assert turn(state)["build_cost"] == 1
    state = play(state, build(0))
    assert turn(state)["build_cost"] == 3


def test_the_exchange_price_is_three_bricks_or_two_with_a_bridge():
    state = set_store(game(2), ANNA, white=5)
    assert turn(state)["exchange_price"] == 3
    assert turn(set_buildings(state, ANNA, "Bridge"))["exchange_price"] == 2


# --- payments in progress -------------------------------------------------------------------


def test_a_card_cost_shows_what_is_due_what_is_paid_and_the_card_the_next_brick_goes_onto():
    state = set_store(set_row(game(2), "Fame", "Mason", "Workshop", "Scandal"), ANNA, white=5)
    state = play(state, choose(3))
    assert pending(state) | {} == {
        "kind": "card_cost",
        "slot": 3,
        "due": 3,
        "paid": [],
        "onto": 0,
    }
    state = play(state, pay("white"), pay("white"))
    assert pending(state)["paid"] == ["white", "white"]
    assert pending(state)["onto"] == 2


def test_an_exchange_shows_its_price_and_progress():
    state = to_phase(set_store(game(2), ANNA, white=4, yellow=2), "exchange")
    state = play(state, exchange(0), pay("white"))
    assert pending(state)["kind"] == "exchange_pay"
    assert (len(pending(state)["paid"]), pending(state)["due"]) == (1, 3)


def test_the_construction_cost_shows_its_progress():
    state = to_phase(set_store(game(2), ANNA, white=9), "build")
    state = play(state, start_tower("white"), build(0), build(0), build(0), END_PHASE)
    assert pending(state)["kind"] == "build_cost"
    state = play(state, pay("white"))
    assert (len(pending(state)["paid"]), pending(state)["due"]) == (1, 3)


def test_the_storehouse_fire_says_how_many_bricks_burn():
    state = set_store(set_row(game(2), "Storehouse Fire"), ANNA, white=6)
    state = play(state, choose(0), resolve(), pay("white"))
    assert pending(state)["kind"] == "fire"
    assert (len(pending(state)["paid"]), pending(state)["due"]) == (1, 3)


# --- why nothing can be fulfilled -----------------------------------------------------------


def test_nothing_to_explain_while_something_can_be_fulfilled():
    state = at_fulfil(("green", 5))
    assert any(a["type"] == "fulfil" for a in legal_actions(state))
    assert turn(state)["fulfil_blocked"] is None


def test_without_towers_the_reason_is_that_there_are_none():
    assert turn(at_fulfil())["fulfil_blocked"] == {"reason": "no_towers"}


def test_without_seals_the_reason_is_that_none_are_left():
    state = set_seals(at_fulfil(("green", 5)), ANNA, 0)
    assert turn(state)["fulfil_blocked"] == {"reason": "no_seals"}


def test_each_tower_says_why_its_commission_is_closed():
    state = at_fulfil(("yellow", 2), ("green", 5), ("red", 9), ("blue", 4))
    state = set_board(state, "green", 5, BEN)
    state = set_board(state, "blue", 4, -1)
    blocked = turn(state)["fulfil_blocked"]
    assert blocked["reason"] == "no_match" and not blocked["architect"]
    why = {t["color"]: t["levels"] for t in blocked["towers"]}
    assert why["yellow"] == [{"level": 2, "why": "below"}]
    assert why["green"] == [{"level": 5, "why": "sealed", "seat": BEN}]
    assert why["red"] == [{"level": 9, "why": "above"}]
    assert why["blue"] == [{"level": 4, "why": "sealed", "seat": -1}]


def test_a_balcony_out_of_turn_names_the_balcony_that_comes_first():
    # The scenario's balcony II is red 6; balcony I (white 7) is still open.
    state = at_fulfil(("red", 6))
    blocked = turn(state)["fulfil_blocked"]
    assert blocked["towers"][0]["levels"] == [
        {"level": 6, "why": "balcony_later", "balcony": "II", "balcony_next": "I"}
    ]


def test_with_an_architect_every_level_within_one_is_explained():
    state = at_fulfil(("green", 5), hand=("Architect",))
    for level in (4, 5, 6):
        state = set_board(state, "green", level, BEN)
    state = play(state, play_card("Architect"))
    blocked = turn(state)["fulfil_blocked"]
    assert blocked["architect"]
    assert [lv["level"] for lv in blocked["towers"][0]["levels"]] == [4, 5, 6]


# --- changes --------------------------------------------------------------------------------


def test_taking_a_card_changes_only_the_new_card_of_the_row_not_those_that_slid_left():
    state = set_row(game(2), "Fame", "Mason", "Workshop", "Scandal", "Bridge", "Warehouse")
    after = play(state, choose(0))
    diff = changes(state, after)
    assert diff["row"] == [5]
    assert diff["players"][str(ANNA)]["cards"] == 1
    assert diff["sealed"] == []


def test_paying_a_card_cost_changes_only_the_card_the_brick_lands_on():
    state = set_store(set_row(game(2), "Fame", "Mason", "Workshop"), ANNA, white=3)
    state = play(state, choose(2))
    after = play(state, pay("white"))
    diff = changes(state, after)
    assert diff["row"] == [0]
    assert diff["players"] == {str(ANNA): {"store": True}}


def test_building_names_the_tower_that_grew():
    state = to_phase(set_store(game(2), ANNA, white=4, red=2), "build")
    state = set_towers(state, ANNA, ("red", 2), ("white", 1), old=False)
    after = play(state, build(1))
    assert changes(state, after)["players"][str(ANNA)] == {"towers": [1], "store": True}


def test_fulfilling_names_the_sealed_commission_and_the_points():
    state = at_fulfil(("green", 5), level_tiles=())
    after = play(state, fulfil(0, 5))
    diff = changes(state, after)
    assert diff["sealed"] == [["green", 5]]
    assert diff["players"][str(ANNA)] == {"towers": [], "pp": 4}
    assert diff["pouch"] is True


def test_changes_never_name_a_card_in_a_hand():
    state = set_hand(set_row(game(2), "Mason", "Fame"), BEN, "Scandal", "Patrician")
    after = play(state, choose(0))
    text = json.dumps(changes(state, after))
    assert not [card for card in CARDS if card in text]


def test_taking_a_brick_in_an_exchange_changes_that_card():
    state = to_phase(set_store(game(2), ANNA, white=4), "exchange")
    state = play(state, exchange(1), pay("white"), pay("white"), pay("white"))
    colour = next(a["color"] for a in legal_actions(state) if a["type"] == "take_brick")
    after = play(state, take(colour))
    assert changes(state, after)["row"] == [1]
