"""axe-core (the axe Playwright package's bundled axe.min.js; nothing is downloaded) on every
page a player meets, on a desktop and a phone screen, in English and German, in the light and
the dark colour scheme (each page on two opposite screens, all eight screens among the pages:
tests/browser/screens.py): no violation of any impact
(minor and moderate ones, such as a skipped heading level, included).

LANGUAGES lists the interface languages the pages are checked in (every one of
settings.LANGUAGES): each page is opened with the browser's language and Django's language
cookie set to it (the cast's accounts are set to it too), and <html lang> must say it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.utils import timezone

from clubs import membership
from games import lobby
from games.models import Absence
from games.rules.firenze import rules
from notifications import links
from tests.browser.helpers import play_greedily_until, started_game, user
from tests.browser.screens import each_screen, share
from tests.browser.worlds import shared_world
from tests.web.helpers import fast_forward

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = [code for code, _name in settings.LANGUAGES]
BLOCKING = ("minor", "moderate", "serious", "critical")  # every impact axe reports
# WCAG 2.0-2.2 A and AA, and axe's best practices (landmarks, headings, one main region).
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}


def blocking_violations(page) -> list[str]:
    """axe's findings on the page as it is now, one line per element."""
    results = Axe().run(page, options=AXE_OPTIONS)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] not in BLOCKING:
            continue
        for node in violation["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            what = f"{violation['id']} ({violation['impact']}) {node['target']}"
            found.append(f"{what}: {summary[:160]}")
    return found


@pytest.fixture
def cast():
    """Anna mid-turn with a decision pending (a payment), a forming table with invitations,
    a finished game with Ben, an absence and the links of her emails: built once per test
    process (tests/browser/worlds.py)."""
    return shared_world("accessibility", build_cast)


def build_cast():
    anna, ben, carla = user("anna"), user("ben"), user("carla")

    def paying(state, seat):
        return rules.player_view(state, seat)["pending"] is not None

    playing = play_greedily_until(started_game(anna, bots=2, seed=2024), anna, paying)
    forming = lobby.create_game(anna, num_players=4, name="Friday towers", is_public=False)
    lobby.join(forming, ben, token=forming.invite_token)
    lobby.add_bot(forming, anna)
    lobby.invite(forming, anna, "Carla")
    finished = started_game(anna, ben, seed=77)
    fast_forward(finished)
    club = membership.found(anna, name="Sunday Club", description="", door="invitation")
    membership.invite(club, anna, ben)
    membership.join(club, ben)
    now = timezone.now()
    Absence.objects.create(user=anna, starts=now + timedelta(days=9), ends=now + timedelta(days=12))
    return {
        "anna": anna,
        "ben": ben,
        "carla": carla,
        "ids": {
            "playing": playing.pk,
            "forming": forming.pk,
            "finished": finished.pk,
            "club": club.slug,
        },
        "unsubscribe": urlsplit(links.unsubscribe_url(anna, "your_turn")).path,
        "login_link": urlsplit(links.login_url(ben, finished)).path,
    }


# (name, who is signed in, path): every kind of page, the email-link pages included.
PAGES = [
    ("home", None, "/"),
    ("lobby", "anna", "/games/"),
    ("my-games", "anna", "/games/mine/"),
    ("create", "anna", "/games/new/"),
    ("forming", "anna", "/games/{forming}/"),
    ("forming-invited", "carla", "/games/{forming}/"),
    ("game-pending-decision", "anna", "/games/{playing}/"),
    ("game-watched", "carla", "/games/{playing}/"),
    ("game-over", "anna", "/games/{finished}/"),
    ("whole-log", "anna", "/games/{playing}/log/"),
    ("resign", "anna", "/games/{playing}/resign/"),
    ("replay", None, "/games/{finished}/replay/"),
    ("what-if", None, "/games/{finished}/replay/what-if/?step=1"),
    ("plan", "carla", "/games/{playing}/plan/"),
    ("history", None, "/games/history/"),
    ("profile", None, "/players/anna/"),
    ("leaderboard", None, "/players/"),
    ("account", "anna", "/accounts/profile/"),
    ("api-tokens", "anna", "/accounts/api/"),
    ("away", "anna", "/games/away/"),
    ("rules", None, "/rules/"),
    ("email-unsubscribe", None, "{unsubscribe}"),
    ("email-bad-link", None, "/email/unsubscribe/not-a-token/"),
    ("email-sign-in-link", None, "{login_link}"),
    ("signup", None, "/accounts/signup/"),
    ("login", None, "/accounts/login/"),
    ("inbox", "anna", "/inbox/"),
    ("play-against-bots", "anna", "/games/bots/"),
    ("club", "ben", "/clubs/{club}/"),
]


@each_screen
def test_it_finds_no_accessibility_violation_on_any_page(new_page, cast, phone, dark, language):
    """This screen's share of the pages (tests/browser/screens.py: each page on two screens
    opposite in device, scheme and language), one browser context per signed-in person."""
    values = {**cast["ids"], "unsubscribe": cast["unsubscribe"], "login_link": cast["login_link"]}
    pages = share(PAGES, phone, dark, language)
    assert len(pages) >= len(PAGES) // 4
    problems = []
    for person in {who for _, who, _ in PAGES if who}:
        cast[person].language = language
        cast[person].save(update_fields=["language"])
    tabs: dict[str | None, Any] = {}
    for name, who, path in pages:
        # An email link's page may sign its reader in: it gets a context of its own.
        tab = name if name.startswith("email-") else who
        if tab not in tabs:
            tabs[tab] = new_page(
                phone=phone, dark=dark, language=language, user=cast[who] if who else None
            )
        page = tabs[tab]
        response = page.goto(path.format(**values))
        assert page.locator("html").get_attribute("lang") == language, name
        assert response.status < 500, (name, response.status)
        problems += [f"{name}: {line}" for line in blocking_violations(page)]
    assert not problems, "\n".join(problems)
