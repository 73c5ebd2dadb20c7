"""Event cards (rules.md §5 and the card texts): resolved at once, then discarded.

Every scenario has Anna take the event from the leftmost (free) slot, so the only bricks that
move are the ones the event itself moves, plus the bricks lying on the event card.
"""

from __future__ import annotations

from games.rules.firenze.rules import State, legal_actions
from games.rules.firenze.rules.data import COLORS
from tests.rules.scenario import (
    bricks,
    choose,
    data,
    game,
    log,
    pay,
    pick_tower,
    play,
    play_card,
    pouch,
    rejects,
    resolve,
    set_hand,
    set_row,
    set_store,
    set_towers,
    store,
    towers,
)

ANNA, BEN, CARLA = 0, 1, 2


def take_event(state: State, card: str, **on_card: int) -> State:
    """Anna takes `card` from the leftmost slot (no card cost), with these bricks on it."""
    state = set_row(state, card, bricks_on=[bricks(**on_card)])
    return play(state, choose(0))


def pouch_before_refill(state: State) -> dict[str, int]:
    """The pouch as it was before the new rightmost row card drew its bricks from it."""
    d = data(state)
    drawn = d["row"][-1]["bricks"]
    return {COLORS[c]: n + drawn[c] for c, n in enumerate(d["pouch"])}


def discard_pile(state: State) -> list[str]:
    return data(state)["discard"]


def player_hand(state: State, seat: int) -> list[str]:
    return data(state)["players"][seat]["hand"]


# Taking an event --------------------------------------------------------------------------


def test_an_event_must_be_resolved_before_anything_else():
    state = take_event(game(), "Flood")

    assert legal_actions(state) == [{"type": "resolve_event"}]
    assert data(state)["phase"] == "choose"
    assert "resolve the event" in rejects(state, {"type": "end_phase"})


def test_a_resolved_event_is_discarded_and_its_bricks_reach_the_storehouse():
    state = set_store(game(), ANNA, white=2)
    state = take_event(state, "Tribute", red=1, blue=2)

    state = play(state, resolve())

    assert discard_pile(state)[-1] == "Tribute"
    assert store(state, ANNA) == {"white": 2, "red": 1, "blue": 2}
    assert len(data(state)["row"]) == 6
    assert data(state)["phase"] == "exchange"


# Botch --------------------------------------------------------------------------------------


def test_botch_takes_one_brick_from_the_own_tower_the_player_chooses():
    state = set_towers(game(), ANNA, ("red", 4), ("blue", 2))
    state = set_towers(state, BEN, ("blue", 3))
    state = take_event(state, "Botch")
    before = pouch(state)
    state = play(state, resolve())

    assert legal_actions(state) == [pick_tower(0), pick_tower(1)]
    state = play(state, pick_tower(1))

    assert towers(state, ANNA) == [("red", 4), ("blue", 1)]
    assert towers(state, BEN) == [("blue", 3)]
    assert pouch_before_refill(state) == {**before, "blue": before["blue"] + 1}
    assert "Botch: Anna's blue tower loses a brick." in log(state)
    assert discard_pile(state)[-1] == "Botch"


def test_botch_cannot_hit_another_players_tower():
    state = set_towers(game(), ANNA, ("red", 4))
    state = set_towers(state, BEN, ("blue", 3))
    state = play(take_event(state, "Botch"), resolve())

    rejects(state, pick_tower(0, seat=BEN))
    assert towers(state, BEN) == [("blue", 3)]


def test_botch_on_a_tower_of_one_brick_makes_it_disappear():
    state = set_towers(game(), ANNA, ("green", 1), ("red", 3))
    state = play(take_event(state, "Botch"), resolve(), pick_tower(0))

    assert towers(state, ANNA) == [("red", 3)]


def test_botch_without_a_tower_does_nothing():
    state = set_store(game(), ANNA, white=2)
    state = take_event(state, "Botch", yellow=1)
    before = pouch(state)
    state = play(state, resolve())

    assert towers(state, ANNA) == []
    assert store(state, ANNA) == {"white": 2, "yellow": 1}
    assert "Botch: Anna has no tower; nothing happens." in log(state)
    assert discard_pile(state)[-1] == "Botch"
    assert pouch_before_refill(state) == before


