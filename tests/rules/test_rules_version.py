"""A change of the engine that would replay finished games differently must raise
RULES_VERSION: stored games keep the version they were played under, and replay_games replays
each with its own version's engine (games.rules.protocol).

tests/rules/finished_games.json holds six finished games (every player count and option,
played by the bots under the RULES_VERSION it names): their moves, final scores and a digest
of their log. Replaying them must give the same log and scores. A refactoring, a faster
engine or a better bot leaves them alone; a rule change does not, and this test then asks for
a new RULES_VERSION and a new file (`python -m tests.rules.test_rules_version`).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy, random_player

FILE = Path(__file__).with_name("finished_games.json")
GAMES = [
    (2, 11, None),
    (2, 12, {"campanile": True}),
    (3, 13, {"seal_placement": "dead_color"}),
    (3, 14, {"seal_placement": "random", "neutral_seals": 2}),
    (4, 15, {"campanile": True, "neutral_seals": 7}),
    (4, 16, None),
]


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def replay(players: int, seed: int, options: Any, actions: list[dict]) -> dict[str, Any]:
    state = rules.new_game(players, seed, options)
    lines: list[str] = []
    for action in actions:
        state = rules.apply_action(state, action)
        lines.extend(rules.log_tokens(state))
    return {"over": rules.is_over(state), "scores": rules.scores(state), "log": _digest(lines)}


def record() -> dict[str, Any]:
    """Play the games afresh with the bots (greedy and random seats alternating)."""
    games = []
    for players, seed, options in GAMES:
        bots = [greedy if seat % 2 == 0 else random_player for seat in range(players)]
        state, rng, actions = rules.new_game(players, seed, options), random.Random(seed), []
        while not rules.is_over(state):
            actions.append(bots[rules.acting_seat(state)](state, rng))
            state = rules.apply_action(state, actions[-1])
        result = replay(players, seed, options, actions)
        games.append({"players": players, "seed": seed, "options": options, **result})
        games[-1]["actions"] = actions
    return {"rules_version": rules.RULES_VERSION, "games": games}


STORED = json.loads(FILE.read_text())


def test_it_has_the_finished_games_of_the_current_rules_version():
    assert STORED["rules_version"] == rules.RULES_VERSION, (
        f"RULES_VERSION is {rules.RULES_VERSION!r} but {FILE.name} was played under "
        f"{STORED['rules_version']!r}: run `python -m tests.rules.test_rules_version`."
    )


@pytest.mark.parametrize("game", STORED["games"], ids=lambda g: f"{g['players']}p-{g['seed']}")
def test_it_replays_a_finished_game_as_it_was_played(game):
    try:
        again = replay(game["players"], game["seed"], game["options"], game["actions"])
    except rules.IllegalAction as exc:
        pytest.fail(f"a stored move is now illegal ({exc}): raise RULES_VERSION")
    assert again == {k: game[k] for k in ("over", "scores", "log")}, (
        "The engine now replays a finished game differently: raise RULES_VERSION (and keep "
        "the old version's engine registered if its games must still replay)."
    )


if __name__ == "__main__":
    FILE.write_text(json.dumps(record(), separators=(",", ":")) + "\n")
    print(f"wrote {FILE}")
