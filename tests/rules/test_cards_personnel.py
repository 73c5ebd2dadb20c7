"""Personnel cards (rules.md §5 and the card texts): played from the hand on one's own turn.

Towers that must survive the tear-down on the way to the fulfil phase are given as built this
turn (old=False), so a scenario only shows the card at work.
"""

from __future__ import annotations

from games.rules.firenze.rules import State, acting_seat, can_undo, legal_actions, player_view
from games.rules.firenze.rules.data import COLORS
from tests.rules.scenario import (
    END_PHASE,
    END_TURN,
    bricks,
    build,
    choose,
    data,
    discard,
    fulfil,
    game,
    hand,
    log,
    pay,
    pick_slot,
    pick_tower,
    play,
    play_card,
    pouch,
    pp,
    rejects,
    resolve,
    set_board,
    set_buildings,
    set_hand,
    set_row,
    set_store,
    set_towers,
    start_tower,
    store,
    take,
    to_phase,
    towers,
)

ANNA, BEN, CARLA = 0, 1, 2


def discard_pile(state: State) -> list[str]:
    return data(state)["discard"]


def seal_on(state: State, color: str, level: int) -> int | str | None:
    commissions = player_view(state, None)["board"]["commissions"]
    return next(c["seal"] for c in commissions if (c["color"], c["level"]) == (color, level))


def row_bricks(state: State, slot: int) -> dict[str, int]:
    return {COLORS[c]: n for c, n in enumerate(data(state)["row"][slot]["bricks"]) if n}


# Alchemist ----------------------------------------------------------------------------------


def test_alchemist_swaps_a_storehouse_brick_for_any_brick_from_the_pouch():
    state = set_hand(game(), ANNA, "Alchemist")
    state = set_store(state, ANNA, white=2)
    state = to_phase(state, "exchange", card="Mason")
    before = pouch(state)

    state = play(state, play_card("Alchemist"), pay("white"))
    # any colour still in the pouch may be taken, the one just given back included
    assert legal_actions(state) == [take(c) for c in COLORS if pouch(state)[c]]
    state = play(state, take("purple"))

    assert store(state, ANNA) == {"white": 1, "purple": 1}
    assert pouch(state) == {**before, "white": before["white"] + 1, "purple": before["purple"] - 1}
    assert hand(state, ANNA) == ["Mason"]
    assert discard_pile(state)[-1] == "Alchemist"
    assert "Alchemist: Anna swaps 1 white for 1 purple from the pouch." in log(state)


# Architect ----------------------------------------------------------------------------------


def test_architect_lets_one_tower_count_one_level_taller():
    state = set_board(game(), "yellow", 4, None)
    state = set_hand(state, ANNA, "Architect")
    state = set_towers(state, ANNA, ("yellow", 3), old=False)
    state = to_phase(state, "fulfil")

    rejects(state, fulfil(0, 4))  # not without the Architect
    state = play(state, play_card("Architect"), fulfil(0, 4))

    assert towers(state, ANNA) == []
    assert pp(state, ANNA) == 2  # printed yellow 4
    assert seal_on(state, "yellow", 4) == ANNA
    assert "Anna fulfils yellow 4 with the Architect (tower of 3) for 2 PP." in log(state)
    assert discard_pile(state)[-1] == "Architect"


def test_architect_lets_one_tower_count_one_level_shorter():
    state = set_board(game(), "white", 8, None)
    state = set_hand(state, ANNA, "Architect")
    state = set_towers(state, ANNA, ("white", 9), old=False)
    state = to_phase(state, "fulfil")

    state = play(state, play_card("Architect"), fulfil(0, 8))

    assert towers(state, ANNA) == []
    assert pp(state, ANNA) == 6 + 4  # printed white 8, and the level-8 tile
    assert log(state)[0].startswith("Anna fulfils white 8 with the Architect (tower of 9)")


def test_architect_adjusts_only_one_tower():
    state = set_board(game(), "yellow", 4, None)
    state = set_board(state, "green", 3, None)
    state = set_hand(state, ANNA, "Architect")
    state = set_towers(state, ANNA, ("yellow", 3), ("green", 2), old=False)
    state = to_phase(state, "fulfil")

    state = play(state, play_card("Architect"), fulfil(0, 4))

    assert towers(state, ANNA) == [("green", 2)]
    assert rejects(state, fulfil(0, 3)) == (
        "Your green tower has 2 levels; it cannot fulfil the green 3 commission."
    )


