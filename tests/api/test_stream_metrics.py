"""The live streams' metrics on /metrics: how many streams are open, and the fan-out lag of
each event handed to them (streams/metrics.py)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from prometheus_client import REGISTRY

from tests.api.test_streams import move, open_stream, run
from tests.web.helpers import started_game

pytestmark = pytest.mark.django_db


def sample(name: str) -> float:
    return REGISTRY.get_sample_value(name) or 0.0


def test_it_counts_open_streams_and_the_lag_of_each_event(
    streams_on, anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)
    before = sample("firenze_streams_open"), sample("firenze_stream_fanout_seconds_count")

    async def scenario() -> dict[str, Any]:
        first = await open_stream(f"/streams/games/{game.pk}/")
        second = await open_stream(f"/streams/games/{game.pk}/")
        both_open = sample("firenze_streams_open")
        await sync_to_async(move)(game, django_capture_on_commit_callbacks)
        await first.event()
        await second.event()
        await first.close()
        await second.close()
        return {"both_open": both_open}

    seen = run(scenario)
    assert seen["both_open"] == before[0] + 2
    assert sample("firenze_streams_open") == before[0]
    # One event, handed over once to the process's streams (framed once for both).
    assert sample("firenze_stream_fanout_seconds_count") == before[1] + 1
    assert sample("firenze_stream_fanout_seconds_sum") < 60
