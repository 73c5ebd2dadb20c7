"""The screens a page sweep runs on: every page on a desktop and a phone, in English and German,
in the light and the dark scheme, and each pair of those (a phone in the dark, German on a
desktop...) at least once. Four runs rather than all eight combinations (a covering array of
strength two): a sweep of twenty pages costs about 20 s a run.
"""

from __future__ import annotations

import pytest

# (phone, dark, language)
SCREENS = [(False, False, "en"), (False, True, "de"), (True, False, "de"), (True, True, "en")]


def screen_id(phone: bool, dark: bool, language: str) -> str:
    return f"{'phone' if phone else 'desktop'}-{'dark' if dark else 'light'}-{language}"


every_screen = pytest.mark.parametrize(
    ("phone", "dark", "language"), SCREENS, ids=[screen_id(*screen) for screen in SCREENS]
)
