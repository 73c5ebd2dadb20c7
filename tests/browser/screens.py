"""The screens a page sweep runs on.

``each_screen`` with ``share``: a sweep (the axe sweep's thirty pages, the player's desk's, the
tournaments', the bots' and the clubs' pages) runs each page on two screens opposite in
everything: desktop-light-en and phone-dark-de, desktop-dark-de and phone-light-en,
desktop-light-de and phone-dark-en, desktop-dark-en and phone-light-de, the pages taking these
pairs in turn. So every page is seen on a desktop and a phone, in English and German, light and
dark, and all eight screens run a quarter of the pages each. (The short sweeps ran every page
on four screens covering each pair of those, twice the axe runs, until 2026-11-27.)
"""

from __future__ import annotations

from typing import TypeVar

import pytest

T = TypeVar("T")

# (phone, dark, language): the desktop halves of the opposite pairs (the phone halves are
# their opposites).
PAIRED = [(False, False, "en"), (False, True, "de"), (False, False, "de"), (False, True, "en")]


def screen_id(phone: bool, dark: bool, language: str) -> str:
    return f"{'phone' if phone else 'desktop'}-{'dark' if dark else 'light'}-{language}"


def opposite(phone: bool, dark: bool, language: str) -> tuple[bool, bool, str]:
    return (not phone, not dark, "de" if language == "en" else "en")


ALL_SCREENS = PAIRED + [opposite(*screen) for screen in PAIRED]

each_screen = pytest.mark.parametrize(
    ("phone", "dark", "language"), ALL_SCREENS, ids=[screen_id(*screen) for screen in ALL_SCREENS]
)


def share(pages: list[T], phone: bool, dark: bool, language: str) -> list[T]:
    """The pages this screen checks: page i takes pair i mod 4 (PAIRED and its opposite)."""
    desktop_half = opposite(phone, dark, language) if phone else (phone, dark, language)
    pair = PAIRED.index(desktop_half)
    return [page for index, page in enumerate(pages) if index % len(PAIRED) == pair]
