"""Fuzzing every API endpoint from its own OpenAPI schema: schemathesis draws requests that fit
the schema and requests that break it (wrong types, missing fields, out-of-range numbers), with
hypothesis; each goes to the site as an anonymous caller, an outsider, a seated player waiting
for their turn and the acting player, with a token that may play, one that may only read, or a
token that is no token. Now and then the path names one of the real games and the body a real
legal action at the current version, so legal moves happen too.

For every request: never a 5xx, every error is JSON with a code, and the games' state, version
and move log are unchanged unless it was the acting player's legal move (or undo) at the
current version with a token that may play. ``FUZZ_EXAMPLES`` sets the examples per endpoint
and mode (30 in the suite). The counts go to test-artifacts/api-fuzz-report.txt.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.core import NOT_SET

from api import tokens
from api.main import api
from games import lobby
from games.models import Game, Move
from games.rules.firenze import rules
from tests import figures
from tests.factories import UserFactory
from tests.web.helpers import fast_forward, started_game

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "30"))
REPORT = Path(__file__).resolve().parents[2] / "test-artifacts" / "api-fuzz-report.txt"
REQUESTS: Counter[str] = Counter()
SERVER_ERRORS: Counter[str] = Counter()
APPLIED: Counter[str] = Counter()
ACTORS = ["anonymous", "garbage", "outsider", "waiting", "acting"]
SCHEMA = schemathesis.openapi.from_dict(api.get_openapi_schema(path_prefix="/api/v1"))

# On PostgreSQL, the database production uses, in make test's lane beside the SQLite workers
# (11 s alone there, 44 s of a SQLite worker in the run).
pytestmark = pytest.mark.postgres


class World:
    def __init__(self) -> None:
        self.anna = UserFactory(username="anna")
        self.ben = UserFactory(username="ben")
        self.carla = UserFactory(username="carla")
        self.public = started_game(self.anna, self.ben)
        fast_forward(self.public, 12)
        self.private = lobby.create_game(self.anna, num_players=2, is_public=False)
        lobby.join(self.private, self.ben, token=self.private.invite_token)
        self.forming = lobby.create_game(self.anna, num_players=3, is_public=False)
        self.active = [self.public, self.private]
        self.ids = [self.public.pk, self.private.pk, self.forming.pk, 10**12, 1]
        self.names = ["Anna", "ben", "Nobody", "A" * 30]
        self.secrets = {
            (user.pk, scope): tokens.create(user, scope, scope).secret
            for user in (self.anna, self.ben, self.carla)
            for scope in ("read", "play")
        }

    def user(self, actor: str, game: Game) -> Any:
        if actor in ("anonymous", "garbage"):
            return None
        if actor == "outsider":
            return self.carla
        seats = {s.number: s.user for s in game.seats.all()}
        acting = seats.get(game.acting_seat)
        waiting = next((u for u in seats.values() if u is not None and u != acting), None)
        return acting if actor == "acting" else waiting

    def snapshot(self) -> list[Any]:
        return [
            (
                Game.objects.filter(pk=g.pk).values("version", "state", "acting_seat").get(),
                list(Move.objects.filter(game_id=g.pk).order_by("seq").values("seq", "action")),
            )
            for g in self.active
        ]


@pytest.fixture
def world(db) -> World:
    return World()


def _operations() -> list[Any]:
    return [result.ok() for result in SCHEMA.get_all_operations()]


def _request(case: Any) -> tuple[str, dict[str, Any], Any]:
    path = case.formatted_path
    query = {k: v for k, v in (case.query or {}).items() if v is not None}
    body = None if case.body is NOT_SET else case.body
    return path, query, body


def _aim(case: Any, operation: Any, world: World, data: st.DataObject) -> tuple[bool, Game]:
    """Now and then point the request at a real game or player; returns (whether it did, the
    game it is about)."""
    real = data.draw(st.booleans())
    params = case.path_parameters or {}
    if real and "pk" in params:
        playing = [g.pk for g in world.active]
        moves = operation.path.endswith("/move")  # a real move: in a game being played
        params["pk"] = data.draw(st.sampled_from(playing if moves else playing + world.ids))
    if real and "name" in params:
        params["name"] = data.draw(st.sampled_from(world.names))
    target = next((g for g in world.active if params.get("pk") == g.pk), world.public)
    target.refresh_from_db()
    return real, target


def _send(method: str, path: str, query: dict[str, Any], body: Any, headers: dict) -> Any:
    client = Client()
    if method == "GET":
        return client.get(path, query, **headers)
    if isinstance(body, (bytes, str)):
        payload: Any = body
    else:
        payload = json.dumps(body) if body is not None else ""
    target = path + ("?" + _qs(query) if query else "")
    return client.generic(method, target, payload, content_type="application/json", **headers)


def fuzz_operation(operation: Any, world: World) -> None:
    name = f"{operation.method.upper()} {operation.path}"
    moves = operation.path.endswith("/move")
    strategies = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategies, actor=st.sampled_from(ACTORS), data=st.data())
    def fuzz(case: Any, actor: str, data: st.DataObject) -> None:
        real, target = _aim(case, operation, world, data)
        scope = data.draw(st.sampled_from(["read", "play", "play"]))
        if real and moves:  # the acting player's legal move, half the time: some must apply
            actor, scope = "acting", "play"
        user = world.user(actor, target)
        path, query, body = _request(case)
        legal = rules.legal_actions(target.load_state())
        if real and moves and legal:
            body = {"action": data.draw(st.sampled_from(legal)), "version": target.version}
        headers: dict[str, str] = {}
        if actor == "garbage":
            headers["HTTP_AUTHORIZATION"] = str((case.headers or {}).get("Authorization", "x"))
        elif user is not None:
            headers["HTTP_AUTHORIZATION"] = f"Bearer {world.secrets[(user.pk, scope)]}"
        before = world.snapshot()
        response = _send(operation.method.upper(), path, query, body, headers)
        REQUESTS[name] += 1
        SERVER_ERRORS[name] += response.status_code >= 500
        assert response.status_code < 500, (name, actor, path, query, body)
        if response.status_code >= 400 and response["Content-Type"] == "application/json":
            assert "code" in response.json(), response.content
        for game, old, new in zip(world.active, before, world.snapshot(), strict=True):
            if old != new:
                allowed = (
                    game.pk == target.pk
                    and (actor, scope) == ("acting", "play")
                    and operation.path.endswith(("/move", "/undo"))
                    and isinstance(body, dict)
                    and body.get("version") == old[0]["version"]
                )
                assert allowed, f"{name} by {actor} ({scope}) changed game {game.pk}: {body}"
                APPLIED[name] += 1

    fuzz()


def _qs(query: dict[str, Any]) -> str:
    from urllib.parse import urlencode

    return urlencode(query, doseq=True)


def test_fuzz_every_api_endpoint_from_its_schema(world):
    operations = _operations()
    assert len(operations) >= 17
    fuzzed = {f"{op.method.upper()} {op.path}" for op in operations}
    assert "PUT /api/v1/games/{pk}/plan/orders" in fuzzed  # the standing orders (issue 31)
    for operation in operations:
        fuzz_operation(operation, world)
    assert sum(SERVER_ERRORS.values()) == 0, SERVER_ERRORS
    assert APPLIED["POST /api/v1/games/{pk}/move"] > 0  # legal moves really were made


@pytest.fixture(scope="module", autouse=True)
def fuzz_report():
    yield
    if not REQUESTS:
        return
    lines = [f"{REQUESTS[name]:5d} requests, {SERVER_ERRORS[name]} answered 5xx, "
             f"{APPLIED[name]} changed a game: {name}" for name in sorted(REQUESTS)]  # fmt: skip
    total = sum(REQUESTS.values())
    lines.append(f"{total} requests to {len(REQUESTS)} API endpoints, "
                 f"{sum(SERVER_ERRORS.values())} answered 5xx (goal 0)")  # fmt: skip
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text("\n".join(lines) + "\n")
    figures.report(f"API fuzz: {lines[-1]} (per endpoint: {REPORT.name})")
