"""The live event streams: a game's and an account's, with Last-Event-ID resumption, the
pages' access rules and the limits on open streams."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client, override_settings
from django.utils.timezone import now

from api import tokens
from api.models import ApiToken
from games import lobby, play, versions
from games.models import Game
from games.rules.firenze import rules
from streams import hub
from tests.web.helpers import started_game

pytestmark = pytest.mark.django_db
WAIT = 10.0


class Stream:
    """An open stream read frame by frame (an SSE frame ends with a blank line)."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.chunks = aiter(response)  # as Django's ASGI handler reads it
        self.buffer = ""

    async def frame(self) -> dict[str, str]:
        while "\n\n" not in self.buffer:
            chunk = await asyncio.wait_for(anext(self.chunks), WAIT)
            self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        raw, self.buffer = self.buffer.split("\n\n", 1)
        fields: dict[str, str] = {}
        for line in raw.split("\n"):
            name, _, value = line.partition(":")
            fields[name or "comment"] = value.strip()
        return fields

    async def event(self) -> dict[str, Any]:
        """The next event, past comments and keep-alives."""
        deadline = asyncio.get_running_loop().time() + WAIT
        while asyncio.get_running_loop().time() < deadline:
            frame = await self.frame()
            if "event" in frame:
                return {
                    "id": frame.get("id"),
                    "event": frame["event"],
                    "data": json.loads(frame["data"]),
                }
        raise AssertionError("no event came")

    async def close(self) -> None:
        await self.chunks.aclose()


def run(scenario: Callable[[], Any]) -> Any:
    """Run an async scenario; its sync_to_async calls share the test's database connection."""

    async def wrapped() -> Any:
        try:
            return await scenario()
        finally:
            found = hub._HUBS.get(asyncio.get_running_loop())
            if found is not None:
                await found.close()

    return async_to_sync(wrapped)()


def move(game: Game, capture) -> int:
    """The acting player's first legal action, committed (its events go out on commit)."""
    game.refresh_from_db()
    user = game.seats.get(number=game.acting_seat).user
    action = rules.legal_actions(game.load_state())[0]
    with capture(execute=True):
        return play.submit_move(game.pk, user, action, game.version).version


async def get(path: str, cookies: Any = None, **headers: str) -> Any:
    client = AsyncClient()
    if cookies is not None:
        client.cookies = cookies
    return await client.get(path, headers=headers)


