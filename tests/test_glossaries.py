"""Each language's game words are used the same way everywhere (issue 34): every catalogue entry
whose English has a term of the language's glossary (locale/<lang>/GLOSSARY.md, first table) has
the glossary's stem in its translation. Card names are left aside: they stay English
(docs/rules.md §2.3), so "Storehouse Fire" is no storehouse."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.rules.firenze.rules.cards import CARDS
from tests.test_translations import TRANSLATED, po_file

ROOT = Path(__file__).resolve().parent.parent
GLOSSARIES = [code for code in TRANSLATED if (ROOT / "locale" / code / "GLOSSARY.md").exists()]
CARD_NAMES = sorted(CARDS, key=len, reverse=True)


def glossary(language: str) -> list[tuple[str, str]]:
    """(English term, stem) of every row of the first table that names a stem."""
    text = (ROOT / "locale" / language / "GLOSSARY.md").read_text()
    first_table = text.split("\n\n## ", 1)[0]
    rows = []
    for line in first_table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[2] and cells[2] != "stem" and not set(cells[2]) <= {"-"}:
            rows.append((cells[0].split(" (")[0], cells[2]))
    return rows


def translations(language: str) -> list[tuple[str, str]]:
    """(English, translation) of every entry and plural form."""
    pairs = []
    for block in re.split(r"\n\s*\n", po_file(language).read_text()):
        fields: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            match = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = match.group(2)
            elif key and line.startswith('"'):
                fields[key] += line[1:-1]
        if fields.get("msgid"):
            english = fields["msgid"] + " " + fields.get("msgid_plural", "")
            translated = " ".join(v for k, v in fields.items() if k.startswith("msgstr"))
            translated = translated.replace("\u00ad", "")  # soft hyphens: where a word may break
            pairs.append((english, translated))
    return pairs


def forms(term: str) -> str:
    plural = term[:-1] + "ies" if term.endswith("y") else term + "s"
    return rf"\b(?:{re.escape(term)}|{re.escape(plural)})"


@pytest.mark.parametrize("language", GLOSSARIES)
def test_it_words_each_glossary_term_the_same_way_everywhere(language):
    terms = glossary(language)
    assert len(terms) >= 8
    problems = []
    for english, translated in translations(language):
        english = re.sub(r"%\(\w+\)[sd]", " ", english)  # the placeholders' names
        for card in CARD_NAMES:
            english = english.replace(card, " ")
        english = re.sub(r"\bin a row\b", " ", english)  # an idiom, not the row of cards
        for term, stem in terms:
            # "bell tower" has its own word ("clocher"): a longer term is not this one.
            longer = [other for other, _ in terms if term in other and other != term]
            text = english
            for other in longer:
                text = re.sub(forms(other), " ", text, flags=re.I)
            if re.search(forms(term), text, re.I) and stem.lower() not in translated.lower():
                problems.append(f"{term} -> {stem}: {english!r} = {translated!r}")
    assert not problems, f"{len(problems)} entries:\n" + "\n".join(problems[:30])
