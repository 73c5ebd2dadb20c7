"""Phase 1, choosing a card from the row (rules.md §4 "Choose" and "Gap", section 5)."""

from __future__ import annotations

from games.rules.firenze.rules import legal_actions, player_view

from .scenario import (
    END_PHASE,
    bricks,
    choose,
    data,
    edit,
    game,
    hand,
    is_legal,
    log,
    pay,
    play,
    play_card,
    pouch,
    rejects,
    set_buildings,
    set_deck_top,
    set_hand,
    set_row,
    set_store,
    set_towers,
    store,
    table,
    to_phase,
    towers,
)

ANNA, BEN = 0, 1
SIX = ("Fame", "Scandal", "Mason", "Disgrace", "Recognition", "Architect")


def row_cards(state) -> list[str]:
    return [slot["card"] for slot in table(state)["row"]]


def on_card(state, slot: int) -> dict[str, int]:
    return {c: n for c, n in table(state)["row"][slot]["bricks"].items() if n}


def phase(state) -> str:
    return table(state)["phase"]


def row_of_six(state, **bricks_on_third: int):
    """A known row: nothing on the cards except what the test puts on the third card."""
    on = [bricks() for _ in SIX]
    on[2] = bricks(**bricks_on_third)
    return set_row(state, *SIX, bricks_on=on)


def leave_in_pouch(state, **left: int):
    """Move every pouch brick except `left` into Ben's storehouse."""
    d = data(state)
    wanted = bricks(**left)
    colors = ["white", "yellow", "green", "red", "blue", "purple"]
    ben = {colors[c]: d["players"][BEN]["store"][c] + d["pouch"][c] - wanted[c] for c in range(6)}
    return set_store(state, BEN, **ben)


# Card costs


def test_the_leftmost_card_is_free():
    state = set_store(row_of_six(game()), ANNA)

    state = play(state, choose(0))

    assert hand(state, ANNA) == ["Fame"]
    assert store(state, ANNA) == {}
    assert phase(state) == "exchange"
    assert log(state)[0] == "Anna takes Fame (1st card) with nothing."


def test_second_card_costs_one_brick_placed_on_the_leftmost_card():
    state = set_store(row_of_six(game()), ANNA, white=2)

    state = play(state, choose(1), pay("white"))

    assert hand(state, ANNA) == ["Scandal"]
    assert store(state, ANNA) == {"white": 1}
    assert row_cards(state)[0] == "Fame"
    assert on_card(state, 0) == {"white": 1}


def test_third_card_costs_two_bricks_one_on_each_card_to_its_left():
    state = set_store(row_of_six(game(), blue=4), ANNA, white=1, yellow=1)

    state = play(state, choose(2), pay("white"))

    assert row_cards(state)[2] == "Mason", "not taken before the cost is paid"
    assert on_card(state, 0) == {"white": 1}
    assert on_card(state, 1) == {}
    assert phase(state) == "choose"

    state = play(state, pay("yellow"))

    assert hand(state, ANNA) == ["Mason"]
    assert row_cards(state)[:2] == ["Fame", "Scandal"]
    assert on_card(state, 0) == {"white": 1}
    assert on_card(state, 1) == {"yellow": 1}
    assert store(state, ANNA) == {"blue": 4}
    assert log(state)[0] == "Anna takes Mason (3rd card) with 4 blue, paying 1 white, 1 yellow."


def test_sixth_card_costs_five_bricks_one_on_each_of_the_five_cards_to_its_left():
    state = set_store(row_of_six(game()), ANNA, white=2, yellow=2, red=1)

    state = play(state, choose(5), pay("red"), pay("white"), pay("yellow"), pay("white"))
    assert phase(state) == "choose"
    state = play(state, pay("yellow"))

    assert hand(state, ANNA) == ["Architect"]
    assert store(state, ANNA) == {}
    assert [on_card(state, i) for i in range(5)] == [
        {"red": 1},
        {"white": 1},
        {"yellow": 1},
        {"white": 1},
        {"yellow": 1},
    ]


def test_the_cost_is_paid_in_any_colours_the_player_has_but_only_those():
    state = set_store(row_of_six(game()), ANNA, purple=1, green=1)
    state = play(state, choose(2))

    assert sorted(a["color"] for a in legal_actions(state)) == ["green", "purple"]
    assert "no white brick" in rejects(state, pay("white"))


def test_each_card_shows_its_cost_in_the_row():
    costs = [slot["cost"] for slot in table(game())["row"]]

    assert costs == [0, 1, 2, 3, 4, 5]


def test_a_card_you_cannot_afford_cannot_be_chosen():
    state = set_store(row_of_six(game()), ANNA, white=2)

    message = rejects(state, choose(3))

    assert "3 bricks" in message
    assert "you have 2" in message
    assert [a["slot"] for a in legal_actions(state) if a["type"] == "choose_card"] == [0, 1, 2]


def test_the_chosen_cards_own_bricks_cannot_pay_for_it():
    state = set_store(row_of_six(game(), red=4), ANNA, white=1)

    message = rejects(state, choose(2))

    assert "2 bricks" in message
    assert "you have 1" in message