# Collapse -----------------------------------------------------------------------------------


def test_collapse_sends_every_brick_of_the_chosen_tower_to_the_pouch():
    state = set_towers(game(), ANNA, ("white", 2), ("red", 5))
    state = set_store(state, ANNA, white=1)
    state = take_event(state, "Collapse")
    before = pouch(state)
    state = play(state, resolve(), pick_tower(1))

    assert towers(state, ANNA) == [("white", 2)]
    assert store(state, ANNA) == {"white": 1}  # nothing of the tower comes back
    assert pouch_before_refill(state) == {**before, "red": before["red"] + 5}
    assert "Collapse: Anna's red tower of 5 falls." in log(state)
    assert discard_pile(state)[-1] == "Collapse"


def test_collapse_without_a_tower_does_nothing():
    state = set_store(game(), ANNA, white=2)
    state = play(take_event(state, "Collapse"), resolve())

    assert store(state, ANNA) == {"white": 2}
    assert "Collapse: Anna has no tower; nothing happens." in log(state)
    assert discard_pile(state)[-1] == "Collapse"


# Flood --------------------------------------------------------------------------------------


def test_flood_takes_a_third_rounded_up_of_every_players_storehouse():
    state = game(players=3)
    state = set_store(state, ANNA, white=4)  # 4/3 -> 2
    state = set_store(state, BEN, white=6)  # 6/3 -> 2
    state = set_store(state, CARLA, white=7)  # 7/3 -> 3
    state = play(take_event(state, "Flood"), resolve())

    assert store(state, ANNA) == {"white": 2}
    assert store(state, BEN) == {"white": 4}
    assert store(state, CARLA) == {"white": 4}
    assert log(state)[:3] == [
        "Flood: Anna loses 2 white.",
        "Flood: Ben loses 2 white.",
        "Flood: Carla loses 3 white.",
    ]
    assert discard_pile(state)[-1] == "Flood"


def test_flood_gives_up_colours_without_a_tower_first_cheapest_first():
    state = set_towers(game(), BEN, ("white", 2), ("green", 1))
    state = set_store(state, BEN, white=3, yellow=1, green=2, purple=3)  # 9 -> 3 lost
    state = play(take_event(state, "Flood"), resolve())

    # yellow and purple have no tower: the yellow, then purple; white is kept though cheaper
    assert store(state, BEN) == {"white": 3, "green": 2, "purple": 1}


def test_flood_then_gives_up_the_colours_with_a_tower_cheapest_first():
    state = set_towers(game(), BEN, ("red", 2), ("yellow", 1))
    state = set_store(state, BEN, yellow=1, red=4, blue=1)  # 6 -> 2 lost
    state = play(take_event(state, "Flood"), resolve())

    # blue has no tower; then yellow is the cheapest colour with a tower
    assert store(state, BEN) == {"red": 4}


def test_flood_neither_counts_nor_takes_the_bricks_on_the_chosen_card():
    state = set_store(game(), ANNA, white=3)  # 3 counted -> 1 lost
    state = play(take_event(state, "Flood", red=4), resolve())

    assert store(state, ANNA) == {"white": 2, "red": 4}


# Luxury Tax ---------------------------------------------------------------------------------


def test_luxury_tax_costs_every_player_two_bricks_per_tower_of_five_or_more():
    state = set_towers(game(), ANNA, ("red", 5), ("blue", 6), ("white", 4))
    state = set_store(state, ANNA, white=3, yellow=2, red=1)
    state = set_towers(state, BEN, ("green", 5))
    state = set_store(state, BEN, white=2, green=1)
    state = play(take_event(state, "Luxury Tax"), resolve())

    # Anna pays 4 for two towers: yellow (no tower) first, then the cheapest, white
    assert store(state, ANNA) == {"white": 1, "red": 1}
    assert towers(state, ANNA) == [("red", 5), ("blue", 6), ("white", 4)]
    # Ben pays 2 white and keeps the green brick of his tower's colour
    assert store(state, BEN) == {"green": 1}
    assert towers(state, BEN) == [("green", 5)]
    assert discard_pile(state)[-1] == "Luxury Tax"


