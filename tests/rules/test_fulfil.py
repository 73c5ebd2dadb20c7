"""Fulfil phase (rules.md §4, "Fulfil"): exact heights, seals, the pouch, the Architect."""

from __future__ import annotations

import pytest

from games.rules.firenze.rules import legal_actions, player_view, scores

from .rulings import BALCONY_GROUPS, PRINTED_PP
from .scenario import (
    END_PHASE,
    END_TURN,
    at_fulfil,
    fulfil,
    game,
    log,
    open_board,
    play,
    play_card,
    pouch,
    rejects,
    set_board,
    set_hand,
    set_seals,
    set_towers,
    to_phase,
)

# rules.md §1: balcony tiles by group I..IV, (colour, level, PP).


# The balconies of most scenarios here: I white 7, II red 6, III blue 6, IV purple 7.
def balconies_avoiding(colour: str) -> tuple[tuple[str, int, int], ...]:
    """One tile per group, none of them on the given colour's tower."""
    return tuple(next(t for t in group if t[0] != colour) for group in BALCONY_GROUPS)


def seals_left(state, seat: int = 0) -> int:
    return player_view(state, None)["players"][seat]["seals_left"]


def seal_on(state, colour: str, level: int):
    board = player_view(state, None)["board"]["commissions"]
    return next(c["seal"] for c in board if c["color"] == colour and c["level"] == level)


def tower_list(state, seat: int = 0) -> list[tuple[str, int]]:
    return [(t["color"], t["height"]) for t in player_view(state, None)["players"][seat]["towers"]]


def fulfil_offers(state) -> list[tuple[int, int]]:
    return [(a["tower"], a["level"]) for a in legal_actions(state) if a["type"] == "fulfil"]


@pytest.mark.parametrize(
    ("colour", "level"),
    [(colour, level) for colour in PRINTED_PP for level in range(3, 9)],
)
def test_a_tower_of_exactly_the_commission_height_scores_the_printed_pp(colour, level):
    state = at_fulfil((colour, level), balconies=balconies_avoiding(colour), level_tiles=())
    printed = PRINTED_PP[colour][level - 3]

    after = play(state, fulfil(0, level))

    assert scores(after)[0] == scores(state)[0] + printed
    assert log(after) == [f"Anna fulfils {colour} {level} for {printed} PP."]


def test_fulfilling_places_a_seal_and_uses_up_one_of_the_players_seals():
    state = at_fulfil(("green", 6))
    assert seals_left(state) == 9 and seal_on(state, "green", 6) is None

    after = play(state, fulfil(0, 6))

    assert seal_on(after, "green", 6) == 0
    assert seals_left(after) == 8
    assert seals_left(after, 1) == 9


def test_the_fulfilled_towers_bricks_go_to_the_pouch():
    state = at_fulfil(("green", 6), ("white", 2))
    green_in_pouch = pouch(state)["green"]

    after = play(state, fulfil(0, 6))

    assert pouch(after)["green"] == green_in_pouch + 6
    assert tower_list(after) == [("white", 2)]


@pytest.mark.parametrize("height", [5, 7])
def test_a_tower_one_level_off_the_commission_cannot_fulfil_it(height):
    state = at_fulfil(("green", height))
    state = set_board(state, "green", height, 1)  # its own height is taken by Ben

    assert fulfil_offers(state) == []
    message = rejects(state, fulfil(0, 6))
    assert f"green tower has {height} levels" in message
    assert "cannot fulfil the green 6" in message


@pytest.mark.parametrize("height", [2, 9])
def test_towers_below_level_3_or_above_level_8_fulfil_nothing(height):
    state = at_fulfil(("yellow", height))

    assert fulfil_offers(state) == []
    assert "Commissions run from level 3 to level 8" in rejects(state, fulfil(0, height))


def test_a_commission_covered_by_a_neutral_seal_cannot_be_fulfilled():
    state = set_board(at_fulfil(("yellow", 3)), "yellow", 3, -1)

    assert fulfil_offers(state) == []
    assert "The yellow 3 commission is already sealed" in rejects(state, fulfil(0, 3))


def test_a_commission_sealed_by_a_player_cannot_be_fulfilled_again():
    state = set_board(at_fulfil(("red", 4)), "red", 4, 1)

    assert fulfil_offers(state) == []
    assert "The red 4 commission is already sealed" in rejects(state, fulfil(0, 4))
    assert seal_on(state, "red", 4) == 1


def test_a_tower_fulfils_only_a_commission_of_its_own_colour():
    state = set_board(at_fulfil(("white", 4)), "white", 4, -1)  # yellow 4 stays open

    assert fulfil_offers(state) == []


def test_several_commissions_can_be_fulfilled_in_one_turn():
    state = at_fulfil(("white", 3), ("red", 4), ("blue", 3), level_tiles=())

    after = play(state, fulfil(0, 3), fulfil(0, 4), fulfil(0, 3))

    assert scores(after)[0] == scores(state)[0] + 1 + 3 + 2
    assert seals_left(after) == 9 - 3
    assert [seal_on(after, c, lv) for c, lv in [("white", 3), ("red", 4), ("blue", 3)]] == [0, 0, 0]
    assert tower_list(after) == []


def test_commissions_are_fulfilled_only_in_the_fulfil_phase():
    state = open_board(game(2))
    state = set_towers(state, 0, ("green", 6), old=False)
    state = to_phase(state, "build")

    assert fulfil_offers(state) == []
    assert "fulfil" in rejects(state, fulfil(0, 6))
    assert fulfil_offers(play(state, END_PHASE)) == [(0, 6)]