def test_the_chosen_cards_bricks_are_not_in_the_storehouse_while_paying():
    state = set_store(row_of_six(game(), red=4), ANNA, white=2)
    state = play(state, choose(2), pay("white"))

    assert "no red brick" in rejects(state, pay("red"))
    assert store(state, ANNA) == {"white": 1}


def test_the_bricks_on_the_chosen_card_go_to_the_storehouse():
    state = set_store(row_of_six(game(), red=2, purple=2), ANNA, white=3)

    state = play(state, choose(2), pay("white"), pay("white"))

    assert store(state, ANNA) == {"white": 1, "red": 2, "purple": 2}


# The gap


def test_the_gap_closes_and_the_top_deck_card_comes_in_at_the_right_with_4_bricks():
    state = set_deck_top(row_of_six(game(), green=3), "Workshop")
    state = set_store(state, ANNA, white=2)
    before = pouch(state)

    state = play(state, choose(1), pay("white"))

    assert row_cards(state) == ["Fame", "Mason", "Disgrace", "Recognition", "Architect", "Workshop"]
    assert on_card(state, 1) == {"green": 3}, "the bricks slide with their card"
    new = on_card(state, 5)
    assert sum(new.values()) == 4
    after = pouch(state)
    assert {c: before[c] - after[c] for c in before if before[c] != after[c]} == new
    assert log(state)[-1].startswith("Workshop comes into the row with ")


def test_taking_the_rightmost_card_puts_the_new_card_in_the_same_space():
    state = set_deck_top(row_of_six(game()), "Bridge")
    state = set_store(state, ANNA, white=5)

    state = play(state, choose(5), *[pay("white")] * 5)

    assert row_cards(state) == list(SIX[:5]) + ["Bridge"]


def test_with_fewer_than_4_bricks_in_the_pouch_the_new_card_gets_all_that_is_left():
    state = leave_in_pouch(row_of_six(game()), red=1, blue=1)

    state = play(state, choose(0))

    assert on_card(state, 5) == {"red": 1, "blue": 1}
    assert sum(pouch(state).values()) == 0


def test_with_an_empty_pouch_the_new_card_gets_no_bricks():
    state = leave_in_pouch(row_of_six(game()))

    state = play(state, choose(0))

    assert len(row_cards(state)) == 6
    assert on_card(state, 5) == {}


def test_the_new_card_is_not_topped_up_when_bricks_later_return_to_the_pouch():
    state = set_store(row_of_six(game()), ANNA, white=5)
    state = leave_in_pouch(state, purple=1)
    state = play(state, choose(0), END_PHASE)
    state = play(state, *[{"type": "build", "color": "white"}] * 3, END_PHASE, pay("white"))

    assert pouch(state)["white"] == 1
    assert on_card(state, 5) == {"purple": 1}


def test_an_empty_deck_is_refilled_by_shuffling_the_discard_pile():
    def deck_to_discard(d):
        d["discard"], d["deck"] = d["deck"], []

    state = edit(row_of_six(game()), deck_to_discard)
    old_discard = list(table(state)["discard"])

    state = play(state, choose(0))

    assert "The discard pile is shuffled into a new deck." in log(state)
    new_card = row_cards(state)[5]
    assert new_card in old_discard
    view = table(state)
    assert view["discard"] == []
    assert view["deck_count"] == len(old_discard) - 1
    assert sum(on_card(state, 5).values()) == 4


def test_with_deck_and_discard_pile_empty_the_row_shrinks():
    def no_cards_left(d):
        d["players"][BEN]["hand"].extend(d["deck"] + d["discard"])
        d["deck"], d["discard"] = [], []

    state = edit(row_of_six(game()), no_cards_left)

    state = play(state, choose(0))

    assert row_cards(state) == list(SIX[1:])
    assert not any("comes into the row" in line for line in log(state))


def test_a_shrunken_row_offers_only_its_cards_and_keeps_the_costs_by_position():
    def no_cards_left(d):
        d["players"][BEN]["hand"].extend(d["deck"] + d["discard"])
        d["deck"], d["discard"] = [], []

    state = edit(row_of_six(game()), no_cards_left)
    state = play(to_phase(state, "fulfil", card="Fame"), {"type": "end_turn"})
    state = set_store(state, BEN, white=9)

    assert [slot["cost"] for slot in table(state)["row"]] == [0, 1, 2, 3, 4]
    assert "5 cards" in rejects(state, choose(5))


# Princess


def test_princess_makes_any_card_free():
    state = set_hand(row_of_six(game(), blue=2), ANNA, "Princess")
    state = set_store(state, ANNA)

    state = play(state, play_card("Princess"))
    assert [slot["cost"] for slot in table(state)["row"]] == [0] * 6
    state = play(state, choose(5))

    assert hand(state, ANNA) == ["Architect"]
    assert [on_card(state, i) for i in range(5)] == [{}, {}, {"blue": 2}, {}, {}]
    assert phase(state) == "exchange"


