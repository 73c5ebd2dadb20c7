"""Invitations (issue 20): one person is invited once, by display name or by address; the
invite link of an "invited players only" game seats its holder after sign-in, and stops
working once used or once the table is full, or when the creator revokes it."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client
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


def link(token: str) -> str:
    return reverse("games:invite_link", args=[token])


def test_the_shared_link_seats_one_player_and_then_opens_nothing(anna, ben, carla):
    game = lobby.create_game(anna, num_players=3, is_public=False)
    used = game.invite_token
    followed = signed_in(ben).get(link(used))
    assert followed.status_code == 302 and "token=" in followed["Location"]
    assert signed_in(ben).post(url("join", game), {"token": used}).status_code == 302
    game.refresh_from_db()
    assert game.invite_token != used  # the creator's page shows the new link
    assert game.invite_token in text(signed_in(anna).get(url("detail", game)))

    assert signed_in(carla).get(link(used)).status_code == 404
    assert signed_in(carla).get(url("detail", game) + f"?token={used}").status_code == 404
    assert signed_in(carla).post(url("join", game), {"token": used}).status_code == 404
    assert not Seat.objects.filter(game=game, user=carla).exists()


def test_an_emailed_invitee_is_seated_by_their_own_link_after_signing_up(
    anna, django_capture_on_commit_callbacks
):
    game = lobby.create_game(anna, num_players=3, is_public=False)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = lobby.invite_by_email(game, anna, "friend@example.org")
    assert link(invitation.token) in mail.outbox[-1].body
    anonymous = Client()
    landing = anonymous.get(anonymous.get(link(invitation.token))["Location"])
    assert "Create an account to take a seat" in text(landing)
    # They signed up with another address: the link still seats them, once.
    friend = UserFactory(username="friend", email="other@example.org")
    browser = signed_in(friend)
    assert browser.post(url("join", game), {"token": invitation.token}).status_code == 302
    assert Seat.objects.filter(game=game, user=friend).exists()
    assert not Invitation.objects.filter(pk=invitation.pk).exists()
    assert signed_in(UserFactory(username="late")).get(link(invitation.token)).status_code == 404


def test_a_full_table_ends_the_link_and_hides_board_and_talk(anna, ben, carla):
    game = lobby.create_game(anna, num_players=2, is_public=False)
    token = game.invite_token
    lobby.join(game, ben, token=token)  # the table is full: the game starts
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(invite_token=token)  # even the same link
    stale = signed_in(carla).get(link(token))
    assert stale.status_code == 410 and "no longer works" in text(stale)
    for path in (
        url("detail", game) + f"?token={token}",
        reverse("chat:thread", args=[game.pk]) + f"?token={token}",
        url("version", game) + f"?v=1&token={token}",
    ):
        assert Client().get(path).status_code == 404, path
        assert signed_in(carla).get(path).status_code == 404, path


def test_the_creator_withdraws_an_invitation_and_replaces_the_link(anna, ben, carla):
    game = lobby.create_game(anna, num_players=3, is_public=False)
    invitation = lobby.invite(game, anna, "Ben")
    old = game.invite_token
    creator = signed_in(anna)
    assert signed_in(carla).post(url("revoke", game), {}).status_code == 404  # not hers to see
    lobby.invite(game, anna, "Carla")
    assert signed_in(carla).post(url("revoke", game), {}).status_code == 303  # not the creator
    response = creator.post(url("revoke", game), {"invitation": invitation.pk})
    assert response.status_code == 302
    assert "Invitation withdrawn." in [str(m) for m in get_messages(response.wsgi_request)]
    assert not Invitation.objects.filter(pk=invitation.pk).exists()
    assert signed_in(ben).get(url("detail", game)).status_code == 404
    creator.post(url("revoke", game), {})
    game.refresh_from_db()
    assert game.invite_token != old
    assert signed_in(UserFactory(username="dora")).get(link(old)).status_code == 404
    bad = creator.post(url("revoke", game), {"invitation": "99999999"})
    assert bad.status_code == 303


def test_anonymous_visitors_cannot_withdraw_anything(client, anna):
    game = lobby.create_game(anna, num_players=3, is_public=False)
    token = game.invite_token
    response = client.post(url("revoke", game), {})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    game.refresh_from_db()
    assert game.invite_token == token


def test_a_token_with_odd_unicode_is_refused_not_an_error(anna, carla):
    game = lobby.create_game(anna, num_players=3, is_public=False)
    for token in ("tökén", "\u202e" + game.invite_token, "🂡" * 40):
        assert signed_in(carla).get(url("detail", game), {"token": token}).status_code == 404
        assert signed_in(carla).post(url("join", game), {"token": token}).status_code == 404
    assert not Seat.objects.filter(game=game, user=carla).exists()


def test_an_emailed_invitees_sign_up_offers_the_address_and_skips_confirming_it(
    anna, django_capture_on_commit_callbacks
):
    from allauth.account.models import EmailAddress

    from tests.factories import PASSWORD

    game = lobby.create_game(anna, num_players=3, is_public=False)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = lobby.invite_by_email(game, anna, "friend@example.org")
    mail.outbox.clear()
    friend = Client()
    landing = friend.get(link(invitation.token))["Location"]
    signup = friend.get(f"/accounts/signup/?next={landing}").content.decode()
    assert re.search(r'<input[^>]*name="email"[^>]*value="friend@example.org"', signup)
    form = {"email": "friend@example.org", "display_name": "Friend"}
    with django_capture_on_commit_callbacks(execute=True):
        response = friend.post(
            f"/accounts/signup/?next={landing}",
            {**form, "password1": PASSWORD, "password2": PASSWORD, "next": landing},
        )
    assert response.status_code == 302 and "confirm" not in response["Location"]
    assert EmailAddress.objects.get(email="friend@example.org").verified
    assert not [m for m in mail.outbox if "friend@example.org" in m.to]  # nothing to confirm
    assert friend.get(landing).wsgi_request.user.display_name == "Friend"  # signed in
    # Someone else's sign-up, without the link, is offered no address and confirms as ever.
    other = Client().get("/accounts/signup/").content.decode()
    assert "friend@example.org" not in other
