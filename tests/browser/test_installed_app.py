"""The site on the home screen, asked of Chromium itself (DevTools protocol): its manifest parses
without errors and the site is installable; a push reaches the installed app's service worker,
which shows the notification and sets the app badge to the games waiting for the player's move.

The live server is on localhost, a secure context, as installing and push require.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from notifications import push
from notifications.models import Notification
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, session_cookie
from tests.browser.helpers import TIMEOUT_MS, screenshot, started_game, user_of_seat
from tests.browser.test_chat_and_push import shown_notifications, wait_until_true
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def profile_page(browser, live_server, tmp_path):
    """profile_page(user=None): a page of a browser profile kept on disk. Chromium installs no
    app from an incognito window, which is what a fresh Playwright context is."""
    contexts = []

    def make(*, user=None, language="en", phone=False):
        context = browser.browser_type.launch_persistent_context(
            str(tmp_path / f"profile-{len(contexts)}"),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            base_url=live_server.url,
            locale=language,
            **(PHONE if phone else DESKTOP),
        )
        contexts.append(context)
        context.set_default_timeout(TIMEOUT_MS)
        cookies = [
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}
        ]
        if user is not None:
            cookies.append(session_cookie(user, live_server.url))
        context.add_cookies(cookies)
        return context.pages[0] if context.pages else context.new_page()

    yield make
    for context in contexts:
        context.close()


def installability(page) -> tuple[dict, list]:
    """What Chromium's install check says of the page: the parsed manifest with its errors,
    and the reasons the page could not be installed."""
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    return manifest, errors


@pytest.mark.parametrize("signed_in", [False, True])
def test_it_is_installable_with_a_valid_manifest(profile_page, signed_in):
    page = profile_page(user=UserFactory(username="anna") if signed_in else None)
    page.goto("/")
    manifest, errors = installability(page)

    assert manifest["errors"] == []  # every member parsed
    assert errors == []  # installable: name, start URL in scope, icons fetched and big enough
    parsed = manifest["manifest"]
    assert (
        parsed["startUrl"].startswith(parsed["scope"]) and "standalone" in parsed["display"].lower()
    )


SHOTS = Path("/tmp/shots-i33-app")


def install(page) -> tuple[str, object]:
    """Install the site as Chromium's "Install app" would (DevTools' PWA domain); answers the
    app's id and the DevTools session that asks Chromium for its badge."""
    cdp = page.context.new_cdp_session(page)
    app = page.evaluate("location.origin") + "/"  # the manifest's id
    cdp.send("PWA.install", {"manifestId": app, "installUrlOrBundleUrl": page.url})
    return app, cdp


def polled(read, page, expected=None):
    """What ``read()`` answers once it is ``expected`` (or, without it, once it is not empty),
    or whatever it answers when the wait is over. Asked from here: a page's own timers run
    slowly, or not at all, in a tab behind the app's window."""
    for _ in range(TIMEOUT_MS // 50):
        answer = read()
        if answer == expected if expected is not None else answer:
            break
        page.wait_for_timeout(50)
    return answer


def os_badge(page, cdp, app: str, expected: int) -> int:
    """The badge Chromium shows on the installed app's icon, once it is ``expected``."""
    state = {"manifestId": app}
    return polled(lambda: cdp.send("PWA.getOsAppState", state)["badgeCount"], page, expected)


def deliver(page, cdp, data: dict) -> None:
    """The push service's part, done by DevTools: the message handed to the site's worker."""
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    origin = page.evaluate("location.origin")
    for _ in range(TIMEOUT_MS // 50):  # the registrations arrive as events, soon after enabling
        found = [r for r in registrations if r["scopeURL"] == origin + "/" and not r["isDeleted"]]
        if found:
            break
        page.wait_for_timeout(50)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": found[0]["registrationId"], "data": json.dumps(data)},
    )


@pytest.mark.parametrize(
    ("phone", "language"), [(False, "en"), (True, "en"), (False, "de"), (True, "de")]
)
def test_it_pushes_to_the_installed_app_and_sets_its_badge(
    profile_page, live_server, phone, language
):
    anna = UserFactory(username="anna", language=language)
    ben = UserFactory(username="ben", language=language)
    game = started_game(anna, ben, seed=1504)
    waiting = user_of_seat(game, game.acting_seat)
    page = profile_page(user=waiting, language=language, phone=phone)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.goto("/inbox/")  # the manifest's start_url
    wait_until_true(page, "navigator.serviceWorker.ready.then(() => true)")
    app, cdp = install(page)

    with page.context.expect_page() as launched:
        cdp.send("PWA.launch", {"manifestId": app})  # the app's own window, at its start_url
    window = launched.value
    window.wait_for_load_state()
    assert window.url.endswith("/inbox/")
    assert os_badge(page, cdp, app, 1) == 1  # the page set it: one game waits for the move
    assert window.locator(".nav-inbox .inbox-count").inner_text().strip() == "1"
    shot = screenshot(window, f"i33-installed-{'phone' if phone else 'desktop'}-{language}")
    SHOTS.mkdir(exist_ok=True)
    shutil.copy(shot, SHOTS / shot.name)

    second = started_game(anna, ben, seed=1504)  # the same deal: the same player to move
    assert user_of_seat(second, second.acting_seat) == waiting  # two games wait for them now
    row = Notification(user=waiting, game=second, kind=Notification.Kind.YOUR_TURN)
    with translation.override(language):
        data = push.message(row)  # what the server's push sender sends, by its own code
    deliver(page, cdp, data)

    assert os_badge(page, cdp, app, 2) == 2  # set by the service worker, no page loaded
    # The worker sets the badge once the notification is shown; read the list only then, once:
    # Chromium's getNotifications() drops for good a notification it is asked about before the
    # platform has it on display (which, in the app's window, takes a moment).
    assert shown_notifications(window) == [data["title"]]
    assert ("Your turn" if language == "en" else "Du bist dran") in data["title"]