def test_princess_cannot_be_played_after_the_card_is_chosen():
    state = set_hand(row_of_six(game()), ANNA, "Princess")
    state = set_store(state, ANNA, white=5)
    state = play(state, choose(0))

    message = rejects(state, play_card("Princess"))

    assert "choose" in message
    assert hand(state, ANNA) == sorted(["Princess", "Fame"])


def test_princess_cannot_be_played_while_paying_for_the_chosen_card():
    state = set_hand(row_of_six(game()), ANNA, "Princess")
    state = set_store(state, ANNA, white=5)
    state = play(state, choose(3), pay("white"))

    assert not is_legal(state, play_card("Princess"))
    assert "pay for the card you chose" in rejects(state, play_card("Princess"))


def test_princess_cannot_be_played_in_the_build_phase():
    state = set_hand(row_of_six(game()), ANNA, "Princess")
    state = to_phase(state, "build", card="Fame")

    assert "choose" in rejects(state, play_card("Princess"))


# Where the card goes


def test_a_personnel_card_goes_into_the_hand_hidden_from_the_others():
    state = play(to_phase(game(), "fulfil"), {"type": "end_turn"})

    state = play(set_row(state, "Smuggler"), choose(0))

    assert hand(state, BEN) == ["Smuggler"]
    assert "hand" not in player_view(state, ANNA)["players"][BEN]
    assert player_view(state, ANNA)["players"][BEN]["hand_count"] == 1


def test_a_building_is_laid_out_in_front_of_the_player():
    state = set_row(game(), "Warehouse")

    state = play(state, choose(0))

    assert table(state)["players"][ANNA]["buildings"] == ["Warehouse"]
    assert hand(state, ANNA) == []


def test_a_second_copy_of_a_building_is_discarded_at_once():
    state = set_buildings(game(), ANNA, "Workshop")
    state = set_row(state, "Workshop", bricks_on=[bricks(red=2)])

    state = play(state, choose(0))

    view = table(state)
    assert view["players"][ANNA]["buildings"] == ["Workshop"]
    assert view["discard"] == ["Workshop"]
    assert store(state, ANNA) == {"white": 2, "red": 2}, "its bricks are still taken"
    assert "Anna already owns a Workshop; the copy is discarded." in log(state)


def test_a_different_building_is_kept_beside_the_first():
    state = set_buildings(game(), ANNA, "Workshop")
    state = set_row(state, "Bridge")

    state = play(state, choose(0))

    assert sorted(table(state)["players"][ANNA]["buildings"]) == ["Bridge", "Workshop"]


def test_a_church_card_goes_onto_a_church_space():
    state = set_row(game(), "Privilege")

    state = play(state, choose(0))

    assert table(state)["church"] == [{"card": "Privilege", "sealed": []}]
    assert hand(state, ANNA) == []
    assert table(state)["players"][ANNA]["buildings"] == []


def test_a_celebration_card_goes_into_the_hand():
    state = set_row(game(), "Scandal")

    state = play(state, choose(0))

    assert hand(state, ANNA) == ["Scandal"]


# Monument


def test_monument_goes_to_the_player_with_the_tallest_tower_even_if_not_the_chooser():
    state = set_towers(game(), ANNA, ("red", 2), ("white", 1))
    state = set_towers(state, BEN, ("yellow", 4))
    state = set_row(state, "Monument", bricks_on=[bricks(green=3)])

    state = play(state, choose(0))

    assert hand(state, BEN) == ["Monument"]
    assert hand(state, ANNA) == []
    assert store(state, ANNA) == {"white": 2, "green": 3}, "the chooser still gets the bricks"
    assert "The Monument goes to Ben, who has the tallest tower." in log(state)


def test_monument_goes_to_the_chooser_with_the_tallest_tower():
    state = set_towers(game(), ANNA, ("red", 5))
    state = set_towers(state, BEN, ("yellow", 4), ("blue", 4))
    state = set_row(state, "Monument")

    state = play(state, choose(0))

    assert hand(state, ANNA) == ["Monument"]
    assert player_view(state, BEN)["players"][BEN]["hand"] == []


def test_monument_is_discarded_when_the_tallest_towers_tie():
    state = set_towers(game(), ANNA, ("red", 3))
    state = set_towers(state, BEN, ("blue", 3), ("white", 1))
    state = set_row(state, "Monument")

    state = play(state, choose(0))

    assert hand(state, ANNA) == [] and hand(state, BEN) == []
    assert table(state)["discard"] == ["Monument"]
    assert "Nobody has the single tallest tower: the Monument is discarded." in log(state)


def test_monument_is_discarded_when_nobody_has_a_tower():
    state = set_row(game(), "Monument")

    state = play(state, choose(0))

    assert hand(state, ANNA) == [] and hand(state, BEN) == []
    assert table(state)["discard"] == ["Monument"]


def test_monument_looks_at_towers_as_they_stand_when_it_is_taken():
    """Three players: Carla's tower counts although it is Anna who takes the card."""
    state = set_towers(game(3), 2, ("green", 6))
    state = set_towers(state, ANNA, ("red", 5))
    state = set_row(state, "Monument")

    state = play(state, choose(0))

    assert hand(state, 2) == ["Monument"]
    assert towers(state, 2) == [("green", 6)]
