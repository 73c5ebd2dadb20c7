"""Webhooks against a real HTTP server on the loopback (tests/receivers.py): the three body
formats, the outbox's at-most-once and retries, switching off after ten failures in a row (and
telling the player), the "send a test" button, and never sending to private addresses.

The test settings allow http and loopback targets (the receiver); the tests of refusals turn
those switches off again, as production has them.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import transaction
from django.urls import reverse

from notifications import outbox, safe_http, tasks
from notifications.models import Notification, Webhook
from tests.web.helpers import reauthenticated, signed_in
from tests.web.test_notifications import acting_user, new_game

pytestmark = pytest.mark.django_db

Status = Notification.Status


@pytest.fixture
def game(anna, ben, carla):
    return new_game(anna, ben, carla)


def hook(user, receiver, path="/hook", format="discord") -> Webhook:
    return Webhook.objects.create(user=user, url=receiver.url(path), format=format)


def notify(user, kind, game, capture, key=None, **context):
    """What the games code does for an event, committed; the event's webhook row (or None)."""
    key = key or f"{kind}:{game.pk}:test"
    with capture(execute=True), transaction.atomic():
        outbox.notify(user, kind, game=game, key=key, context=context)
    return Notification.objects.filter(dedupe_key=f"{key}:webhook").first()


# --- formats --------------------------------------------------------------------------------


def test_it_posts_your_turn_to_discord_naming_the_player_and_the_game(
    game, receiver, django_capture_on_commit_callbacks
):
    player = acting_user(game)
    hook(player, receiver, format="discord")
    row = notify(player, "your_turn", game, django_capture_on_commit_callbacks)

    (request,) = receiver.at("/hook")
    body = request.json()
    assert request.headers["content-type"] == "application/json"
    assert body["content"].startswith(f"{player.public_name}, it is your turn in Game {game.pk}")
    assert body["allowed_mentions"] == {"parse": []}  # a name never pings a whole server
    (embed,) = body["embeds"]
    assert embed["title"] == f"Your turn in Game {game.pk}"
    assert embed["url"] == f"http://localhost:8000/games/{game.pk}/"
    assert "/email/play/" not in request.body.decode()  # no sign-in link in a shared channel
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.SENT, 1)


def test_it_posts_slack_text_with_the_game_as_a_link_and_special_characters_escaped(
    game, receiver, django_capture_on_commit_callbacks
):
    player = acting_user(game)
    player.display_name = "A<b>&c"
    player.save()
    hook(player, receiver, format="slack")
    notify(player, "reminder", game, django_capture_on_commit_callbacks)
    body = receiver.at("/hook")[0].json()
    assert body["text"].startswith(
        f"A&lt;b&gt;&amp;c, your time to move in Game {game.pk} is running out."
    )
    assert body["text"].endswith(f"<http://localhost:8000/games/{game.pk}/|Game {game.pk}>")


def test_it_posts_plain_json_with_text_game_and_url(
    game, anna, receiver, django_capture_on_commit_callbacks
):
    hook(anna, receiver, format="json")
    notify(anna, "timed_out", game, django_capture_on_commit_callbacks, autopilot=True)
    body = receiver.at("/hook")[0].json()
    assert body["game"] == f"Game {game.pk}"
    assert body["url"] == f"http://localhost:8000/games/{game.pk}/"
    assert body["event"] == "timed_out" and body["game_id"] == game.pk
    assert body["text"].startswith(f"Anna, your time ran out in Game {game.pk}")
    assert "takes your seat" not in body["text"] and "until you take your seat back" in body["text"]


def test_it_posts_the_end_of_a_game_with_the_final_scores(
    anna, ben, receiver, django_capture_on_commit_callbacks
):
    from tests.web.helpers import fast_forward

    game = new_game(anna, ben)
    fast_forward(game)
    hook(ben, receiver, format="json")
    notify(ben, "game_over", game, django_capture_on_commit_callbacks)
    text = receiver.at("/hook")[0].json()["text"]
    assert text.startswith(f"Game {game.pk} is over: ")
    assert "Final scores: " in text and "Anna " in text and "Ben " in text