def test_architect_is_played_only_in_the_fulfil_phase():
    state = set_hand(game(), ANNA, "Architect")
    state = to_phase(state, "build")

    assert rejects(state, play_card("Architect")) == (
        "The Architect can only be played in the fulfil phase."
    )
    assert "Architect" in hand(state, ANNA)


# Mason --------------------------------------------------------------------------------------


def test_mason_pays_three_bricks_less_construction_cost():
    state = set_hand(game(), ANNA, "Mason")
    state = set_store(state, ANNA, white=4)
    state = to_phase(state, "build")
    state = play(state, start_tower("white"), build(0), build(0))

    rejects(state, build(0))  # a 4th brick would cost 3, and only 1 brick would be left
    state = play(state, play_card("Mason"), build(0), END_PHASE)

    assert data(state)["pending"] is None  # 4 bricks cost 3 - 3 = 0
    assert data(state)["phase"] == "fulfil"
    assert towers(state, ANNA) == [("white", 4)]
    assert discard_pile(state)[-1] == "Mason"


def test_mason_makes_six_bricks_cost_seven():
    state = set_hand(game(), ANNA, "Mason")
    state = set_store(state, ANNA, white=13)
    state = to_phase(state, "build")
    state = play(state, play_card("Mason"), start_tower("white"), *[build(0)] * 5, END_PHASE)

    state = play(state, *[pay("white")] * 6)
    assert data(state)["phase"] == "build"  # still one brick to pay
    state = play(state, pay("white"))

    assert data(state)["phase"] == "fulfil"
    assert towers(state, ANNA) == [("white", 6)]
    assert store(state, ANNA) == {}


def test_mason_with_a_workshop_pays_four_bricks_less():
    state = set_hand(game(), ANNA, "Mason")
    state = set_buildings(state, ANNA, "Workshop")
    state = set_store(state, ANNA, white=7)
    state = to_phase(state, "build")
    state = play(state, play_card("Mason"), start_tower("white"), *[build(0)] * 4, END_PHASE)

    state = play(state, pay("white"))
    assert data(state)["phase"] == "build"
    state = play(state, pay("white"))  # 5 bricks cost 6 - 4 = 2

    assert data(state)["phase"] == "fulfil"
    assert towers(state, ANNA) == [("white", 5)]
    assert store(state, ANNA) == {}


def test_mason_is_played_only_in_the_build_phase():
    state = set_hand(game(), ANNA, "Mason")
    state = to_phase(state, "exchange")
    assert rejects(state, play_card("Mason")) == "The Mason can only be played in the build phase."

    state = to_phase(state, "fulfil")
    assert rejects(state, play_card("Mason")) == "The Mason can only be played in the build phase."


# Patrician ----------------------------------------------------------------------------------


def test_patrician_ignores_the_event_the_player_just_chose():
    state = set_hand(game(), ANNA, "Patrician")
    state = set_store(state, ANNA, white=5)
    state = set_row(state, "Storehouse Fire", bricks_on=[bricks(red=2)])
    state = play(state, choose(0))

    assert legal_actions(state) == [resolve(), play_card("Patrician")]
    state = play(state, play_card("Patrician"))

    assert store(state, ANNA) == {"white": 5, "red": 2}
    assert hand(state, ANNA) == []
    assert discard_pile(state)[-2:] == ["Patrician", "Storehouse Fire"]
    assert "Anna plays Patrician and cancels Storehouse Fire." in log(state)


def test_patrician_discards_a_card_from_the_hand():
    state = set_hand(game(), ANNA, "Patrician", "Scandal", "Fame")
    state = play(state, play_card("Patrician"))

    assert legal_actions(state) == [discard("Fame"), discard("Scandal")]
    state = play(state, discard("Scandal"))

    assert hand(state, ANNA) == ["Fame"]
    assert discard_pile(state)[-2:] == ["Patrician", "Scandal"]
    assert "Patrician: Anna discards Scandal." in log(state)


