"""Inviting by email address, end to end (issue 9): the creator types an address that has no
account; its owner gets an email whose link leads through sign-up to the seat, and the game
starts by itself once the table is full."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from django.core import mail
from playwright.sync_api import expect

from games import lobby
from games.models import Game
from tests.browser.helpers import screenshot, user
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINK = re.compile(r"https?://\S+")


def path_of(url: str) -> str:
    parts = urlparse(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def test_an_invitation_by_email_leads_through_sign_up_to_the_seat(new_page):
    anna = user("anna")
    game = lobby.create_game(anna, num_players=2, is_public=False, name="Towers for two")
    creator = new_page(user=anna)
    creator.goto(f"/games/{game.pk}/")
    creator.fill("#id_display_name", "newcomer@example.com")
    creator.get_by_role("button", name="Invite", exact=True).click()
    expect(creator.locator(".messages")).to_contain_text(
        "An invitation is on its way to newcomer@example.com."
    )
    expect(creator.locator(".invited-list")).to_contain_text("newcomer@example.com")

    [invitation] = [m for m in mail.outbox if m.to == ["newcomer@example.com"]]
    # The subject carries none of the sender's text (issue 18); the body says who invites.
    assert invitation.subject == "An invitation to a game of Firenze"
    assert "Anna" in invitation.body
    link = next(url for url in LINK.findall(invitation.body) if "/games/invite/" in url)
    mail.outbox.clear()

    guest = new_page(phone=True)
    guest.goto(path_of(link))
    expect(guest.locator("h1")).to_have_text("Towers for two")
    screenshot(guest, "phone-invite-01-landing")
    guest.get_by_role("link", name="Create an account to take a seat").click()
    # The invitation proved the address: it is filled in, and not asked to be confirmed.
    expect(guest.locator("#id_email")).to_have_value("newcomer@example.com")
    guest.fill("#id_display_name", "Newcomer")
    guest.fill("#id_password1", PASSWORD)
    guest.fill("#id_password2", PASSWORD)
    guest.click("form button[type=submit]")

    # Straight back on the game page, signed in, with the seat to take.
    expect(guest.locator("h1")).to_have_text("Towers for two")
    guest.get_by_role("button", name="Take a seat").click()
    expect(guest.locator("#game")).to_be_visible()  # the full table started by itself
    screenshot(guest, "phone-invite-02-seated")
    game.refresh_from_db()
    assert game.is_active
    assert {s.user.display_name for s in game.seats.select_related("user")} == {"Anna", "Newcomer"}
    assert not Game.objects.get(pk=game.pk).invitations.exists()
    assert not [m for m in mail.outbox if "confirm-email" in m.body]  # nothing to confirm
