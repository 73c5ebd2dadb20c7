"""The /rules/ page says what the game does (issue 20), as docs/rules.md does."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def page() -> str:
    text = html.unescape(Client().get(reverse("games:rules")).content.decode())
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text))


def test_the_start_cards_are_part_of_the_deck(page):
    assert "The deck has 52 cards (51 without the Campanile). 10 of them are start cards" in page
    assert "on top of the 52-card deck" not in page


def test_balconies_may_put_three_tiles_on_a_tower(page):
    assert "at most two tiles (balconies and seals) on any tower" not in page
    assert "a tower may still hold three or more balconies" in page


def test_events_act_before_their_bricks_arrive_and_renaissance_is_shuffled(page):
    assert "before the card's bricks reach your storehouse" in page
    assert "the Renaissance is shuffled into the new deck instead" in page
    for card in ("Tribute", "Luxury Tax"):
        assert f"The bricks on the {card} card itself reach your storehouse only afterwards" in page


def test_monument_campanile_and_bell_tower(page):
    assert "or when nobody has a tower, it is discarded. Either way its bricks go" in page
    assert "put your small seal on the Campanile" in page
    assert "fulfil a white bell tower" not in page