async def open_stream(path: str, cookies: Any = None, **headers: str) -> Stream:
    response = await get(path, cookies, **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/event-stream")
    stream = Stream(response)
    assert "retry" in await stream.frame()
    return stream


def test_a_move_is_announced_on_the_games_stream(
    streams_on, anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)

    async def scenario() -> dict[str, Any]:
        stream = await open_stream(f"/streams/games/{game.pk}/")
        version = await sync_to_async(move)(game, django_capture_on_commit_callbacks)
        event = await stream.event()
        await stream.close()
        return {"event": event, "version": version}

    seen = run(scenario)
    event = seen["event"]
    assert event["event"] == "move"
    assert event["data"]["game"] == game.pk and event["data"]["version"] == seen["version"]
    assert set(event["data"]) == {
        "game",
        "step",
        "seat",
        "version",
        "acting_seat",
        "status",
        "by_bot",
        "at",
    }


def test_it_resumes_after_last_event_id(streams_on, anna, ben, django_capture_on_commit_callbacks):
    game = started_game(anna, ben)

    async def scenario() -> tuple[list[int], list[int]]:
        first = await open_stream(f"/streams/games/{game.pk}/")
        for _ in range(3):
            await sync_to_async(move)(game, django_capture_on_commit_callbacks)
        events = [await first.event() for _ in range(3)]
        await first.close()
        again = await open_stream(
            f"/streams/games/{game.pk}/", **{"Last-Event-ID": events[0]["id"]}
        )
        missed = [await again.event() for _ in range(2)]
        await again.close()
        return [e["data"]["step"] for e in events], [e["data"]["step"] for e in missed]

    steps, missed = run(scenario)
    assert missed == steps[1:]


def test_a_private_games_stream_follows_the_pages_rule(streams_on, anna, ben, carla):
    game = lobby.create_game(anna, num_players=3, is_public=False)
    lobby.join(game, ben, token=game.invite_token)
    game.refresh_from_db()  # the link that seated Ben was replaced
    secret = tokens.create(carla, "c", "read").secret
    mine = tokens.create(ben, "b", "read").secret

    async def scenario() -> list[int]:
        outsider = await get(f"/streams/games/{game.pk}/")
        with_token = await get(f"/streams/games/{game.pk}/", Authorization=f"Bearer {secret}")
        # A page token outlives the invite link it came with: alone it opens nothing.
        page_token = await get(f"/streams/games/{game.pk}/?p={versions.poll_token(game.pk, '')}")
        link = await open_stream(f"/streams/games/{game.pk}/?token={game.invite_token}")
        await link.close()
        seated = await open_stream(f"/streams/games/{game.pk}/", Authorization=f"Bearer {mine}")
        await seated.close()
        return [outsider.status_code, with_token.status_code, page_token.status_code]

    assert run(scenario) == [404, 404, 404]


def test_the_account_stream_says_your_turn_and_invitations(
    streams_on, anna, ben, django_capture_on_commit_callbacks
):
    secret = tokens.create(ben, "bot", "read").secret

    async def scenario() -> list[dict[str, Any]]:
        anonymous = await get("/streams/account/")
        assert (
            anonymous.status_code == 401
            and json.loads(anonymous.content)["code"] == "unauthenticated"
        )
        stream = await open_stream("/streams/account/", Authorization=f"Bearer {secret}")

        def invite_and_start() -> Game:
            with django_capture_on_commit_callbacks(execute=True):
                game = lobby.create_game(anna, num_players=2)
                lobby.invite(game, anna, "Ben")
            with django_capture_on_commit_callbacks(execute=True):
                lobby.join(game, ben)
            return game

        game = await sync_to_async(invite_and_start)()
        events = [await stream.event() for _ in range(2)]
        acting = await sync_to_async(
            lambda: (
                Game.objects.get(pk=game.pk)
                .seats.get(number=Game.objects.get(pk=game.pk).acting_seat)
                .user_id
            )
        )()
        if acting == ben.pk:
            events.append(await stream.event())
        await stream.close()
        return events

    events = run(scenario)
    kinds = [e["event"] for e in events]
    assert kinds[:2] == ["invited", "started"]
    assert events[0]["data"]["by"] == "Anna"
    if len(events) == 3:
        assert kinds[2] == "your_turn"


async def ended(stream: Stream) -> bool:
    """Whether the stream ends before any other event comes (keep-alives aside)."""
    try:
        await stream.event()
    except StopAsyncIteration:
        return True
    return False


def test_a_revoked_tokens_stream_ends_when_it_is_revoked(
    streams_on, anna, ben, django_capture_on_commit_callbacks
):
    started_game(anna, ben)
    made = tokens.create(ben, "bot", "read")

    def revoke() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            tokens.revoke(ben, made.token.pk)

    async def scenario() -> bool:
        stream = await open_stream("/streams/account/", Authorization=f"Bearer {made.secret}")
        await sync_to_async(revoke)()
        return await ended(stream)

    assert run(scenario)


def test_a_stream_checks_its_token_again_on_a_timer(streams_on, settings, anna, ben):
    """A token revoked with no notice (another process, a lost message): the timer finds it."""
    settings.STREAMS_RECHECK_SECONDS = 0  # every tick
    made = tokens.create(ben, "bot", "read")

    async def scenario() -> bool:
        stream = await open_stream("/streams/account/", Authorization=f"Bearer {made.secret}")
        await sync_to_async(ApiToken.objects.filter(pk=made.token.pk).update)(revoked_at=now())
        return await ended(stream)

    assert run(scenario)


def test_a_used_invite_links_stream_ends_and_starts_no_more(
    streams_on, anna, ben, carla, django_capture_on_commit_callbacks
):
    """An anonymous link holder watched the forming game; the link seats Carla: the holder's
    stream ends before the game's start or its moves reach it, and cannot be opened again."""
    game = lobby.create_game(anna, num_players=2, is_public=False)
    link = f"/streams/games/{game.pk}/?token={game.invite_token}"

    def use_link() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            lobby.join(game, carla, token=game.invite_token)

    async def scenario() -> tuple[bool, int]:
        stream = await open_stream(link)
        await sync_to_async(use_link)()
        return await ended(stream), (await get(link)).status_code

    assert run(scenario) == (True, 404)


def test_a_withdrawn_invite_links_stream_ends(streams_on, anna, django_capture_on_commit_callbacks):
    game = lobby.create_game(anna, num_players=3, is_public=False)

    def withdraw() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            lobby.revoke(game, anna)

    async def scenario() -> bool:
        stream = await open_stream(f"/streams/games/{game.pk}/?token={game.invite_token}")
        await sync_to_async(withdraw)()
        return await ended(stream)

    assert run(scenario)


def test_a_signed_out_browsers_stream_ends(
    streams_on, anna, ben, django_capture_on_commit_callbacks
):
    game = lobby.create_game(anna, num_players=2, is_public=False)
    lobby.join(game, ben, token=game.invite_token)
    browser = Client()
    browser.force_login(ben)
    cookies = copy.deepcopy(browser.cookies)

    def sign_out() -> int:
        with django_capture_on_commit_callbacks(execute=True):
            return browser.post("/accounts/logout/").status_code

    async def scenario() -> tuple[bool, int]:
        stream = await open_stream(f"/streams/games/{game.pk}/", cookies)
        assert await sync_to_async(sign_out)() == 302
        return await ended(stream), (await get(f"/streams/games/{game.pk}/", cookies)).status_code

    assert run(scenario) == (True, 404)


@override_settings(API_RATE_LIMITS={"streams": (1, 0)})
def test_open_streams_are_limited_per_account(streams_on, anna, ben):
    game = started_game(anna, ben)
    secret = tokens.create(anna, "a", "read").secret

    async def scenario() -> list[int]:
        auth = {"Authorization": f"Bearer {secret}"}
        first = await open_stream(f"/streams/games/{game.pk}/", **auth)
        second = await get("/streams/account/", **auth)
        await first.close()
        third = await open_stream("/streams/account/", **auth)  # the first one was freed
        await third.close()
        return [second.status_code]

    assert run(scenario) == [429]


def test_streams_fail_closed_when_the_limits_cannot_be_counted(streams_on, anna, ben, monkeypatch):
    import api.limits

    game = started_game(anna, ben)
    monkeypatch.setattr(api.limits, "is_down", lambda: True)

    async def scenario() -> int:
        return (await get(f"/streams/games/{game.pk}/")).status_code

    assert run(scenario) == 503


def test_without_redis_there_is_no_stream_and_the_page_polls(settings, anna, ben, client):
    settings.STREAMS_REDIS_URL = ""
    game = started_game(anna, ben)

    async def scenario() -> int:
        return (await get(f"/streams/games/{game.pk}/")).status_code

    assert run(scenario) == 204
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "sse-connect" not in page and 'hx-trigger="every 5s' in page


def test_the_game_page_listens_to_its_stream(streams_on, anna, ben, client):
    game = started_game(anna, ben)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'sse-connect="/streams/games/{game.pk}/' in page
    assert "sse:move" in page and "every 5s" in page  # the poll stays, as the fallback


def test_a_players_game_stream_tells_the_alarms_the_game_is_open(streams_on, anna, ben):
    """Deadline alarms skip a player looking at the game (games.presence): a stream counts."""
    from games import presence

    presence.forget_writes()
    game = started_game(anna, ben)
    mine = tokens.create(ben, "b", "read").secret
    assert not presence.is_open(game.pk, ben.pk)

    async def scenario() -> None:
        stream = await open_stream(f"/streams/games/{game.pk}/", Authorization=f"Bearer {mine}")
        await stream.close()

    run(scenario)
    assert presence.is_open(game.pk, ben.pk)
    assert not presence.is_open(game.pk, anna.pk)  # only the one watching