def test_luxury_tax_pays_for_the_tallest_tower_first_and_tears_down_the_one_it_cannot_pay():
    state = set_towers(game(), ANNA, ("red", 5), ("blue", 7))
    state = set_store(state, ANNA, white=3)
    state = take_event(state, "Luxury Tax")
    before = pouch(state)
    state = play(state, resolve())

    assert towers(state, ANNA) == [("blue", 7)]
    # 2 white pay for the blue 7; the red 5 falls: 3 to the pouch, 2 to the storehouse
    assert store(state, ANNA) == {"white": 1, "red": 2}
    assert pouch_before_refill(state) == {
        **before,
        "white": before["white"] + 2,
        "red": before["red"] + 3,
    }
    assert "Luxury Tax: Anna cannot pay for the red tower of 5; it is torn down." in log(state)


def test_luxury_tax_takes_nothing_for_a_tower_it_tears_down():
    state = set_towers(game(), BEN, ("red", 6))
    state = set_store(state, BEN, yellow=1)  # one brick cannot pay the 2 due
    state = play(take_event(state, "Luxury Tax"), resolve())

    assert towers(state, BEN) == []
    assert store(state, BEN) == {"yellow": 1, "red": 3}  # 3 of 6 went to the pouch


def test_luxury_tax_cannot_be_paid_with_the_bricks_on_the_chosen_card():
    state = set_towers(game(), ANNA, ("red", 5))
    state = set_store(state, ANNA, white=1)
    state = play(take_event(state, "Luxury Tax", yellow=3), resolve())

    assert towers(state, ANNA) == []
    assert store(state, ANNA) == {"white": 1, "yellow": 3, "red": 2}


def test_luxury_tax_leaves_players_without_tall_towers_alone():
    state = set_towers(game(), BEN, ("red", 4))
    state = set_store(state, BEN, white=3)
    state = play(take_event(state, "Luxury Tax"), resolve())

    assert store(state, BEN) == {"white": 3}
    assert towers(state, BEN) == [("red", 4)]


# Renaissance --------------------------------------------------------------------------------


def test_renaissance_shuffles_deck_discard_pile_and_itself_into_a_new_deck():
    state = set_hand(game(), BEN, "Fame", "Scandal", "Mason")
    state = set_hand(state, BEN)  # his three cards go to the discard pile
    state = take_event(state, "Renaissance")
    old = data(state)
    assert sorted(old["discard"]) == ["Fame", "Mason", "Scandal"]
    state = play(state, resolve())

    d = data(state)
    assert d["discard"] == []
    new_row = [slot["card"] for slot in d["row"]]
    assert new_row[:5] == [slot["card"] for slot in old["row"]]  # the row is not shuffled
    assert sum(d["row"][5]["bricks"]) == 4  # the gap is filled as usual
    new_cards = [new_row[5], *d["deck"]]
    unshuffled = old["deck"] + old["discard"] + ["Renaissance"]
    assert sorted(new_cards) == sorted(unshuffled)
    assert new_cards != unshuffled
    assert "Renaissance: the deck, the discard pile and the card make a new deck." in log(state)


# Storehouse Fire ----------------------------------------------------------------------------


def test_storehouse_fire_burns_three_bricks_the_active_player_chooses():
    state = set_store(game(), ANNA, white=2, red=2, blue=1)
    state = set_store(state, BEN, white=5)
    state = play(take_event(state, "Storehouse Fire", yellow=2), resolve())

    assert data(state)["pending"]["kind"] == "fire"
    rejects(state, pay("yellow"))  # the card's bricks are not in the storehouse yet
    state = play(state, pay("red"), pay("red"), pay("white"))

    assert store(state, ANNA) == {"white": 1, "yellow": 2, "blue": 1}
    assert store(state, BEN) == {"white": 5}
    assert "Storehouse Fire: Anna loses 1 white, 2 red." in log(state)
    assert discard_pile(state)[-1] == "Storehouse Fire"


