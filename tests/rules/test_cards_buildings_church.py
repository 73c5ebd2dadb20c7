"""Building and church cards (rules.md §4, §5 and the card texts).

Towers that must survive the tear-down on the way to the fulfil phase are given as built this
turn (old=False). Commission squares a scenario uses are cleared first, so the neutral seals
of the seed never get in the way.
"""

from __future__ import annotations

from typing import Any

from games.rules.firenze.rules import State, legal_actions
from games.rules.firenze.rules.data import COLOR_INDEX
from tests.rules.scenario import (
    END_PHASE,
    END_TURN,
    bricks,
    build,
    choose,
    data,
    edit,
    exchange,
    fulfil,
    game,
    log,
    pay,
    play,
    play_card,
    pouch,
    pp,
    rejects,
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

ANNA, BEN = 0, 1


def seals_left(state: State, seat: int) -> int:
    return data(state)["players"][seat]["seals"]


def buildings(state: State, seat: int) -> list[str]:
    return data(state)["players"][seat]["buildings"]


def church(state: State) -> list[dict[str, Any]]:
    return data(state)["church"]


def discard_pile(state: State) -> list[str]:
    return data(state)["discard"]


def on_church(state: State, card: str, sealed: tuple[int, ...] = ()) -> State:
    """A church card already lying on a church space (taken on an earlier turn)."""

    def change(d: dict[str, Any]) -> None:
        d["deck"].remove(card)  # church cards are never start cards: still in the deck
        d["church"].append({"card": card, "sealed": list(sealed)})

    return edit(state, change)


def balcony_one(state: State, color: str, level: int, balcony_pp: int) -> State:
    """Make balcony I (the next one open) cover this commission."""

    def change(d: dict[str, Any]) -> None:
        c = COLOR_INDEX[color]
        assert all((b["c"], b["l"]) != (c, level) for b in d["balconies"][1:])
        d["balconies"][0] = {"c": c, "l": level, "pp": balcony_pp}
        d["balcony_next"] = 0

    return set_board(edit(state, change), color, level, None)


def seal_campanile(tower: int) -> dict[str, Any]:
    return {"type": "seal_campanile", "tower": tower}


# Bridge -------------------------------------------------------------------------------------


def test_bridge_exchanges_two_bricks_for_one():
    state = set_buildings(game(), ANNA, "Bridge")
    state = set_store(state, ANNA, white=3)
    state = to_phase(state, "exchange")
    state = set_row(state, "Mason", bricks_on=[bricks(purple=1)])

    state = play(state, exchange(0), pay("white"), pay("white"))
    assert legal_actions(state) == [take("purple")]  # only a colour that was on the card
    state = play(state, take("purple"))

    assert store(state, ANNA) == {"white": 1, "purple": 1}
    assert data(state)["row"][0]["bricks"] == bricks(white=2)
    assert "Anna exchanges 2 white for 1 purple on the 1st card." in log(state)


def test_without_a_bridge_an_exchange_costs_three_bricks():
    state = set_store(game(), ANNA, white=3)
    state = to_phase(state, "exchange")
    state = set_row(state, "Mason", bricks_on=[bricks(purple=1)])

    state = play(state, exchange(0), pay("white"), pay("white"))
    rejects(state, take("purple"))
    state = play(state, pay("white"), take("purple"))

    assert store(state, ANNA) == {"purple": 1}


def test_bridge_still_allows_only_one_exchange_per_turn():
    state = set_buildings(game(), ANNA, "Bridge")
    state = set_store(state, ANNA, white=6)
    state = to_phase(state, "exchange")
    state = play(state, exchange(0), pay("white"), pay("white"), take("white"))

    assert rejects(state, exchange(1)) == (
        "Exchanging is only possible once per turn; you have exchanged already."
    )


# Warehouse ----------------------------------------------------------------------------------


def test_warehouse_keeps_up_to_fifteen_bricks():
    state = set_buildings(game(), ANNA, "Warehouse")
    state = set_store(state, ANNA, white=15)
    state = to_phase(state, "fulfil")

    assert END_TURN in legal_actions(state)
    state = play(state, END_TURN)
    assert store(state, ANNA) == {"white": 15}


def test_warehouse_owner_returns_bricks_above_fifteen():
    state = set_buildings(game(), ANNA, "Warehouse")
    state = set_store(state, ANNA, white=16)
    state = to_phase(state, "fulfil")

    rejects(state, END_TURN)
    state = play(state, END_PHASE)
    rejects(state, END_TURN)
    state = play(state, pay("white"), END_TURN)

    assert store(state, ANNA) == {"white": 15}


def test_without_a_warehouse_the_storehouse_limit_is_ten():
    state = set_store(game(), ANNA, white=11)
    state = to_phase(state, "fulfil")

    state = play(state, END_PHASE, pay("white"), END_TURN)

    assert store(state, ANNA) == {"white": 10}


def test_warehouse_lifts_the_card_limit():
    state = set_buildings(game(), ANNA, "Warehouse", "Workshop")
    state = set_hand(state, ANNA, "Alchemist", "Alchemist", "Mason", "Smuggler")
    state = to_phase(state, "fulfil", card="Architect")  # 7 cards

    state = play(state, END_TURN)

    assert len(data(state)["players"][ANNA]["hand"]) == 5


# Workshop -----------------------------------------------------------------------------------


def test_workshop_makes_construction_one_brick_cheaper():
    state = set_buildings(game(), ANNA, "Workshop")
    state = set_store(state, ANNA, white=3)
    state = to_phase(state, "build")

    state = play(state, start_tower("white"), build(0), build(0), END_PHASE)

    assert data(state)["pending"] is None  # 3 bricks cost 1 - 1 = 0
    assert data(state)["phase"] == "fulfil"
    assert towers(state, ANNA) == [("white", 3)]


def test_workshop_four_bricks_cost_two():
    state = set_buildings(game(), ANNA, "Workshop")
    state = set_store(state, ANNA, white=6)
    state = to_phase(state, "build")

    state = play(state, start_tower("white"), *[build(0)] * 3, END_PHASE, pay("white"))
    assert data(state)["phase"] == "build"
    state = play(state, pay("white"))

    assert data(state)["phase"] == "fulfil"
    assert store(state, ANNA) == {}


def test_without_a_workshop_three_bricks_cost_one():
    state = set_store(game(), ANNA, white=4)
    state = to_phase(state, "build")

    state = play(state, start_tower("white"), build(0), build(0), END_PHASE)

    assert data(state)["pending"]["kind"] == "build_cost"


def test_a_second_copy_of_an_owned_building_is_discarded_at_once():
    state = set_buildings(game(), ANNA, "Workshop")
    state = set_row(state, "Workshop", bricks_on=[bricks(red=2)])

    state = play(state, choose(0))

    assert buildings(state, ANNA) == ["Workshop"]
    assert discard_pile(state)[-1] == "Workshop"
    assert store(state, ANNA).get("red") == 2  # the bricks on it are kept
    assert "Anna already owns a Workshop; the copy is discarded." in log(state)


def test_a_building_of_another_name_is_kept():
    state = set_buildings(game(), ANNA, "Workshop")
    state = set_row(state, "Warehouse")

    state = play(state, choose(0))

    assert buildings(state, ANNA) == ["Workshop", "Warehouse"]
    assert "Warehouse" not in discard_pile(state)


# Church privileges ------------------------------------------------------------------------


def test_minor_privilege_gives_two_pp_for_the_first_commission_of_exactly_five():
    state = set_board(game(), "red", 5, None)
    state = set_towers(state, ANNA, ("red", 5), old=False)
    state = set_row(state, "Minor Privilege")
    state = play(state, choose(0))
    assert [entry["card"] for entry in church(state)] == ["Minor Privilege"]
    state = to_phase(state, "fulfil")

    state = play(state, fulfil(0, 5))

    assert pp(state, ANNA) == 5 + 1 + 2  # red 5, the level-5 tile, the Minor Privilege
    assert log(state) == [
        "Anna fulfils red 5 for 5 PP and the level-5 tile for 1 PP and the Minor Privilege "
        "for 2 PP."
    ]
    assert church(state) == []
    assert discard_pile(state)[-1] == "Minor Privilege"


def test_a_privilege_goes_to_whoever_fulfils_first_not_to_who_took_it():
    state = set_board(game(), "yellow", 6, None)
    state = set_towers(state, BEN, ("yellow", 5), old=False)
    state = set_store(state, BEN, yellow=1)
    state = set_row(state, "Privilege")
    state = play(state, choose(0))  # Anna takes it
    state = to_phase(state, "fulfil")
    state = play(state, END_TURN)

    state = to_phase(state, "build")  # Ben
    state = play(state, build(0), END_PHASE, fulfil(0, 6))

    assert pp(state, ANNA) == 0
    assert pp(state, BEN) == 5 + 2 + 3  # yellow 6, the level-6 tile, the Privilege
    assert discard_pile(state)[-1] == "Privilege"


def test_a_privilege_needs_a_commission_of_exactly_its_level():
    state = set_board(game(), "yellow", 6, None)
    state = on_church(state, "Minor Privilege")
    state = set_towers(state, ANNA, ("yellow", 6), old=False)
    state = to_phase(state, "fulfil")

    state = play(state, fulfil(0, 6))

    assert pp(state, ANNA) == 5 + 2  # yellow 6 and the level-6 tile only
    assert [entry["card"] for entry in church(state)] == ["Minor Privilege"]


def test_major_privilege_counts_a_balcony_of_seven():
    state = balcony_one(game(), "white", 7, 7)
    state = on_church(state, "Major Privilege")
    state = set_towers(state, ANNA, ("white", 7), old=False)
    state = to_phase(state, "fulfil")

    state = play(state, fulfil(0, 7))

    assert pp(state, ANNA) == 7 + 3 + 4  # balcony I, the level-7 tile, the Major Privilege
    assert church(state) == []
    assert discard_pile(state)[-1] == "Major Privilege"


def test_an_architect_adjusted_height_counts_as_the_commissions_level():
    state = set_board(game(), "yellow", 6, None)
    state = set_board(state, "yellow", 4, None)
    state = on_church(state, "Minor Privilege")
    state = on_church(state, "Privilege")
    state = set_hand(state, ANNA, "Architect")
    state = set_towers(state, ANNA, ("yellow", 5), old=False)
    state = to_phase(state, "fulfil")

    state = play(state, play_card("Architect"), fulfil(0, 6))

    assert pp(state, ANNA) == 5 + 2 + 3  # yellow 6, the level-6 tile, the Privilege
    assert [entry["card"] for entry in church(state)] == ["Minor Privilege"]


# Campanile ----------------------------------------------------------------------------------


def test_the_campanile_is_only_in_the_game_with_its_option():
    def cards(state: State) -> list[str]:
        d = data(state)
        return d["deck"] + [slot["card"] for slot in d["row"]]

    assert "Campanile" not in cards(game())
    assert "Campanile" in cards(game(campanile=True))


def test_with_the_campanile_on_a_church_space_nobody_unsealed_may_fulfil():
    state = set_board(game(campanile=True), "yellow", 3, None)
    state = set_towers(state, ANNA, ("yellow", 3), old=False)
    state = set_row(state, "Campanile")
    state = play(state, choose(0))
    assert "The Campanile stands: everyone must seal it with a bell tower first." in log(state)
    state = to_phase(state, "fulfil")

    assert legal_actions(state) == [END_TURN]
    assert rejects(state, fulfil(0, 3)) == (
        "The Campanile stands: seal it with a white bell tower of 3 levels first."
    )


def test_the_campanile_blocks_other_players_too_until_they_seal_it():
    state = set_board(game(campanile=True), "yellow", 3, None)
    state = on_church(state, "Campanile", sealed=(ANNA,))
    state = set_towers(state, BEN, ("yellow", 2))
    state = set_store(state, BEN, yellow=1)
    state = to_phase(state, "fulfil")
    state = play(state, END_TURN)

    state = to_phase(state, "build")  # Ben
    state = play(state, build(0), END_PHASE)

    assert towers(state, BEN) == [("yellow", 3)]
    assert rejects(state, fulfil(0, 3)) == (
        "The Campanile stands: seal it with a white bell tower of 3 levels first."
    )


def test_a_white_tower_of_three_seals_the_campanile_and_other_commissions_may_follow():
    state = set_board(game(campanile=True), "yellow", 3, None)
    state = on_church(state, "Campanile")
    state = set_towers(state, ANNA, ("white", 2), ("yellow", 2))  # from earlier turns
    state = set_store(state, ANNA, white=1, yellow=1)
    state = to_phase(state, "build")
    state = play(state, build(0), build(1), END_PHASE)
    before = pouch(state)
    seals = seals_left(state, ANNA)

    assert legal_actions(state) == [seal_campanile(0), END_TURN]
    state = play(state, seal_campanile(0))

    assert towers(state, ANNA) == [("yellow", 3)]
    assert pouch(state) == {**before, "white": before["white"] + 3}
    assert church(state) == [{"card": "Campanile", "sealed": [ANNA]}]
    assert seals_left(state, ANNA) == seals  # the small seal, not a commission seal
    assert "Anna completes the bell tower and seals the Campanile." in log(state)

    state = play(state, fulfil(0, 3))
    assert pp(state, ANNA) == 1  # printed yellow 3


def test_the_bell_tower_must_be_built_on_each_turn_like_any_tower():
    state = on_church(game(campanile=True), "Campanile")
    state = set_towers(state, ANNA, ("white", 3))  # standing since an earlier turn
    state = to_phase(state, "fulfil")

    assert towers(state, ANNA) == []  # torn down as abandoned before the fulfil phase
    assert store(state, ANNA).get("white") == 2 + 1  # her 2 start bricks and 1 of the 3
    assert rejects(state, seal_campanile(0)) == (
        "There is no bell tower to seal the Campanile with now."
    )


def test_only_a_white_tower_of_exactly_three_is_a_bell_tower():
    state = on_church(game(campanile=True), "Campanile")
    state = set_towers(state, ANNA, ("white", 4), ("yellow", 3), old=False)
    state = to_phase(state, "fulfil")

    assert legal_actions(state) == [END_TURN]


def test_a_player_who_sealed_the_campanile_fulfils_freely_on_later_turns():
    state = set_board(game(campanile=True), "yellow", 3, None)
    state = on_church(state, "Campanile", sealed=(BEN,))
    state = set_towers(state, BEN, ("yellow", 2))
    state = set_store(state, BEN, yellow=1)
    state = to_phase(state, "fulfil")
    state = play(state, END_TURN)

    state = to_phase(state, "build")  # Ben
    state = play(state, build(0), END_PHASE, fulfil(0, 3))

    assert pp(state, BEN) == 1
    assert church(state) == [{"card": "Campanile", "sealed": [BEN]}]


def test_the_campanile_is_discarded_when_every_player_has_sealed_it():
    state = on_church(game(campanile=True), "Campanile", sealed=(BEN,))
    state = set_towers(state, ANNA, ("white", 3), old=False)
    state = to_phase(state, "fulfil")

    state = play(state, seal_campanile(0))

    assert church(state) == []
    assert discard_pile(state)[-1] == "Campanile"
    assert "Every player has sealed the Campanile; it is discarded." in log(state)
