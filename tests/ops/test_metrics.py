"""/metrics: Prometheus' text format, for the operator's networks or the bearer secret only,
with the requests by view, the games' events and the site's own figures, and no player's data.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from kombu import Connection
from prometheus_client.parser import text_string_to_metric_families

from games.models import Game
from notifications.models import Notification
from tests.web.helpers import game_page, play_greedy, signed_in, started_game

pytestmark = pytest.mark.django_db


def scrape(client, **extra) -> dict[tuple[str, tuple], float]:
    response = client.get("/metrics", **extra)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_it_counts_requests_by_view_not_by_path(client, anna, ben):
    game = started_game(anna, ben)
    before = scrape(client)
    game_page(signed_in(anna), game)
    after = scrape(client)
    labels = {"view": "games:detail", "method": "GET", "status": "200"}
    assert value(after, "firenze_http_requests_total", **labels) == (
        value(before, "firenze_http_requests_total", **labels) + 1
    )
    assert value(after, "firenze_http_request_seconds_count", view="games:detail") >= 1
    assert value(after, "firenze_sql_queries_total", view="games:detail") > value(
        before, "firenze_sql_queries_total", view="games:detail"
    )
    # A path (with its ids and tokens) always has a slash; a view's name never does. (Not the
    # game's id as a substring: django-ninja's "api-1.0.0:..." names hold digits of their own.)
    assert not any("/" in dict(labels).get("view", "") for _, labels in after)


def test_it_counts_moves_once_they_are_stored(
    client, anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)
    before = scrape(client)
    with django_capture_on_commit_callbacks(execute=True):
        played = play_greedy(game, 3)
    after = scrape(client)
    moved = sum(
        value(after, "firenze_moves_total", by=by) - value(before, "firenze_moves_total", by=by)
        for by in ("person", "bot", "timeout")
    )
    assert played == 3 and moved == 3


def test_it_reports_the_sites_figures(client, anna, ben, carla):
    started_game(anna, ben)
    late = started_game(anna, carla)
    before = scrape(client)
    Game.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(minutes=10))
    Notification.objects.filter(status="pending").update(status="sent")
    waiting = Notification.objects.create(user=ben, kind="your_turn", game=late, dedupe_key="a")
    Notification.objects.filter(pk=waiting.pk).update(created=timezone.now() - timedelta(minutes=3))
    Notification.objects.create(
        user=ben,
        kind="your_turn",
        game=late,
        channel="webhook",
        status="failed",
        failed_at=timezone.now(),
        dedupe_key="b",
    )
    samples = scrape(client)
    assert value(samples, "firenze_games_active") == 2
    assert value(before, "firenze_turns_overdue") == 0
    assert value(samples, "firenze_turns_overdue") == 1
    assert value(samples, "firenze_notifications_pending") == 1
    assert 170 < value(samples, "firenze_notification_oldest_pending_seconds") < 400
    assert value(samples, "firenze_notifications_failed_last_hour", channel="webhook") == 1
    assert value(samples, "firenze_notifications_failed_last_hour", channel="push") == 0
    assert value(samples, "firenze_tournament_rounds_waiting") == 0
    assert value(samples, "firenze_figures_up", group="games") == 1


def test_it_counts_the_messages_waiting_in_each_queue(client, settings, tmp_path):
    """Two tasks for the bots queue and one for the default wait in a filesystem broker."""
    options = {
        "data_folder_in": str(tmp_path),
        "data_folder_out": str(tmp_path),
        "control_folder": str(tmp_path / "control"),
    }
    settings.CELERY_BROKER_URL = "filesystem://"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = options
    with Connection("filesystem://", transport_options=options) as connection:
        for queue, count in (("bots", 2), ("celery", 1)):
            simple = connection.SimpleQueue(queue)
            for n in range(count):
                simple.put({"n": n})
            simple.close()
    samples = scrape(client)
    assert value(samples, "firenze_celery_queue_length", queue="bots") == 2
    assert value(samples, "firenze_celery_queue_length", queue="celery") == 1


def test_it_carries_no_player_data(client, anna, ben):
    game = started_game(anna, ben)
    game_page(signed_in(anna), game)
    body = client.get("/metrics").content.decode()
    for secret in (anna.email, anna.username, ben.email, ben.display_name, game.invite_token):
        assert secret not in body


def test_it_is_not_found_without_the_secret_outside_the_networks(client, settings):
    settings.OPS_ALLOWED_NETWORKS = ["10.0.0.0/8"]
    settings.OPS_BEARER_TOKEN = "prometheus-scrape-secret-0123456789"
    assert client.get("/metrics").status_code == 404  # the loopback is no longer listed
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    secret = {"HTTP_AUTHORIZATION": "Bearer prometheus-scrape-secret-0123456789"}
    assert client.get("/metrics", **secret).status_code == 200
    assert client.post("/metrics", **secret).status_code == 405
    assert client.post("/metrics").status_code == 404  # no hint that it exists


def test_it_counts_notifications_as_they_are_done_with_and_their_delay(client, ben, anna):
    from notifications import delivery

    game = started_game(anna, ben)
    before = scrape(client)
    acting = game.seats.get(number=game.acting_seat).user  # their turn: the email is due
    row = Notification.objects.create(user=acting, kind="your_turn", game=game, dedupe_key="m-1")
    Notification.objects.filter(pk=row.pk).update(created=timezone.now() - timedelta(seconds=90))
    delivery.deliver(row.pk)
    after = scrape(client)
    row.refresh_from_db()
    assert row.status == "sent"
    status = {"channel": "email", "status": "sent"}
    assert value(after, "firenze_notifications_finished_total", **status) == (
        value(before, "firenze_notifications_finished_total", **status) + 1
    )
    delay = "firenze_notification_delay_seconds"
    assert value(after, f"{delay}_count", channel="email") == (
        value(before, f"{delay}_count", channel="email") + 1
    )
    # It waited 90 s: counted above 60 s, not within it.
    for le, more in (("60.0", 0), ("120.0", 1)):
        assert value(after, f"{delay}_bucket", channel="email", le=le) == (
            value(before, f"{delay}_bucket", channel="email", le=le) + more
        )


def test_it_documents_every_metric_of_the_site_with_an_alert(client):
    """docs/operations.md lists each of the site's metrics (the firenze_ ones)."""
    from pathlib import Path

    import streams.metrics  # noqa: F401 - registered where the streams run

    documented = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    body = client.get("/metrics").content.decode()
    families = {f.name for f in text_string_to_metric_families(body)}
    ours = sorted(n for n in families if n.startswith("firenze_") and not n.endswith("_created"))
    assert len(ours) >= 20
    assert [name for name in ours if f"`{name}" not in documented] == []
