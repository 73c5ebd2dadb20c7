"""The live streams' figures for Prometheus (served at /metrics by ops/): streams open now (the
sum over every live server process) and how long an event took from its append in Redis to
being handed to the streams of this process (the fan-out lag)."""

from __future__ import annotations

import time

from prometheus_client import Gauge, Histogram

OPEN = Gauge("firenze_streams_open", "Live event streams open now.", multiprocess_mode="livesum")
FANOUT_LAG = Histogram(
    "firenze_stream_fanout_seconds",
    "From an event's append in Redis to its hand-over to this process's open streams.",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0),
)


def fanned_out(event_id: tuple[int, int] | None) -> None:
    """The event's id starts with Redis' clock in milliseconds (XADD's own ids)."""
    if event_id is not None:
        FANOUT_LAG.observe(max(0.0, time.time() - event_id[0] / 1000))
