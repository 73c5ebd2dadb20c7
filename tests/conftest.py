"""Shared pytest fixtures: the fixed cast of players every web test uses.

pytest-django provides ``client`` and ``db``; the cast (Anna, Ben, Carla, Dario) matches the
names in the rules tests, so a log line reads the same everywhere.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import pytest

from tests.factories import UserFactory


@pytest.fixture
def anna(db):
    return UserFactory(username="anna")


@pytest.fixture
def ben(db):
    return UserFactory(username="ben")


@pytest.fixture
def carla(db):
    return UserFactory(username="carla")


@pytest.fixture
def dario(db):
    return UserFactory(username="dario")


@pytest.fixture(autouse=True, scope="session")
def _clock_from_the_environment():
    """TEST_CLOCK=2026-11-26T23:59:30Z starts the clock of the whole run there (it goes on
    ticking): how a run proves that no test depends on the time of day (docs/operations.md)."""
    start = os.environ.get("TEST_CLOCK")
    if not start:
        yield
        return
    import time
    import wsgiref.handlers
    from types import SimpleNamespace
    from unittest import mock

    import time_machine

    # The Date a live server puts on its answers stays real: the test browser, a process of
    # its own on the real clock, ages its cache by it, and a Date hours away made it keep
    # nothing (an offline page then lost its stylesheet, a page its scripts for a moment).
    real_time = SimpleNamespace(time=time_machine.escape_hatch.time.time, gmtime=time.gmtime)
    with (
        time_machine.travel(start, tick=True),
        mock.patch.object(wsgiref.handlers, "time", real_time),
    ):
        yield


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rendered boards are cached per game id and version; ids repeat across rolled-back tests."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


LANE_MARK = re.compile(r"mark\.(postgres|beside)")


def pytest_itemcollected(item) -> None:
    """make test's lane beside the SQLite workers collects only the files that say
    ``mark.postgres`` or ``mark.beside`` (scripts/test.sh): a test given either mark another
    way would run in neither part, so collecting it fails here."""
    if not (item.get_closest_marker("postgres") or item.get_closest_marker("beside")):
        return
    if not LANE_MARK.search(_source(str(item.path))):
        raise pytest.UsageError(
            f"{item.nodeid} is marked postgres or beside, but its file never says "
            "pytest.mark.postgres or pytest.mark.beside (scripts/test.sh looks for that text)"
        )


@functools.cache
def _source(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items) -> None:
    """On a pytest-xdist worker, the long files first: those marked slow (tens of seconds
    each), then the browser tests, then the rest, each group in the order it had
    (pytest-randomly's too, when it shuffles). make test hands whole files to its two workers
    in this order (--no-loadscope-reorder): left to pytest-xdist, files with few tests go last,
    and a lone 80-second fuzz test ended the run on one worker while the other idled."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return  # a run on one process keeps pytest-django's order (plain database tests first)

    def weight(item) -> int:
        if item.get_closest_marker("slow"):
            return 0
        return 1 if item.get_closest_marker("browser") else 2

    items.sort(key=weight)


def pytest_sessionfinish(session) -> None:
    """On a pytest-xdist worker: hand the figures to the controller, which prints them."""
    from tests.figures import LINES

    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["figures"] = list(LINES)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    from tests.figures import LINES

    LINES.extend(getattr(node, "workeroutput", {}).get("figures", []))


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the figures tests measured (tests/figures.py) after the results."""
    from tests.figures import LINES

    if LINES:
        terminalreporter.section("figures")
        for line in LINES:
            terminalreporter.write_line(line)
