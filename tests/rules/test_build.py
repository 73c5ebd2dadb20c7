"""Phase 3, building towers and paying the construction cost (rules.md §4 "Build")."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules.firenze.rules import legal_actions, player_view

from .scenario import (
    END_PHASE,
    build,
    choose,
    game,
    is_legal,
    log,
    pay,
    play,
    play_card,
    pouch,
    rejects,
    set_buildings,
    set_hand,
    set_row,
    set_store,
    set_towers,
    start_tower,
    store,
    table,
    to_phase,
    towers,
)

ANNA, BEN = 0, 1


def phase(state) -> str:
    return table(state)["phase"]


def build_phase(*anna_towers: tuple[str, int], **anna_store: int):
    """Anna has taken her card and skipped the exchange; her towers stood at turn start."""
    state = set_towers(to_phase(game(), "build"), ANNA, *anna_towers)
    return set_store(state, ANNA, **anna_store)


def start_towers(state, *colors: str):
    return play(state, *[start_tower(color) for color in colors])


def pay_cost_in(state, color: str) -> tuple[Any, int]:
    """End the build phase and pay the construction cost in `color`; return bricks paid."""
    state = play(state, END_PHASE)
    paid = 0
    while phase(state) == "build":
        assert paid < 10, "more than the highest construction cost was asked for"
        state = play(state, pay(color))
        paid += 1
    return state, paid


# Building


def test_one_brick_is_one_level():
    state = build_phase(red=2)

    state = play(state, start_tower("red"))
    assert towers(state, ANNA) == [("red", 1)]
    assert log(state) == ["Anna starts a red tower."]

    state = play(state, build(0))
    assert towers(state, ANNA) == [("red", 2)]
    assert store(state, ANNA) == {}
    assert log(state) == ["Anna adds a red brick: tower of 2."]


def test_a_tower_is_built_of_one_colour_only():
    state = build_phase(("red", 2), yellow=2)

    assert "no red brick" in rejects(state, build(0))
    assert not is_legal(state, {"type": "build", "tower": 0, "color": "yellow"})
    assert towers(state, ANNA) == [("red", 2)]


def test_new_towers_and_towers_under_construction_in_one_turn():
    state = build_phase(("red", 2), ("white", 4), red=1, blue=1)

    state = play(state, build(0), start_tower("blue"))

    assert towers(state, ANNA) == [("red", 3), ("white", 4), ("blue", 1)]
    assert store(state, ANNA) == {}


def test_several_new_towers_in_one_turn():
    state = build_phase(green=1, purple=1)

    state = start_towers(state, "green", "purple")

    assert towers(state, ANNA) == [("green", 1), ("purple", 1)]


def test_two_towers_of_the_same_colour_are_allowed():
    state = build_phase(("red", 3), red=2)

    state = play(state, start_tower("red"), build(0))

    assert towers(state, ANNA) == [("red", 4), ("red", 1)]


def test_building_is_optional():
    state = build_phase(red=2)

    state = play(state, END_PHASE)

    assert phase(state) == "fulfil"
    assert store(state, ANNA) == {"red": 2}
    assert towers(state, ANNA) == []


def test_building_happens_only_in_the_build_phase():
    state = set_store(to_phase(game(), "exchange"), ANNA, red=2)

    rejects(state, start_tower("red"))
    state = play(state, END_PHASE, END_PHASE)
    assert phase(state) == "fulfil"
    rejects(state, start_tower("red"))
    assert towers(state, ANNA) == []


def test_at_most_six_bricks_per_turn():
    state = build_phase(white=10, yellow=10)
    state = start_towers(state, "white", "yellow", "white", "yellow", "white", "yellow")

    assert "at most 6 bricks" in rejects(state, start_tower("white"))
    assert "at most 6 bricks" in rejects(state, build(0))
    assert not any(a["type"] == "build" for a in legal_actions(state))


def test_at_most_six_bricks_per_turn_even_when_they_cost_nothing():
    state = set_buildings(build_phase(white=10, yellow=10), ANNA, "Workshop")
    state = set_hand(state, ANNA, "Mason")
    state = play(state, play_card("Mason"))
    state = start_towers(state, "white", "white", "white", "yellow", "yellow", "yellow")

    assert "at most 6 bricks" in rejects(state, build(0))


# Construction cost


@pytest.mark.parametrize(("built", "cost"), [(1, 0), (2, 0), (3, 1), (4, 3), (5, 6), (6, 10)])
def test_construction_cost_by_bricks_built_this_turn(built, cost):
    state = build_phase(red=built, white=10)
    state = play(state, *[start_tower("red")] + [build(0)] * (built - 1))

    state, paid = pay_cost_in(state, "white")

    assert paid == cost
    assert phase(state) == "fulfil"
    assert towers(state, ANNA) == [("red", built)]
    assert store(state, ANNA) == ({"white": 10 - cost} if cost < 10 else {})


@pytest.mark.parametrize(("built", "cost"), [(3, 1), (4, 3), (5, 6), (6, 10)])
def test_construction_cost_counts_all_bricks_whatever_the_towers(built, cost):
    colors = ["red", "blue", "green", "yellow", "purple", "red"][:built]
    state = build_phase(("red", 2), red=2, blue=1, green=1, yellow=1, purple=1, white=10)
    state = play(state, build(0), *[start_tower(c) for c in colors[1:]])

    state, paid = pay_cost_in(state, "white")

    assert paid == cost


def test_the_cost_is_paid_after_building_brick_by_brick_into_the_pouch():
    state = build_phase(red=4, white=2, blue=1)
    state = play(state, start_tower("red"), build(0), build(0), build(0))
    assert store(state, ANNA) == {"white": 2, "blue": 1}, "nothing paid while building"
    before = pouch(state)

    state = play(state, END_PHASE, pay("blue"))
    assert pouch(state)["blue"] == before["blue"] + 1
    assert phase(state) == "build"
    assert not is_legal(state, END_PHASE)

    state = play(state, pay("white"))
    assert phase(state) == "build"
    state = play(state, pay("white"))

    assert phase(state) == "fulfil"
    assert store(state, ANNA) == {}
    assert pouch(state)["white"] == before["white"] + 2
    assert "Anna pays 2 white, 1 blue construction cost for 4 bricks." in log(state)


def test_the_cost_may_be_paid_in_any_colours_the_player_has():
    state = build_phase(red=5, yellow=1, purple=1)
    state = play(state, start_tower("red"), build(0), build(0), END_PHASE)

    assert sorted(a["color"] for a in legal_actions(state)) == ["purple", "red", "yellow"]
    assert "no white brick" in rejects(state, pay("white"))


def test_bricks_are_not_paid_for_before_the_build_phase_ends():
    state = build_phase(red=4)
    state = play(state, start_tower("red"), build(0), build(0))

    assert table(state)["turn"]["build_cost"] == 1
    assert store(state, ANNA) == {"red": 1}


def test_you_cannot_add_a_brick_whose_cost_you_could_not_pay():
    state = build_phase(red=4)
    state = play(state, start_tower("red"), build(0), build(0))

    message = rejects(state, build(0))

    assert "costs 3" in message
    assert "only 0 left" in message
    assert towers(state, ANNA) == [("red", 3)]


def test_a_brick_that_leaves_exactly_enough_to_pay_may_be_added():
    state = build_phase(red=4, white=3)
    state = play(state, start_tower("red"), build(0), build(0))

    state = play(state, build(0))

    assert towers(state, ANNA) == [("red", 4)]
    state, paid = pay_cost_in(state, "white")
    assert paid == 3


# Holger's example from the rulebook (German rulebook, "Türme bauen" and "Bauruinen abreißen")


def test_holgers_example_builds_4_pays_3_and_cannot_build_a_5th():
    state = build_phase(
        ("white", 5), ("green", 5), ("yellow", 2), ("red", 3), white=3, green=2, yellow=2, blue=1
    )

    state = play(state, build(0), build(0), build(1), build(2))

    message = rejects(state, build(2))
    assert "costs 6" in message
    assert "only 3 left" in message
    assert "no red brick" in rejects(state, build(3))

    before = pouch(state)
    state = play(state, END_PHASE, pay("white"), pay("green"), pay("blue"))

    assert towers(state, ANNA) == [("white", 7), ("green", 6), ("yellow", 3)]
    assert store(state, ANNA) == {"yellow": 1, "red": 1}
    after = pouch(state)
    gained = {c: after[c] - before[c] for c in after if after[c] != before[c]}
    assert gained == {"white": 1, "green": 1, "blue": 1, "red": 2}


# Discounts


@pytest.mark.parametrize(
    ("built", "cost"),
    [(2, 0), (3, 0), (4, 2), (5, 5), (6, 9)],
)
def test_workshop_pays_one_brick_less(built, cost):
    state = set_buildings(build_phase(red=built, white=10), ANNA, "Workshop")
    state = play(state, start_tower("red"), *[build(0)] * (built - 1))

    state, paid = pay_cost_in(state, "white")

    assert paid == cost


@pytest.mark.parametrize(
    ("built", "cost"),
    [(3, 0), (4, 0), (5, 3), (6, 7)],
)
def test_mason_pays_three_bricks_less(built, cost):
    state = set_hand(build_phase(red=built, white=10), ANNA, "Mason")
    state = play(state, play_card("Mason"), start_tower("red"), *[build(0)] * (built - 1))

    state, paid = pay_cost_in(state, "white")

    assert paid == cost


@pytest.mark.parametrize(
    ("built", "cost"),
    [(3, 0), (4, 0), (5, 2), (6, 6)],
)
def test_mason_with_a_workshop_pays_four_bricks_less(built, cost):
    state = set_buildings(build_phase(red=built, white=10), ANNA, "Workshop")
    state = set_hand(state, ANNA, "Mason")
    state = play(state, play_card("Mason"), start_tower("red"), *[build(0)] * (built - 1))

    state, paid = pay_cost_in(state, "white")

    assert paid == cost


def test_a_discount_never_gives_bricks_back():
    state = set_buildings(build_phase(red=4), ANNA, "Workshop")
    state = set_hand(state, ANNA, "Mason")
    state = play(state, play_card("Mason"), start_tower("red"), build(0), build(0), build(0))

    state = play(state, END_PHASE)

    assert phase(state) == "fulfil"
    assert store(state, ANNA) == {}


def test_with_a_mason_you_may_add_bricks_you_could_not_pay_for_without_one():
    state = set_hand(build_phase(red=4), ANNA, "Mason")
    state = play(state, start_tower("red"), build(0), build(0))
    assert "costs 3" in rejects(state, build(0))

    state = play(state, play_card("Mason"), build(0), END_PHASE)

    assert towers(state, ANNA) == [("red", 4)]
    assert phase(state) == "fulfil"


def test_a_mason_played_after_the_bricks_are_laid_still_lowers_the_cost():
    state = set_hand(build_phase(red=4, white=3), ANNA, "Mason")
    state = play(state, start_tower("red"), build(0), build(0), build(0))

    state = play(state, play_card("Mason"))
    assert log(state) == ["Anna plays Mason."]
    state = play(state, END_PHASE)

    assert phase(state) == "fulfil"
    assert store(state, ANNA) == {"white": 3}


def test_a_workshop_taken_this_turn_counts_at_once():
    state = set_row(game(), "Workshop")
    state = play(set_store(state, ANNA, red=3), choose(0), END_PHASE)
    state = play(state, start_tower("red"), build(0), build(0))

    state = play(state, END_PHASE)

    assert phase(state) == "fulfil"
    assert towers(state, ANNA) == [("red", 3)]


def test_mason_only_in_the_build_phase():
    state = set_hand(set_row(game(), "Fame"), ANNA, "Mason")
    assert "build phase" in rejects(state, play_card("Mason"))

    state = play(state, choose(0))
    assert "build phase" in rejects(state, play_card("Mason"))

    state = play(state, END_PHASE, END_PHASE)
    assert phase(state) == "fulfil"
    assert "build phase" in rejects(state, play_card("Mason"))
    assert "Mason" in player_view(state, ANNA)["players"][ANNA]["hand"]


def test_only_one_mason_per_turn():
    state = set_hand(build_phase(red=6, white=10), ANNA, "Mason", "Mason")
    state = play(state, play_card("Mason"))

    assert "already played a Mason" in rejects(state, play_card("Mason"))


def test_the_mason_lasts_only_for_this_turn():
    state = set_hand(build_phase(red=3, white=10), ANNA, "Mason")
    state = play(state, play_card("Mason"), start_tower("red"), build(0), build(0), END_PHASE)
    state = play(state, {"type": "end_turn"})
    state = play(to_phase(state, "fulfil", card="Recognition"), {"type": "end_turn"})
    state = set_store(to_phase(state, "build", card="Disgrace"), ANNA, red=3, white=5)

    state = play(state, build(0), build(0), build(0))
    state, paid = pay_cost_in(state, "white")

    assert paid == 1
