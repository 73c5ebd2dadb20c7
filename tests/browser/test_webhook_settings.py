"""The webhook part of the notification settings in a real browser: "Send a test" answers at
once, the page shows the test on its way and then, by itself (the part polls), how it went;
a session opened from an email's sign-in link sees the saved URL only by its host. Desktop
and phone, English and German; screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from notifications import links
from notifications.models import Notification, Webhook
from notifications.tasks import send_notification
from tests.browser.helpers import SCREENSHOTS, TIMEOUT_MS, started_game, user
from tests.browser.test_accessibility import blocking_violations
from tests.receivers import Receiver

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": ("The test to your webhook is on its way", "The test to your webhook arrived"),
    "de": ("Der Test an deinen Webhook ist unterwegs", "angekommen"),
}
SECRET_HOOK = "https://discord.com/api/webhooks/4242/s3cr3t-t0ken"


def shot(page, name: str) -> None:
    """The webhook section as it looks (test-artifacts/screenshots/<name>.png)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#webhook").screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.fixture
def worker_queue():
    """Tasks wait in the (in-memory) broker, as they wait for a worker in production; the test
    plays the worker."""
    from firenze_site.celery import app  # current_app is per thread (the live server's)

    conf = app.conf
    saved = conf.task_always_eager
    conf.task_always_eager = False
    yield
    conf.task_always_eager = saved


@pytest.fixture
def receiver():
    started = Receiver().start()
    yield started
    started.stop()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_result_of_a_webhook_test_appears_by_itself(new_page, worker_queue, receiver, language):
    anna = user("anna")
    anna.language = language
    anna.save(update_fields=["language"])
    Webhook.objects.create(user=anna, url=receiver.url("/hook"), format="json")
    on_its_way, arrived = WORDS[language]
    for phone in (False, True):
        Notification.objects.filter(kind="test").delete()
        page = new_page(phone=phone, user=anna, language=language)
        page.goto("/accounts/notifications/#webhook")
        before = len(receiver.at("/hook"))
        page.locator("form[action$='/webhook/test/'] button").click()

        expect(page.locator("#webhook-test")).to_contain_text(on_its_way)
        assert len(receiver.at("/hook")) == before  # the request answered without calling out
        assert blocking_violations(page) == []
        kind = "phone" if phone else "desktop"
        shot(page, f"{kind}-22-webhook-test-queued-{language}")
        send_notification.apply(args=[Notification.objects.get(kind="test").pk])  # a worker

        expect(page.locator("#webhook-test")).to_contain_text(arrived, timeout=TIMEOUT_MS)
        assert len(receiver.at("/hook")) == before + 1
        shot(page, f"{kind}-23-webhook-test-arrived-{language}")
        box = page.locator("#webhook").bounding_box()
        assert box["x"] + box["width"] <= (390 if phone else 1280)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_sign_in_link_session_sees_the_webhook_by_its_host_only(new_page, language):
    anna, ben = user("anna"), user("ben")
    anna.language = language
    anna.save(update_fields=["language"])
    game = started_game(anna, ben)
    Webhook.objects.create(user=anna, url=SECRET_HOOK, format="discord")
    for phone in (False, True):
        page = new_page(phone=phone, language=language)
        page.goto(urlsplit(links.login_url(anna, game)).path)
        page.locator("form button[type=submit]").first.click()
        page.wait_for_url(f"**/games/{game.pk}/")

        page.goto("/accounts/notifications/#webhook")

        text = page.locator("#webhook").inner_text()
        assert "https://discord.com/…" in text
        assert "s3cr3t" not in page.content() and "webhooks/4242" not in page.content()
        assert blocking_violations(page) == []
        kind = "phone" if phone else "desktop"
        shot(page, f"{kind}-24-webhook-masked-{language}")