def test_it_calls_the_next_players_webhook_when_a_move_passes_the_turn(
    anna, ben, receiver, django_capture_on_commit_callbacks
):
    import json

    from games.rules.firenze import rules
    from games.rules.firenze.rules.bots import greedy

    game = new_game(anna, ben)
    mover = acting_user(game)
    waiting = ben if mover == anna else anna
    hook(waiting, receiver)
    client = signed_in(mover)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(200):
            game.refresh_from_db()
            if game.acting_seat != game.seats.get(user=mover).number:
                break
            action = greedy(game.load_state(), __import__("random").Random(game.version))
            assert action in rules.legal_actions(game.load_state())
            client.post(
                reverse("games:move", args=[game.pk]),
                {"action": json.dumps(action), "version": game.version},
            )
    (request,) = receiver.at("/hook")
    assert f"{waiting.public_name}, it is your turn in Game {game.pk}" in request.json()["content"]


# --- the outbox: retries, failures, switching off -------------------------------------------


def test_it_retries_a_webhook_that_answers_503_and_sends_it_once(
    game, anna, receiver, eager_retries, django_capture_on_commit_callbacks
):
    hook(anna, receiver)
    receiver.answer("/hook", 503)
    row = notify(anna, "game_started", game, django_capture_on_commit_callbacks)
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.SENT, 2)
    assert len(receiver.at("/hook")) == 2
    tasks.send_notification(row.pk)  # a late duplicate task sends nothing
    assert len(receiver.at("/hook")) == 2
    assert Webhook.objects.get(user=anna).failures == 0


def test_it_gives_up_at_once_on_a_client_error(
    game, anna, receiver, django_capture_on_commit_callbacks
):
    hook(anna, receiver)
    receiver.answer("/hook", 400)
    row = notify(anna, "game_started", game, django_capture_on_commit_callbacks)
    row.refresh_from_db()
    assert row.status == Status.FAILED and "answered 400" in row.last_error
    assert len(receiver.at("/hook")) == 1


def test_it_switches_a_webhook_off_after_ten_failures_in_a_row_and_tells_the_player(
    game, anna, receiver, django_capture_on_commit_callbacks
):
    webhook = hook(anna, receiver)
    receiver.answer("/hook", *[404] * 9, 204, *[404] * 10)
    for number in range(9):
        notify(anna, "game_started", game, django_capture_on_commit_callbacks, key=f"a{number}")
    assert Webhook.objects.get(pk=webhook.pk).failures == 9
    notify(anna, "game_started", game, django_capture_on_commit_callbacks, key="ok")
    assert Webhook.objects.get(pk=webhook.pk).failures == 0  # a success resets the count
    mail.outbox.clear()
    for number in range(10):
        notify(anna, "game_started", game, django_capture_on_commit_callbacks, key=f"b{number}")
    webhook.refresh_from_db()
    assert (webhook.active, webhook.failures) == (False, 10)
    assert "answered 404" in webhook.last_error
    switched = [m for m in mail.outbox if m.subject == "Your Firenze webhook was switched off"]
    assert [m.to for m in switched] == [[anna.email]]
    assert "failed 10 times in a row" in switched[0].body
    assert "http://localhost:8000/accounts/notifications/" in switched[0].body

    requests = len(receiver.at("/hook"))
    row = notify(anna, "game_started", game, django_capture_on_commit_callbacks, key="after")
    assert row is None  # nothing more is written for a switched-off webhook
    assert len(receiver.at("/hook")) == requests

    page = signed_in(anna).get(reverse("notification_settings:page")).content.decode()
    assert "Switched off after 10 failed" in page
    reauthenticated(anna).post(
        reverse("notification_settings:webhook"), {"url": webhook.url, "format": "discord"}
    )
    webhook.refresh_from_db()
    assert (webhook.active, webhook.failures) == (True, 0)


def test_it_sends_nothing_to_a_player_who_switched_the_kind_off_for_webhooks(
    game, anna, receiver, django_capture_on_commit_callbacks
):
    from notifications import preferences

    hook(anna, receiver)
    preferences.save(anna, {("invitations", "webhook"): "off"})
    assert notify(anna, "game_started", game, django_capture_on_commit_callbacks) is None
    assert receiver.at("/hook") == []
    assert Notification.objects.filter(user=anna, channel="email").exists()


# --- the settings page: save, test ----------------------------------------------------------


