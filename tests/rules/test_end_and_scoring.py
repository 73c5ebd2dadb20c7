"""The end of the game and the final scoring (rules.md §6)."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules.firenze.rules import (
    acting_seat,
    is_over,
    legal_actions,
    player_view,
    scores,
    to_dict,
    winners,
)
from games.rules.firenze.rules.data import COLOR_INDEX, END_TILE_PP, LEVEL_TILE_PP, printed_pp

from .playouts import final_state
from .scenario import (
    CAST,
    END_TURN,
    at_fulfil,
    edit,
    fulfil,
    game,
    log,
    play,
    rejects,
    set_hand,
    set_seals,
    set_towers,
    to_phase,
)

# Harmless cards the players take on turns that only pass (a different one each time).
PASSING_CARDS = ["Alchemist", "Smuggler", "Mason", "Alchemist", "Smuggler", "Mason", "Alchemist"]


def open_board(state, seals=()):
    """Only these seals on the board: (colour, level, seat), seat -1 for a neutral seal.

    Balconies: I white 7, II red 6, III blue 6, IV purple 7; the row cards' bricks go back to the
    pouch, so that towers can be set up.
    """

    def change(d: dict[str, Any]) -> None:
        for slot in d["row"]:
            d["pouch"] = [a + b for a, b in zip(d["pouch"], slot["bricks"], strict=True)]
            slot["bricks"] = [0] * 6
        d["board"] = [None] * 36
        balconies = (("white", 7, 7), ("red", 6, 9), ("blue", 6, 11), ("purple", 7, 14))
        d["balconies"] = [{"c": COLOR_INDEX[c], "l": lv, "pp": pp} for c, lv, pp in balconies]
        d["balcony_next"] = 0
        for colour, level, seat in seals:
            d["board"][COLOR_INDEX[colour] * 6 + level - 3] = seat

    return edit(state, change)


def set_pp(state, **pp: int):
    def change(d: dict[str, Any]) -> None:
        for name, points in pp.items():
            d["players"][CAST.index(name)]["pp"] = points

    return edit(state, change)


def pass_turn(state):
    """The acting player takes a harmless card, builds nothing, fulfils nothing."""
    card = PASSING_CARDS[player_view(state, None)["turn_no"] % len(PASSING_CARDS)]
    return play(to_phase(state, "fulfil", card), END_TURN)


def place_last_seal(state, tower=("green", 6)):
    """The acting player has one seal left and fulfils a commission with it."""
    seat = acting_seat(state)
    state = set_seals(state, seat, 1)
    state = set_towers(state, seat, tower, old=False)
    state = to_phase(state, "fulfil")
    return play(state, fulfil(0, tower[1]))


def end_tile(state):
    return player_view(state, None)["board"]["end_tile"]


def last_turn(players=2, seals=(), hands=None, **pp: int):
    """Anna's fulfil phase in the last turn of the game: Ben took the end tile a round ago.

    Only these seals are on the board, the players hold exactly these cards (seat: cards) and
    have these PP so far.
    """
    state = open_board(game(players), seals)
    state = edit(state, lambda d: d.update(end_tile=1))
    state = set_pp(state, **pp)
    state = to_phase(state, "fulfil")
    for seat in range(players):
        state = set_hand(state, seat, *(hands or {}).get(seat, ()))
    return state


def final_scores(players=2, seals=(), hands=None, **pp: int) -> list[int]:
    state = play(last_turn(players, seals, hands, **pp), END_TURN)
    assert is_over(state)
    return scores(state)


# The end of the game


def test_the_first_player_to_place_their_last_seal_scores_the_end_tile():
    state = open_board(game(2))

    after = place_last_seal(state, ("green", 6))

    assert scores(after)[0] == 5 + 2 + 5  # green 6, level-6 tile, end tile
    assert end_tile(after) == 0
    assert player_view(after, None)["players"][0]["seals_left"] == 0
    assert log(after)[0] == "Anna fulfils green 6 for 5 PP and the level-6 tile for 2 PP."
    assert "Anna places their last seal and takes the end-of-game tile (5 PP)" in log(after)[1]


def test_no_end_tile_while_seals_are_left():
    state = open_board(game(2))
    state = set_seals(state, 0, 2)
    state = set_towers(state, 0, ("green", 6), old=False)

    after = play(to_phase(state, "fulfil"), fulfil(0, 6))

    assert scores(after)[0] == 5 + 2
    assert end_tile(after) is None
    assert acting_seat(play(after, END_TURN)) == 1


def test_three_players_the_middle_seat_ends_it_and_the_others_have_exactly_one_more_turn():
    state = pass_turn(open_board(game(3)))  # Anna
    assert acting_seat(state) == 1

    state = play(place_last_seal(state), END_TURN)  # Ben places his last seal
    assert (acting_seat(state), is_over(state)) == (2, False)  # Carla's last turn
    state = pass_turn(state)
    assert (acting_seat(state), is_over(state)) == (0, False)  # Anna's last turn
    state = pass_turn(state)

    assert is_over(state)
    assert acting_seat(state) is None  # Ben does not play again
    assert legal_actions(state) == []
    assert rejects(state, END_TURN) == "The game is over; no more moves can be made."
    assert "The game is over." in log(state)


@pytest.mark.parametrize(("players", "trigger"), [(2, 0), (2, 1), (3, 2), (4, 0), (4, 2)])
def test_after_the_end_tile_each_other_player_has_exactly_one_more_turn(players, trigger):
    state = open_board(game(players))
    for _ in range(trigger):
        state = pass_turn(state)
    state = play(place_last_seal(state), END_TURN)

    for k in range(1, players):
        assert acting_seat(state) == (trigger + k) % players
        assert not is_over(state)
        state = pass_turn(state)

    assert is_over(state)
    assert acting_seat(state) is None


def test_a_second_player_emptying_their_seals_later_gets_no_end_tile():
    state = pass_turn(open_board(game(3)))
    state = play(place_last_seal(state, ("green", 6)), END_TURN)  # Ben takes the end tile

    after = place_last_seal(state, ("red", 5))  # Carla places her last seal too
    assert scores(after)[2] == 5 + 1  # red 5 and the level-5 tile, no end tile
    assert end_tile(after) == 1
    assert not any("end-of-game tile" in line for line in log(after))

    state = play(after, END_TURN)
    assert (acting_seat(state), is_over(state)) == (0, False)  # Anna still has her turn
    assert is_over(pass_turn(state))


# Final scoring: majority bonus


@pytest.mark.parametrize(
    ("colour", "bonus"),
    [("white", 2), ("yellow", 3), ("green", 3), ("red", 4), ("blue", 4), ("purple", 5)],
)
def test_most_seals_on_a_tower_earn_its_majority_bonus(colour, bonus):
    seals = [(colour, 3, 0), (colour, 4, 0), (colour, 8, 1)]

    state = play(last_turn(seals=seals, Anna=10, Ben=10), END_TURN)

    assert scores(state) == [10 + bonus, 10]
    assert f"Anna wins the {colour} majority for {bonus} PP." in log(state)


def test_every_tower_awards_its_own_majority():
    seals = [("white", 3, 0), ("yellow", 4, 1), ("purple", 5, 1), ("blue", 3, 0)]

    assert final_scores(seals=seals) == [2 + 4, 3 + 5]


def test_a_tower_without_player_seals_awards_no_majority():
    state = play(last_turn(seals=[("green", 3, -1), ("green", 4, -1)]), END_TURN)

    assert scores(state) == [0, 0]
    assert not any("majority" in line for line in log(state))


def test_neutral_seals_do_not_count_for_the_majority():
    seals = [("yellow", 3, -1), ("yellow", 4, -1), ("yellow", 5, -1), ("yellow", 6, 1)]

    assert final_scores(seals=seals) == [0, 3]


def test_balconies_count_for_the_majority():
    # Anna: red 3 and balcony II (red 6); Ben: red 8. Two seals beat one.
    seals = [("red", 3, 0), ("red", 6, 0), ("red", 8, 1)]

    assert final_scores(seals=seals) == [4, 0]


def test_a_majority_tie_goes_to_the_player_with_the_highest_seal():
    seals = [("blue", 3, 0), ("blue", 7, 0), ("blue", 4, 1), ("blue", 8, 1)]

    assert final_scores(seals=seals) == [0, 4]


def test_the_rulebook_majority_example():
    """Thomas (Anna) has 1 white, Holger (Ben) 2, Dani (Carla) none: Holger wins white. Thomas
    and Dani tie on yellow; Dani's highest yellow is 6, Thomas's only 5: Dani wins yellow."""
    seals = [
        ("white", 3, 0),
        ("white", 4, 1),
        ("white", 5, 1),
        ("yellow", 3, 0),
        ("yellow", 5, 0),
        ("yellow", 4, 2),
        ("yellow", 6, 2),
    ]

    state = play(last_turn(players=3, seals=seals), END_TURN)

    assert scores(state) == [0, 2, 3]
    assert "Ben wins the white majority for 2 PP." in log(state)
    assert "Carla wins the yellow majority for 3 PP." in log(state)


# Final scoring: celebrations


@pytest.mark.parametrize(
    ("card", "points"), [("Fame", 3), ("Monument", 3), ("Disgrace", -2), ("Scandal", -3)]
)
def test_celebration_cards_score_at_the_end(card, points):
    state = play(last_turn(hands={0: (card,)}, Anna=10, Ben=10), END_TURN)

    assert scores(state) == [10 + points, 10]
    assert f"Anna reveals {card}: {points:+d} PP." in log(state)


def test_celebrations_of_other_players_count_for_them():
    hands = {0: ("Fame", "Scandal", "Disgrace"), 1: ("Monument", "Fame")}

    assert final_scores(hands=hands, Anna=20, Ben=20) == [20 + 3 - 3 - 2, 20 + 3 + 3]


def test_recognition_scores_one_pp_per_own_commission_of_level_3_or_4():
    seals = [
        ("white", 3, 0),  # counts
        ("yellow", 4, 0),  # counts
        ("green", 3, 0),  # counts
        ("green", 5, 0),  # level 5: does not count
        ("blue", 3, 1),  # Ben's: does not count
        ("purple", 4, -1),  # neutral: does not count
    ]
    majorities = 2 + 3 + 3  # Anna holds white, yellow and green; Ben blue

    state = play(last_turn(seals=seals, hands={0: ("Recognition",)}), END_TURN)

    assert scores(state)[0] == majorities + 3
    assert "Anna reveals Recognition: +3 PP." in log(state)


def test_recognition_without_small_commissions_scores_nothing():
    seals = [("green", 5, 0), ("green", 3, 1)]

    state = play(last_turn(seals=seals, hands={0: ("Recognition",)}, Anna=7), END_TURN)

    assert scores(state)[0] == 7 + 3  # the green majority (tie, higher seal), no Recognition PP


# Final totals and winners


def test_scores_are_running_totals_in_play_and_final_totals_once_over():
    seals = [("purple", 3, 0)]
    state = last_turn(seals=seals, hands={0: ("Fame",), 1: ("Scandal",)}, Anna=12, Ben=15)
    assert scores(state) == [12, 15]
    assert winners(state) == []

    over = play(state, END_TURN)

    assert scores(over) == [12 + 5 + 3, 15 - 3]
    assert winners(over) == [0]


def test_the_player_with_most_pp_wins():
    assert winners(play(last_turn(Anna=30, Ben=31), END_TURN)) == [1]


def test_a_tie_gives_several_winners():
    state = play(last_turn(players=3, hands={2: ("Fame",)}, Anna=20, Ben=23, Carla=20), END_TURN)

    assert scores(state) == [20, 23, 23]
    assert winners(state) == [1, 2]
    assert player_view(state, 0)["winners"] == [1, 2]


# --- the score breakdown by source (issue 7) ---------------------------------------------------


def sealed_value(d: dict, seat: int) -> int:
    """PP of the commissions this seat sealed, read off the final board: a balcony's own PP
    where one lies, else the printed value."""
    balconies = {(b["c"], b["l"]): b["pp"] for b in d["balconies"]}
    return sum(
        balconies.get((colour, level), printed_pp(colour, level))
        for colour in range(6)
        for level in range(3, 9)
        if d["board"][colour * 6 + level - 3] == seat
    )


@pytest.mark.parametrize("seed", range(60))
def test_the_breakdown_by_source_adds_up_to_the_final_total(seed):
    over = final_state(seed, max_steps=20_000)  # a few random-heavy games run long
    assert is_over(over)
    d = to_dict(over)
    final = player_view(over, None)["final"]

    for seat, row in enumerate(final["players"]):
        earned = row["earned"]
        assert set(earned) == {"commissions", "balconies", "level_tiles", "privileges", "end_tile"}
        assert sum(earned.values()) == row["pp_in_game"]
        at_end = sum(row["majority"].values()) + sum(c["pp"] for c in row["celebrations"])
        assert row["pp_in_game"] + at_end == row["total"] == scores(over)[seat]
        # Each source checked against what the final board shows on its own.
        assert earned["commissions"] + earned["balconies"] == sealed_value(d, seat)
        assert earned["end_tile"] == (END_TILE_PP if d["end_tile"] == seat else 0)
        assert earned["level_tiles"] >= 0 and earned["privileges"] >= 0
    taken_tiles = sum(pp for level, pp in LEVEL_TILE_PP.items() if level not in d["level_tiles"])
    assert sum(row["earned"]["level_tiles"] for row in final["players"]) == taken_tiles


def test_the_breakdown_names_the_source_of_each_pp():
    """Anna fulfils balcony I (white 7, 7 PP) with the first level-7 commission: 7 PP from the
    balcony and 3 from the level-7 tile, none from plain commissions."""
    after = play(at_fulfil(("white", 7)), fulfil(0, 7))

    earned = to_dict(after)["players"][0]["earned"]
    assert earned == {
        "commissions": 0,
        "balconies": 7,
        "level_tiles": LEVEL_TILE_PP[7],
        "privileges": 0,
        "end_tile": 0,
    }
    assert scores(after)[0] == 7 + LEVEL_TILE_PP[7]
