"""German pages use the German rulebook's words (issue 20; /work/shared/rules/sources): the
Spielplan, a player's Bauplatz, Nachziehstapel and Ablagestapel, the phases as the rulebook
names them, zwingend / optional, Auslosen, rotbraun, Bauruinen and the kleines Siegel."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.helpers import game_page, signed_in, started_game

pytestmark = pytest.mark.django_db

NOT_THE_RULEBOOKS = ["Spielbrett", "Baustelle", "aufgegebene", "(Pflicht)", "Zufällig:", "Stapel "]


def text(page: str) -> str:
    """The words on the page, in its text and its attributes (labels a screen reader says)."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + page))


def test_the_game_page_in_german_uses_the_rulebooks_words(anna, ben):
    anna.language = "de"
    anna.save(update_fields=["language"])
    game = started_game(anna, ben)
    page = text(game_page(signed_in(anna), game))
    words = ["Spielplan", "Bauplatz von", "Nachziehstapel", "Ablagestapel", "Karte wählen"]
    words += ["Stein tauschen", "Türme bauen", "Aufträge erfüllen", "Limits überprüfen"]
    for word in words:
        assert word in page, word
    for word in NOT_THE_RULEBOOKS:
        assert word not in page, word


def test_the_rules_page_in_german_uses_the_rulebooks_words():
    page = text(Client(HTTP_ACCEPT_LANGUAGE="de").get(reverse("games:rules")).content.decode())
    words = ["1. Karte wählen (zwingend)", "2. Stein tauschen (optional", "3. Türme bauen"]
    words += ["4. Bauruinen abreißen", "5. Aufträge erfüllen", "6. Limits überprüfen (zwingend)"]
    words += ["Auslosen", "kleines Siegel", "rotbraun", "Nachziehstapel"]
    for word in words:
        assert word in page, word
    for word in NOT_THE_RULEBOOKS:
        assert word not in page, word
