"""The site's own figures, read from the database and the broker each time Prometheus asks.

They are states (games running, emails waiting, the oldest waiting bot turn), so they are
gauges computed at scrape time, the same whichever process answers; each is one indexed
query. Counts of things that happen (moves, timeouts, task failures) are counters in
ops/metrics.py. Nothing here names a player.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import datetime, timedelta

from django.db.models import Count, Min
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from games.models import Game
from notifications.models import Notification
from ops import queues
from tournaments.rounds import stalled

log = logging.getLogger(__name__)
HOUR = timedelta(hours=1)


def _age(moment: datetime | None, now: datetime) -> float:
    return (now - moment).total_seconds() if moment else 0.0


def _gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, doc, value=value)


def games() -> Iterator[GaugeMetricFamily]:
    now = timezone.now()
    active = Game.objects.filter(status=Game.Status.ACTIVE)
    yield _gauge("firenze_games_active", "Games being played.", active.count())
    overdue = Game.objects.order_by().filter(deadline__lt=now).count()
    yield _gauge(
        "firenze_turns_overdue", "Turns past their deadline the sweep has not handled.", overdue
    )
    bot_turns = active.order_by().filter(deadline=None, acting_seat__isnull=False)
    oldest = bot_turns.aggregate(oldest=Min("turn_started_at"))["oldest"]
    yield _gauge(
        "firenze_bot_turn_wait_seconds",
        "Age of the oldest turn waiting for a bot.",
        _age(oldest, now),
    )


def notifications() -> Iterator[GaugeMetricFamily]:
    now = timezone.now()
    pending = Notification.objects.order_by().filter(
        status=Notification.Status.PENDING, digest=False
    )
    yield _gauge(
        "firenze_notifications_pending", "Immediate notifications not yet sent.", pending.count()
    )
    oldest = pending.aggregate(oldest=Min("created"))["oldest"]
    yield _gauge(
        "firenze_notification_oldest_pending_seconds",
        "Age of the oldest immediate notification not yet sent (the delivery delay).",
        _age(oldest, now),
    )
    recent = Notification.objects.order_by().filter(failed_at__gte=now - HOUR)
    failed = GaugeMetricFamily(
        "firenze_notifications_failed_last_hour",
        "Notifications given up in the last hour, by channel (email, webhook, push).",
        labels=["channel"],
    )
    counts = dict(recent.values("channel").annotate(n=Count("id")).values_list("channel", "n"))
    for channel in Notification.Channel.values:
        failed.add_metric([channel], float(counts.get(channel, 0)))
    yield failed


def tournaments() -> Iterator[GaugeMetricFamily]:
    yield _gauge(
        "firenze_tournament_rounds_waiting",
        "Running tournaments whose round has ended but whose next round is not dealt.",
        len(stalled()),
    )


def broker() -> Iterator[GaugeMetricFamily]:
    family = GaugeMetricFamily(
        "firenze_celery_queue_length", "Messages waiting in each Celery queue.", labels=["queue"]
    )
    for queue, length in queues.lengths().items():
        family.add_metric([queue], float(length))
    yield family


class SiteFigures(Collector):
    """Each group of figures on its own: a failing one (the broker away) costs its figures and
    sets ``firenze_figures_up{group}`` to 0, never the whole scrape."""

    GROUPS = {
        "games": games,
        "notifications": notifications,
        "tournaments": tournaments,
        "broker": broker,
    }

    def collect(self) -> Iterator[GaugeMetricFamily]:
        up = GaugeMetricFamily(
            "firenze_figures_up", "Whether each group of figures could be read.", labels=["group"]
        )
        for name, group in self.GROUPS.items():
            try:
                families = list(group())
            except Exception as exc:  # noqa: BLE001 - one group down must not fail the scrape
                log.warning("figures %s unavailable: %s", name, exc)
                up.add_metric([name], 0.0)
                continue
            up.add_metric([name], 1.0)
            yield from families
        yield up
