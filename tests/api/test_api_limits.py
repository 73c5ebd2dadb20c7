"""The API's rate limits: windows that slide (no burst of twice the limit across a boundary),
and callers without a token counted per address, failing closed like the rest."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from api import limits
from api.errors import ApiError

pytestmark = pytest.mark.django_db
MINUTE_START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


class Clock:
    """The limits' clock, frozen and moved by hand (no real time passes in a test)."""

    def __init__(self) -> None:
        self.now = MINUTE_START.timestamp()

    def time(self) -> float:
        return self.now

    def move_to(self, seconds_into_the_minute: float) -> None:
        self.now = MINUTE_START.timestamp() + seconds_into_the_minute


@pytest.fixture
def clock(monkeypatch) -> Clock:
    frozen = Clock()
    monkeypatch.setattr(limits, "time", frozen)
    return frozen


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def allowed(count: int, action: str = "talk", who: str = "t1") -> int:
    refusals: list[ApiError] = []
    for _ in range(count):
        try:
            limits.consume(action, who)
        except ApiError as exc:
            refusals.append(exc)
    assert all(r.status == 429 and (r.retry_after or 0) >= 1 for r in refusals)
    return count - len(refusals)


@override_settings(API_RATE_LIMITS={"talk": (10, 60)})
def test_a_burst_on_each_side_of_a_minutes_boundary_passes_the_limit_once(clock):
    clock.move_to(59.5)
    before = allowed(10)
    clock.move_to(60.5)
    after = allowed(10)
    assert before == 10
    assert after <= 1  # fixed windows let all ten through again


@override_settings(API_RATE_LIMITS={"talk": (10, 60)})
def test_the_limit_comes_back_as_the_window_slides(clock):
    clock.move_to(1)
    assert allowed(12) == 10
    clock.move_to(90)  # half the last minute still counts: 12 / 2 of the 10
    assert allowed(10) == 4
    clock.move_to(200)
    assert allowed(10) == 10


@override_settings(API_RATE_LIMITS={"anonymous": (3, 60)})
def test_calls_without_a_token_are_limited_per_address(anna):
    from tests.api.conftest import token_for

    office = Client(REMOTE_ADDR="203.0.113.7")
    codes = [office.get("/api/v1/lobby").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert office.get("/api/v1/lobby").json()["code"] == "rate_limited"
    assert Client(REMOTE_ADDR="203.0.113.8").get("/api/v1/lobby").status_code == 200
    with_token = office.get("/api/v1/lobby", HTTP_AUTHORIZATION=f"Bearer {token_for(anna)}")
    assert with_token.status_code == 200  # a token counts against itself


def test_calls_without_a_token_fail_closed_when_the_limits_cannot_count(monkeypatch):
    monkeypatch.setattr(limits, "is_down", lambda: True)
    response = Client().get("/api/v1/lobby")
    assert response.status_code == 503 and response.json()["code"] == "limits_unavailable"
