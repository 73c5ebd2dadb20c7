"""Figures a test measures (fuzzed requests, concurrent submissions...), printed at the end of
the run by the hook in tests/conftest.py and kept in test-artifacts/figures.txt."""

from __future__ import annotations

from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
LINES: list[str] = []


def report(line: str) -> None:
    LINES.append(line)
    ARTIFACTS.mkdir(exist_ok=True)
    with (ARTIFACTS / "figures.txt").open("a") as out:
        out.write(line + "\n")
