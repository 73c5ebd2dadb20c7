"""Fill the catalogues of the table-kept languages from their translation tables.

German is translated in its .po directly; Italian, French and Spanish are written in a table per
language (locale/<lang>/translations.txt) and copied into the .po by this script, so that
`make messages` can be run again whenever strings change and keep every translation.

A table line is ``key translation`` (``key singular ¦ plural`` for a plural entry), with
``\\n``, ``\\t`` and ``\\\\`` escaped; the key is a hash of the English (context, msgid,
msgid_plural), so a changed English sentence needs a new line. Lines starting with # are notes.

    python scripts/translations.py fill it fr es   # after makemessages: msgstr from the tables
    python scripts/translations.py todo it         # the entries the table lacks, as table lines
                                                   # with the English to translate in place

A catalogue entry the table lacks is left as makemessages left it (untranslated or fuzzy), so
tests/test_translations.py names it.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE_LANGUAGES = ("it", "fr", "es")
HEADERS = {
    "it": ("Italian", "nplurals=2; plural=(n != 1);"),
    "fr": ("French", "nplurals=2; plural=(n > 1);"),
    "es": ("Spanish", "nplurals=2; plural=(n != 1);"),
}
PLURAL_SEPARATOR = " ¦ "
FIELD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$')
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(0)), text)


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n")


@dataclass
class Entry:
    comments: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        english = "\x04".join(
            (
                self.fields.get("msgctxt", ""),
                self.fields["msgid"],
                self.fields.get("msgid_plural", ""),
            )
        )
        return hashlib.sha1(english.encode()).hexdigest()[:10]

    @property
    def plural(self) -> bool:
        return "msgid_plural" in self.fields

    def render(self) -> str:
        lines = list(self.comments)
        for name in self.order:
            value = self.fields[name]
            parts = re.findall(r"[^\n]*\n|[^\n]+$", value) if "\n" in value[:-1] else [value]
            if len(parts) > 1:
                lines.append(f'{name} ""')
                lines.extend(f'"{escape(part)}"' for part in parts)
            else:
                lines.append(f'{name} "{escape(value)}"')
        return "\n".join(lines)


def parse(text: str) -> list[Entry]:
    entries = []
    for block in re.split(r"\n\s*\n", text.strip()):
        entry, name = Entry(), None
        for line in block.splitlines():
            match = FIELD.match(line)
            if match:
                name = match.group(1)
                entry.fields[name] = unescape(match.group(2))
                entry.order.append(name)
            elif line.startswith('"') and name:
                entry.fields[name] += unescape(line[1:-1])
            else:
                entry.comments.append(line)
        entries.append(entry)
    return entries


def read_table(path: Path) -> dict[str, list[str]]:
    table = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, _, text = line.partition(" ")
        if not text or key in table:
            raise SystemExit(f"{path}:{number}: a line is KEY TEXT, each key once")
        table[key] = [unescape(form) for form in text.split(PLURAL_SEPARATOR)]
    return table


def catalogue(language: str) -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / "django.po"


def table_path(language: str) -> Path:
    return ROOT / "locale" / language / "translations.txt"


def set_header(entry: Entry, language: str) -> None:
    team, plurals = HEADERS[language]
    header = entry.fields["msgstr"]
    created = re.search(r"^POT-Creation-Date: (.*)$", header, flags=re.M)
    for name, value in (
        ("Language", language),
        ("Language-Team", team),
        ("Project-Id-Version", "Firenze"),
        ("Last-Translator", "Firenze developers"),
        ("Plural-Forms", plurals),
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("PO-Revision-Date", created.group(1) if created else ""),
    ):
        header = re.sub(rf"^{name}: .*$", f"{name}: {value}", header, flags=re.M)
    entry.fields["msgstr"] = header
    entry.comments = [
        f"# {team} translation of Firenze online: filled from translations.txt by",
        "# scripts/translations.py (`make messages`); the words follow GLOSSARY.md.",
    ]


def _unfuzzy(comment: str) -> str:
    if not comment.startswith("#,"):
        return comment
    return "#," + ",".join(f for f in comment[2:].split(",") if f.strip() != "fuzzy")


def fill(language: str) -> int:
    """Copy the table into the catalogue; the number of entries left without a translation."""
    path, table = catalogue(language), read_table(table_path(language))
    entries = parse(path.read_text())
    missing = 0
    for entry in entries:
        if not entry.fields.get("msgid"):
            set_header(entry, language)
            continue
        forms = table.get(entry.key)
        if forms is None or len(forms) != (2 if entry.plural else 1):
            missing += 1
            continue
        if entry.plural:
            for number, form in enumerate(forms):
                entry.fields[f"msgstr[{number}]"] = form
        else:
            entry.fields["msgstr"] = forms[0]
        entry.comments = [_unfuzzy(c) for c in entry.comments if not c.startswith("#|")]
        entry.comments = [c for c in entry.comments if c != "#,"]
    path.write_text("\n\n".join(entry.render() for entry in entries) + "\n")
    # Wrapped as makemessages wraps, so that the next `make messages` changes nothing.
    subprocess.run(["msgcat", "--output-file", str(path), str(path)], check=True)
    return missing


def todo(language: str) -> None:
    path = table_path(language)
    table = read_table(path) if path.exists() else {}
    for entry in parse(catalogue(language).read_text()):
        if entry.fields.get("msgid") and entry.key not in table:
            forms = [entry.fields["msgid"]]
            if entry.plural:
                forms.append(entry.fields["msgid_plural"])
            print(entry.key, PLURAL_SEPARATOR.join(escape(form) for form in forms))


def main(command: str, *languages: str) -> None:
    for language in languages:
        if language not in TABLE_LANGUAGES:
            raise SystemExit(
                f"{language}: not a table-kept language ({', '.join(TABLE_LANGUAGES)})"
            )
        if command == "fill":
            missing = fill(language)
            if missing:
                todo_command = f"scripts/translations.py todo {language}"
                print(f"{language}: {missing} entries lack a translation: {todo_command}")
        elif command == "todo":
            todo(language)
        else:
            raise SystemExit(__doc__)


if __name__ == "__main__":
    main(*sys.argv[1:])
