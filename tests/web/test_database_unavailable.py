"""A node that cannot reach its database (its link cut, a failover under way) answers 503 with
Retry-After and tells the player to reload before sending again, in their language; any other
fault stays a 500. Found by the several-node rehearsal: a move POST on the cut node answered 500
while its session was being read."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import Client

from firenze_site.sessions import SessionStore
from tests.web.helpers import signed_in, started_game

pytestmark = pytest.mark.django_db


def cut_off(*args, **kwargs):
    raise OperationalError('connection to server at "10.32.0.10", port 5432 failed')


def test_it_answers_a_move_whose_session_it_cannot_read_with_503(anna, ben, monkeypatch):
    game = started_game(anna, ben)
    player = signed_in(anna)
    player.raise_request_exception = False
    monkeypatch.setattr(SessionStore, "load", lambda self: cut_off())
    answer = player.post(f"/games/{game.pk}/move/", {"action": "{}", "version": "1"})
    assert answer.status_code == 503
    assert answer["Retry-After"] == "30"
    text = answer.content.decode()
    assert "could not reach its database" in text and "reload the page" in text
    assert "10.32.0.10" not in text  # nothing of the site's insides


def test_it_says_it_in_german_to_a_german_browser(monkeypatch):
    visitor = Client(raise_request_exception=False, headers={"accept-language": "de"})
    monkeypatch.setattr(SessionStore, "load", lambda self: cut_off())
    visitor.cookies["sessionid"] = "x" * 32
    answer = visitor.get("/")
    assert answer.status_code == 503
    assert "Datenbank" in answer.content.decode()


def test_it_leaves_other_faults_a_500(anna, monkeypatch):
    player = signed_in(anna)
    player.raise_request_exception = False

    def broken(self):
        raise RuntimeError("a bug")

    monkeypatch.setattr(SessionStore, "load", broken)
    answer = player.get("/")
    assert answer.status_code == 500
    assert "Retry-After" not in answer