def test_storehouse_fire_with_fewer_than_three_bricks_burns_them_all_but_not_the_cards():
    state = set_store(game(), ANNA, white=1, red=1)
    state = play(take_event(state, "Storehouse Fire", green=3, blue=1), resolve())

    assert store(state, ANNA) == {"green": 3, "blue": 1}
    assert "Storehouse Fire: Anna loses 1 white, 1 red." in log(state)
    assert discard_pile(state)[-1] == "Storehouse Fire"


# Tribute ------------------------------------------------------------------------------------


def test_tribute_costs_every_player_one_brick_of_each_towers_colour():
    state = set_towers(game(), ANNA, ("red", 3), ("blue", 2))
    state = set_store(state, ANNA, white=1, red=1, blue=2)
    state = set_towers(state, BEN, ("yellow", 4))
    state = set_store(state, BEN, white=3, yellow=2)
    state = play(take_event(state, "Tribute"), resolve())

    assert store(state, ANNA) == {"white": 1, "blue": 1}
    assert towers(state, ANNA) == [("red", 3), ("blue", 2)]
    assert store(state, BEN) == {"white": 3, "yellow": 1}
    assert "Tribute: Anna pays 1 red, 1 blue." in log(state)
    assert "Tribute: Ben pays 1 yellow." in log(state)
    assert discard_pile(state)[-1] == "Tribute"


def test_tribute_tears_down_a_tower_that_cannot_be_paid_half_rounded_up_to_the_pouch():
    state = set_towers(game(), BEN, ("yellow", 5))
    state = set_store(state, BEN, white=4)
    state = play(take_event(state, "Tribute"), resolve())

    assert towers(state, BEN) == []
    assert store(state, BEN) == {"white": 4, "yellow": 2}  # 3 of 5 went to the pouch
    assert "Tribute: Ben cannot pay for the yellow tower of 5; it is torn down." in log(state)


def test_tribute_pays_for_the_tallest_tower_first():
    state = set_towers(game(), ANNA, ("white", 2), ("white", 6))
    state = set_store(state, ANNA, white=1)
    state = play(take_event(state, "Tribute"), resolve())

    # the white 6 gets the only white brick; the white 2 falls: 1 to the pouch, 1 back
    assert towers(state, ANNA) == [("white", 6)]
    assert store(state, ANNA) == {"white": 1}
    assert "Tribute: Anna cannot pay for the white tower of 2; it is torn down." in log(state)


def test_tribute_cannot_be_paid_with_the_bricks_on_the_chosen_card():
    state = set_towers(game(), ANNA, ("blue", 3))
    state = set_store(state, ANNA, white=2)
    state = play(take_event(state, "Tribute", blue=1), resolve())

    assert towers(state, ANNA) == []
    assert store(state, ANNA) == {"white": 2, "blue": 1 + 1}  # the card's and 1 of 3 back


# Patrician against an event -----------------------------------------------------------------


def test_patrician_cancels_the_chosen_event_for_every_player():
    state = game(players=3)
    state = set_hand(state, ANNA, "Patrician")
    state = set_store(state, ANNA, white=3)
    state = set_store(state, BEN, white=6)
    state = set_store(state, CARLA, red=3)
    state = take_event(state, "Flood", blue=2)

    assert play_card("Patrician") in legal_actions(state)
    state = play(state, play_card("Patrician"))

    assert store(state, ANNA) == {"white": 3, "blue": 2}
    assert store(state, BEN) == {"white": 6}
    assert store(state, CARLA) == {"red": 3}
    assert player_hand(state, ANNA) == []
    assert discard_pile(state)[-2:] == ["Patrician", "Flood"]
    assert "Anna plays Patrician and cancels Flood." in log(state)
    assert data(state)["phase"] == "exchange"


def test_patrician_cancels_a_tribute_so_no_tower_is_torn_down():
    state = set_hand(game(), ANNA, "Patrician")
    state = set_towers(state, ANNA, ("red", 4))
    state = set_towers(state, BEN, ("blue", 5))
    state = set_store(state, BEN)
    state = play(take_event(state, "Tribute"), play_card("Patrician"))

    assert towers(state, ANNA) == [("red", 4)]
    assert towers(state, BEN) == [("blue", 5)]
    assert "Tribute" in discard_pile(state)
