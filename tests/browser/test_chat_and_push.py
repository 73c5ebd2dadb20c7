"""Table talk and push in a real browser: writing and reading the chat beside the log (a message
reaches the other player's page with the game's own poll, and what they are typing survives
that refresh), the notification settings page, and the service worker: a push for a game the
player has open shows nothing (the page refreshes instead), a push for another page pops up.

Screenshots (desktop 1280x900 and phone 390x844) go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from chat import services as chat
from notifications import push
from notifications.management.commands.vapid_keys import new_private_key
from tests.browser.helpers import SCREENSHOTS, screenshot, started_game, user, version
from tests.web.helpers import play_greedy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_players_talk_beside_the_log_and_messages_arrive_with_the_poll(new_page):
    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=1504)
    play_greedy(game, 12)
    chat.post(game, ben, "Good luck! The red tower is mine.")
    chat.post(game, anna, "We will see about that: https://example.com/firenze-rules")

    anna_page = new_page(user=anna)
    anna_page.goto(f"/games/{game.pk}/")
    ben_page = new_page(user=ben)
    ben_page.goto(f"/games/{game.pk}/")
    expect(ben_page.locator(".chat-unread")).to_have_text("1 unread")
    link = ben_page.locator(".chat-text a")
    expect(link).to_have_attribute("href", "https://example.com/firenze-rules")
    expect(link).to_have_attribute("target", "_blank")

    ben_page.fill("#chat-text", "Still typing this")
    anna_page.fill("#chat-text", "Your move, Ben?")
    anna_page.click("#chat-form button[type=submit]")
    expect(anna_page.locator("#chat-thread .chat-text").last).to_have_text("Your move, Ben?")
    expect(anna_page.locator("#chat-text")).to_have_value("")  # emptied once stored

    # Ben's page learns of it through the game's poll (every 5 s), not a poll of its own.
    expect(ben_page.locator("#chat-thread .chat-text").last).to_have_text("Your move, Ben?")
    expect(ben_page.locator("#chat-text")).to_have_value("Still typing this")
    assert version(ben_page) == game.version

    anna_page.fill("#chat-text", "<b>bold?</b>")
    anna_page.click("#chat-form button[type=submit]")
    expect(anna_page.locator("#chat-error")).to_contain_text("HTML tags")
    expect(anna_page.locator("#chat-text")).to_have_value("<b>bold?</b>")  # kept to fix

    ben_page.locator("#chat").scroll_into_view_if_needed()
    screenshot(ben_page, "desktop-20-chat")
    phone = new_page(phone=True, user=ben)
    phone.goto(f"/games/{game.pk}/")
    phone.locator("#chat").scroll_into_view_if_needed()
    screenshot(phone, "phone-20-chat")
    phone.locator("#chat").screenshot(path=str(SCREENSHOTS / "phone-20-chat-detail.png"))
    box = phone.locator("#chat").bounding_box()
    assert box["width"] <= 390


@pytest.fixture
def vapid_key():
    private, public = new_private_key()
    with override_settings(
        WEBPUSH_VAPID_PRIVATE_KEY=private, WEBPUSH_VAPID_SUBJECT="mailto:admin@firenze.example"
    ):
        push._vapid.cache_clear()
        yield public
    push._vapid.cache_clear()


def test_the_preferences_page_reads_on_desktop_and_phone(new_page, vapid_key):
    anna = user("anna")
    for phone in (False, True):
        page = new_page(phone=phone, user=anna)
        page.goto("/accounts/notifications/")
        expect(page.locator("h1")).to_have_text("Notifications")
        expect(page.locator("#push-status")).to_have_text("This device gets no push notifications.")
        expect(page.locator("#push-enable")).to_be_visible()
        expect(page.locator("#push-disable")).to_be_hidden()
        table = page.locator(".prefs-table").bounding_box()
        assert table["x"] + table["width"] <= (390 if phone else 1280)
        screenshot(page, "phone-21-preferences" if phone else "desktop-21-preferences")
    page.locator('input[name="new_messages__email"]').check()
    page.locator('input[name="reminder__push"]').uncheck()
    page.click(".prefs-form button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("preferences are saved")
    expect(page.locator('input[name="new_messages__email"]')).to_be_checked()
    expect(page.locator('input[name="reminder__push"]')).not_to_be_checked()


def deliver_push(page, payload: dict) -> None:
    """Hand a push message to the page's service worker the way the browser's push service
    would (DevTools' ServiceWorker.deliverPushMessage)."""
    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    origin = page.evaluate("location.origin")
    # The registrations come as events after "enable" answers, and Playwright hands events
    # over while a call is waiting: wait a frame at a time until the site's one is in.
    for _ in range(600):  # frames: about 10 s
        registration = next((r for r in registrations if r["scopeURL"] == origin + "/"), None)
        if registration is not None:
            break
        page.evaluate("new Promise(resolve => requestAnimationFrame(() => resolve(true)))")
    assert registration is not None, f"no service worker registered for {origin}"
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": origin,
            "registrationId": registration["registrationId"],
            "data": json.dumps(payload),
        },
    )


