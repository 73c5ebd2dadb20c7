"""Level tiles (rules.md §1): the first commission of level 5/6/7/8 earns 1/2/3/4 PP, once."""

from __future__ import annotations

import pytest

from games.rules.firenze.rules import legal_actions, player_view, scores

from .rulings import PRINTED_PP
from .scenario import (
    END_PHASE,
    END_TURN,
    at_fulfil,
    build,
    fulfil,
    game,
    log,
    open_board,
    pay,
    play,
    play_card,
    set_board,
    set_hand,
    set_store,
    set_towers,
    store,
    to_phase,
)

TILE_PP = {5: 1, 6: 2, 7: 3, 8: 4}


# The rulebook's balconies: I white 7 (7 PP), II red 6 (9 PP); III and IV out of the way.
def tiles_left(state) -> list[int]:
    return [t["level"] for t in player_view(state, None)["board"]["level_tiles"]]


def seal_on(state, colour: str, level: int):
    board = player_view(state, None)["board"]["commissions"]
    return next(c["seal"] for c in board if c["color"] == colour and c["level"] == level)


@pytest.mark.parametrize(
    ("colour", "level"),
    [("white", 5), ("yellow", 6), ("green", 7), ("purple", 8), ("blue", 5), ("red", 8)],
)
def test_the_first_commission_of_a_level_earns_that_levels_tile(colour, level):
    state = at_fulfil((colour, level))
    printed, tile = PRINTED_PP[colour][level - 3], TILE_PP[level]

    after = play(state, fulfil(0, level))

    assert scores(after)[0] == scores(state)[0] + printed + tile
    assert tiles_left(after) == [lv for lv in (5, 6, 7, 8) if lv != level]
    assert log(after) == [
        f"Anna fulfils {colour} {level} for {printed} PP and the level-{level} tile for {tile} PP."
    ]


@pytest.mark.parametrize(("colour", "level"), [("white", 3), ("purple", 4)])
def test_levels_3_and_4_have_no_tile(colour, level):
    state = at_fulfil((colour, level))

    after = play(state, fulfil(0, level))

    assert scores(after)[0] == scores(state)[0] + PRINTED_PP[colour][level - 3]
    assert tiles_left(after) == [5, 6, 7, 8]


def test_the_second_commission_of_a_level_in_the_same_turn_earns_no_tile():
    state = at_fulfil(("green", 6), ("yellow", 6))

    state = play(state, fulfil(0, 6))
    after = play(state, fulfil(0, 6))

    assert scores(after)[0] == scores(state)[0] + 5  # yellow 6, no tile
    assert log(after) == ["Anna fulfils yellow 6 for 5 PP."]


def test_a_level_tile_once_taken_is_gone_for_the_other_players():
    state = at_fulfil(("green", 6))
    state = play(state, fulfil(0, 6), END_TURN)
    state = set_towers(state, 1, ("yellow", 6), old=False)
    state = to_phase(state, "fulfil")

    after = play(state, fulfil(0, 6))

    assert scores(after)[1] == 5
    assert 6 not in tiles_left(after)


def test_a_balcony_commission_also_earns_the_level_tile():
    state = at_fulfil(("white", 7))

    after = play(state, fulfil(0, 7))

    assert scores(after)[0] == 7 + 3
    assert log(after) == [
        "Anna fulfils balcony I (white 7) for 7 PP and the level-7 tile for 3 PP."
    ]


def test_the_level_tile_goes_to_whoever_fulfils_the_level_first_whatever_the_colour():
    state = at_fulfil(("purple", 8), ("green", 8))

    state = play(state, fulfil(0, 8))
    after = play(state, fulfil(0, 8))

    assert scores(state)[0] == 11 + 4
    assert scores(after)[0] == 11 + 4 + 8


def test_architect_adjusted_height_counts_as_the_commissions_level():
    state = at_fulfil(("yellow", 5))
    state = set_board(state, "yellow", 5, -1)
    state = set_hand(state, 0, "Architect")

    after = play(state, play_card("Architect"), fulfil(0, 6))

    assert scores(after)[0] == 5 + 2  # yellow 6 and the level-6 tile
    assert tiles_left(after) == [5, 7, 8]


def test_the_holger_example_green_6_with_level_tile_then_balcony_one():
    """Rulebook pages 5 and 6: Holger builds white +2, green +1, yellow +1, his red tower is torn
    down; green 6 earns 5 PP and the level-6 tile 2 PP, balcony I (white 7) earns 7 PP, which
    opens the red balcony; yellow 3 is sealed. (The level-7 tile is gone in this example.)"""
    state = open_board(game(2), level_tiles=(5, 6, 8))
    state = set_board(state, "yellow", 3, -1)
    state = set_towers(state, 0, ("white", 5), ("green", 5), ("yellow", 2), ("red", 3))
    state = set_store(state, 0, white=3, green=2, yellow=2, blue=1)  # 8 bricks
    state = to_phase(state, "build")

    state = play(state, build(0), build(0), build(1), build(2), END_PHASE)  # 4 bricks: cost 3
    state = play(state, pay("white"), pay("green"), pay("blue"))
    assert store(state, 0) == {"yellow": 1, "red": 1}  # the yellow he cannot use, half the red
    assert [a for a in legal_actions(state) if a["type"] == "fulfil"] == [
        {"type": "fulfil", "tower": 0, "level": 7},
        {"type": "fulfil", "tower": 1, "level": 6},
    ]

    state = play(state, fulfil(1, 6))
    assert log(state) == ["Anna fulfils green 6 for 5 PP and the level-6 tile for 2 PP."]
    state = play(state, fulfil(0, 7))
    assert log(state) == ["Anna fulfils balcony I (white 7) for 7 PP."]

    assert scores(state)[0] == 5 + 2 + 7
    assert seal_on(state, "red", 6) is None
    assert player_view(state, None)["board"]["balcony_next"] == "II"
    assert [a for a in legal_actions(state) if a["type"] == "fulfil"] == []  # yellow 3 sealed