def test_a_patrician_used_to_discard_cannot_also_cancel_an_event_that_turn():
    state = set_hand(game(), ANNA, "Patrician", "Patrician", "Disgrace")
    state = play(state, play_card("Patrician"), discard("Disgrace"))
    state = set_row(state, "Flood")
    state = play(state, choose(0))

    assert legal_actions(state) == [resolve()]
    assert "already played" in rejects(state, play_card("Patrician"))
    assert hand(state, ANNA) == ["Patrician"]


# Princess -----------------------------------------------------------------------------------


def test_princess_takes_any_card_without_card_cost():
    state = set_hand(game(), ANNA, "Princess")
    state = set_store(state, ANNA)
    assert rejects(state, choose(5)) == "You need 5 bricks to take this card; you have 0."
    row_before = data(state)["row"]

    state = play(state, play_card("Princess"), choose(5))

    assert store(state, ANNA) == {COLORS[c]: n for c, n in enumerate(row_before[5]["bricks"]) if n}
    # nothing was paid onto the cards to the left
    assert [slot["bricks"] for slot in data(state)["row"][:5]] == [
        slot["bricks"] for slot in row_before[:5]
    ]
    assert discard_pile(state)[-1] == "Princess"


def test_princess_is_played_only_in_the_choose_phase():
    state = set_hand(game(), ANNA, "Princess")
    state = to_phase(state, "exchange")

    assert rejects(state, play_card("Princess")) == (
        "The Princess can only be played in the choose phase."
    )


# Saboteur -----------------------------------------------------------------------------------


def test_saboteur_takes_a_brick_from_another_players_tower():
    state = set_hand(game(), ANNA, "Saboteur")
    state = set_towers(state, ANNA, ("blue", 2))
    state = set_towers(state, BEN, ("white", 2), ("red", 4))
    before = pouch(state)

    state = play(state, play_card("Saboteur"))
    assert legal_actions(state) == [pick_tower(0, seat=BEN), pick_tower(1, seat=BEN)]
    rejects(state, pick_tower(0, seat=ANNA))
    state = play(state, pick_tower(1, seat=BEN))

    assert towers(state, BEN) == [("white", 2), ("red", 3)]
    assert towers(state, ANNA) == [("blue", 2)]
    assert pouch(state) == {**before, "red": before["red"] + 1}
    assert "Saboteur: Anna takes a brick off Ben's red tower, which now has 3." in log(state)
    assert discard_pile(state)[-1] == "Saboteur"


def test_saboteur_removes_a_tower_left_with_no_brick():
    state = set_hand(game(), ANNA, "Saboteur")
    state = set_towers(state, BEN, ("green", 1), ("red", 4))

    state = play(state, play_card("Saboteur"), pick_tower(0, seat=BEN))

    assert towers(state, BEN) == [("red", 4)]


# Smuggler -----------------------------------------------------------------------------------


def test_smuggler_swaps_a_brick_with_another_players_storehouse_both_chosen_freely():
    state = game(players=3)
    state = set_hand(state, ANNA, "Smuggler")
    state = set_store(state, ANNA, white=2, yellow=1)
    state = set_store(state, BEN, green=1)
    state = set_store(state, CARLA, red=1, blue=1)

    state = play(state, play_card("Smuggler"))
    assert legal_actions(state) == [
        take("green", seat=BEN),
        take("red", seat=CARLA),
        take("blue", seat=CARLA),
    ]
    state = play(state, take("blue", seat=CARLA), pay("yellow"))

    assert store(state, ANNA) == {"white": 2, "blue": 1}
    assert store(state, CARLA) == {"yellow": 1, "red": 1}
    assert store(state, BEN) == {"green": 1}
    assert "Smuggler: Anna takes 1 blue from Carla and gives 1 yellow back." in log(state)
    assert discard_pile(state)[-1] == "Smuggler"


# Wholesaler ---------------------------------------------------------------------------------


def all_white_to(state: State, seat: int) -> State:
    """Park every white brick of the pouch in a storehouse, so a fresh draw shows."""
    white = store(state, seat).get("white", 0) + data(state)["pouch"][0]
    return set_store(state, seat, white=white)


