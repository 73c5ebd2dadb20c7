"""Web Push end to end, without mocking the library: a device subscribes through the view
push.js calls, an event goes through the outbox, pywebpush encrypts and signs, and a real
receiver on the loopback (standing in for the browser's push service) checks the VAPID token
and decrypts the payload with http_ece using the device's private key (tests/receivers.py).
"""

from __future__ import annotations

import time

import pytest
from django.db import transaction
from django.urls import reverse

from notifications import outbox, preferences
from notifications.models import Notification, PushSubscription
from tests.receivers import Device, vapid_claims
from tests.web.helpers import signed_in
from tests.web.test_notifications import acting_user, new_game

pytestmark = pytest.mark.django_db

Status = Notification.Status


@pytest.fixture
def game(anna, ben, carla):
    return new_game(anna, ben, carla)


def subscribe(user, device: Device, **extra):
    return signed_in(user).post(
        reverse("notification_settings:subscribe"),
        {**device.subscription(), **extra},
        HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile",
    )


def notify(user, kind, game, capture, key=None):
    key = key or f"{kind}:{game.pk}:push-test"
    with capture(execute=True), transaction.atomic():
        outbox.notify(user, kind, game=game, key=key)
    return list(Notification.objects.filter(dedupe_key__startswith=f"{key}:push:"))


def test_it_pushes_your_turn_encrypted_to_the_device_and_signed_with_the_sites_key(
    game, receiver, vapid, django_capture_on_commit_callbacks
):
    player = acting_user(game)
    device = Device(receiver)
    answer = subscribe(player, device)
    assert answer.status_code == 200 and answer.json()["device"] == "Chrome on Android"

    (row,) = notify(player, "your_turn", game, django_capture_on_commit_callbacks)
    (request,) = receiver.at(device.path)
    assert b"Your turn" not in request.body  # what the push service sees: ciphertext
    message = device.read(request)
    assert message == {
        "title": f"Your turn in Game {game.pk}",
        "body": message["body"],
        "url": f"http://localhost:8000/games/{game.pk}/",
        "tag": f"game-{game.pk}",
        "kind": "your_turn",
        "badge": 1,  # the app badge: this game waits for the player's move
    }
    assert message["body"].startswith(f"{player.public_name}, it is your turn in Game {game.pk}")
    claims = vapid_claims(request)
    assert claims["k"] == vapid  # our public key, the one browsers subscribed with
    assert claims["aud"] == receiver.url("")  # the push service's origin
    assert claims["sub"] == "mailto:admin@firenze.example"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert int(request.headers["ttl"]) > 0
    row.refresh_from_db()
    assert row.status == Status.SENT
    assert PushSubscription.objects.get().last_success_at is not None


def test_it_pushes_to_every_device_of_the_player(
    game, anna, receiver, vapid, django_capture_on_commit_callbacks
):
    phone, laptop = Device(receiver, "phone"), Device(receiver, "laptop")
    subscribe(anna, phone)
    subscribe(anna, laptop)
    rows = notify(anna, "game_started", game, django_capture_on_commit_callbacks)
    assert len(rows) == 2
    for device in (phone, laptop):
        (request,) = receiver.at(device.path)
        assert device.read(request)["title"] == f"Game {game.pk} has started"


def test_it_sets_the_app_badge_to_the_games_waiting_when_the_push_is_sent(
    anna, ben, carla, receiver, vapid, django_capture_on_commit_callbacks
):
    games = [new_game(anna, ben, carla, seed=seed) for seed in (1504, 1505, 1506, 1507)]
    waiting_for_anna = sum(acting_user(game) == anna for game in games)
    assert 0 < waiting_for_anna < len(games)  # some wait for her, one at least does not
    resting = next(game for game in games if acting_user(game) != anna)
    device = Device(receiver)
    subscribe(anna, device)

    notify(anna, "game_started", resting, django_capture_on_commit_callbacks)
    (request,) = receiver.at(device.path)
    assert device.read(request)["badge"] == waiting_for_anna


@pytest.mark.parametrize("status", [404, 410])
def test_it_removes_a_device_the_push_service_no_longer_knows(
    game, anna, receiver, vapid, status, django_capture_on_commit_callbacks
):
    device = Device(receiver)
    subscribe(anna, device)
    receiver.answer(device.path, status)
    (row,) = notify(anna, "game_started", game, django_capture_on_commit_callbacks)
    row.refresh_from_db()
    assert row.status == Status.SKIPPED and f"forgot this device ({status})" in row.last_error
    assert not PushSubscription.objects.exists()
    assert notify(anna, "game_over", game, django_capture_on_commit_callbacks) == []


