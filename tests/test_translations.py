"""The catalogues: every string marked for translation is in the German catalogue, translated
(0 untranslated, 0 fuzzy), and the compiled catalogue the site loads is the one of the .po.

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

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
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


def test_it_has_every_marked_string_in_the_german_catalogue(extracted):
    catalogue = entries(PO.read_text())
    missing = sorted(extracted - catalogue)
    stale = sorted(catalogue - extracted)
    assert not missing, f"run `make messages` and translate: {missing[:10]}"
    assert not stale, f"run `make messages` (strings no longer used): {stale[:10]}"
    assert len(catalogue) > 600


def test_it_translates_every_german_string():
    result = subprocess.run(
        [gettext_tool("msgfmt"), "--check", "--statistics", "-o", "/dev/null", str(PO)],
        capture_output=True,
        text=True,
        check=True,
    )
    statistics = result.stderr.strip()
    assert re.fullmatch(r"\d+ translated messages\.", statistics), statistics


def test_it_ships_the_compiled_catalogue_of_the_current_po(tmp_path):
    fresh = tmp_path / "django.mo"
    subprocess.run([gettext_tool("msgfmt"), "-o", str(fresh), str(PO)], check=True)
    with MO.open("rb") as shipped, fresh.open("rb") as compiled:
        assert gettext.GNUTranslations(shipped)._catalog == (
            gettext.GNUTranslations(compiled)._catalog
        ), "locale/de/LC_MESSAGES/django.mo is out of date: run `make messages`"


def test_it_words_every_card_in_german_from_its_registry_entry():
    """The pages word a card from its registry entry (firenze.rules.cards, English marked with
    gettext_noop): in English exactly the entry's words, in German a translation of both its
    text and its help, so a new card cannot reach the page untranslated."""
    from django.utils import translation

    from games.rules.firenze.card_texts import card_help, card_text
    from games.rules.firenze.rules.cards import CARDS

    with translation.override("en"):
        assert all(card_text(name) == card.text for name, card in CARDS.items())
        assert all(card_help(name) == card.help for name, card in CARDS.items())
    with translation.override("de"):
        untranslated = [
            name
            for name, card in CARDS.items()
            if card_text(name) == card.text or card_help(name) == card.help
        ]
    assert untranslated == []