def test_it_queues_a_test_from_the_settings_page_and_shows_how_it_went(
    anna, receiver, django_capture_on_commit_callbacks
):
    client = reauthenticated(anna)
    saved = client.post(
        reverse("notification_settings:webhook"),
        {"url": receiver.url("/mine"), "format": "json"},
    )
    assert saved.status_code == 302
    with django_capture_on_commit_callbacks() as queued:
        page = client.post(reverse("notification_settings:webhook_test"), follow=True)
    assert "The test is on its way" in page.content.decode()
    assert receiver.at("/mine") == []  # nothing goes out from the web request
    waiting = settings_part(client, "webhook_test")
    assert "The test to your webhook is on its way" in waiting
    assert 'hx-trigger="every 2s"' in waiting  # the part asks again until the result is in

    for callback in queued:  # the worker's turn
        callback()
    done = settings_part(client, "webhook_test")
    assert "The test to your webhook arrived just now." in done
    assert "hx-trigger" not in done
    assert receiver.at("/mine")[0].json()["text"] == (
        "Test from Firenze: Anna's notifications arrive here."
    )
    again = client.post(reverse("notification_settings:webhook_test"), follow=True)
    assert "A test was sent a moment ago" in again.content.decode()

    Notification.objects.filter(kind="test").delete()
    receiver.answer("/mine", 404)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("notification_settings:webhook_test"))
    failed = client.get(reverse("notification_settings:page")).content.decode()
    assert "The test to your webhook failed:" in failed
    assert "answered 404 Not Found" in failed


def settings_part(client, part: str) -> str:
    """The part of the settings page an htmx poll fetches."""
    url = f"{reverse('notification_settings:page')}?part={part}"
    answer = client.get(url, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "<html" not in text  # only the part
    return text


@pytest.mark.parametrize(
    ("url", "error"),
    [
        ("ftp://example.com/x", "Only https:// addresses are allowed."),
        ("javascript:alert(1)", "Enter a valid URL."),
        ("http://example.com/hook", "Only https:// addresses are allowed."),
        ("https://10.1.2.3/hook", "points to a private or local address"),
        ("https://127.0.0.1/hook", "points to a private or local address"),
        ("https://[::1]/hook", "points to a private or local address"),
        ("https://[::ffff:127.0.0.1]/hook", "points to a private or local address"),
        ("https://169.254.169.254/latest/meta-data", "points to a private or local address"),
        ("https://localhost/hook", "points to a private or local address"),
        ("https://192.168.0.1:8443/hook", "points to a private or local address"),
        ("https://0.0.0.0/hook", "points to a private or local address"),
        ("https://" + "x" * 600 + ".com/", "at most 500 characters"),
    ],
)
def test_it_refuses_webhooks_to_private_addresses_and_plain_http_in_production(
    anna, settings, url, error
):
    settings.NOTIFICATIONS_ALLOW_HTTP_TARGETS = False
    settings.NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS = False
    answer = reauthenticated(anna).post(
        reverse("notification_settings:webhook"), {"url": url, "format": "slack"}
    )
    assert answer.status_code == 400
    assert error in answer.content.decode()
    assert not Webhook.objects.exists()


def test_it_checks_the_address_again_when_sending(
    game, anna, receiver, settings, django_capture_on_commit_callbacks
):
    hook(anna, receiver)  # saved while loopback was allowed
    settings.NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS = False
    row = notify(anna, "game_started", game, django_capture_on_commit_callbacks)
    row.refresh_from_db()
    assert row.status == Status.FAILED and "private or local address" in row.last_error
    assert receiver.at("/hook") == []


def test_it_follows_a_redirect_only_to_an_allowed_address(
    game, anna, receiver, django_capture_on_commit_callbacks
):
    hook(anna, receiver, "/moved")
    receiver.redirects["/moved"] = receiver.url("/new-home")
    notify(anna, "game_started", game, django_capture_on_commit_callbacks, key="one")
    assert len(receiver.at("/new-home")) == 1

    receiver.redirects["/moved"] = "http://10.0.0.7/internal"
    row = notify(anna, "game_started", game, django_capture_on_commit_callbacks, key="two")
    row.refresh_from_db()
    assert row.status == Status.FAILED and "private or local address" in row.last_error
    assert len(receiver.at("/new-home")) == 1


def test_it_never_connects_to_a_refused_address():
    for address in ("10.0.0.1", "172.16.5.4", "100.64.0.1", "fe80::1", "::", "224.0.0.1"):
        assert not safe_http.is_public(address), address
    for address in ("93.184.215.14", "2606:4700::1111"):
        assert safe_http.is_public(address), address
    with pytest.raises(safe_http.Refused):
        safe_http.post("https://10.0.0.1/x", b"{}", {})
