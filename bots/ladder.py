"""The calibration ladder: the levels of a game's bots play each other, and their openskill
ratings and head-to-head records are kept for the levels page.

Game-neutral: it plays through the engine protocol alone (new_game, the bots, apply_action,
scores). Two-player games, every pair of levels, each level starting as often as the other
(seats alternate); every game rates the pair with players.ratings (Plackett-Luce), the same
model and scale as people's ratings, so the numbers read alike (but bots are rated only
against each other: a bot's rating is its strength among the bots).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from typing import Any

from django.db import transaction
from django.db.models import Max

from bots.models import BotMatchup, BotRating
from games.rules import protocol
from players.ratings import NEW, Skill, rate

MAX_STEPS = 100_000


@dataclass
class Outcome:
    levels: tuple[str, str]
    scores: list[int]
    places: list[int]


def play(engine: protocol.Engine, levels: Sequence[str], seed: int) -> Outcome:
    """One game between bots of these levels (in seat order); places 1 = won, ties shared."""
    state = engine.new_game(len(levels), seed, None)
    bots = [engine.bots[level] for level in levels]
    rng = random.Random(f"ladder/{seed}")
    for _ in range(MAX_STEPS):
        if engine.is_over(state):
            break
        seat = engine.acting_seat(state)
        assert seat is not None
        state = engine.apply_action(state, bots[seat](state, rng))
    else:
        raise RuntimeError(f"ladder game {seed} did not end")
    scores = engine.scores(state)
    places = [1 + sum(other > mine for other in scores) for mine in scores]
    return Outcome((levels[0], levels[1]), scores, places)


def run(
    engine: protocol.Engine,
    games_per_pair: int,
    *,
    levels: Sequence[str] | None = None,
    seed: int = 1,
    report: Callable[[Outcome], Any] | None = None,
) -> dict[str, Skill]:
    """Play the ladder and store its results (replacing the previous run's)."""
    keys = list(levels or [level.key for level in engine.bot_levels])
    skills = {key: NEW for key in keys}
    tally: dict[tuple[str, str], list[float]] = {}
    for number, (a, b) in enumerate(combinations(keys, 2)):
        for game in range(games_per_pair):
            seats = (a, b) if game % 2 == 0 else (b, a)
            outcome = play(engine, seats, seed * 1_000_003 + number * 10_007 + game)
            rated = rate([skills[seats[0]], skills[seats[1]]], outcome.places)
            skills[seats[0]], skills[seats[1]] = rated
            for i, (me, other) in enumerate((seats, seats[::-1])):
                row = tally.setdefault((me, other), [0, 0.0, 0, 0])
                mine, theirs = outcome.places[i], outcome.places[1 - i]
                row[0] += 1
                row[1] += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
                row[2] += outcome.scores[i]
                row[3] += outcome.scores[1 - i]
            if report is not None:
                report(outcome)
    _store(engine.name, skills, tally)
    return skills


@transaction.atomic
def _store(
    engine_name: str, skills: dict[str, Skill], tally: dict[tuple[str, str], list[float]]
) -> None:
    for level, skill in skills.items():
        BotRating.objects.update_or_create(
            engine_name=engine_name,
            level=level,
            defaults={
                "mu": skill.mu,
                "sigma": skill.sigma,
                "shown": skill.shown,
                "games": skill.games,
            },
        )
    BotMatchup.objects.filter(engine_name=engine_name).delete()
    BotMatchup.objects.bulk_create(
        BotMatchup(
            engine_name=engine_name,
            level=level,
            opponent=opponent,
            games=int(games),
            wins=wins,
            score=int(score),
            opponent_score=int(theirs),
        )
        for (level, opponent), (games, wins, score, theirs) in tally.items()
    )


def level_rows(engine: protocol.Engine) -> list[dict[str, Any]]:
    """Each level with its stored rating and its record against each other level."""
    ratings = {r.level: r for r in BotRating.objects.filter(engine_name=engine.name)}
    matchups: dict[str, list[BotMatchup]] = {}
    for m in BotMatchup.objects.filter(engine_name=engine.name).order_by("pk"):
        matchups.setdefault(m.level, []).append(m)
    labels = {level.key: level.label for level in engine.bot_levels}
    rows = []
    for level in engine.bot_levels:
        against = [
            {
                "label": labels.get(m.opponent, m.opponent),
                "games": m.games,
                "percent": round(100 * m.win_share),
                "score": round(m.score / m.games, 1) if m.games else None,
                "opponent_score": round(m.opponent_score / m.games, 1) if m.games else None,
            }
            for m in matchups.get(level.key, [])
        ]
        rows.append({"level": level, "rating": ratings.get(level.key), "against": against})
    return rows


def updated(engine: protocol.Engine) -> datetime | None:
    return BotRating.objects.filter(engine_name=engine.name).aggregate(last=Max("updated"))["last"]
