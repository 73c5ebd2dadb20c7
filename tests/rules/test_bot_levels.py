"""Bot levels (issue 21): every level plays legal moves to the end, decides from its seat's view
alone (the same decision whatever is hidden), and the sampled states it searches agree with
the real game on everything public."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.rules.firenze.rules import (
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
from games.rules.firenze.rules.determinize import sample_state
from games.rules.firenze.rules.legal import legal_actions_of
from games.rules.firenze.rules.levels import BOTS, LEVELS, bot, choose_action
from games.rules.firenze.rules.strong import Budget, forget_plans

from .playouts import playout

# A Strong bot that stops after a few playouts: the same decisions on any machine.
QUICK = Budget(seconds=60.0, playouts=10)  # two-turn horizon, as in play


def hidden_swapped(state, seat: int, rng: random.Random):
    """The same game with everything `seat` cannot see dealt differently: the deck order and
    the other players' hands (same sizes), from the same unseen cards."""
    d = to_dict(state)
    others = [p for i, p in enumerate(d["players"]) if i != seat]
    pool = d["deck"] + [card for p in others for card in p["hand"]]
    for _ in range(50):
        rng.shuffle(pool)
        if pool[: len(d["deck"])] != d["deck"] or len(set(pool)) < 2:
            break
    d["deck"], rest = pool[: len(d["deck"])], pool[len(d["deck"]) :]
    for p in others:
        p["hand"], rest = rest[: len(p["hand"])], rest[len(p["hand"]) :]
    d["seed"] += 7919  # the future draws too
    return from_dict(d)


def test_it_samples_states_that_agree_with_the_game_on_everything_public():
    checked = 0
    for seed in range(6):
        for state, _ in playout(seed, max_steps=700):
            d = to_dict(state)
            seat = d["seat"]
            sample = sample_state(player_view(state, seat), random.Random(checked))
            checked += 1
            assert legal_actions_of(sample) == legal_actions(state)
            for key in ("row", "board", "balconies", "pouch", "discard", "church", "pending"):
                assert sample[key] == d[key], key
            assert sorted(sample["players"][seat]["hand"]) == sorted(d["players"][seat]["hand"])
            assert unseen(sample, seat) == unseen(d, seat)
            assert [len(p["hand"]) for p in sample["players"]] == [
                len(p["hand"]) for p in d["players"]
            ]
    assert checked > 1000


def unseen(s: dict, seat: int) -> Counter:
    """The cards `seat` cannot see: the deck and the other hands."""
    others = [c for i, p in enumerate(s["players"]) if i != seat for c in p["hand"]]
    return Counter(s["deck"] + others)


@pytest.mark.parametrize("level", ["beginner", "standard", "random"])
def test_a_cheap_bot_decides_the_same_whatever_is_hidden(level):
    rng = random.Random(5)
    for state, _ in playout(7, max_steps=900, mix=0.2):
        seat = to_dict(state)["seat"]
        twin = hidden_swapped(state, seat, rng)
        assert twin != state
        mine = BOTS[level](state, random.Random(state.step))
        assert mine == BOTS[level](twin, random.Random(state.step))
        assert mine in legal_actions(state)


def test_the_strong_bot_decides_the_same_whatever_is_hidden():
    strong = bot("strong", QUICK)
    rng = random.Random(3)
    decided = 0
    for state, _ in playout(6, max_steps=120, mix=0.0):  # two players, with the Campanile
        if to_dict(state)["pending"] is not None:
            continue
        seat = to_dict(state)["seat"]
        twin = hidden_swapped(state, seat, rng)
        forget_plans()
        mine = strong(state, random.Random(state.step))
        forget_plans()
        assert mine == strong(twin, random.Random(state.step))
        assert mine in legal_actions(state)
        decided += 1
    assert decided > 20


def test_a_bot_refuses_a_view_that_is_not_the_acting_seats():
    state = new_game(3, 4)
    acting = to_dict(state)["seat"]
    with pytest.raises(ValueError, match="acting seat's own view"):
        choose_action(player_view(state, (acting + 1) % 3), "standard", random.Random(0))
    with pytest.raises(ValueError, match="acting seat's own view"):
        choose_action(player_view(state, None), "standard", random.Random(0))
    with pytest.raises(ValueError, match="no bot level 'grandmaster'"):
        choose_action(player_view(state, acting), "grandmaster", random.Random(0))


def test_stored_bot_names_still_play():
    assert set(LEVELS) <= set(BOTS)
    state = new_game(2, 9)
    for name in ("greedy", "random"):
        assert BOTS[name](state, random.Random(1)) in legal_actions(state)


def play(num_players: int, seed: int, levels: list[str]):
    """A whole game between bots of these levels (seat order), every move checked legal."""
    state = new_game(num_players, seed)
    players = [bot(level, QUICK) for level in levels]
    rng = random.Random(seed)
    for _ in range(20_000):
        if is_over(state):
            return state
        action = players[to_dict(state)["seat"]](state, rng)
        assert action in legal_actions(state)
        state = apply_action(state, action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("stronger", "weaker"), [("strong", "standard"), ("standard", "beginner")])
def test_a_higher_level_beats_the_one_below_in_a_short_tournament(stronger, weaker):
    """The bench's tournament in small (make bench measures the rates with their goals): four
    2-player games, seats alternating, a Strong bot stopped after a fixed number of playouts so
    the games are the same on any machine. A player who moves up a level meets a bot that wins
    most games and by points, not by a coin's luck."""
    won, margins = 0.0, []
    for game in range(4):
        forget_plans()
        seat = game % 2
        levels = [weaker, weaker]
        levels[seat] = stronger
        final = play(2, 700 + game, levels)
        champions = winners(final)
        won += 1 / len(champions) if seat in champions else 0.0
        points = scores(final)
        margins.append(points[seat] - points[1 - seat])
    assert won >= 3, f"{stronger} won only {won} of 4 games against {weaker}"
    assert sum(margins) / len(margins) > 10  # PP ahead on average


def test_the_three_levels_play_a_four_player_game_to_the_end():
    forget_plans()
    final = play(4, 400, ["strong", "standard", "beginner", "standard"])
    assert winners(final)
