"""Forming a game (issue 9): a full table starts by itself (or tells its creator), invitations
by email address, invited players listed, names for games and bots, the create form."""

from __future__ import annotations

import html
import re

import pytest
from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed
from django.core import mail
from django.urls import reverse

from games import lobby
from games.models import Game, Invitation
from notifications.models import Notification
from tests.factories import UserFactory
from tests.web.helpers import signed_in

pytestmark = pytest.mark.django_db


def url(name: str, game: Game, *args) -> str:
    return reverse(f"games:{name}", args=[game.pk, *args])


def page_of(client, game: Game) -> str:
    return html.unescape(client.get(url("detail", game)).content.decode())


def messages_of(client, response) -> str:
    return html.unescape(client.get(response["Location"]).content.decode())


# --- a full table ---------------------------------------------------------------------------


def test_the_game_starts_by_itself_when_the_last_seat_is_taken(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    game = lobby.create_game(anna, num_players=3)
    lobby.join(game, ben)
    with django_capture_on_commit_callbacks(execute=True):
        signed_in(carla).post(url("join", game))

    game.refresh_from_db()
    assert game.is_active and game.acting_seat is not None
    started = Notification.objects.filter(game=game, kind="game_started")
    assert {n.user for n in started} == {anna, ben, carla}
    assert 'id="board"' in page_of(signed_in(anna), game)


def test_without_auto_start_the_creator_is_emailed_that_the_table_is_full(
    anna, ben, django_capture_on_commit_callbacks
):
    game = lobby.create_game(anna, num_players=2, auto_start=False)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        lobby.join(game, ben)

    game.refresh_from_db()
    assert game.is_open
    [email] = mail.outbox
    assert email.to == [anna.email]
    assert email.subject == f"Your table is full: start Firenze Game {game.pk}"
    assert "Start the game" in email.alternatives[0][0]
    page = page_of(signed_in(anna), game)
    assert "Start the game" in page and "Anna starts the game" in page


def test_the_creator_filling_the_last_seat_gets_no_email(anna, django_capture_on_commit_callbacks):
    game = lobby.create_game(anna, num_players=2, auto_start=False)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        lobby.add_bot(game, anna)
    assert mail.outbox == []
    assert not Notification.objects.filter(kind="table_full").exists()


def test_the_create_form_offers_auto_start_on_by_default_and_a_name(anna):
    browser = signed_in(anna)
    form = html.unescape(browser.get(reverse("games:create")).content.decode())
    assert re.search(r'<input type="checkbox" name="auto_start"[^>]*checked', form)
    for sentence in (
        "every player must first build a white bell tower",
        "Grey seals that block commissions",
        "Where the neutral seals go before the first turn",
        "Dead colour: all six commissions of one random colour are covered",
    ):
        assert sentence in form

    response = browser.post(
        reverse("games:create"),
        {
            "name": "  Friday   towers ",
            "num_players": "2",
            "neutral_seals": "5",
            "seal_placement": "recommended",
            "time_limit": str(3 * 86400),
            "is_public": "1",
        },
    )
    game = Game.objects.get()
    assert response["Location"] == url("detail", game)
    assert game.name == "Friday towers" and game.title == "Friday towers"
    assert not game.auto_start  # an unticked box
    assert "<h1>Friday towers</h1>" in page_of(browser, game)


@pytest.mark.parametrize("name", ["x" * 61, "bad\x00name", "tab\u200bhidden", "line\u202ereversed"])
def test_a_game_name_with_control_characters_or_too_long_is_refused(anna, name):
    response = signed_in(anna).post(
        reverse("games:create"),
        {
            "name": name,
            "num_players": "2",
            "neutral_seals": "5",
            "seal_placement": "recommended",
            "time_limit": str(3 * 86400),
            "is_public": "1",
        },
    )
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_bots_get_distinct_readable_names(anna):
    game = lobby.create_game(anna, num_players=4, auto_start=False)
    for _ in range(3):
        lobby.add_bot(game, anna)
    names = [s.name for s in game.seats.exclude(bot="").order_by("joined", "pk")]
    assert names == ["Bot Lorenzo", "Bot Cosimo", "Bot Filippo"]
    lobby.remove_seat(game, anna, game.seats.get(bot_name="Cosimo").pk)
    lobby.add_bot(game, anna)
    assert sorted(s.name for s in game.seats.exclude(bot="")) == [
        "Bot Cosimo",
        "Bot Filippo",
        "Bot Lorenzo",
    ]


# --- invitations ----------------------------------------------------------------------------


def test_an_address_without_an_account_gets_an_invitation_email_with_the_seat_link(
    anna, ben, django_capture_on_commit_callbacks
):
    game = lobby.create_game(anna, num_players=3, is_public=False)
    lobby.join(game, ben, token=game.invite_token)
    creator = signed_in(anna)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = creator.post(url("invite", game), {"display_name": "newbie@example.org"})

    assert "An invitation is on its way to newbie@example.org." in messages_of(creator, response)
    [email] = mail.outbox
    assert email.to == ["newbie@example.org"]
    assert email.subject == "Anna invites you to a game of Firenze"
    invitation = Invitation.objects.get()
    # The invitee's own link: it seats them once, and no one else through it.
    link = reverse("games:invite_link", args=[invitation.token])
    assert invitation.token != game.invite_token
    assert link in email.body and "create a free account" in email.body
    assert "unsubscribe" not in email.body.lower()
    assert invitation.email == "newbie@example.org" and invitation.user is None
    assert invitation.email_sent_at is not None
    # The creator sees the address; the other players see that someone was invited.
    assert re.search(r"<li>newbie@example.org <span[^>]*>\(by email\)", page_of(creator, game))
    other = page_of(signed_in(ben), game)
    assert "newbie@example.org" not in other and "1 more invited by email" in other


def test_the_invitation_is_sent_once_however_often_its_task_runs(
    anna, django_capture_on_commit_callbacks
):
    from notifications.tasks import send_address_invitation

    game = lobby.create_game(anna, num_players=2)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = lobby.invite_by_email(game, anna, "once@example.org")
    send_address_invitation(invitation.pk)
    send_address_invitation(invitation.pk)
    assert len([m for m in mail.outbox if m.to == ["once@example.org"]]) == 1


def test_an_address_with_an_account_invites_that_player_without_telling_who_it_is(
    anna, carla, django_capture_on_commit_callbacks
):
    game = lobby.create_game(anna, num_players=2, is_public=False)
    creator = signed_in(anna)
    with django_capture_on_commit_callbacks(execute=True):
        response = creator.post(url("invite", game), {"display_name": carla.email.upper()})

    confirmation = messages_of(creator, response)
    assert f"An invitation is on its way to {carla.email.upper()}." in confirmation
    assert "Carla" not in confirmation  # the address is not matched to a name for the inviter
    invitation = Invitation.objects.get()
    assert invitation.user == carla
    assert Notification.objects.filter(user=carla, kind="invited").exists()
    # Carla sees and may join the private game.
    assert signed_in(carla).post(url("join", game)).status_code == 302
    game.refresh_from_db()
    assert game.is_active


def test_a_new_account_confirming_the_invited_address_gets_the_invitation(anna):
    game = lobby.create_game(anna, num_players=2, is_public=False)
    lobby.invite_by_email(game, anna, "newbie@example.org")
    newbie = UserFactory(username="newbie", email="newbie@example.org", verified=False)
    address = EmailAddress.objects.create(user=newbie, email=newbie.email, verified=True)

    email_confirmed.send(sender=EmailAddress, request=None, email_address=address)

    assert Invitation.objects.get().user == newbie
    assert signed_in(newbie).get(url("detail", game)).status_code == 200


def test_inviting_by_display_name_confirms_with_the_real_name(anna, ben):
    game = lobby.create_game(anna, num_players=3)
    creator = signed_in(anna)
    response = creator.post(url("invite", game), {"display_name": "  bEN "})
    assert "Ben is invited." in messages_of(creator, response)
    page = page_of(signed_in(anna), game)
    invited = re.search(r"Invited, not joined yet</h2>\s*<ul[^>]*>(.*?)</ul>", page, re.S).group(1)
    invited = re.sub(r"<form.*?</form>", "", invited, flags=re.S)  # the creator's withdraw
    assert re.sub(r"<[^>]+>", "", invited).split() == ["Ben"]


@pytest.mark.parametrize("value", ["not an address@", "a@b", "x" * 300, "@@@", ""])
def test_a_bad_address_or_name_is_refused_with_a_reason(anna, value):
    game = lobby.create_game(anna, num_players=3)
    creator = signed_in(anna)
    response = creator.post(url("invite", game), {"display_name": value})
    assert response.status_code == 303
    assert not Invitation.objects.exists()
    assert re.search(r'class="message error"', messages_of(creator, response))


def test_the_invite_form_is_only_for_the_creator_while_seats_are_free(anna, ben, carla):
    game = lobby.create_game(anna, num_players=3, auto_start=False)
    invite = f'action="{url("invite", game)}"'
    assert invite in page_of(signed_in(anna), game)
    lobby.join(game, ben)
    assert invite not in page_of(signed_in(ben), game)
    lobby.join(game, carla)
    assert invite not in page_of(signed_in(anna), game)
    creator = signed_in(anna)
    response = creator.post(url("invite", game), {"display_name": "someone@example.org"})
    assert "Every seat is taken" in messages_of(creator, response)


def test_the_invite_link_has_a_copy_button_and_no_inline_script(anna):
    game = lobby.create_game(anna, num_players=3)
    page = page_of(signed_in(anna), game)
    assert re.search(r'<button type="button"[^>]*data-copy="invite-link"', page)
    assert "onclick" not in page and "hx-on" not in page


def test_free_seat_buttons_are_styled_to_be_seen(anna, ben):
    game = lobby.create_game(anna, num_players=3)
    lobby.join(game, ben)
    page = page_of(signed_in(anna), game)
    assert re.search(r'<button class="text-button">free seat</button>', page)


def test_opponents_see_that_the_player_to_move_is_away(anna, ben):
    from datetime import datetime, timedelta

    from django.utils import timezone

    from games.models import Absence
    from tests.web.helpers import started_game

    game = started_game(anna, ben)
    mover = game.seats.get(number=game.acting_seat).user
    watcher = ben if mover == anna else anna
    today = timezone.localdate()
    back = timezone.make_aware(datetime.combine(today + timedelta(days=3), datetime.min.time()))
    Absence.objects.create(user=mover, starts=timezone.now() - timedelta(hours=1), ends=back)

    page = page_of(signed_in(watcher), game)

    last_day = today + timedelta(days=2)
    name = mover.public_name
    until = f"{last_day:%A} {last_day.day} {last_day:%B}"
    expected = f"{name} is away until {until}; {name}'s clock is paused."
    assert expected in page
    assert "Time left" not in page
