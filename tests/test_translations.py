"""The catalogues: every string marked for translation is in the catalogue of every language the
site offers (settings.LANGUAGES), translated (0 untranslated, 0 fuzzy), with the language's plural
rule, and the compiled catalogue the site loads is the one of the .po.

`make messages` updates locale/ after strings change; these tests are what fails when someone
forgets. They need GNU gettext (msgfmt, xgettext: Debian's `gettext`, installed by .ci/run): a
machine without it fails here rather than skipping.
"""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

# Waits on gettext's processes (makemessages, msgfmt), not on the test database: make test runs
# it in the lane beside the SQLite workers (scripts/test.sh).
pytestmark = pytest.mark.beside

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [code for code, _ in settings.LANGUAGES if code != "en"]
# gettext's plural rule of each language: French counts 0 as singular ("0 brique").
PLURAL_FORMS = {
    "de": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=2; plural=(n != 1);",
}


def po_file(language: str) -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / "django.po"


# The same sources `make messages` reads (its MESSAGES_OPTIONS ignore the rest).
NOT_SOURCES = {".venv", "var", "tests", "bench", "scripts", "node_modules", ".git", "locale"}


def gettext_tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is missing: install Debian's gettext package (see .ci/run)"
    return path


def entries(po_text: str) -> set[tuple[str, str, str]]:
    """(context, msgid, msgid_plural) of every entry but the header."""
    found = set()
    for block in re.split(r"\n\s*\n", po_text):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            match = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = match.group(2)
            elif key and line.startswith('"'):
                fields[key] += line[1:-1]
        if fields.get("msgid"):
            found.add((fields.get("msgctxt", ""), fields["msgid"], fields.get("msgid_plural", "")))
    return found


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[tuple[str, str, str]]:
    """What makemessages finds in a copy of the sources today."""
    gettext_tool("xgettext")
    copy = tmp_path_factory.mktemp("sources")
    for item in ROOT.iterdir():
        if item.name in NOT_SOURCES or item.name.startswith("."):
            continue
        if item.is_dir():
            shutil.copytree(item, copy / item.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(item, copy / item.name)
    (copy / "locale").mkdir()
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "--add-location=file"],
        cwd=copy,
        env={"PATH": "/usr/bin:/bin", "DEBUG": "true", "PYTHONDONTWRITEBYTECODE": "1"},
        check=True,
        capture_output=True,
    )
    return entries((copy / "locale" / "de" / "LC_MESSAGES" / "django.po").read_text())


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_has_every_marked_string_in_each_catalogue(extracted, language):
    catalogue = entries(po_file(language).read_text())
    missing = sorted(extracted - catalogue)
    stale = sorted(catalogue - extracted)
    assert not missing, f"run `make messages` and translate: {missing[:10]}"
    assert not stale, f"run `make messages` (strings no longer used): {stale[:10]}"
    assert len(catalogue) > 600


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_translates_every_string_of_each_catalogue(language):
    result = subprocess.run(
        [
            gettext_tool("msgfmt"),
            "--check",
            "--statistics",
            "-o",
            "/dev/null",
            str(po_file(language)),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    statistics = result.stderr.strip()
    assert re.fullmatch(r"\d+ translated messages\.", statistics), statistics


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_uses_each_languages_plural_rule(language):
    header = re.search(r'"Plural-Forms: (.*?)\\n"', po_file(language).read_text())
    assert header and header.group(1) == PLURAL_FORMS[language]
    with po_file(language).with_suffix(".mo").open("rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    forms = [catalogue.ngettext("%(n)s day", "%(n)s days", n) for n in (0, 1, 2)]
    if language == "fr":
        assert forms[0] == forms[1] != forms[2]
    else:
        assert forms[0] == forms[2] != forms[1]


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_ships_the_compiled_catalogue_of_the_current_po(tmp_path, language):
    fresh = tmp_path / "django.mo"
    po = po_file(language)
    subprocess.run([gettext_tool("msgfmt"), "-o", str(fresh), str(po)], check=True)
    with po.with_suffix(".mo").open("rb") as shipped, fresh.open("rb") as compiled:
        assert gettext.GNUTranslations(shipped)._catalog == (
            gettext.GNUTranslations(compiled)._catalog
        ), f"locale/{language}/LC_MESSAGES/django.mo is out of date: run `make messages`"


@pytest.mark.parametrize("language", TRANSLATED)
def test_it_words_every_card_in_each_language_from_its_registry_entry(language):
    """The pages word a card from its registry entry (firenze.rules.cards, English marked with
    gettext_noop): in English exactly the entry's words, in every other language a translation
    of both its text and its help, so a new card cannot reach the page untranslated."""
    from django.utils import translation

    from games.rules.firenze.card_texts import card_help, card_text
    from games.rules.firenze.rules.cards import CARDS

    with translation.override("en"):
        assert all(card_text(name) == card.text for name, card in CARDS.items())
        assert all(card_help(name) == card.help for name, card in CARDS.items())
    with translation.override(language):
        untranslated = [
            name
            for name, card in CARDS.items()
            if card_text(name) == card.text or card_help(name) == card.help
        ]
    assert untranslated == []
