"""Setting up a game (rules.md §3, rulebook "Set Up" and "Tipps zum Spielaufbau")."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.rules.firenze.rules import acting_seat, new_game, player_view, to_dict

COLORS = ["white", "yellow", "green", "red", "blue", "purple"]
SUPPLY = {"white": 25, "yellow": 18, "green": 15, "red": 12, "blue": 10, "purple": 8}
START_CARDS = [
    "Alchemist",
    "Alchemist",
    "Mason",
    "Mason",
    "Architect",
    "Princess",
    "Wholesaler",
    "Smuggler",
    "Workshop",
    "Warehouse",
]
BALCONY_GROUPS = {
    "I": {("white", 7, 7), ("yellow", 6, 7), ("green", 5, 6), ("red", 5, 7), ("blue", 4, 6)},
    "II": {("white", 8, 9), ("yellow", 7, 9), ("green", 6, 8), ("red", 6, 9), ("purple", 5, 9)},
    "III": {
        ("yellow", 8, 11),
        ("green", 7, 11),
        ("red", 7, 11),
        ("blue", 6, 11),
        ("purple", 6, 11),
    },
    "IV": {("green", 8, 13), ("red", 8, 14), ("blue", 7, 13), ("purple", 7, 14)},
}
SEEDS = range(300)


def public(state) -> dict[str, Any]:
    """What everybody at the table sees."""
    return player_view(state, None)


def neutral_seals(state) -> list[tuple[str, int]]:
    return [
        (c["color"], c["level"])
        for c in public(state)["board"]["commissions"]
        if c["seal"] == "neutral"
    ]


def balconies(state) -> dict[str, tuple[str, int, int]]:
    return {
        c["balcony"]: (c["color"], c["level"], c["pp"])
        for c in public(state)["board"]["commissions"]
        if c["balcony"] is not None
    }


def tiles_per_tower(state) -> Counter[str]:
    """Balconies plus neutral seals on each coloured tower of the board."""
    return Counter(
        c["color"]
        for c in public(state)["board"]["commissions"]
        if c["balcony"] is not None or c["seal"] == "neutral"
    )


def all_cards(state) -> list[str]:
    d = to_dict(state)
    cards = [slot["card"] for slot in d["row"]] + d["deck"] + d["discard"]
    for p in d["players"]:
        cards += p["hand"] + p["buildings"]
    return cards


# Players and seals


@pytest.mark.parametrize(("players", "seals"), [(2, 9), (3, 7), (4, 6)])
def test_two_to_four_players_get_9_7_or_6_seals_each(players, seals):
    view = public(new_game(players, 7))

    assert view["num_players"] == players
    assert [p["seals_left"] for p in view["players"]] == [seals] * players
    assert [p["pp"] for p in view["players"]] == [0] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_player_gets_2_white_then_3_4_5_in_seat_order(players):
    for seed in range(20):
        view = public(new_game(players, seed))
        start = view["start_seat"]
        for offset in range(players):
            seat = (start + offset) % players
            store = view["players"][seat]["store"]
            assert store["white"] == 2 + offset, (seed, seat)
            assert sum(store.values()) == 2 + offset, "start bricks are white only"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_start_player_acts_first(players):
    for seed in range(10):
        state = new_game(players, seed)
        view = public(state)
        assert acting_seat(state) == view["start_seat"]
        assert view["phase"] == "choose"


def test_start_player_is_drawn_from_the_seed_so_every_seat_can_start():
    starts = {public(new_game(4, seed))["start_seat"] for seed in range(60)}

    assert starts == {0, 1, 2, 3}


# Bricks and the card row


@pytest.mark.parametrize("players", [2, 3, 4])
def test_all_88_bricks_are_in_storehouses_on_row_cards_or_in_the_pouch(players):
    for seed in range(20):
        view = public(new_game(players, seed))
        counted = Counter(view["pouch"])
        for p in view["players"]:
            counted.update(p["store"])
        for slot in view["row"]:
            counted.update(slot["bricks"])
        assert dict(counted) == SUPPLY, seed


@pytest.mark.parametrize("players", [2, 3, 4])
def test_six_row_cards_with_four_bricks_each(players):
    for seed in range(20):
        row = public(new_game(players, seed))["row"]
        assert len(row) == 6
        assert [sum(slot["bricks"].values()) for slot in row] == [4] * 6


def test_row_bricks_are_drawn_at_random_from_the_pouch():
    seen = Counter()
    for seed in range(30):
        for slot in public(new_game(2, seed))["row"]:
            seen.update({c: n for c, n in slot["bricks"].items() if n})

    assert set(seen) == set(COLORS)


@pytest.mark.parametrize("campanile", [False, True])
def test_the_ten_start_cards_are_the_six_row_cards_and_the_top_four_of_the_deck(campanile):
    for seed in range(30):
        d = to_dict(new_game(3, seed, {"campanile": campanile}))
        first_ten = [slot["card"] for slot in d["row"]] + d["deck"][:4]
        assert sorted(first_ten) == sorted(START_CARDS), seed


def test_start_cards_are_shuffled():
    orders = set()
    for seed in range(20):
        d = to_dict(new_game(2, seed))
        orders.add(tuple(slot["card"] for slot in d["row"]))

    assert len(orders) > 1


def test_without_the_option_there_is_no_campanile():
    for seed in range(20):
        cards = all_cards(new_game(2, seed))
        assert len(cards) == 51
        assert "Campanile" not in cards


def test_the_campanile_option_adds_the_campanile_to_the_deck():
    for seed in range(20):
        state = new_game(2, seed, {"campanile": True})
        cards = all_cards(state)
        assert len(cards) == 52
        assert cards.count("Campanile") == 1
        assert public(state)["options"]["campanile"] is True


def test_there_is_no_discard_pile_and_no_church_card_at_the_start():
    view = public(new_game(4, 3))

    assert view["discard"] == []
    assert view["church"] == []
    assert all(p["hand_count"] == 0 and p["buildings"] == [] for p in view["players"])


# Balconies


def test_one_balcony_from_each_group_i_to_iv():
    for seed in SEEDS:
        drawn = balconies(new_game(2, seed))
        assert sorted(drawn) == ["I", "II", "III", "IV"], seed
        for group, tile in drawn.items():
            assert tile in BALCONY_GROUPS[group], (seed, group, tile)


def test_every_balcony_tile_of_a_group_can_be_drawn():
    drawn: dict[str, set[tuple[str, int, int]]] = {g: set() for g in BALCONY_GROUPS}
    for seed in SEEDS:
        for group, tile in balconies(new_game(2, seed)).items():
            drawn[group].add(tile)

    assert drawn == BALCONY_GROUPS


def test_balcony_ii_to_iv_wait_for_balcony_i():
    view = public(new_game(2, 5))

    assert view["board"]["balcony_next"] == "I"
    open_balconies = [
        c["balcony"] for c in view["board"]["commissions"] if c["balcony"] and c["open"]
    ]
    assert open_balconies == ["I"]


# Neutral seals


def test_five_neutral_seals_by_default():
    for seed in range(50):
        state = new_game(2, seed)
        assert len(neutral_seals(state)) == 5
        assert public(state)["options"] == {
            "campanile": False,
            "neutral_seals": 5,
            "seal_placement": "recommended",
        }


@pytest.mark.parametrize("count", range(8))
@pytest.mark.parametrize("placement", ["recommended", "random"])
def test_the_neutral_seals_option_places_exactly_0_to_7_seals(count, placement):
    for seed in range(40):
        state = new_game(3, seed, {"neutral_seals": count, "seal_placement": placement})
        assert len(neutral_seals(state)) == count, seed


@pytest.mark.parametrize("count", range(8))
def test_recommended_placement_never_covers_a_balcony(count):
    for seed in SEEDS:
        state = new_game(2, seed, {"neutral_seals": count})
        covered = {(color, level) for color, level, _ in balconies(state).values()}
        assert not covered & set(neutral_seals(state)), seed


@pytest.mark.parametrize("count", range(8))
def test_recommended_placement_puts_at_most_two_tiles_on_any_tower(count):
    """Balconies are drawn freely (three can share a tower); seals never add a third tile."""
    for seed in SEEDS:
        state = new_game(2, seed, {"neutral_seals": count})
        tiles = tiles_per_tower(state)
        for color in {color for color, _ in neutral_seals(state)}:
            assert tiles[color] <= 2, (seed, tiles)


def test_a_tower_with_two_balconies_gets_no_neutral_seal():
    crowded = 0
    for seed in SEEDS:
        state = new_game(2, seed, {"neutral_seals": 7})
        on_balconies = Counter(color for color, _, _ in balconies(state).values())
        for color, n in on_balconies.items():
            if n >= 2:
                crowded += 1
                assert color not in {c for c, _ in neutral_seals(state)}, seed

    assert crowded > 0, "no seed drew two balconies of one colour"


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7])
def test_recommended_placement_puts_two_or_three_seals_on_levels_3_and_4(count):
    for seed in SEEDS:
        seals = neutral_seals(new_game(2, seed, {"neutral_seals": count}))
        low = [s for s in seals if s[1] in (3, 4)]
        assert len(low) in (2, 3), (seed, seals)


def test_recommended_placement_uses_both_two_and_three_low_seals():
    lows = {
        sum(1 for _, level in neutral_seals(new_game(2, seed)) if level in (3, 4))
        for seed in range(100)
    }

    assert lows == {2, 3}


def test_recommended_placement_differs_from_game_to_game():
    placements = {tuple(sorted(neutral_seals(new_game(2, seed)))) for seed in range(30)}

    assert len(placements) > 20


@pytest.mark.parametrize("count", range(8))
def test_random_placement_never_covers_a_balcony(count):
    for seed in SEEDS:
        state = new_game(2, seed, {"neutral_seals": count, "seal_placement": "random"})
        covered = {(color, level) for color, level, _ in balconies(state).values()}
        assert not covered & set(neutral_seals(state)), seed


def test_random_placement_may_stack_seals_on_one_tower_and_on_high_levels():
    """The dice variant: any uncovered commission, without the recommended limits."""
    most_on_a_tower = 0
    all_high = False
    for seed in SEEDS:
        state = new_game(2, seed, {"neutral_seals": 7, "seal_placement": "random"})
        most_on_a_tower = max(most_on_a_tower, max(tiles_per_tower(state).values()))
        all_high = all_high or all(level >= 5 for _, level in neutral_seals(state))

    assert most_on_a_tower > 2
    assert all_high


def dead_colors(state) -> list[str]:
    seals = Counter(color for color, _ in neutral_seals(state))
    return [color for color, n in seals.items() if n == 6]


@pytest.mark.parametrize("count", [0, 2, 5, 7])
def test_dead_color_covers_all_six_commissions_of_one_colour_and_nothing_else(count):
    for seed in range(100):
        state = new_game(2, seed, {"seal_placement": "dead_color", "neutral_seals": count})
        dead = dead_colors(state)
        assert len(dead) == 1, seed
        assert len(neutral_seals(state)) == 6, "neutral_seals is ignored"


def test_dead_color_has_no_balcony_of_the_dead_colour():
    for seed in SEEDS:
        state = new_game(2, seed, {"seal_placement": "dead_color"})
        (dead,) = dead_colors(state)
        drawn = balconies(state)
        assert sorted(drawn) == ["I", "II", "III", "IV"], seed
        assert dead not in {color for color, _, _ in drawn.values()}, seed
        for group, tile in drawn.items():
            assert tile in BALCONY_GROUPS[group]


def test_dead_color_is_drawn_at_random():
    dead = {dead_colors(new_game(2, seed, {"seal_placement": "dead_color"}))[0] for seed in SEEDS}

    assert dead == set(COLORS)


# Determinism


@pytest.mark.parametrize(
    "options",
    [
        None,
        {"campanile": True},
        {"neutral_seals": 7, "seal_placement": "random"},
        {"seal_placement": "dead_color"},
    ],
)
def test_the_same_seed_and_options_give_the_same_game(options):
    for players in (2, 3, 4):
        first = new_game(players, 1234, options)
        again = new_game(players, 1234, options)
        assert first == again
        assert to_dict(first) == to_dict(again)


def test_different_seeds_give_different_games():
    games = [to_dict(new_game(3, seed)) for seed in range(20)]
    decks = {tuple(slot["card"] for slot in d["row"]) + tuple(d["deck"]) for d in games}
    boards = {tuple(d["board"]) for d in games}

    assert len(decks) == 20
    assert len(boards) > 1


# Bad input


@pytest.mark.parametrize("players", [0, 1, 5, 6, -2, True, "3", 2.0, None])
def test_other_player_counts_are_refused(players):
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(players, 1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"neutral_seals": 8}, "neutral_seals .*0 to 7"),
        ({"neutral_seals": -1}, "neutral_seals .*0 to 7"),
        ({"neutral_seals": "5"}, "neutral_seals .*0 to 7"),
        ({"neutral_seals": 2.5}, "neutral_seals .*0 to 7"),
        ({"neutral_seals": True}, "neutral_seals .*0 to 7"),
        ({"seal_placement": "dice"}, "seal_placement .*recommended, random, dead_color"),
        ({"campanile": "yes"}, "campanile .*true or false"),
        ({"campanile": 1}, "campanile .*true or false"),
        ({"bell_tower": True}, "Unknown game option: bell_tower"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(options, message):
    with pytest.raises(ValueError, match=message):
        new_game(2, 1, options)


@pytest.mark.parametrize("seed", ["1", 1.5, None, False])
def test_the_seed_must_be_a_whole_number(seed):
    with pytest.raises(ValueError, match="seed"):
        new_game(2, seed)
