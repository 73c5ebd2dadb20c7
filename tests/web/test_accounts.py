"""Accounts: sign-up, verification, sign-in (password or emailed code), sign-out, password
reset, and the display name that stands in for the email address everywhere.

Emails go through Django's email backend (locmem in tests, so ``mail.outbox``); links and
codes are read from the messages the way a player would read them.
"""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache

from tests.factories import PASSWORD, UserFactory
from tests.web.helpers import reauthenticated

pytestmark = pytest.mark.django_db

User = get_user_model()

NEW_PASSWORD = "arno-bridges-1504"


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """allauth counts attempts in the cache; start every test with a clean slate."""
    cache.clear()
    yield
    cache.clear()


def sign_up(client, email="dario@example.com", display_name="Dario", password=PASSWORD):
    return client.post(
        "/accounts/signup/",
        {
            "email": email,
            "display_name": display_name,
            "password1": password,
            "password2": password,
        },
    )


def sign_in(client, email, password=PASSWORD, **extra):
    return client.post("/accounts/login/", {"login": email, "password": password, **extra})


def signed_in_user(client):
    """The user the client's session belongs to, or None."""
    response = client.get("/accounts/profile/")
    return response.wsgi_request.user if response.status_code == 200 else None


def link_in(message, path_prefix: str) -> str:
    """The path of the first link in an email that starts with ``path_prefix``."""
    match = re.search(r"https?://[^/\s]+(" + re.escape(path_prefix) + r"\S*)", message.body)
    assert match, f"no {path_prefix} link in:\n{message.body}"
    return match.group(1)


def header_of(page: str) -> str:
    return page.split('<header class="site-header">', 1)[1].split("</header>", 1)[0]


# --- Sign-up and email verification -----------------------------------------------------------


def test_it_signs_up_with_email_password_and_display_name_and_emails_a_verification_link(client):
    response = sign_up(client)

    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    dario = User.objects.get(email="dario@example.com")
    assert dario.display_name == "Dario"
    assert dario.check_password(PASSWORD)
    assert not EmailAddress.objects.get(user=dario).verified
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["dario@example.com"]
    assert message.subject.startswith("[Firenze] ")
    assert "Dario" in message.body
    assert link_in(message, "/accounts/confirm-email/")


def test_it_verifies_the_address_from_the_emailed_link_and_lets_the_player_in(client):
    sign_up(client)
    assert signed_in_user(client) is None  # verification is mandatory
    confirm_path = link_in(mail.outbox[0], "/accounts/confirm-email/")

    page = client.get(confirm_path)
    assert page.status_code == 200
    response = client.post(confirm_path)

    assert response.status_code == 302
    assert EmailAddress.objects.get(email="dario@example.com").verified
    assert signed_in_user(client).display_name == "Dario"


def test_it_lets_a_verified_player_sign_in_later_with_the_new_password(client):
    sign_up(client)
    client.post(link_in(mail.outbox[0], "/accounts/confirm-email/"))
    client.post("/accounts/logout/")

    sign_in(client, "dario@example.com")

    assert signed_in_user(client).email == "dario@example.com"


def test_it_keeps_an_unverified_player_out_and_resends_the_verification_email(client):
    dario = UserFactory(username="dario", verified=False)
    EmailAddress.objects.create(user=dario, email=dario.email, primary=True, verified=False)

    response = sign_in(client, "dario@example.com")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    assert signed_in_user(client) is None
    assert [m.to for m in mail.outbox] == [["dario@example.com"]]


def test_it_derives_the_internal_username_from_the_display_name_not_the_email(client):
    sign_up(client, email="d.rossi@example.com", display_name="Dario the Builder")

    dario = User.objects.get(email="d.rossi@example.com")
    assert dario.username == "dario_the_builder"


def test_it_answers_a_sign_up_with_a_registered_address_like_any_other(client, anna):
    fresh = sign_up(client, email="dario@example.com", display_name="Dario")
    mail.outbox.clear()
    other_client = client.__class__()

    repeat = sign_up(other_client, email="anna@example.com", display_name="Someone New")

    # Same answer as a brand-new sign-up: no error, same "check your email" page.
    assert repeat.status_code == fresh.status_code == 302
    assert repeat["Location"] == fresh["Location"]
    page = other_client.get(repeat["Location"]).content.decode()
    assert "Anna" not in page
    assert "already" not in page.lower()
    # No second account; only the owner of the address learns about the attempt.
    assert not User.objects.filter(display_name="Someone New").exists()
    assert User.objects.filter(email__iexact="anna@example.com").count() == 1
    assert [m.to for m in mail.outbox] == [["anna@example.com"]]
    assert "/accounts/password/reset/" in mail.outbox[0].body


# --- Display name validation -------------------------------------------------------------------


def test_it_requires_a_display_name_at_sign_up(client):
    response = sign_up(client, display_name="")

    assert response.status_code == 200
    assert "Choose a display name." in response.content.decode()
    assert not User.objects.filter(email="dario@example.com").exists()
    assert mail.outbox == []


@pytest.mark.parametrize(
    ("display_name", "error"),
    [
        ("Da", "at least 3 characters"),
        ("   D  ", "at least 3 characters"),
        ("D" * 25, "at most 24 characters"),
        ("Dario!", "Use only letters, digits, spaces and the characters _ - ."),
        ("<b>Dario</b>", "Use only letters, digits, spaces and the characters _ - ."),
        ("dario@example.com", "Use only letters, digits, spaces and the characters _ - ."),
        ("-._", "at least one letter or digit"),
    ],
)
def test_it_rejects_a_badly_formed_display_name(client, display_name, error):
    response = sign_up(client, display_name=display_name)

    assert response.status_code == 200
    assert error in response.content.decode()
    assert not User.objects.filter(email="dario@example.com").exists()


