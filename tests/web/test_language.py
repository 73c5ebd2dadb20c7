"""The site's languages without the language in the URL: the signed-in player's choice (set from
the browser at sign-up, changed on the account page or with the footer switcher), else the
switcher's cookie, else the browser's Accept-Language; every email in its recipient's language,
whoever triggered it."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from notifications.models import Notification
from tests.factories import PASSWORD, UserFactory
from tests.web.helpers import signed_in
from tests.web.test_notifications import new_game, play_until, second_turn_of
from tests.web.test_notifications_emails import send

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9,en;q=0.5"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def lobby(client: Client, **headers) -> str:
    response = client.get(reverse("games:lobby"), **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_it_follows_the_browser_for_visitors_without_changing_the_address():
    assert "<h1>Offene Partien</h1>" in lobby(Client(), **GERMAN)
    assert "<h1>Open games</h1>" in lobby(Client(), **ENGLISH)
    response = Client().get(reverse("games:lobby"), **GERMAN)
    assert response["Content-Language"] == "de"
    assert '<html lang="de">' in response.content.decode()
    assert "Accept-Language" in response["Vary"] and "Cookie" in response["Vary"]


def test_it_speaks_english_to_a_browser_asking_for_a_language_it_does_not_have():
    assert "<h1>Open games</h1>" in lobby(Client(), HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9")


def test_it_remembers_a_visitors_choice_from_the_footer_over_the_browser():
    client = Client()
    response = client.post(reverse("switch_language"), {"language": "de", "next": "/open/"})
    assert response.status_code == 302 and response["Location"] == "/open/"
    assert response.cookies["lang"].value == "de"
    assert "<h1>Offene Partien</h1>" in lobby(client, **ENGLISH)


def test_it_refuses_a_language_it_does_not_offer_with_a_clear_answer():
    for value in ("pt", "", "de" * 40, "../../etc"):
        response = Client().post(reverse("switch_language"), {"language": value})
        assert response.status_code == 400
        assert "en, de" in response.content.decode()
    assert Client().get(reverse("switch_language")).status_code == 405


def test_it_goes_back_only_to_a_page_of_this_site():
    for target in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)"):
        response = Client().post(reverse("switch_language"), {"language": "de", "next": target})
        assert response.status_code == 302 and response["Location"] == "/"


def test_it_keeps_a_players_language_whatever_the_browser_or_cookie_says(anna):
    anna.language = "de"
    anna.save()
    client = signed_in(anna)
    client.cookies["lang"] = "en"
    assert "<h1>Offene Partien</h1>" in lobby(client, **ENGLISH)


def test_it_saves_the_footer_choice_on_the_account_of_a_signed_in_player(anna):
    client = signed_in(anna)
    client.post(reverse("switch_language"), {"language": "de", "next": "/open/"})
    anna.refresh_from_db()
    assert anna.language == "de"
    assert "<h1>Offene Partien</h1>" in lobby(signed_in(anna), **ENGLISH)


def test_it_changes_the_language_on_the_account_page(anna):
    client = signed_in(anna)
    response = client.post(
        reverse("accounts:profile"), {"form": "language", "language": "de"}, follow=True
    )
    anna.refresh_from_db()
    assert anna.language == "de"
    assert "Deine Sprache ist gespeichert." in response.content.decode()
    bad = client.post(reverse("accounts:profile"), {"form": "language", "language": "xx"})
    assert bad.status_code == 200 and "xx" not in {anna.language}
    anna.refresh_from_db()
    assert anna.language == "de"


def test_it_takes_the_language_of_a_new_player_from_the_browser_at_sign_up():
    response = Client().post(
        reverse("account_signup"),
        {
            "email": "erika@example.com",
            "display_name": "Erika",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        **GERMAN,
    )
    assert response.status_code == 302
    erika = UserFactory._meta.model.objects.get(email="erika@example.com")
    assert erika.language == "de"
    # allauth's own email (confirm the address) is German too, and allauth's pages are.
    [confirm] = mail.outbox
    assert "Hallo von Firenze!" in confirm.body
    page = Client().get(reverse("account_login"), **GERMAN).content.decode()
    assert "Passwort vergessen?" in page


def test_it_writes_each_email_in_its_recipients_language_whoever_triggered_it(anna, ben, carla):
    anna.language = "de"
    anna.save()
    game = new_game(anna, ben, carla, seed=1504)
    play_until(game, second_turn_of(anna))
    german = send(anna, Notification.Kind.YOUR_TURN, game)
    assert german.subject.startswith("Du bist dran in Firenze")
    assert "Hallo Anna," in german.body and "Seit deinem letzten Zug:" in german.body
    [(html, _)] = german.alternatives
    assert '<html lang="de">' in html and "Zug spielen" in html
    english = send(ben, Notification.Kind.GAME_STARTED, game)
    assert "Hello Ben," in english.body
