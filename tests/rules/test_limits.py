"""Check limits (rules.md §4, "Limits"): storehouse 10 (15 with Warehouse), cards 5.

Both limits apply only when the turn ends; before that they may be exceeded at will.
"""

from __future__ import annotations

import pytest

from games.rules.firenze.rules import acting_seat, legal_actions, player_view

from .scenario import (
    END_PHASE,
    END_TURN,
    bricks,
    build,
    choose,
    discard,
    game,
    hand,
    log,
    pay,
    play,
    play_card,
    rejects,
    set_buildings,
    set_hand,
    set_row,
    set_store,
    store,
    take,
    to_phase,
)


def refused_over_limit(state) -> bool:
    """Ending the turn is refused, and the player is told it is about a limit."""
    return "limit" in rejects(state, END_TURN)


def at_fulfil(hand=(), buildings=(), **store_bricks: int):
    """Anna in her fulfil phase holding exactly these cards and storehouse bricks."""
    state = to_phase(game(2), "fulfil")
    state = set_hand(state, 0, *hand)
    state = set_buildings(state, 0, *buildings)
    return set_store(state, 0, **store_bricks)


def at_limits(hand=(), buildings=(), **store_bricks: int):
    """Anna over a limit, past the fulfil phase: only the limits are left to deal with."""
    return play(at_fulfil(hand, buildings, **store_bricks), END_PHASE)


def buildings(state, seat: int = 0) -> list[str]:
    return player_view(state, None)["players"][seat]["buildings"]


def discard_offers(state) -> list[str]:
    return sorted(a["card"] for a in legal_actions(state) if a["type"] == "discard_card")


def brick_offers(state) -> list[str]:
    return [a["color"] for a in legal_actions(state) if a["type"] == "pay_brick"]


def may_end_turn(state) -> bool:
    return END_TURN in legal_actions(state)


# Storehouse limit


def test_ten_bricks_in_the_storehouse_are_within_the_limit():
    state = at_fulfil(white=5, yellow=5)

    assert may_end_turn(state)
    assert acting_seat(play(state, END_TURN)) == 1


def test_over_ten_bricks_at_the_end_of_the_turn_the_player_chooses_which_go_to_the_pouch():
    state = at_fulfil(white=4, yellow=4, purple=4)
    pouch_before = player_view(state, None)["pouch"]
    assert not may_end_turn(state)

    state = play(state, END_PHASE)
    assert brick_offers(state) == ["white", "yellow", "purple"]
    state = play(state, pay("purple"), pay("yellow"))

    assert store(state, 0) == {"white": 4, "yellow": 3, "purple": 3}
    pouch_after = player_view(state, None)["pouch"]
    assert pouch_after["purple"] == pouch_before["purple"] + 1
    assert pouch_after["yellow"] == pouch_before["yellow"] + 1
    assert log(state) == ["Anna returns 1 yellow, 1 purple to the pouch (storehouse limit)."]
    assert brick_offers(state) == []
    rejects(state, pay("white"))  # not a brick more than needed
    assert acting_seat(play(state, END_TURN)) == 1


def test_ending_the_turn_over_the_storehouse_limit_is_refused_with_a_message():
    state = at_fulfil(white=11)

    assert refused_over_limit(state)
    state = play(state, END_PHASE)
    assert refused_over_limit(state)


def test_a_warehouse_raises_the_storehouse_limit_to_15():
    assert may_end_turn(at_fulfil(buildings=("Warehouse",), white=10, yellow=5))

    state = at_limits(buildings=("Warehouse",), white=10, yellow=6)
    assert not may_end_turn(state)
    state = play(state, pay("white"))

    assert store(state, 0) == {"white": 9, "yellow": 6}
    assert may_end_turn(state)


def test_the_storehouse_may_exceed_the_limit_earlier_in_the_turn():
    state = set_store(game(2), 0, white=5, yellow=4)
    state = set_row(state, "Alchemist", bricks_on=[bricks(white=2, blue=2)])
    state = play(state, choose(0))
    assert sum(player_view(state, None)["players"][0]["store"].values()) == 13
    assert brick_offers(state) == []  # no demand to give anything up now

    state = play(state, END_PHASE)  # exchange phase over
    state = play(state, {"type": "build", "color": "white"}, build(0), build(0), END_PHASE)
    state = play(state, pay("yellow"))  # 3 bricks built: cost 1

    assert store(state, 0) == {"white": 4, "yellow": 3, "blue": 2}  # 9 bricks
    assert may_end_turn(state)


# Card limit


def test_five_cards_are_within_the_card_limit():
    state = at_fulfil(hand=("Alchemist", "Mason", "Fame", "Scandal"), buildings=("Workshop",))

    assert may_end_turn(state)


