"""Properties that must hold in every game: checked over many seeded bot games."""

from __future__ import annotations

import json

import pytest

from games.rules.firenze.rules import (
    acting_seat,
    apply_action,
    from_dict,
    is_over,
    legal_actions,
    new_game,
    player_view,
    scores,
    to_dict,
    winners,
)
from games.rules.firenze.rules.cards import CARDS
from games.rules.firenze.rules.data import SEALS_PER_PLAYER, SUPPLY

from .playouts import final_state, playout, setup_for

SEEDS = range(24)


def brick_totals(d: dict) -> list[int]:
    total = list(d["pouch"])
    places = [p["store"] for p in d["players"]] + [r["bricks"] for r in d["row"]]
    if d["transit"]:
        places.append(d["transit"]["bricks"])
    for bricks in places:
        total = [a + b for a, b in zip(total, bricks, strict=True)]
    for p in d["players"]:
        for t in p["towers"]:
            total[t["c"]] += t["h"]
    return total


def all_cards(d: dict) -> list[str]:
    cards = d["deck"] + d["discard"] + [r["card"] for r in d["row"]]
    cards += [c["card"] for c in d["church"]]
    for p in d["players"]:
        cards += p["hand"] + p["buildings"]
    if d["transit"]:
        cards.append(d["transit"]["card"])
    return sorted(cards)


def expected_cards(campanile: bool) -> list[str]:
    return sorted(
        name
        for name, card in CARDS.items()
        for _ in range(card.count)
        if name != "Campanile" or campanile
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_games_end_with_scores_and_winners(seed):
    final = final_state(seed)
    assert is_over(final)
    assert acting_seat(final) is None
    assert legal_actions(final) == []
    assert winners(final)
    best = max(scores(final))
    assert winners(final) == [i for i, pp in enumerate(scores(final)) if pp == best]


@pytest.mark.parametrize("seed", SEEDS)
def test_bricks_seals_and_cards_are_conserved_and_states_round_trip(seed):
    players, options = setup_for(seed)
    cards = expected_cards(options.get("campanile", False))
    for state, action in playout(seed):
        d = to_dict(state)
        # A JSON round trip before every step loses nothing (open_spiel style).
        again = from_dict(json.loads(json.dumps(d)))
        assert again == state
        assert brick_totals(d) == list(SUPPLY)
        assert sum(brick_totals(d)) == 88
        assert all_cards(d) == cards
        for seat, p in enumerate(d["players"]):
            placed = sum(1 for owner in d["board"] if owner == seat)
            assert placed + p["seals"] == SEALS_PER_PLAYER[players]
        # apply_action never mutates its input, and applying to the copy gives the same result.
        after = apply_action(again, action)
        assert to_dict(again) == d
        assert to_dict(after) == to_dict(apply_action(state, action))


@pytest.mark.parametrize("seed", range(6))
def test_every_legal_action_applies(seed):
    for state, _ in playout(seed, max_steps=600):
        for action in legal_actions(state):
            after = apply_action(state, action)
            assert after.step == state.step + 1


@pytest.mark.parametrize("seed", range(8))
def test_same_seed_and_moves_give_the_same_game(seed):
    players, options = setup_for(seed)
    assert new_game(players, seed, options) == new_game(players, seed, options)
    moves = [action for _, action in playout(seed, max_steps=400)]
    replayed = new_game(players, seed, options)
    for action in moves:
        replayed = apply_action(replayed, action)
    state = None
    for state, action in playout(seed, max_steps=400):
        state = apply_action(state, action)
    assert replayed == state


def test_different_seeds_deal_different_games():
    games = {json.dumps(to_dict(new_game(4, seed))["row"]) for seed in range(20)}
    assert len(games) > 15


@pytest.mark.parametrize("seed", range(10))
def test_a_view_never_shows_another_players_hand_or_the_deck_order(seed):
    for state, _ in playout(seed, max_steps=1500):
        d = to_dict(state)
        for viewer in [None, *range(d["n"])]:
            view = player_view(state, viewer)
            assert "deck" not in {k for k in view if k != "deck_count"}
            for seat, p in enumerate(view["players"]):
                if seat == viewer:
                    assert sorted(p["hand"]) == sorted(d["players"][seat]["hand"])
                else:
                    assert "hand" not in p
            if len(d["deck"]) >= 3:
                # The public discard pile may hold other copies in the same order by chance.
                rest = json.dumps({k: v for k, v in view.items() if k != "discard"})
                assert json.dumps(d["deck"][:3])[1:-1] not in rest
