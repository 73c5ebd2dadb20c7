"""Phase 4, tearing down abandoned towers (rules.md §4 "Tear down")."""

from __future__ import annotations

import pytest

from games.rules.firenze.rules import legal_actions

from .scenario import (
    END_PHASE,
    END_TURN,
    build,
    game,
    log,
    pay,
    play,
    pouch,
    rejects,
    set_board,
    set_store,
    set_towers,
    start_tower,
    store,
    table,
    to_phase,
    towers,
)

ANNA, BEN = 0, 1


def build_phase(*anna_towers: tuple[str, int], **anna_store: int):
    """Anna has taken her card and skipped the exchange; her towers stood at turn start."""
    state = set_towers(to_phase(game(), "build"), ANNA, *anna_towers)
    return set_store(state, ANNA, **anna_store)


def pouch_gain(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {c: after[c] - before[c] for c in after if after[c] != before[c]}


def test_an_abandoned_red_tower_of_3_puts_2_in_the_pouch_and_1_in_the_storehouse():
    state = build_phase(("red", 3))
    before = pouch(state)

    state = play(state, END_PHASE)

    assert towers(state, ANNA) == []
    assert store(state, ANNA) == {"red": 1}
    assert pouch_gain(before, pouch(state)) == {"red": 2}
    assert log(state) == [
        "Anna's abandoned red tower of 3 is torn down: 2 to the pouch, "
        "1 red back to the storehouse."
    ]


@pytest.mark.parametrize(
    ("height", "to_pouch", "to_store"),
    [(1, 1, 0), (2, 1, 1), (4, 2, 2), (5, 3, 2), (8, 4, 4), (9, 5, 4)],
)
def test_half_rounded_up_goes_to_the_pouch_the_rest_to_the_storehouse(height, to_pouch, to_store):
    state = build_phase(("white", height), green=1)
    before = pouch(state)

    state = play(state, END_PHASE)

    assert towers(state, ANNA) == []
    assert store(state, ANNA) == ({"green": 1, "white": to_store} if to_store else {"green": 1})
    assert pouch_gain(before, pouch(state)) == {"white": to_pouch}


def test_a_tower_that_got_a_brick_this_turn_stands():
    state = build_phase(("red", 3), red=1)

    state = play(state, build(0), END_PHASE)

    assert towers(state, ANNA) == [("red", 4)]
    assert store(state, ANNA) == {}


def test_a_tower_started_this_turn_stands():
    state = build_phase(green=1)

    state = play(state, start_tower("green"), END_PHASE)

    assert towers(state, ANNA) == [("green", 1)]


def test_only_the_towers_without_a_new_brick_come_down():
    state = build_phase(("red", 3), ("white", 2), ("yellow", 4), ("red", 2), white=1, red=1)

    state = play(state, build(1), build(3), END_PHASE)

    assert towers(state, ANNA) == [("white", 3), ("red", 3)]
    assert store(state, ANNA) == {"red": 1, "yellow": 2}
    assert len(log(state)) == 2


def test_building_a_second_tower_of_the_same_colour_does_not_save_the_first():
    state = build_phase(("red", 3), red=1)

    state = play(state, start_tower("red"), END_PHASE)

    assert towers(state, ANNA) == [("red", 1)]
    assert store(state, ANNA) == {"red": 1}


def test_other_players_towers_are_not_torn_down():
    state = set_towers(build_phase(("red", 3)), BEN, ("yellow", 2), ("blue", 5))

    state = play(state, END_PHASE)

    assert towers(state, BEN) == [("yellow", 2), ("blue", 5)]
    assert towers(state, ANNA) == []


def test_tear_down_comes_after_the_construction_cost_is_paid():
    """The torn-down bricks reach the storehouse too late to pay for this turn's building."""
    state = build_phase(("red", 3), white=4)
    state = play(state, start_tower("white"), build(1), build(1), END_PHASE)

    assert towers(state, ANNA) == [("red", 3), ("white", 3)], "still standing while paying"
    assert "no red brick" in rejects(state, pay("red"))
    assert legal_actions(state) == [pay("white")]

    state = play(state, pay("white"))

    assert towers(state, ANNA) == [("white", 3)]
    assert store(state, ANNA) == {"red": 1}


def test_an_abandoned_tower_is_gone_before_the_fulfil_phase():
    state = set_board(build_phase(("red", 3)), "red", 3, None)

    state = play(state, END_PHASE)

    assert table(state)["phase"] == "fulfil"
    assert not any(a["type"] == "fulfil" for a in legal_actions(state))


def test_a_tower_started_last_turn_must_be_built_on_this_turn():
    state = set_store(to_phase(game(), "build"), ANNA, purple=2)
    state = play(state, start_tower("purple"), build(0), END_PHASE, END_TURN)
    state = play(to_phase(state, "fulfil", card="Recognition"), END_TURN)
    state = to_phase(state, "build", card="Disgrace")
    assert towers(state, ANNA) == [("purple", 2)]

    state = play(state, END_PHASE)

    assert towers(state, ANNA) == []
    assert store(state, ANNA) == {"purple": 1}


def test_towers_are_torn_down_only_on_their_owners_turn():
    """Anna's abandoned tower comes down at the end of her build phase, not on Ben's turn."""
    state = set_store(to_phase(game(), "build"), ANNA, purple=1)
    state = play(state, start_tower("purple"), END_PHASE, END_TURN)

    state = play(to_phase(state, "build", card="Recognition"), END_PHASE)

    assert towers(state, ANNA) == [("purple", 1)]
