"""One click to play (issue 20): "Play against bots now" starts a game at once with bots in
the other seats; "Rematch" on a finished game makes the same game again and invites the others."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.core import mail
from django.urls import reverse

from community import social
from games.models import Game, Invitation
from tests.web.helpers import fast_forward, signed_in, started_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_against_bots_now_starts_a_game_at_once(anna, players):
    browser = signed_in(anna)
    for url in (reverse("games:mine"), reverse("games:bots_now")):
        assert 'action="/games/bots/"' in browser.get(url).content.decode()
    response = browser.post(reverse("games:bots_now"), {"num_players": players})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.is_active and game.num_players == players
    seats = list(game.seats.all())
    assert [s.user for s in seats if not s.is_bot] == [anna]
    assert sum(s.is_bot for s in seats) == players - 1


def test_play_against_bots_now_seats_bots_of_the_level_chosen(anna):
    browser = signed_in(anna)
    page = browser.get(reverse("games:bots_now")).content.decode()
    assert '<option value="standard" selected>' in page  # the default level
    assert '<option value="strong">' in page and '<option value="beginner">' in page
    browser.post(reverse("games:bots_now"), {"num_players": 3, "level": "strong"})
    browser.post(reverse("games:bots_now"), {"num_players": 2})  # an older page: no level
    strong, standard = Game.objects.order_by("pk")
    assert [s.bot for s in strong.seats.all() if s.is_bot] == ["strong", "strong"]
    assert [s.bot for s in standard.seats.all() if s.is_bot] == ["standard"]


@pytest.mark.parametrize("bad", ["greedy-ish", "STRONG", "9" * 400])
def test_play_against_bots_refuses_a_level_it_does_not_offer(anna, bad):
    response = signed_in(anna).post(reverse("games:bots_now"), {"num_players": 2, "level": bad})
    assert response.status_code == 400 and not Game.objects.exists()


def test_the_home_page_offers_it_and_sign_in_leads_back_to_it(client):
    assert 'action="/games/bots/"' in client.get(reverse("games:home")).content.decode()
    response = client.post(reverse("games:bots_now"), {"num_players": 2})
    assert response.status_code == 302 and "next=/games/bots/" in response["Location"]


def test_it_keeps_a_signed_out_choice_through_sign_in(client, anna):
    response = client.post(reverse("games:bots_now"), {"num_players": 4, "level": "strong"})
    assert response.status_code == 302
    next_url = parse_qs(urlsplit(response["Location"]).query)["next"][0]
    assert next_url.startswith("/games/bots/?")
    page = signed_in(anna).get(next_url).content.decode()  # where sign-in leads back to
    assert '<option value="4" selected>' in page
    assert '<option value="strong" selected>' in page
    assert '<option value="standard" selected>' not in page
    # A choice it does not offer is dropped, not carried: the defaults are shown.
    response = client.post(reverse("games:bots_now"), {"num_players": 9, "level": "strong"})
    assert parse_qs(urlsplit(response["Location"]).query)["next"] == ["/games/bots/"]


@pytest.mark.parametrize("bad", ["", "1", "5", "٢", "2.0", "9" * 400])
def test_play_against_bots_refuses_a_number_it_cannot_seat(anna, bad):
    response = signed_in(anna).post(reverse("games:bots_now"), {"num_players": bad})
    assert response.status_code == 400 and not Game.objects.exists()


def test_a_rematch_seats_the_bots_and_invites_the_other_players(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben, carla, bots=1, seed=3)
    fast_forward(game)
    Game.objects.filter(pk=game.pk).update(name="Quick one")
    page = signed_in(ben).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'action="/games/{game.pk}/rematch/"' in page
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in(ben).post(reverse("games:rematch", args=[game.pk]))
    new = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == f"/games/{new.pk}/"
    assert new.is_open and new.name == "Quick one" and new.options == game.options
    assert new.time_limit == game.time_limit and new.num_players == 4
    assert {s.user for s in new.seats.all()} == {ben, None}  # Ben and the bot
    assert {i.user for i in Invitation.objects.filter(game=new)} == {anna, carla}
    assert sorted(m.to[0] for m in mail.outbox) == sorted([anna.email, carla.email])


def test_a_rematch_does_not_invite_a_player_with_a_block_between_them(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben, carla, seed=3)
    fast_forward(game)
    social.do_block(anna, ben)  # after the game: Ben may no longer invite her
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in(ben).post(reverse("games:rematch", args=[game.pk]))

    new = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == f"/games/{new.pk}/"  # Ben is told nothing
    assert {i.user for i in Invitation.objects.filter(game=new)} == {carla}
    assert [m.to for m in mail.outbox] == [[carla.email]]


def test_only_players_of_a_finished_game_get_a_rematch(anna, ben, carla):
    running = started_game(anna, ben)
    assert signed_in(anna).post(reverse("games:rematch", args=[running.pk])).status_code == 302
    assert Game.objects.count() == 1
    finished = started_game(anna, ben, seed=3)
    fast_forward(finished)
    outsider = signed_in(carla).post(reverse("games:rematch", args=[finished.pk]))
    assert outsider.status_code == 302 and Game.objects.count() == 2
    page = signed_in(carla).get(reverse("games:detail", args=[finished.pk])).content.decode()
    assert "/rematch/" not in page
    against_bots = started_game(anna, bots=1, seed=4)
    fast_forward(against_bots)
    signed_in(anna).post(reverse("games:rematch", args=[against_bots.pk]))
    assert Game.objects.latest("pk").is_active  # only bots to wait for: it starts at once


def test_anonymous_visitors_are_sent_to_sign_in(client, anna, ben):
    finished = started_game(anna, ben, seed=3)
    fast_forward(finished)
    for url in (reverse("games:rematch", args=[finished.pk]), reverse("games:bots_now")):
        response = client.post(url, {"num_players": 2})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    assert Game.objects.count() == 1


def test_a_seated_player_of_a_game_in_progress_gets_no_rematch_button(anna, ben):
    game = started_game(anna, ben)
    for player in (anna, ben):  # acting and waiting
        page = signed_in(player).get(reverse("games:detail", args=[game.pk])).content.decode()
        assert "/rematch/" not in page
