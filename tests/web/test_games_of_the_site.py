"""A site with several games, and the site's own name: the create form offers a choice of game,
each game's emails and rules say its own name, page titles end with the site's name, and the
move service refuses (never a 500) a move an engine applies without listing it as legal."""

from __future__ import annotations

import json
import re

import pytest
from django.core import mail
from django.urls import reverse

from games import lobby
from games.models import Game, Move
from games.rules import registry
from tests.nim.engine import NimEngine
from tests.web.conftest import NIM_TEMPLATES
from tests.web.helpers import offered_actions, page_version, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def nim_beside_firenze(settings):
    """Nim registered next to Firenze, which stays the site's default game."""
    engine = registry.register(NimEngine())
    template = dict(settings.TEMPLATES[0])
    template["DIRS"] = [*template.get("DIRS", []), NIM_TEMPLATES]
    settings.TEMPLATES = [template, *settings.TEMPLATES[1:]]
    yield engine
    registry.unregister(engine)


def _title(page: str) -> str:
    return re.search(r"<title>(.*?)</title>", page, re.S).group(1).strip()


def test_it_offers_the_choice_of_game_when_the_site_has_several(nim_beside_firenze, anna):
    browser = signed_in(anna)
    firenze_form = browser.get(reverse("games:create")).content.decode()
    assert 'href="?game=nim"' in firenze_form and 'aria-current="page">Firenze<' in firenze_form
    assert 'name="campanile"' in firenze_form and 'name="stones"' not in firenze_form
    nim_form = browser.get(reverse("games:create"), {"game": "nim"}).content.decode()
    assert 'aria-current="page">Nim<' in nim_form
    assert 'name="stones"' in nim_form and 'name="campanile"' not in nim_form
    assert 'href="/rules/?game=nim#options"' in nim_form  # the chosen game's rules
    answer = browser.post(
        reverse("games:create") + "?game=nim",
        {
            "game": "nim",
            "num_players": 2,
            "stones": 8,
            "time_limit": 86400,
            "is_public": "1",
            "name": "Pebbles",
        },
    )
    assert answer.status_code == 302
    game = Game.objects.get(name="Pebbles")
    assert (game.engine_name, game.options) == ("nim", {"stones": 8})
    # An unknown game in the address is the site's default one, not an error.
    assert (
        'name="campanile"'
        in browser.get(reverse("games:create"), {"game": "chess"}).content.decode()
    )


def test_it_offers_no_choice_when_the_site_has_one_game(anna):
    form = signed_in(anna).get(reverse("games:create")).content.decode()
    assert "?game=" not in form and 'name="game"' not in form


def test_it_shows_each_games_own_rules(nim_beside_firenze, client):
    assert "whoever takes the last stone wins" in client.get("/rules/?game=nim").content.decode()
    assert "Florence" in client.get("/rules/").content.decode()


def test_it_names_the_game_in_its_emails_and_the_site_in_page_titles(
    nim_beside_firenze, settings, anna, ben, django_capture_on_commit_callbacks
):
    settings.SITE_NAME = "Board Club"
    with django_capture_on_commit_callbacks(execute=True):
        game = lobby.create_game(anna, num_players=2, options={"stones": 9}, engine_name="nim")
        lobby.join(game, ben)
    game.refresh_from_db()
    first = game.seats.get(number=game.acting_seat).user
    second = ben if first == anna else anna
    browser = signed_in(first)
    page = browser.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert _title(page) == f"(Your turn) {game.title} · Board Club"
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for action in ({"type": "take", "n": 1}, {"type": "end_turn"}):
            page = browser.get(reverse("games:detail", args=[game.pk])).content.decode()
            browser.post(
                reverse("games:move", args=[game.pk]),
                {"action": json.dumps(action), "version": page_version(page)},
            )
    turn_mail = [m for m in mail.outbox if m.to == [second.email]]
    assert turn_mail, [m.subject for m in mail.outbox]
    assert turn_mail[0].subject.startswith("Your turn in Nim: ")
    assert "Firenze" not in turn_mail[0].subject + turn_mail[0].body
    assert "Board Club" in turn_mail[0].body  # the site signs its emails with its name


class Lenient(NimEngine):
    """Nim with a bug: it applies a take of 2.5 stones, which it never lists as legal."""

    name = "lenient-nim"

    def apply_action(self, state, action):
        if action == {"type": "take", "n": 2.5}:
            return super().apply_action(state, {"type": "take", "n": 2})
        return super().apply_action(state, action)


@pytest.fixture
def lenient(nim_beside_firenze):
    engine = registry.register(Lenient())
    yield engine
    registry.unregister(engine)


def test_it_refuses_a_move_the_engine_applies_but_does_not_list(lenient, anna, ben):
    game = lobby.create_game(anna, num_players=2, options={"stones": 9}, engine_name=lenient.name)
    lobby.join(game, ben)
    game.refresh_from_db()
    browser = signed_in(game.seats.get(number=game.acting_seat).user)
    page = browser.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert {"type": "take", "n": 2} in offered_actions(page)
    answer = browser.post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps({"type": "take", "n": 2.5}), "version": page_version(page)},
    )
    assert answer.status_code == 400
    assert "That move is not possible now." in answer.content.decode()
    assert not Move.objects.filter(game=game).exists()
    # The same move as the engine lists it is played, and stored in the engine's own form.
    answer = browser.post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps({"n": 2.0, "type": "take"}), "version": page_version(page)},
    )
    assert answer.status_code == 302
    assert Move.objects.get(game=game).action == {"type": "take", "n": 2}
