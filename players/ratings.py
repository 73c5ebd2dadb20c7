"""Ratings with openskill's Plackett-Luce model.

Why Plackett-Luce: Firenze has two to four players and one ranking at the end, and this model
rates a whole finishing order at once (not a set of pairwise duels, as Elo would need); it
accepts ties, keeps an uncertainty (sigma) per player so newcomers move fast and veterans slowly,
and it is the default model of openskill, a maintained, patent-free library.

What players see is the conservative estimate mu - 3 sigma (openskill's ordinal), scaled so a
new player starts at 1000 and a strong one ends around 2000: it rises as the site becomes sure
of a player's strength, so fewer than PROVISIONAL_GAMES rated games count as provisional.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
SHOWN_BASE = 1000
SHOWN_SCALE = 40
PROVISIONAL_GAMES = 5


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


NEW = Skill(MODEL.mu, MODEL.sigma, 0)


def shown(mu: float, sigma: float) -> int:
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


def rate(skills: list[Skill], places: Iterable[int]) -> list[Skill]:
    """The players' skills after one game in which they finished in these places (1 = won;
    equal places are ties). Pure: the same inputs always give the same floats, which is what
    lets recompute_ratings compare a rebuild with the stored values exactly."""
    teams = [[MODEL.create_rating([s.mu, s.sigma])] for s in skills]
    rated = MODEL.rate(teams, ranks=list(places))
    return [
        Skill(team[0].mu, team[0].sigma, before.games + 1)
        for team, before in zip(rated, skills, strict=True)
    ]
