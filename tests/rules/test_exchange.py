"""Phase 2, exchanging bricks with a row card (rules.md §4 "Exchange", Bridge)."""

from __future__ import annotations

from games.rules.firenze.rules import legal_actions

from .scenario import (
    END_PHASE,
    END_TURN,
    bricks,
    exchange,
    game,
    is_legal,
    log,
    pay,
    play,
    rejects,
    set_buildings,
    set_row,
    set_store,
    store,
    table,
    take,
    to_phase,
)

ANNA, BEN = 0, 1


def on_card(state, slot: int) -> dict[str, int]:
    return {c: n for c, n in table(state)["row"][slot]["bricks"].items() if n}


def exchange_phase(**anna_store: int):
    """Anna has taken her card; the first two row cards hold 1 blue, 2 red and 1 purple."""
    state = to_phase(game(), "exchange")
    state = set_row(
        state, "Scandal", "Disgrace", bricks_on=[bricks(blue=1, red=2), bricks(purple=1)]
    )
    return set_store(state, ANNA, **anna_store)


def test_three_bricks_onto_a_card_buy_one_brick_of_your_choice_from_it():
    state = exchange_phase(white=3, yellow=1)

    state = play(state, exchange(0), pay("white"), pay("white"), pay("white"), take("blue"))

    assert store(state, ANNA) == {"yellow": 1, "blue": 1}
    assert on_card(state, 0) == {"white": 3, "red": 2}
    assert log(state) == ["Anna exchanges 3 white for 1 blue on the 1st card."]


def test_the_three_bricks_may_be_of_any_colours():
    state = exchange_phase(white=1, yellow=1, green=1, red=1)

    state = play(state, exchange(1), pay("green"), pay("red"), pay("white"), take("purple"))

    assert store(state, ANNA) == {"yellow": 1, "purple": 1}
    assert on_card(state, 1) == {"white": 1, "green": 1, "red": 1}


def test_the_brick_is_taken_only_after_all_three_are_paid():
    state = exchange_phase(white=3)

    state = play(state, exchange(0), pay("white"), pay("white"))

    assert not any(a["type"] == "take_brick" for a in legal_actions(state))
    assert "pay the bricks for your exchange" in rejects(state, take("blue"))
    assert "pay the bricks for your exchange" in rejects(state, END_PHASE)


def test_the_brick_must_come_from_the_same_card_the_bricks_went_onto():
    state = exchange_phase(white=3)
    state = play(state, exchange(0), pay("white"), pay("white"), pay("white"))

    assert "no purple brick on that card" in rejects(state, take("purple"))
    assert on_card(state, 1) == {"purple": 1}


def test_the_exchange_pays_only_with_storehouse_bricks():
    state = exchange_phase(white=3)
    state = play(state, exchange(0))

    assert "no red brick" in rejects(state, pay("red"))


def test_with_the_bridge_two_bricks_buy_one():
    state = set_buildings(exchange_phase(white=2), ANNA, "Bridge")

    state = play(state, exchange(0), pay("white"), pay("white"))
    assert is_legal(state, take("red"))
    state = play(state, take("red"))

    assert store(state, ANNA) == {"red": 1}
    assert on_card(state, 0) == {"white": 2, "red": 1, "blue": 1}
    assert log(state) == ["Anna exchanges 2 white for 1 red on the 1st card."]


def test_with_the_bridge_the_third_brick_is_not_asked_for():
    state = set_buildings(exchange_phase(white=3), ANNA, "Bridge")

    state = play(state, exchange(0), pay("white"), pay("white"), take("blue"))

    assert store(state, ANNA) == {"white": 1, "blue": 1}


def test_without_three_bricks_there_is_no_exchange():
    state = exchange_phase(white=2)

    assert not any(a["type"] == "exchange" for a in legal_actions(state))
    assert "enough bricks" in rejects(state, exchange(0))


