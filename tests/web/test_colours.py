"""Colour is never the only carrier, and every text can be read: the six brick colours and the
seal colours, read from the site's stylesheets (so the test fails when someone changes them),
stay apart under simulated protanopia, deuteranopia and tritanopia, and every ink reads on its
colour at WCAG AA's 4.5:1, in the light and the dark colour scheme.

Simulation: Machado, Oliveira and Fernandes (2009) at severity 1.0, i.e. full dichromacy, the
hardest case. Distance: CIEDE2000. MIN_DISTANCE is 10: a difference of about 2.3 is just
noticeable between two large patches side by side, but bricks and seals are small marks read
at a glance and named from memory ("is that the red one?"); Szafir (2018, "Modelling colour
difference for visualization design") finds that small marks need several times the
just-noticeable difference, and 10 is the usual floor for telling categorical colours apart
without comparing them. The letters on bricks and the initials on seals still carry the
meaning on their own (tests/browser/test_play.py reads a brick by its letter); this keeps the
colours a help for everyone.
"""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

import pytest
import tinycss2
from coloraide import Color
from django.contrib.staticfiles import finders

BRICKS = ["white", "yellow", "green", "red", "blue", "purple"]
SEALS = ["black", "orange", "teal", "pink", "neutral"]
DEFICIENCIES = ["protan", "deutan", "tritan"]
MIN_DISTANCE = 10
MIN_CONTRAST = 4.5

# Text colour and the colour it stands on, by custom property (site.css and game.css).
SITE_TEXT = [
    ("--ink", "--marble"),  # body text
    ("--muted", "--marble"),  # quiet text
    ("--terracotta-dark", "--marble"),  # links
    ("--muted", "--sandstone"),  # the footer
    ("--on-accent", "--header"),  # the header's links
    ("--on-accent", "--arno"),  # buttons
    ("--ink", "--sandstone"),  # the status line
    ("--board-muted", "--board-sand"),  # labels and counts on the board
]


def stylesheets() -> list[Path]:
    """Every stylesheet the site serves (wherever an app keeps it)."""
    found = []
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            if path.endswith(".css"):
                found.append(Path(storage.path(path)))
    return found


def _declarations(rule) -> dict[str, str]:
    found = {}
    for item in tinycss2.parse_blocks_contents(rule.content):
        if item.type == "declaration" and item.name.startswith("--"):
            found[item.name] = tinycss2.serialize(item.value).strip()
    return found


@cache
def palette(scheme: str) -> dict[str, str]:
    """The custom properties of :root in one colour scheme:
    ``dark`` adds what ``@media (prefers-color-scheme: dark)`` overrides."""
    values: dict[str, str] = {}
    dark: dict[str, str] = {}
    for path in stylesheets():
        rules = tinycss2.parse_stylesheet(
            path.read_text(), skip_comments=True, skip_whitespace=True
        )
        for rule in rules:
            if rule.type == "qualified-rule":
                values.update(_scoped(rule))
            elif rule.type == "at-rule" and rule.lower_at_keyword == "media":
                query = tinycss2.serialize(rule.prelude)
                if "prefers-color-scheme" in query and "dark" in query:
                    for inner in tinycss2.parse_rule_list(rule.content, True, True):
                        if inner.type == "qualified-rule":
                            dark.update(_scoped(inner))
    return {**values, **dark} if scheme == "dark" else values


def _scoped(rule) -> dict[str, str]:
    selector = tinycss2.serialize(rule.prelude).strip()
    return _declarations(rule) if selector == ":root" else {}


def colour(scheme: str, name: str) -> Color:
    value = palette(scheme)[name]
    while value.startswith("var("):  # var(--other)
        value = palette(scheme)[value[4:-1].strip()]
    return Color(value)


def test_it_reads_the_colours_from_the_stylesheets():
    light = palette("light")
    for name in BRICKS:
        assert f"--b-{name}" in light and f"--b-{name}-ink" in light
    for name in SEALS:
        assert f"--s-{name}" in light and f"--s-{name}-ink" in light
    assert "--board-muted" in light and "--board-sand" in light


@pytest.mark.parametrize(
    ("prefix", "names"), [("--b-", BRICKS), ("--s-", SEALS)], ids=["bricks", "seals"]
)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_it_keeps_every_pair_of_colours_apart_with_each_colour_vision(scheme, prefix, names):
    too_close = []
    for deficiency in [None, *DEFICIENCIES]:
        for a, b in itertools.combinations(names, 2):
            ca, cb = colour(scheme, prefix + a), colour(scheme, prefix + b)
            if deficiency:
                ca = ca.filter(deficiency, method="machado")
                cb = cb.filter(deficiency, method="machado")
            distance = ca.delta_e(cb, method="2000")
            if distance < MIN_DISTANCE:
                too_close.append(f"{a}/{b} under {deficiency or 'normal vision'}: {distance:.1f}")
    assert not too_close, too_close


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_it_gives_every_letter_and_text_enough_contrast(scheme):
    pairs = [(f"--b-{n}-ink", f"--b-{n}") for n in BRICKS]
    pairs += [(f"--s-{n}-ink", f"--s-{n}") for n in SEALS]
    pairs += SITE_TEXT
    low = []
    for ink, ground in pairs:
        ratio = colour(scheme, ink).contrast(colour(scheme, ground), method="wcag21")
        if ratio < MIN_CONTRAST:
            low.append(f"{ink} on {ground}: {ratio:.2f}")
    assert not low, low


def test_it_would_notice_colours_that_only_differ_in_hue_for_red_green_blindness():
    # The check itself: the old green and red bricks were 4.6 apart under deuteranopia.
    old_green, old_red = Color("#44803f"), Color("#a8452f")
    seen = [c.filter("deutan", method="machado") for c in (old_green, old_red)]
    assert seen[0].delta_e(seen[1], method="2000") < MIN_DISTANCE
