"""Display names that would let a player pass for the site, a seat label or another player are
refused, at sign-up and on the account page; two sign-ups racing for one name get a form error."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.forms import SignupForm
from tests.web.helpers import reauthenticated
from tests.web.test_accounts import sign_up

pytestmark = pytest.mark.django_db

User = get_user_model()
RESERVED = "That name is kept for the site or for seats without a player; choose another."
LOOKALIKE = "That name looks too much like another player&#x27;s name; choose another."


@pytest.mark.parametrize(
    "name",
    [
        "Player 3",
        "player",
        "P1ayer 2",
        "Bot Greedy",
        "bot 2",
        "B0t",
        "Ｂｏｔ Ｘ",
        "Open seat",
        "Former player",
        "admin",
        "Admin Anna",
        "ADMlN",
        "Moderator",
        "Firenze",
        "Team Firenze",
    ],
)
def test_it_refuses_names_that_pass_for_the_site_or_a_seat_label(client, name):
    response = sign_up(client, display_name=name)

    assert response.status_code == 200
    assert RESERVED in response.content.decode()
    assert not User.objects.filter(email="dario@example.com").exists()


@pytest.mark.parametrize("name", ["Botticelli", "Playful Pia", "Anna di Firenze", "Modesto"])
def test_it_keeps_ordinary_names_that_only_start_like_a_reserved_one(client, name):
    assert sign_up(client, display_name=name).status_code == 302
    assert User.objects.get(email="dario@example.com").display_name == name


@pytest.mark.parametrize(
    "name",
    [
        "\u0410nna",  # Cyrillic capital A
        "Аnnа",  # Cyrillic a twice
        "Ann_a",
        "ANNA",
        "Anna.",
    ],
)
def test_it_refuses_a_look_alike_of_another_players_name(client, anna, name):
    response = sign_up(client, display_name=name)

    page = response.content.decode()
    assert response.status_code == 200
    assert LOOKALIKE in page or "That display name is taken." in page
    assert not User.objects.filter(email="dario@example.com").exists()


@pytest.mark.parametrize("name", ["Alíce", "Alicé", "ÁLICE", "Ａlicè"])
def test_it_refuses_a_name_that_differs_only_by_accents(client, carla, name):
    carla.display_name = "Alice"
    carla.save()

    response = sign_up(client, display_name=name)

    assert LOOKALIKE in response.content.decode()
    assert not User.objects.filter(email="dario@example.com").exists()


def test_accented_names_are_refused_beside_names_stored_before_the_rule(client, carla):
    """The migration draws the stored skeletons again."""
    from importlib import import_module

    from django.apps import apps

    carla.display_name = "Zoë"
    carla.save()
    User.objects.filter(pk=carla.pk).update(display_name_skeleton="z0ë")  # as drawn before
    migration = import_module("accounts.migrations.0008_display_name_skeleton_without_accents")
    migration.redraw_skeletons(apps, None)

    assert LOOKALIKE in sign_up(client, display_name="Zoe").content.decode()


def test_it_tells_i_from_l_and_o_from_zero_apart_no_better_than_a_reader_would(client, carla):
    carla.display_name = "Olivia"
    carla.save()

    for name in ("0livia", "OIivia", "01ivia"):
        assert LOOKALIKE in sign_up(client, display_name=name).content.decode()


def test_it_refuses_a_look_alike_on_the_account_page_too(anna, ben):
    client = reauthenticated(ben)

    response = client.post("/accounts/profile/", {"display_name": "Аnna"})

    assert LOOKALIKE in response.content.decode()
    ben.refresh_from_db()
    assert ben.display_name == "Ben"


def test_two_sign_ups_racing_for_one_name_get_a_form_error_not_a_crash(client, monkeypatch):
    # The second sign-up passed the form's check before the first one was saved: the database's
    # unique index is what catches it.
    monkeypatch.setattr(
        SignupForm, "clean_display_name", lambda self: self.cleaned_data["display_name"]
    )
    assert sign_up(client, email="first@example.com", display_name="Dario").status_code == 302

    response = sign_up(client, email="second@example.com", display_name="dario")

    assert response.status_code == 200
    assert "That display name is taken." in response.content.decode()
    assert not User.objects.filter(email="second@example.com").exists()