def test_wholesaler_before_choosing_returns_a_row_cards_bricks_and_draws_as_many_anew():
    state = set_hand(game(), ANNA, "Wholesaler")
    state = set_row(state, "Fame", bricks_on=[bricks(white=4)])
    state = all_white_to(state, BEN)
    before = pouch(state)

    state = play(state, play_card("Wholesaler"))
    assert legal_actions(state) == [pick_slot(i) for i in range(6)]
    state = play(state, pick_slot(0))

    redrawn = row_bricks(state, 0)
    assert sum(redrawn.values()) == 4
    assert redrawn != {"white": 4}
    after = pouch(state)
    assert {c: after[c] + redrawn.get(c, 0) for c in COLORS} == {
        **before,
        "white": before["white"] + 4,
    }
    assert not can_undo(state)  # a random draw
    assert log(state)[0].startswith("Wholesaler: the 1st card (Fame) trades 4 white for ")
    assert discard_pile(state)[-1] == "Wholesaler"
    # the player has not chosen yet, and need not choose that card
    assert data(state)["phase"] == "choose"
    state = play(state, choose(1), *[pay("white")])
    assert data(state)["phase"] == "exchange"


def test_wholesaler_may_be_played_in_the_exchange_phase():
    state = set_hand(game(), ANNA, "Wholesaler")
    state = to_phase(state, "exchange")
    count = sum(data(state)["row"][2]["bricks"])

    state = play(state, play_card("Wholesaler"), pick_slot(2))

    assert sum(data(state)["row"][2]["bricks"]) == count
    assert data(state)["phase"] == "exchange"


def test_wholesaler_is_not_played_in_the_build_phase():
    state = set_hand(game(), ANNA, "Wholesaler")
    state = to_phase(state, "build")

    assert rejects(state, play_card("Wholesaler")) == (
        "The Wholesaler can only be played in the choose or exchange phase."
    )


# Personnel in general -----------------------------------------------------------------------


def test_never_two_personnel_cards_of_the_same_name_in_one_turn():
    state = set_hand(game(), ANNA, "Alchemist", "Alchemist", "Smuggler")
    state = set_store(state, ANNA, white=2)
    state = set_store(state, BEN, red=1)
    state = play(state, play_card("Alchemist"), pay("white"), take("blue"))

    message = rejects(state, play_card("Alchemist"))
    assert "already played" in message
    assert "Alchemist this turn" in message
    assert play_card("Alchemist") not in legal_actions(state)
    # a card of another name is fine
    state = play(state, play_card("Smuggler"), take("red", seat=BEN), pay("blue"))
    assert store(state, ANNA) == {"white": 1, "red": 1}
    assert hand(state, ANNA) == ["Alchemist"]


def test_the_same_name_may_be_played_again_on_a_later_turn():
    state = set_hand(game(), ANNA, "Alchemist", "Alchemist")
    state = set_store(state, ANNA, white=2)
    state = play(state, play_card("Alchemist"), pay("white"), take("white"))
    state = to_phase(state, "fulfil")
    state = play(state, END_TURN)  # Ben's turn
    state = to_phase(state, "fulfil")
    state = play(state, END_TURN)  # Anna's again

    assert acting_seat(state) == ANNA
    assert play_card("Alchemist") in legal_actions(state)


def test_played_personnel_cards_go_to_the_discard_pile():
    state = set_hand(game(), ANNA, "Princess", "Alchemist")
    state = play(state, play_card("Princess"), play_card("Alchemist"), pay("white"), take("red"))

    assert hand(state, ANNA) == []
    assert discard_pile(state)[-2:] == ["Princess", "Alchemist"]


def test_personnel_are_played_only_on_ones_own_turn():
    state = set_hand(game(), BEN, "Saboteur")
    state = set_towers(state, ANNA, ("red", 3), old=False)

    assert acting_seat(state) == ANNA
    assert "Saboteur" in rejects(state, play_card("Saboteur"))
    assert hand(state, BEN) == ["Saboteur"]

    state = to_phase(state, "fulfil")
    state = play(state, END_TURN)
    assert acting_seat(state) == BEN
    state = play(state, play_card("Saboteur"), pick_tower(0, seat=ANNA))
    assert towers(state, ANNA) == [("red", 2)]


def test_a_card_that_is_not_personnel_cannot_be_played():
    state = set_hand(game(), ANNA, "Fame")

    assert rejects(state, play_card("Fame")) == (
        "Fame is not a personnel card; only personnel cards are played from the hand."
    )
