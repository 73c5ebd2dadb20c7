"""The club pages in Chromium (clubs/): a club with its ladder, its members and the list of
clubs pass axe on a desktop and a phone, light and dark, in English and German, and nothing
scrolls sideways; a member challenges from the keyboard and the ladder answers in place (htmx).
Screenshots go to test-artifacts/screenshots/ (club-*.jpg)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import challenges, membership
from clubs.models import Challenge, ClubTournament
from games import lobby, resign
from tests.browser.helpers import overflow, screenshot, user
from tests.browser.screens import each_screen, share
from tests.browser.test_accessibility import blocking_violations
from tests.browser.worlds import shared_world
from tournaments import signup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def club():
    """Chess Lovers: six members, one challenge won (Fabio climbed past Dora), one waiting
    for Anna's answer, and a club tournament open for sign-up: built once per test
    process (tests/browser/worlds.py)."""
    return shared_world("clubs", build_club)


def build_club():
    players = [user(name) for name in ("anna", "ben", "carla", "dora", "emil", "fabio")]
    anna = players[0]
    club = membership.found(
        anna, name="Chess Lovers", description="We meet on Sundays.", door="invitation"
    )
    for player in players[1:]:
        membership.invite(club, anna, player)
        membership.join(club, player)
    challenges.challenge(club, players[5], players[3])
    game = Challenge.objects.get().game
    lobby.join(game, players[3])
    resign.resign(game.pk, players[3])
    challenges.challenge(club, players[1], anna)
    tournament = signup.create(
        anna, name="Sunday Cup", fmt="swiss", table_size=2, max_players=8, rounds=3,
        signup_closes=timezone.now() + timedelta(days=3), is_public=False,
    )  # fmt: skip
    ClubTournament.objects.create(tournament=tournament, club=club)
    return {"club": club, "players": players}


@each_screen
def test_the_club_pages_pass_axe_and_fit_the_screen(new_page, club, phone, dark, language):
    """This screen's share of the pages (tests/browser/screens.py): each page on two screens
    opposite in device, scheme and language."""
    players, slug = club["players"], club["club"].slug
    for player in players:
        player.language = language
        player.save(update_fields=["language"])
    pages = [
        ("ladder", players[0], f"/clubs/{slug}/"),
        ("ladder-member", players[2], f"/clubs/{slug}/"),
        ("members", players[0], f"/clubs/{slug}/members/"),
        ("games", players[2], f"/clubs/{slug}/games/"),
        ("list", players[2], "/clubs/"),
        ("outsider", None, f"/clubs/{slug}/"),
        ("new", players[2], "/clubs/new/"),
        ("settings", players[0], f"/clubs/{slug}/settings/"),
    ]
    pages = share(pages, phone, dark, language)
    assert pages
    problems = []
    for name, who, path in pages:
        page = new_page(phone=phone, dark=dark, language=language, user=who)
        response = page.goto(path)
        assert response.status == 200, (name, response.status)
        assert page.locator("html").get_attribute("lang") == language
        problems += [f"{name}: {line}" for line in blocking_violations(page)]
        width, window = overflow(page)
        if width > window:
            problems.append(f"{name}: {width}px wide in a {window}px window")
        screen = "phone" if phone else "desktop"
        screenshot(page, f"club-{name}-{screen}-{'dark' if dark else 'light'}-{language}")
        page.context.close()
    assert not problems, "\n".join(problems)


def test_a_member_challenges_from_the_keyboard_and_the_ladder_answers_in_place(new_page, club):
    carla = club["players"][2]
    page = new_page(user=carla)
    page.goto(f"/clubs/{club['club'].slug}/")
    page.evaluate("window.stillHere = true")

    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()").startswith("Challenge"):
            break
    page.keyboard.press("Enter")

    page.get_by_text("You challenged", exact=False).first.wait_for()
    assert page.evaluate("window.stillHere") is True  # the ladder was swapped, not reloaded
    assert Challenge.objects.filter(challenger=carla, status="waiting").exists()
