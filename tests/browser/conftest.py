"""Fixtures for the browser tests: headless Chromium (Debian's, driven by Playwright) against
pytest-django's live server.

Playwright's sync API runs an event loop in the test thread, so Django's async-safety check
would refuse the ORM calls the tests make; DJANGO_ALLOW_ASYNC_UNSAFE is set only while the
browser is up (package scope), and the live server needs ``django_db(transaction=True)``.

Chromium is never downloaded (``playwright install`` cannot reach its CDN here): the tests use
the system browser and fail, rather than skip, when it is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from tests.browser.helpers import TIMEOUT_MS

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: the browser tests need Debian's chromium "
            "(apt-get install chromium; .ci/run installs it) or CHROMIUM=/path/to/chromium. "
            "Do not run `playwright install`.",
            pytrace=False,
        )
    from playwright.sync_api import expect, sync_playwright

    # The poll runs every 5 s, so a page may take that long to show another seat's move.
    expect.set_options(timeout=TIMEOUT_MS)

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The board fragment is cached per (game, version); game ids repeat between tests."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def new_page(browser, live_server):
    """new_page(phone=False, user=None, dark=False, language=None): a page in a fresh context,
    signed in as ``user``; ``dark`` asks for the dark colour scheme (prefers-color-scheme:
    dark); ``language`` is the browser's language (Accept-Language) and the language cookie
    Django's language switch sets."""
    contexts = []

    def make(
        *, phone: bool = False, user: Any = None, dark: bool = False, language: str | None = None
    ):
        context = browser.new_context(
            base_url=live_server.url,
            color_scheme="dark" if dark else "light",
            **({"locale": language} if language else {}),
            **(PHONE if phone else DESKTOP),
        )
        context.set_default_timeout(TIMEOUT_MS)
        if language:
            context.add_cookies(
                [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
            )
        if user is not None:
            context.add_cookies([session_cookie(user, live_server.url)])
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def session_cookie(user: Any, url: str) -> dict[str, Any]:
    """A signed-in session for ``user``, as the login form would leave it."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return {"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": url}
