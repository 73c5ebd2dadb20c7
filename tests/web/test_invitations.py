"""Invitations (issue 20): one person is invited once, by display name or by address; the
invite link of an "invited players only" game seats its holder after sign-in, and stops
working once used or once the table is full, or when the creator revokes it."""

from __future__ import annotations

import html

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.urls import reverse

from games import lobby
from games.models import Game, Invitation, Seat
from tests.factories import UserFactory
from tests.web.helpers import signed_in

pytestmark = pytest.mark.django_db


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", args=[game.pk])


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("first", ["name", "address"])
def test_the_same_person_is_invited_once_by_name_and_by_address(
    anna, ben, first, django_capture_on_commit_callbacks
):
    game = lobby.create_game(anna, num_players=3, is_public=False)
    creator = signed_in(anna)
    ways = {"name": "Ben", "address": ben.email}
    order = [ways[first], *(v for k, v in ways.items() if k != first)]
    with django_capture_on_commit_callbacks(execute=True):
        for value in order:
            creator.post(url("invite", game), {"display_name": value})
    assert Invitation.objects.filter(game=game).count() == 1
    assert len([m for m in mail.outbox if m.to == [ben.email]]) == 1
    page = text(creator.get(url("detail", game)))
    listed = page.split('<ul class="invited-list">')[1].split("</ul>")[0]
    assert listed.count("<li") == 1


def test_a_seated_player_is_not_listed_again_under_an_address(anna, ben):
    game = lobby.create_game(anna, num_players=3)
    lobby.join(game, ben)
    assert lobby.invite_by_email(game, anna, ben.email) is None
    assert not Invitation.objects.filter(game=game).exists()