def test_with_the_bridge_one_brick_is_not_enough():
    state = set_buildings(exchange_phase(white=1), ANNA, "Bridge")

    assert "enough bricks" in rejects(state, exchange(0))


def test_the_exchange_is_optional():
    state = exchange_phase(white=3)

    state = play(state, END_PHASE)

    assert table(state)["phase"] == "build"
    assert store(state, ANNA) == {"white": 3}
    assert on_card(state, 0) == {"blue": 1, "red": 2}


def test_only_one_exchange_per_turn():
    state = exchange_phase(white=6)
    state = play(state, exchange(0), pay("white"), pay("white"), pay("white"), take("red"))

    assert "once per turn" in rejects(state, exchange(1))
    assert legal_actions(state) == [END_PHASE]


def test_only_one_exchange_per_turn_even_with_the_bridge():
    state = set_buildings(exchange_phase(white=6), ANNA, "Bridge")
    state = play(state, exchange(0), pay("white"), pay("white"), take("red"))

    assert "once per turn" in rejects(state, exchange(0))


def test_there_is_no_exchange_in_the_build_phase():
    state = play(exchange_phase(white=5), END_PHASE)

    assert "exchange phase" in rejects(state, exchange(0))


def test_there_is_no_exchange_before_the_card_is_chosen():
    state = set_store(game(), ANNA, white=5)

    assert "exchange phase" in rejects(state, exchange(0))


def test_the_next_player_may_exchange_again():
    state = exchange_phase(white=3)
    state = play(state, exchange(0), pay("white"), pay("white"), pay("white"), take("red"))
    state = play(state, END_PHASE, END_PHASE, END_TURN)
    state = set_store(to_phase(state, "exchange", card="Recognition"), BEN, yellow=3)

    state = play(state, exchange(0), pay("yellow"), pay("yellow"), pay("yellow"), take("purple"))

    assert store(state, BEN) == {"purple": 1}


# The ruling of rules.md §4: a card that already holds bricks, a colour that was on it before. ---


def test_a_card_without_bricks_is_not_offered_for_an_exchange():
    state = to_phase(game(), "exchange")
    state = set_row(state, "Scandal", "Disgrace", bricks_on=[bricks(), bricks(purple=1)])
    state = set_store(state, ANNA, white=3)

    offered = [a for a in legal_actions(state) if a["type"] == "exchange"]
    assert exchange(1) in offered and exchange(0) not in offered
    assert rejects(state, exchange(0)) == (
        "You can only exchange with a card that already holds bricks."
    )


def test_with_no_bricks_on_the_row_there_is_no_exchange_at_all():
    state = to_phase(game(), "exchange")
    names = [card["card"] for card in table(state)["row"]]
    state = set_row(state, *names, bricks_on=[bricks() for _ in names])
    state = set_store(state, ANNA, white=3)

    assert legal_actions(state) == [END_PHASE]
    assert "already holds bricks" in rejects(state, exchange(0))


def test_a_paid_colour_that_was_not_on_the_card_cannot_be_taken_back():
    state = exchange_phase(white=3)
    state = play(state, exchange(1), pay("white"), pay("white"), pay("white"))

    assert [a for a in legal_actions(state) if a["type"] == "take_brick"] == [take("purple")]
    assert rejects(state, take("white")) == (
        "You can only take a colour that lay on the card before you paid: purple."
    )
    assert on_card(state, 1) == {"white": 3, "purple": 1}


def test_a_colour_that_was_on_the_card_may_be_taken_even_if_it_was_also_paid():
    state = exchange_phase(red=3)
    state = play(state, exchange(0), pay("red"), pay("red"), pay("red"))

    assert {a["color"] for a in legal_actions(state) if a["type"] == "take_brick"} == {
        "blue",
        "red",
    }
    state = play(state, take("red"))

    assert store(state, ANNA) == {"red": 1}
    assert on_card(state, 0) == {"blue": 1, "red": 4}
