"""The engine's log lines in German: every sentence the engine writes in whole random games
(2 to 4 players, with and without the Campanile) is worded by firenze/log_words.py, seat tokens
kept; in English the lines stay exactly as the engine wrote them."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from games.rules.firenze import rules
from games.rules.firenze.log_words import word_line

TOKEN = re.compile(r"\{\d\}")


def playout_lines(seed: int, players: int, options: dict) -> list[str]:
    """Every log line of one random game, played to its end."""
    rng = random.Random(seed)
    state = rules.new_game(players, seed, options)
    lines = list(rules.log_tokens(state))
    while not rules.is_over(state):
        state = rules.apply_action(state, rng.choice(rules.legal_actions(state)))
        lines += rules.log_tokens(state)
    return lines


@pytest.fixture(scope="module")
def lines() -> set[str]:
    found: set[str] = set()
    for seed in range(6):
        players = 2 + seed % 3
        options = {"campanile": seed % 2 == 0, "seal_placement": "random"}
        found |= set(playout_lines(seed, players, options))
    return found


def test_it_words_every_log_line_of_whole_games_in_german(lines):
    assert len(lines) > 300
    with translation.override("de"):
        left = sorted(line for line in lines if word_line(line) == line)
        worded = {line: word_line(line) for line in lines}
    assert not left, f"{len(left)} lines no template knows, e.g. {left[:5]}"
    for line, german in worded.items():
        assert sorted(TOKEN.findall(german)) == sorted(TOKEN.findall(line)), (line, german)


def test_it_leaves_english_lines_as_the_engine_wrote_them(lines):
    with translation.override("en"):
        assert all(word_line(line) == line for line in lines)
