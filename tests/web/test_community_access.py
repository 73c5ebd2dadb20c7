"""Who may use the community pages (issue 33): anonymous visitors are sent to sign in and
change nothing; an outsider cannot set a table's requirements, even a seated non-creator
cannot; each player's friends page and data export hold only their own follows and blocks."""

from __future__ import annotations

import html
import json

import pytest
from django.test import Client
from django.urls import reverse

from community.models import Block, Follow, TableRequirement
from games import lobby
from tests.web.helpers import reauthenticated, signed_in

pytestmark = pytest.mark.django_db

SOCIAL = ["follow", "unfollow", "block", "unblock"]


@pytest.mark.parametrize("action", SOCIAL)
def test_it_sends_an_anonymous_visitor_to_sign_in_and_changes_nothing(anna, action):
    answer = Client().post(reverse(f"community:{action}", args=["Anna"]))

    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_it_sends_an_anonymous_visitor_of_the_friends_and_requirements_pages_to_sign_in(anna):
    game = lobby.create_game(anna, num_players=2)

    friends = Client().get(reverse("community:friends"))
    saved = Client().post(reverse("community:requirements", args=[game.pk]), {"min_finished": "9"})

    for answer in (friends, saved):
        assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert not TableRequirement.objects.exists()


@pytest.mark.parametrize("action", SOCIAL)
def test_it_refuses_the_social_actions_by_get(anna, ben, action):
    answer = signed_in(ben).get(reverse(f"community:{action}", args=["Anna"]))

    assert answer.status_code == 405


def test_it_hides_a_private_table_from_an_outsider_setting_its_requirements(anna, ben):
    game = lobby.create_game(anna, num_players=2, is_public=False)

    answer = signed_in(ben).post(
        reverse("community:requirements", args=[game.pk]), {"min_finished": "90"}
    )

    assert answer.status_code == 404
    assert not TableRequirement.objects.exists()


def test_it_keeps_the_requirements_to_the_creator_even_against_a_seated_player(anna, ben):
    game = lobby.create_game(anna, num_players=3)
    lobby.join(game, ben)

    answer = signed_in(ben).post(
        reverse("community:requirements", args=[game.pk]), {"min_finished": "90"}, follow=True
    )

    assert "Only the game's creator can set who may join." in html.unescape(answer.content.decode())
    assert not TableRequirement.objects.exists()


def test_it_shows_each_player_only_their_own_friends_and_blocks(anna, ben, carla):
    signed_in(anna).post(reverse("community:follow", args=["Carla"]))
    signed_in(anna).post(reverse("community:block", args=["Ben"]))

    anna_page = signed_in(anna).get(reverse("community:friends")).content.decode()
    carla_page = signed_in(carla).get(reverse("community:friends")).content.decode()

    assert "Carla" in anna_page and "Players you block" in anna_page
    assert "Players you block" not in carla_page


def test_it_exports_a_players_own_follows_to_them_alone(anna, ben, carla):
    signed_in(anna).post(reverse("community:follow", args=["Carla"]))

    anonymous = Client().get(reverse("accounts:export"))
    theirs = reauthenticated(ben).get(reverse("accounts:export"))
    mine = json.loads(reauthenticated(anna).get(reverse("accounts:export")).content)

    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert theirs.status_code == 200 and "Carla" not in theirs.content.decode()
    assert [f["player"] for f in mine["following"]] == ["Carla"]