def test_a_tower_left_unbuilt_this_turn_is_torn_down_before_it_could_fulfil():
    state = open_board(game(2))
    state = set_towers(state, 0, ("green", 6))  # standing since before this turn

    state = to_phase(state, "fulfil")  # nothing built

    assert tower_list(state) == []
    assert fulfil_offers(state) == []


def test_a_tower_may_be_kept_instead_of_fulfilling():
    state = at_fulfil(("green", 6))

    after = play(state, END_TURN)

    assert seal_on(after, "green", 6) is None
    assert tower_list(after, 0) == [("green", 6)]
    assert scores(after)[0] == scores(state)[0]


def test_the_log_names_the_commission_its_pp_and_the_level_tile():
    state = at_fulfil(("green", 6))

    after = play(state, fulfil(0, 6))

    assert log(after) == ["Anna fulfils green 6 for 5 PP and the level-6 tile for 2 PP."]


# The Architect


def test_the_architect_counts_a_yellow_tower_of_3_as_4():
    state = at_fulfil(("yellow", 3), hand=("Architect",))
    state = set_board(state, "yellow", 3, -1)
    assert fulfil_offers(state) == []

    state = play(state, play_card("Architect"))
    assert fulfil_offers(state) == [(0, 4)]
    after = play(state, fulfil(0, 4))

    assert scores(after)[0] == scores(state)[0] + 2
    assert seal_on(after, "yellow", 4) == 0
    assert seal_on(after, "yellow", 3) == "neutral"
    [line] = log(after)
    assert line.startswith("Anna fulfils yellow 4") and line.endswith("for 2 PP.")
    assert "Architect" in line


def test_the_architect_counts_a_tower_of_9_as_8():
    state = at_fulfil(("white", 9), hand=("Architect",), level_tiles=())
    white_pouch = pouch(state)["white"]

    after = play(state, play_card("Architect"), fulfil(0, 8))

    assert scores(after)[0] == scores(state)[0] + 6
    assert seal_on(after, "white", 8) == 0
    assert pouch(after)["white"] == white_pouch + 9  # all nine bricks, not eight


def test_the_architect_counts_a_tower_of_2_as_3():
    state = at_fulfil(("purple", 2), hand=("Architect",))

    after = play(state, play_card("Architect"), fulfil(0, 3))

    assert scores(after)[0] == scores(state)[0] + 3
    assert seal_on(after, "purple", 3) == 0


def test_the_architect_may_count_a_tower_one_level_lower():
    state = at_fulfil(("green", 6), hand=("Architect",), level_tiles=())
    state = set_board(state, "green", 6, 1)

    after = play(state, play_card("Architect"), fulfil(0, 5))

    assert scores(after)[0] == scores(state)[0] + 4
    assert seal_on(after, "green", 5) == 0


def test_the_architect_changes_the_height_by_one_level_only():
    state = at_fulfil(("yellow", 3), hand=("Architect",))
    state = play(state, play_card("Architect"))

    assert (0, 5) not in fulfil_offers(state)
    assert "one level only" in rejects(state, fulfil(0, 5))


def test_the_architect_adjusts_only_one_tower():
    state = at_fulfil(("yellow", 3), ("red", 4), hand=("Architect",), level_tiles=())
    state = play(state, play_card("Architect"), fulfil(0, 4))  # yellow 3 counted as 4
    assert tower_list(state) == [("red", 4)]

    assert fulfil_offers(state) == [(0, 4)]  # red 4 as it stands, not as 3 or 5
    assert "cannot fulfil the red 5" in rejects(state, fulfil(0, 5))
    after = play(state, fulfil(0, 4))
    assert seal_on(after, "red", 4) == 0


def test_an_architect_unused_on_an_exact_tower_still_adjusts_another():
    state = at_fulfil(("green", 3), ("white", 5), hand=("Architect",), level_tiles=())
    state = play(state, play_card("Architect"), fulfil(0, 3))  # green 3 as it stands

    after = play(state, fulfil(0, 6))  # white 5 as 6

    assert seal_on(after, "white", 6) == 0


@pytest.mark.parametrize("phase", ["choose", "exchange", "build"])
def test_the_architect_is_played_only_in_the_fulfil_phase(phase):
    state = open_board(game(2))
    state = set_towers(state, 0, ("yellow", 3), old=False)
    state = set_hand(state, 0, "Architect")
    state = to_phase(state, phase)
    state = set_hand(state, 0, "Architect")  # the card taken on the way is not needed

    assert play_card("Architect") not in legal_actions(state)
    assert "The Architect can only be played in the fulfil phase" in rejects(
        state, play_card("Architect")
    )
    state = to_phase(state, "fulfil")
    assert play_card("Architect") in legal_actions(state)


def test_without_the_architect_no_tower_counts_a_level_higher():
    state = set_board(at_fulfil(("yellow", 3)), "yellow", 3, -1)

    message = rejects(state, fulfil(0, 4))

    assert "yellow tower has 3 levels" in message


# Seals run out


def test_with_no_seals_left_a_player_fulfils_nothing_more():
    state = at_fulfil(("white", 3), ("red", 4))
    state = set_seals(state, 0, 1)

    state = play(state, fulfil(0, 3))

    assert seals_left(state) == 0
    assert fulfil_offers(state) == []
    assert "no seals left" in rejects(state, fulfil(0, 4))
    assert seal_on(state, "red", 4) is None
    assert tower_list(state) == [("red", 4)]


def test_a_player_without_seals_cannot_fulfil_at_all():
    state = set_seals(at_fulfil(("green", 6)), 0, 0)

    assert fulfil_offers(state) == []
    assert "no seals left" in rejects(state, fulfil(0, 6))