@pytest.mark.parametrize(
    ("typed", "saved"),
    [
        ("  Dario  ", "Dario"),
        ("Dario   de  Medici", "Dario de Medici"),
        ("dario_42.b-c", "dario_42.b-c"),
        ("Darío Señor", "Darío Señor"),
    ],
)
def test_it_trims_and_keeps_well_formed_display_names(client, typed, saved):
    sign_up(client, display_name=typed)

    assert User.objects.get(email="dario@example.com").display_name == saved


@pytest.mark.parametrize("taken", ["Anna", "anna", "ANNA", " aNNa "])
def test_it_refuses_a_display_name_taken_in_any_case(client, anna, taken):
    response = sign_up(client, display_name=taken)

    assert response.status_code == 200
    assert "That display name is taken." in response.content.decode()
    assert not User.objects.filter(email="dario@example.com").exists()


# --- Sign-in, sign-out, sign-in by code, password reset -----------------------------------------


def test_it_signs_in_with_email_and_password(client, anna):
    response = sign_in(client, "anna@example.com")

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_user(client) == anna


def test_it_refuses_a_wrong_password(client, anna):
    response = sign_in(client, "anna@example.com", password="not-the-password")

    assert response.status_code == 200
    assert "not correct" in response.content.decode()
    assert signed_in_user(client) is None


def test_it_signs_out(client, anna):
    client.force_login(anna)

    response = client.post("/accounts/logout/")

    assert response.status_code == 302
    assert signed_in_user(client) is None


def test_it_signs_in_with_a_code_sent_by_email(client, ben):
    response = client.post("/accounts/login/code/", {"email": "ben@example.com"})

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/code/confirm/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ben@example.com"]
    code = re.search(r"^([A-Z0-9]{4}-[A-Z0-9]{4})$", message.body, re.MULTILINE).group(1)

    response = client.post("/accounts/login/code/confirm/", {"code": code})

    assert response.status_code == 302
    assert signed_in_user(client) == ben


def test_it_refuses_a_wrong_sign_in_code(client, ben):
    client.post("/accounts/login/code/", {"email": "ben@example.com"})

    response = client.post("/accounts/login/code/confirm/", {"code": "WRONG1"})

    assert response.status_code == 200
    assert signed_in_user(client) is None


def test_it_resets_a_forgotten_password_through_the_emailed_link(client, carla):
    response = client.post("/accounts/password/reset/", {"email": "carla@example.com"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["carla@example.com"]
    key_path = link_in(mail.outbox[0], "/accounts/password/reset/key/")

    form_page = client.get(key_path, follow=True)
    assert form_page.status_code == 200
    set_path = form_page.redirect_chain[-1][0]
    response = client.post(set_path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert response.status_code == 302
    carla.refresh_from_db()
    assert carla.check_password(NEW_PASSWORD)
    sign_in(client, "carla@example.com", password=NEW_PASSWORD)
    assert signed_in_user(client) == carla


# --- The profile page and the header -----------------------------------------------------------


def test_it_sends_visitors_from_the_profile_page_to_sign_in(client):
    response = client.get("/accounts/profile/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/accounts/profile/")


def test_it_shows_the_profile_with_links_to_email_password_and_sign_out(client, anna):
    client.force_login(anna)

    page = client.get("/accounts/profile/").content.decode()

    assert 'value="Anna"' in page
    for path in ("/accounts/email/", "/accounts/password/change/", "/accounts/logout/"):
        assert f'"{path}"' in page


def test_it_changes_the_display_name_on_the_profile_page(client, anna):
    client = reauthenticated(anna)  # a new name needs the password again

    response = client.post("/accounts/profile/", {"display_name": "  Anna  di Firenze "})

    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.display_name == "Anna di Firenze"
    page = client.get(response["Location"]).content.decode()
    assert "Your display name is now Anna di Firenze." in page


def test_it_lets_a_player_recase_their_own_display_name(client, anna):
    client = reauthenticated(anna)  # a new name needs the password again

    client.post("/accounts/profile/", {"display_name": "ANNA"})

    anna.refresh_from_db()
    assert anna.display_name == "ANNA"


@pytest.mark.parametrize(
    ("display_name", "error"),
    [
        ("anna", "That display name is taken."),
        ("", "Choose a display name."),
        ("Be", "at least 3 characters"),
        ("Ben?", "Use only letters, digits, spaces and the characters _ - ."),
    ],
)
def test_it_validates_the_display_name_on_the_profile_page(client, anna, ben, display_name, error):
    client = reauthenticated(ben)  # a new name needs the password again

    response = client.post("/accounts/profile/", {"display_name": display_name})

    assert response.status_code == 200
    assert error in response.content.decode()
    ben.refresh_from_db()
    assert ben.display_name == "Ben"
    assert "Ben" in header_of(response.content.decode())


def test_it_shows_the_display_name_and_never_the_email_in_the_header(client, anna):
    client.force_login(anna)

    for path in ("/accounts/profile/", "/accounts/email/", "/accounts/password/change/"):
        header = header_of(client.get(path).content.decode())
        assert "Anna" in header
        assert "/accounts/profile/" in header
        assert "anna@example.com" not in header


def test_it_offers_sign_in_and_sign_up_in_the_header_to_visitors(client):
    header = header_of(client.get("/").content.decode())

    assert "/accounts/login/" in header
    assert "/accounts/signup/" in header
    assert "/accounts/profile/" not in header


def test_it_greets_the_player_by_display_name_after_signing_in(client, anna):
    response = sign_in(client, "anna@example.com", next="/accounts/password/change/")
    page = client.get(response["Location"]).content.decode()

    assert "Successfully signed in as Anna." in page
    assert "anna@example.com" not in page