def shown_notifications(page) -> list[str]:
    return page.evaluate(
        "navigator.serviceWorker.ready.then(r => r.getNotifications())"
        ".then(list => list.map(n => n.title))"
    )


def handled_pushes(page) -> list[dict]:
    """The pushes the page's service worker has handled in full (its push event's waitUntil
    settled), as Chromium records them for DevTools' Background Services panel."""
    cdp = page.context.new_cdp_session(page)
    handled: list[dict] = []

    def record(event: dict) -> None:
        entry = event["backgroundServiceEvent"]
        if entry["eventName"] == "Push event completed":
            handled.append(entry)

    cdp.on("BackgroundService.backgroundServiceEventReceived", record)
    cdp.send("BackgroundService.setRecording", {"shouldRecord": True, "service": "pushMessaging"})
    cdp.send("BackgroundService.startObserving", {"service": "pushMessaging"})
    return handled


def wait_for_handled(page, handled: list[dict], count: int) -> None:
    """Wait until ``count`` pushes are handled. Playwright hands DevTools events over while a
    call is waiting: wait a frame at a time."""
    for _ in range(600):  # frames: about 10 s
        if len(handled) >= count:
            return
        page.evaluate("new Promise(resolve => requestAnimationFrame(() => resolve(true)))")
    raise AssertionError(f"{count} pushes not handled; handled: {handled}")


def wait_until_true(page, condition: str, timeout_ms: int = 10_000) -> None:
    """Poll a JavaScript condition (an expression, or a promise of one) until it is true."""
    assert became_true(page, condition, timeout_ms), f"timed out waiting for {condition}"


def became_true(page, condition: str, timeout_ms: int) -> bool:
    """Whether a JavaScript condition turned true within the time. Playwright's
    wait_for_function compiles its predicate with eval, which the site's CSP forbids; here the
    condition is written into the evaluated function itself."""
    source = (
        "timeout => new Promise(resolve => {"
        "  const until = Date.now() + timeout;"
        "  setTimeout(() => resolve(false), timeout + 1000);"
        f"  const check = () => Promise.resolve().then(() => ({condition})).then(ok => {{"
        "    if (ok) resolve(true);"
        "    else if (Date.now() > until) resolve(false);"
        "    else setTimeout(check, 50);"
        "  }, () => resolve(false));"
        "  check();"
        "})"
    )
    return bool(page.evaluate(source, timeout_ms))


def test_the_service_worker_shows_a_push_unless_the_game_is_open(new_page, vapid_key, live_server):
    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=1504)
    settings_page = new_page(user=anna)
    context = settings_page.context
    context.grant_permissions(["notifications"], origin=live_server.url)
    settings_page.goto("/accounts/notifications/")  # push.js registers /sw.js for the whole site
    settings_page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    handled = handled_pushes(settings_page)
    payload = {
        "title": f"Your turn in Game {game.pk}",
        "body": "Anna, it is your turn.",
        "url": f"{live_server.url}/games/{game.pk}/",
        "tag": f"game-{game.pk}",
        "kind": "your_turn",
    }

    game_page = context.new_page()
    game_page.goto(f"/games/{game.pk}/")
    game_page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    game_page.evaluate(
        "window.__refreshes = 0; document.body.addEventListener('game-changed',"
        " () => { window.__refreshes += 1; })"
    )
    deliver_push(settings_page, payload)
    wait_until_true(game_page, "window.__refreshes > 0")  # the open game refreshes at once...
    # The list is read once, when the worker has handled the push in full: Chromium's
    # getNotifications() deletes for good a notification it is asked about before it is on
    # display, so a read during the handling could lose it (and pass where it should fail).
    wait_for_handled(settings_page, handled, 1)
    assert shown_notifications(settings_page) == []  # ...and nothing pops up

    game_page.close()  # the game's tab closed: the next push pops up
    deliver_push(settings_page, payload)
    wait_for_handled(settings_page, handled, 2)
    assert shown_notifications(settings_page) == [f"Your turn in Game {game.pk}"]
