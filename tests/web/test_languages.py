"""Italian, French and Spanish as complete as German: every page and every email kind in each
of them has no English left outside names, the log of whole games is worded in it, the browser's
Accept-Language picks it, dates and numbers are written its way, and the calendar feed speaks it.

The sweep is test_german's (its cast, pages and email kinds): each language the site offers
besides English and German (settings.LANGUAGES) is checked the same way. A few words of the
English list are words of the language itself, or its usual loanwords (OWN_WORDS).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext
from icalendar import Calendar

from games.rules.firenze.log_words import word_line
from games.rules.firenze.rules.cards import CARDS
from inbox.models import CalendarFeed
from tests.web.helpers import signed_in
from tests.web.test_german import (  # noqa: F401 (cast is a fixture)
    cast,
    client_for,
    email_kinds,
    english_words,
    names_of,
    pages,
    player_text,
)
from tests.web.test_inbox import waiting_games
from tests.web.test_log_words import TOKEN, lines  # noqa: F401 (lines is a fixture)

pytestmark = pytest.mark.django_db

NEW = [code for code, _ in settings.LANGUAGES if code not in ("en", "de")]
OWN_WORDS = {
    # Loanwords of Italian sites: "il tuo account", "la password", "l'email" (allauth's pages),
    # "il replay".
    "it": {"account", "password", "email", "replay"},
    # French words too: "on", "me", "page", "invitation", "invite", "score", "notifications",
    # "minutes" ("30 minutes"); and the loanword "replay".
    "fr": {"on", "me", "page", "pages", "invitation", "invite", "score", "scores"}
    | {"notifications", "minutes", "replay"},
    "es": {"me", "has"},  # "me" (me), "has" (you have: "has ganado")
}
# The heading of the lobby, the words of the month of 26 November 2026 and a grouped number.
LOBBY = {"it": "Partite aperte", "fr": "Parties ouvertes", "es": "Partidas abiertas"}
DATES = {
    "it": ("giovedì 26 novembre 2026", "gio 26 nov"),
    "fr": ("jeudi 26 novembre 2026", "jeu. 26 nov"),
    "es": ("jueves 26 de noviembre de 2026", "jue 26 nov"),
}
NUMBER = {"it": "1.234,5", "fr": "1\xa0234,5", "es": "1\xa0234,5"}


def leftovers(text: str, names: set[str], language: str) -> list[str]:
    return [w for w in english_words(text, names) if w.lower() not in OWN_WORDS[language]]


def set_language(cast, language: str) -> None:  # noqa: F811
    for person in ("anna", "carla", "dario"):
        cast[person].language = language
        cast[person].save(update_fields=["language"])


@pytest.mark.parametrize("language", NEW)
def test_it_renders_every_page_with_no_english_left(cast, language):  # noqa: F811
    set_language(cast, language)
    names = names_of(cast)
    problems = []
    for name, who, path in pages(cast):
        translated = client_for(cast, who, language).get(path)
        english = client_for(cast, who, "en").get(path)
        assert translated.status_code in (200, 400, 403, 404), (name, translated.status_code)
        html = translated.content.decode()
        assert "<html" not in html or f'<html lang="{language}">' in html, name
        text = player_text(html)
        assert text != player_text(english.content.decode()), name
        left = leftovers(text, names, language)
        if left:
            problems.append(f"{name} ({path}): {left}")
    assert not problems, f"English in {language} pages:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", NEW)
def test_it_writes_every_email_kind_in_the_recipients_language(cast, language):  # noqa: F811
    set_language(cast, language)
    names = names_of(cast)
    problems = []
    kinds = email_kinds(cast)
    for name, message in kinds:
        [(html, _mimetype)] = message.alternatives or [("", "")]
        if html:
            assert f'<html lang="{language}">' in html, name
        # A place ("1er": French humanize writes 1<sup>er</sup>) is text, never a shown tag.
        assert "<sup>" not in message.subject + message.body and "&lt;sup" not in html, name
        text = player_text("\n".join([message.subject, message.body, html]))
        left = leftovers(text, names, language)
        if left:
            problems.append(f"{name}: {left}")
    assert len(kinds) >= 12
    assert not problems, f"English in {language} emails:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", NEW)
def test_it_words_every_log_line_of_whole_games(lines, language):  # noqa: F811
    with translation.override(language):
        worded = {line: word_line(line) for line in lines}
    assert not [line for line, text in worded.items() if text == line]
    for line, text in worded.items():
        assert sorted(TOKEN.findall(text)) == sorted(TOKEN.findall(line)), (line, text)
        for card in CARDS:  # card names stay English (docs/rules.md §2.3)
            text = text.replace(card, " ")
        left = leftovers(TOKEN.sub(" ", text), set(), language)
        assert not left, (line, text, left)


@pytest.mark.parametrize("language", NEW)
def test_it_speaks_the_browsers_language_to_a_visitor_and_offers_every_language(language):
    response = Client().get(
        reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE=f"{language}-XX,{language};q=0.9,en;q=0.5"
    )
    page = response.content.decode()
    assert response["Content-Language"] == language
    assert f"<h1>{LOBBY[language]}</h1>" in page
    switcher = re.search(r'<form class="language-switcher".*?</form>', page, re.S).group(0)
    for code, _name in settings.LANGUAGES:
        assert f'value="{code}"' in switcher
    assert f'value="{language}" lang="{language}" class="link-button"' in switcher
    chosen = Client()
    chosen.post(reverse("switch_language"), {"language": language, "next": "/open/"})
    assert LOBBY[language] in chosen.get(reverse("games:lobby")).content.decode()


@pytest.mark.parametrize("language", NEW)
def test_it_writes_dates_and_numbers_the_languages_way(language):
    """The pages' date formats are translated ("D j M Y": the day, then the month, in the
    language's words and case) and numbers are grouped the language's way."""
    moment = datetime(2026, 11, 26, 21, 5, tzinfo=UTC)
    with translation.override(language):
        long = formats.date_format(moment, gettext("l j F Y, H:i T"))
        short = formats.date_format(moment, gettext("D j M Y"))
        number = formats.number_format(1234.5, decimal_pos=1, use_l10n=True, force_grouping=True)
    assert long.startswith(DATES[language][0]), long
    assert short.startswith(DATES[language][1]), short
    assert number == NUMBER[language]


@pytest.mark.parametrize("language", NEW)
def test_it_words_the_calendar_feed_in_the_players_language(anna, ben, carla, language):
    anna.language = language
    anna.save(update_fields=["language"])
    waiting_games(anna, ben, carla, 1)
    signed_in(anna).post(reverse("inbox:calendar_settings"), {"calendar": "on"})
    token = CalendarFeed.objects.get(user=anna).token
    feed = Client().get(reverse("inbox:calendar", args=[token]))
    calendar = Calendar.from_ical(feed.content)
    assert str(calendar["X-WR-CALNAME"]) != "Firenze: your turns"
    [event] = calendar.walk("VEVENT")
    text = " ".join(str(event[key]) for key in ("summary", "description"))
    assert not leftovers(re.sub(r"https?://\S+", " ", text), {"Firenze"}, language), text
