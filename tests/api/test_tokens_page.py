"""The API tokens page: made after the password is asked again, shown once, stored hashed,
revoked; a sign-in link's session cannot make one."""

from __future__ import annotations

import re

import pytest
from allauth.account.internal.flows.login import record_authentication
from django.test import Client

from api.models import ApiToken
from api.tokens import digest
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'value="(fz_[0-9a-f]{12}_[A-Za-z0-9_-]+)"')


def password_session(user) -> Client:
    """Signed in, and just gave the password again (allauth's reauthentication)."""
    client = Client()
    client.force_login(user)
    assert client.post("/accounts/reauthenticate/", {"password": PASSWORD}).status_code == 302
    return client


def test_it_makes_a_token_shown_once_and_stored_hashed(anna):
    client = password_session(anna)
    response = client.post("/accounts/api/new/", {"name": "Discord bot", "scope": "read"})
    assert response.status_code == 201
    secret = TOKEN.search(response.content.decode()).group(1)
    stored = ApiToken.objects.get(user=anna)
    assert stored.name == "Discord bot" and stored.scope == "read"
    assert stored.key_hash == digest(secret) and secret not in str(stored.__dict__)
    assert "no-store" in response["Cache-Control"]
    copy = re.search(
        r'<button[^>]*data-copy="([^"]+)"[^>]*>([^<]+)</button>', response.content.decode()
    )
    assert copy and copy.group(2) == "Copy token"
    assert (
        f'id="{copy.group(1)}" type="text" readonly value="{secret}"' in response.content.decode()
    )
    page = client.get("/accounts/api/").content.decode()
    assert "Discord bot" in page and secret not in page and "never used" in page
    Client().get("/api/v1/account", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert "last used" in client.get("/accounts/api/").content.decode()


def test_a_sign_in_link_session_cannot_make_a_token(anna):
    client = Client()
    client.force_login(anna)
    session = client.session
    # What notifications.views.login_link records: a session that never counts as
    # reauthenticated (allauth asks for the password).
    from django.http import HttpRequest

    request = HttpRequest()
    request.session = session
    request.user = anna
    record_authentication(request, anna, method="email_link")
    session.save()
    response = client.post("/accounts/api/new/", {"name": "x", "scope": "play"})
    assert response.status_code == 302 and "/accounts/reauthenticate/" in response["Location"]
    assert not ApiToken.objects.exists()
    # Giving the password resumes the request: the token is made.
    resumed = client.post(response["Location"], {"password": PASSWORD})
    assert ApiToken.objects.filter(user=anna, name="x").exists(), resumed.status_code


def test_the_password_asked_again_expires(anna, settings, time_machine):
    time_machine.move_to("2026-11-27 12:00:00Z", tick=False)
    client = password_session(anna)
    settings.ACCOUNT_REAUTHENTICATION_TIMEOUT = 60
    time_machine.shift(61)
    response = client.post("/accounts/api/new/", {"name": "x", "scope": "read"})
    assert response.status_code == 302 and not ApiToken.objects.exists()


def test_it_revokes_a_token(anna, ben):
    client = password_session(anna)
    client.post("/accounts/api/new/", {"name": "old", "scope": "play"})
    token = ApiToken.objects.get(user=anna)
    assert password_session(ben).post(f"/accounts/api/{token.pk}/revoke/").status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is None  # not Ben's to revoke
    client.post(f"/accounts/api/{token.pk}/revoke/")
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert "old" not in client.get("/accounts/api/").content.decode()


def test_a_token_needs_a_name(anna):
    client = password_session(anna)
    response = client.post("/accounts/api/new/", {"name": "  ", "scope": "play"})
    assert response.status_code == 400 and not ApiToken.objects.exists()
    assert "Give the token a name." in response.content.decode()


def test_the_page_is_in_german_too(anna):
    anna.language = "de"
    anna.save()
    client = password_session(anna)
    page = client.get("/accounts/api/").content.decode()
    assert "API-Schlüssel" in page or "API-Token" in page
