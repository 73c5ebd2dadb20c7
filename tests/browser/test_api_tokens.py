"""The API tokens page as a player uses it: make a token (the password asked again), copy it
from the one page that shows it, see it listed, revoke it; axe-clean on a desktop and a phone,
in English and German, with screenshots (test-artifacts/screenshots/api-tokens-*.jpg)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from api.models import ApiToken
from tests.browser.helpers import screenshot, user
from tests.browser.test_accessibility import blocking_violations
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WORDS = {
    "en": {"name": "Name", "play": "Read and play", "make": "Make the token", "revoke": "Revoke",
           "copy": "Copy token", "copied": "Copied"},
    "de": {"name": "Name", "play": "Lesen und spielen", "make": "Schlüssel anlegen",
           "revoke": "Widerrufen", "copy": "Schlüssel kopieren", "copied": "Kopiert"},
}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_player_makes_copies_and_revokes_a_token(new_page, phone, language):
    anna = user("anna")
    anna.language = language
    anna.save(update_fields=["language"])
    words = WORDS[language]
    page = new_page(phone=phone, user=anna, language=language)
    page.goto("/accounts/api/")
    assert not blocking_violations(page)
    page.get_by_label(words["name"], exact=True).fill("Discord bot")
    page.get_by_label(words["play"]).check()
    page.get_by_role("button", name=words["make"]).click()
    page.get_by_label(re.compile("Passwor")).fill(PASSWORD)  # allauth asks again
    page.locator("main form button[type=submit]").first.click()
    shown = page.locator("#new-token-value")
    expect(shown).to_have_value(re.compile(r"^fz_[0-9a-f]{12}_"))
    token = ApiToken.objects.get(user=anna)
    assert token.scope == "play" and shown.input_value() not in token.key_hash
    copy = page.locator('button[data-copy="new-token-value"]')
    expect(copy).to_have_text(words["copy"])
    copy.click()
    expect(copy).to_have_text(words["copied"])
    screenshot(page, f"api-tokens-new-{language}-{'phone' if phone else 'desktop'}")
    assert not blocking_violations(page)
    page.goto("/accounts/api/")
    expect(page.locator("#new-token-value")).to_have_count(0)  # shown once only
    expect(page.locator(".token-name")).to_have_text("Discord bot")
    screenshot(page, f"api-tokens-list-{language}-{'phone' if phone else 'desktop'}")
    page.get_by_role("button", name=re.compile(words["revoke"], re.IGNORECASE)).click()
    expect(page.locator(".token-name")).to_have_count(0)
    token.refresh_from_db()
    assert token.revoked_at is not None
