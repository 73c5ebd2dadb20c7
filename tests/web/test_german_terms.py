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


def test_it_names_the_cards_in_german_on_a_german_page(anna, ben):
    """The card row, the hands and the log in German: Werkstatt, not Workshop; the Monument is
    the German edition's Denkmal (docs/rules.md §2.3)."""
    from django.utils import translation

    from games.rules.firenze.rules.cards import CARDS
    from games.rules.firenze.wording import card_name

    anna.language = "de"
    anna.save(update_fields=["language"])
    game = started_game(anna, ben)
    view = game.engine.player_view(game.load_state(), 0)
    page = text(game_page(signed_in(anna), game))
    with translation.override("de"):
        german = {card: card_name(card) for card in CARDS}
    assert german["Monument"] == "Denkmal" and german["Workshop"] == "Werkstatt"
    shown = [r["card"] for r in view["row"]]
    renamed = [card for card in shown if german[card] != card]
    assert renamed, shown  # a deal with cards whose names differ
    for card in shown:
        assert german[card] in page, card
    for card in renamed:
        assert not re.search(rf"\b{re.escape(card)}\b", page), card


def test_the_german_winner_badge_names_the_winner(anna, ben):
    from tests.web.helpers import fast_forward

    anna.language = "de"
    anna.save(update_fields=["language"])
    game = started_game(anna, ben, seed=2)
    fast_forward(game)
    page = game_page(signed_in(anna), game)
    assert '<span class="badge winner-badge">Sieger/in</span>' in page
    assert ">Sieg<" not in page