def test_the_card_limit_counts_personnel_celebrations_and_buildings():
    state = at_fulfil(hand=("Alchemist", "Fame", "Scandal"), buildings=("Workshop", "Bridge"))
    assert may_end_turn(state)
    state = at_fulfil(
        hand=("Alchemist", "Fame", "Scandal", "Disgrace"), buildings=("Workshop", "Bridge")
    )
    assert not may_end_turn(state)

    state = play(state, END_PHASE)
    assert discard_offers(state) == ["Alchemist", "Bridge", "Workshop"]
    state = play(state, discard("Bridge"))

    assert log(state) == ["Anna discards Bridge (card limit)."]
    assert buildings(state) == ["Workshop"]
    assert sorted(hand(state)) == ["Alchemist", "Disgrace", "Fame", "Scandal"]
    assert may_end_turn(state)


def test_the_player_chooses_which_card_to_discard():
    state = at_limits(hand=("Alchemist", "Mason", "Smuggler", "Patrician", "Architect", "Princess"))

    assert discard_offers(state) == [
        "Alchemist",
        "Architect",
        "Mason",
        "Patrician",
        "Princess",
        "Smuggler",
    ]
    state = play(state, discard("Mason"))
    assert sorted(hand(state)) == ["Alchemist", "Architect", "Patrician", "Princess", "Smuggler"]
    assert may_end_turn(state)


CELEBRATIONS = ("Fame", "Monument", "Disgrace", "Scandal", "Recognition")


@pytest.mark.parametrize("celebration", CELEBRATIONS)
def test_celebrations_are_never_discarded_for_the_card_limit(celebration):
    state = at_limits(hand=(*CELEBRATIONS, "Alchemist"))

    assert discard_offers(state) == ["Alchemist"]
    rejects(state, discard(celebration))


def test_six_celebrations_are_all_kept_but_every_personnel_and_building_must_go():
    celebrations = ("Fame", "Fame", "Monument", "Disgrace", "Scandal", "Recognition")
    state = at_limits(hand=(*celebrations, "Alchemist"), buildings=("Workshop",))

    state = play(state, discard("Alchemist"))
    assert refused_over_limit(state)
    assert discard_offers(state) == ["Workshop"]
    state = play(state, discard("Workshop"))

    assert discard_offers(state) == []
    assert sorted(hand(state)) == sorted(celebrations)
    assert buildings(state) == []
    assert acting_seat(play(state, END_TURN)) == 1


def test_ending_the_turn_over_the_card_limit_is_refused_with_a_message():
    state = at_fulfil(hand=("Alchemist", "Mason", "Smuggler", "Patrician", "Architect", "Fame"))

    assert refused_over_limit(state)
    state = play(state, END_PHASE)
    assert refused_over_limit(state)


def test_a_warehouse_lifts_the_card_limit():
    state = at_fulfil(
        hand=("Alchemist", "Mason", "Smuggler", "Patrician", "Fame", "Scandal"),
        buildings=("Warehouse", "Workshop", "Bridge"),
    )

    assert may_end_turn(state)
    assert acting_seat(play(state, END_TURN)) == 1


def test_a_patrician_may_discard_a_celebration_and_then_the_limit_is_rechecked():
    state = at_limits(
        hand=("Fame", "Monument", "Disgrace", "Scandal", "Recognition", "Patrician", "Alchemist")
    )

    state = play(state, play_card("Patrician"))
    state = play(state, discard("Scandal"))

    assert log(state) == ["Patrician: Anna discards Scandal."]
    assert sorted(hand(state)) == ["Alchemist", "Disgrace", "Fame", "Monument", "Recognition"]
    assert discard_offers(state) == []  # 5 cards: the Alchemist may stay
    assert acting_seat(play(state, END_TURN)) == 1


def test_a_patrician_may_discard_a_celebration_earlier_in_the_turn():
    state = at_fulfil(hand=("Disgrace", "Patrician"))

    state = play(state, play_card("Patrician"), discard("Disgrace"))

    assert hand(state) == []
    assert "Disgrace" in player_view(state, None)["discard"]


def test_the_card_limit_may_be_exceeded_earlier_in_the_turn():
    state = set_hand(game(2), 0, "Mason", "Smuggler", "Fame", "Scandal", "Disgrace")
    state = set_row(state, "Alchemist", bricks_on=[bricks(yellow=1)])

    state = play(state, choose(0))  # a sixth card
    assert discard_offers(state) == []
    state = play(state, play_card("Alchemist"), pay("white"), take("blue"))  # back to five
    state = play(state, END_PHASE, END_PHASE)

    assert may_end_turn(state)
    assert sorted(hand(state)) == ["Disgrace", "Fame", "Mason", "Scandal", "Smuggler"]
