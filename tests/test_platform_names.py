"""The platform names no concept of the Firenze game: it serves any turn-based game through the
engine protocol (Nim, tests/nim/, plays through it too). Every app and the templates are
searched; only the engine itself (games/rules/firenze/) and the migrations of old data may
say these words, and a comment that merely gives an example ("e.g.").
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The root packages of the import contracts (pyproject.toml): every app of the site.
APPS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
FIRENZE_WORDS = re.compile(
    r"\b(campanile|towers?|bricks?|commissions?|balcon(y|ies)|seals?|sealed|storehouse|pp"
    r"|prestige|alchemist|architect|mason|patrician|princess|saboteur|smuggler|wholesaler"
    r"|warehouse|workshop|privilege|luxury tax)\b",
    re.IGNORECASE,
)
ENGINE = ROOT / "games" / "rules" / "firenze"


def platform_files() -> list[Path]:
    found = []
    for top in [*APPS, "templates"]:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".py", ".html", ".txt") or "migrations" in path.parts:
                continue
            if ENGINE not in path.parents:
                found.append(path)
    return found


def test_it_finds_every_app_of_the_site_in_the_contracts():
    apps = {path.parent.name for path in ROOT.glob("*/apps.py")}
    assert len(apps) >= 10
    assert apps <= set(APPS), f"apps the contracts and this search miss: {apps - set(APPS)}"


def test_it_names_no_firenze_concept_outside_the_engine():
    lines = []
    for path in platform_files():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if FIRENZE_WORDS.search(line) and "e.g." not in line.lower():
                lines.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert len(platform_files()) > 300  # the search found the platform
    engine = "\n".join(path.read_text() for path in ENGINE.rglob("*.py"))
    assert len(FIRENZE_WORDS.findall(engine)) > 100  # the words are the engine's own
    assert lines == []
