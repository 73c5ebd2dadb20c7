"""Fixtures of the API tests: tokens, and a client that sends one."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from api import tokens


class ApiClient:
    """Django's test client speaking JSON with a bearer token (or none)."""

    def __init__(self, secret: str | None = None, language: str | None = None) -> None:
        self.client = Client()
        self.headers: dict[str, str] = {}
        if secret:
            self.headers["HTTP_AUTHORIZATION"] = f"Bearer {secret}"
        if language:
            self.headers["HTTP_ACCEPT_LANGUAGE"] = language

    def get(self, path: str, **params: Any):
        return self.client.get(f"/api/v1{path}", params, **self.headers)

    def post(self, path: str, data: Any = None, **extra: Any):
        body = data if isinstance(data, (str, bytes)) else json.dumps(data or {})
        return self.client.post(
            f"/api/v1{path}", body, content_type="application/json", **self.headers, **extra
        )

    def put(self, path: str, data: Any = None):
        body = json.dumps(data or {})
        return self.client.put(
            f"/api/v1{path}", body, content_type="application/json", **self.headers
        )

    def delete(self, path: str):
        return self.client.delete(f"/api/v1{path}", **self.headers)


def token_for(user: Any, scope: str = "play", name: str = "test") -> str:
    return tokens.create(user, name, scope).secret


@pytest.fixture
def api_as():
    """``api_as(user, scope="play")``: a client with a fresh token of ``user``;
    ``api_as(None)``: one without a token."""

    def make(user: Any = None, scope: str = "play", language: str | None = None) -> ApiClient:
        return ApiClient(token_for(user, scope) if user is not None else None, language)

    return make


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    """A redis-server of the test session, on a free loopback port."""
    from tests.integration.conftest import RedisServer

    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def streams_on(redis_server, settings):
    """Live streams on, against the session's Redis (emptied first)."""
    from streams import publish

    with redis_server.client() as client:
        client.flushall()
    settings.STREAMS_REDIS_URL = redis_server.url
    settings.STREAMS_KEEPALIVE_SECONDS = 0.2
    publish._client.cache_clear()
    yield redis_server
    publish._client.cache_clear()
