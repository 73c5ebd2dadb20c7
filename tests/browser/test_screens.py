"""The axe sweep's plan (tests/browser/screens.py) leaves no page without a desktop and a phone,
English and German, light and dark, and leaves no screen out."""

from __future__ import annotations

from itertools import product

from tests.browser.screens import ALL_SCREENS, share
from tests.browser.test_accessibility import PAGES


def screens_of_each_page() -> dict[str, list[tuple[bool, bool, str]]]:
    seen: dict[str, list[tuple[bool, bool, str]]] = {name: [] for name, _, _ in PAGES}
    for screen in ALL_SCREENS:
        for name, _, _ in share(PAGES, *screen):
            seen[name].append(screen)
    return seen


def test_it_checks_every_page_on_both_devices_languages_and_schemes():
    for name, screens in screens_of_each_page().items():
        assert {phone for phone, _, _ in screens} == {False, True}, name
        assert {dark for _, dark, _ in screens} == {False, True}, name
        assert {language for _, _, language in screens} == {"en", "de"}, name


def test_it_runs_every_screen_on_a_quarter_of_the_pages():
    assert sorted(ALL_SCREENS) == sorted(product((False, True), (False, True), ("en", "de")))
    for screen in ALL_SCREENS:
        assert len(share(PAGES, *screen)) in (len(PAGES) // 4, len(PAGES) // 4 + 1), screen
    assert sum(len(s) for s in screens_of_each_page().values()) == 2 * len(PAGES)
