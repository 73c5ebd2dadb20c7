"""A card's help opens beside the board (issue 20): its name is a button for a popover with the
card's rules, not a link that would leave the game mid-turn."""

from __future__ import annotations

import html
import re

import pytest

from games.rules.firenze import rules
from games.rules.firenze.card_texts import card_help
from tests.web.helpers import game_page, signed_in, started_game

pytestmark = pytest.mark.django_db


def test_card_names_open_their_help_on_the_page(anna, ben):
    game = started_game(anna, ben, seed=5)
    page = game_page(signed_in(anna), game)
    targets = re.findall(r'class="card-help-button" popovertarget="([^"]+)"', page)
    row = [t for t in targets if t.startswith("help-row-")]
    shown = rules.player_view(game.load_state(), None)["row"]
    assert len(row) == len(shown) and len(set(targets)) == len(targets)
    for target in targets:
        assert re.search(rf'<span id="{target}" class="card-help" popover', page), target
    assert html.escape(card_help(shown[0]["card"])) in page
    # The only links to the rules from the board open a new tab: the game stays.
    for link in re.findall(r'<a href="/rules/#card-[^"]*"[^>]*>', page):
        assert 'target="_blank"' in link, link