def test_it_retries_a_push_service_that_is_busy(
    game, anna, receiver, vapid, eager_retries, django_capture_on_commit_callbacks
):
    device = Device(receiver)
    subscribe(anna, device)
    receiver.answer(device.path, 429, 201)
    (row,) = notify(anna, "game_started", game, django_capture_on_commit_callbacks)
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.SENT, 2)
    first, second = receiver.at(device.path)
    assert device.read(first) == device.read(second)


def test_it_pushes_only_the_kinds_the_player_wants_by_push(
    game, anna, receiver, vapid, django_capture_on_commit_callbacks
):
    device = Device(receiver)
    subscribe(anna, device)
    preferences.save(anna, {("invitations", "push"): "off"})
    assert notify(anna, "game_started", game, django_capture_on_commit_callbacks) == []
    assert receiver.at(device.path) == []


def test_it_writes_no_push_without_a_vapid_key(
    game, anna, receiver, vapid, settings, django_capture_on_commit_callbacks
):
    subscribe(anna, Device(receiver))
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    assert notify(anna, "game_started", game, django_capture_on_commit_callbacks) == []
    page = signed_in(anna).get(reverse("notification_settings:page")).content.decode()
    assert "Push notifications are not set up on this server" in page


def test_it_sends_a_test_notification_to_each_device(
    anna, receiver, vapid, django_capture_on_commit_callbacks
):
    device = Device(receiver)
    subscribe(anna, device)
    client = signed_in(anna)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("notification_settings:push_test"))
    page = client.get(reverse("notification_settings:page")).content.decode()
    assert "The test to Chrome on Android arrived just now." in page
    message = device.read(receiver.at(device.path)[0])
    assert message["body"] == "Test from Firenze: Anna's notifications arrive here."


# --- subscribing ----------------------------------------------------------------------------


def test_it_shows_the_public_key_browsers_subscribe_with(anna, vapid):
    page = signed_in(anna).get(reverse("notification_settings:page")).content.decode()
    assert f'data-key="{vapid}"' in page
    assert '<script src="/static/js/push.js" defer></script>' in page
    assert "<script>" not in page and " onclick=" not in page


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("p256dh", "not base64!", "is not base64url"),
        ("p256dh", "AAAA", "wrong length"),
        ("auth", "A" * 30, "wrong length"),
        ("endpoint", "javascript:alert(1)", "Enter a valid URL."),
        ("endpoint", "http://10.0.0.2/push/x", "private or local address"),
    ],
)
def test_it_refuses_a_malformed_subscription(anna, receiver, vapid, field, value, error):
    answer = subscribe(anna, Device(receiver), **{field: value})
    assert answer.status_code == 400 and error in answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_it_refuses_private_push_endpoints_in_production(anna, receiver, vapid, settings):
    settings.NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS = False
    answer = subscribe(anna, Device(receiver))
    assert answer.status_code == 400
    assert "private or local address" in answer.json()["error"]


def test_a_device_stays_with_the_account_that_subscribed_it(anna, ben, receiver, vapid):
    device = Device(receiver)
    subscribe(anna, device)
    keys = PushSubscription.objects.values("user__username", "p256dh", "auth").get()

    taken = subscribe(ben, device)  # anna's endpoint posted from ben's session

    assert taken.status_code == 409
    assert taken.json()["taken"] is True  # push.js then makes the browser a new subscription
    assert "another account" in taken.json()["error"]
    assert PushSubscription.objects.values("user__username", "p256dh", "auth").get() == keys
    signed_in(ben).post(reverse("notification_settings:unsubscribe"), {"endpoint": device.endpoint})
    assert PushSubscription.objects.filter(user=anna).exists()  # not ben's to remove

    fresh = Device(receiver)  # the browser's new subscription, for ben
    assert subscribe(ben, fresh).status_code == 200
    gone = signed_in(anna).post(
        reverse("notification_settings:unsubscribe"), {"endpoint": device.endpoint}
    )
    assert gone.json() == {"removed": True}
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["ben"]


def test_it_serves_the_service_worker_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript"
    assert answer["Service-Worker-Allowed"] == "/"
    assert answer["Cache-Control"] == "no-cache"
    script = answer.content.decode()
    for needed in ('addEventListener("push"', "showNotification", '"notificationclick"'):
        assert needed in script
