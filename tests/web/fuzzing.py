"""The hypothesis fuzz of every POST endpoint and every page of the site: its world, routes and
strategies. Hostile and random payloads from an anonymous visitor, an outsider, a seated player
waiting for their turn and the acting player.

The endpoints are read from the URL configuration (games, accounts, the email links and the
allauth pages we use; the admin is left out), keeping each one that answers a POST with
something other than 405. For every request: never a 5xx, and the stored games (state, version,
move log) are unchanged unless the request was a legal move (or undo) of the acting player at
the current version.

The raw bodies come in odd charsets too (a form in UTF-16 or a charset nobody knows), with the
CSRF check on half the time (it reads the body before any view), and ids run up to far beyond
what the database holds. The site runs as in production (DEBUG off: its own error pages).

Every page that answers GET is fuzzed as well, by GET and HEAD with hostile query strings and
ids: never a 5xx, and HEAD answers with the GET's status and headers and no body.

The POST fuzz runs in one file per group of routes (``GROUPS``: tests/web/test_fuzz_games.py,
test_fuzz_accounts.py, test_fuzz_community.py, test_fuzz_site.py), so that make test's workers
share it; tests/web/test_fuzz.py checks that every route of the site is in exactly one group.
The GET and HEAD fuzz is tests/web/test_fuzz_pages.py.

``FUZZ_EXAMPLES`` sets the examples per endpoint (30 in the normal suite for POST, a third of
that for GET and HEAD; ``FUZZ_EXAMPLES=500 pytest tests/web/test_fuzz_games.py`` for a long
run). The number of requests per endpoint is printed at the end of the run and written to
test-artifacts/<file>-report.txt (test_fuzz_games-report.txt, ..., test_fuzz_pages-report.txt).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from django.utils.datastructures import MultiValueDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs import membership
from games import lobby
from games.forms import ResignForm
from games.models import Game, Move, Seat
from games.rules.firenze import rules
from notifications import links
from ops import heartbeats
from ops.models import Heartbeat
from tests import figures
from tests.factories import UserFactory
from tests.web.helpers import fast_forward, started_game
from tournaments import signup

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "30"))
GET_EXAMPLES = max(3, EXAMPLES // 3)
# Ids the database cannot hold (a 64-bit signed integer) or barely can.
HUGE_IDS = [2**63 - 1, 2**63, 2**64 + 1, 10**25]
# In any text parameter of a path (PostgreSQL refuses a NUL in a query).
CONTROL_CHARACTERS = ["\x00", "%00", "abc\x00", "a\x01b", "\x1f", "\x7f", "a\nb"]
REPORT = Path(__file__).resolve().parents[2] / "test-artifacts" / "fuzz-report.txt"
REQUESTS: Counter[str] = Counter()
SERVER_ERRORS: Counter[str] = Counter()
GET_REQUESTS: Counter[str] = Counter()  # GET and HEAD
GET_SERVER_ERRORS: Counter[str] = Counter()
APPLIED: Counter[str] = Counter()  # requests that were legal moves (or undos) and changed a game
ACTORS = ["anonymous", "outsider", "waiting", "acting"]

# Every field name a form of the site reads, plus a few nobody reads.
FIELDS = [
    "action", "version", "token", "display_name", "cancel", "first_day", "last_day", "form",
    "turn_emails", "reminders", "num_players", "campanile", "neutral_seals", "seal_placement",
    "time_limit", "is_public", "login", "password", "email", "password1", "password2", "confirm",
    "switch", "List-Unsubscribe", "code", "oldpassword", "action_add", "action_remove",
    "action_primary", "action_send", "remember", "next", "csrfmiddlewaretoken", "type", "x",
    "text", "url", "format", "endpoint", "p256dh", "auth", "device", "kind", "channel",
    "setting", "reason", "muted", "game", "clock_mode", "bank", "bonus", "bank_cap",
    "days_off", "name", "scope", "invitation", "calendar", "level", "bot_seat_2", "bot_seat_3",
    "bot_seat_4", "description", "rounds", "group_size", "final_table", "max_players",
    "signup_closes", "min_rating", "max_rating", "min_finished", "featured", "size",
    "tournaments__email", "hour", "alarms",
    "tournaments__webhook", "tournaments__push", "steps", "add", "do", "user", "door", "o",
    "step", "back", "orders",
]  # fmt: skip
HOSTILE = [
    "", " ", "\x00", "²", "٣", "Ⅻ", "𝟗", "-1", "0", "1e309", "NaN", "9" * 5000, "1" * 10,
    "9999-12-31", "0001-01-01", "2026-02-30", "+12345-01-01", "null", "true", "[]", "{}",
    "[" * 3000, '{"a":' * 2000, '{"type": "pay_brick", "color": []}',
    '{"type": "play_card", "card": {}}', '{"type": "choose_card", "slot": 1e400}',
    '{"type": "end_phase", "type": "end_turn"}', "A" * 3000, "Bot Greedy", "Player 1",
    "admin", "Аnna", "delete", "yes", "One-Click", "immediate", "never", "../../etc/passwd",
    "<script>alert(1)</script>", "' OR 1=1 --", "\u202e\u0041nna", "%s%s%n",
]  # fmt: skip

text = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=6,
)


# --- the endpoints -----------------------------------------------------------------------------


def _routes(patterns, prefix: str = "") -> list[tuple[str, str]]:
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            found.append((prefix + str(pattern.pattern), pattern.name or ""))
    return found


def site_routes() -> list[str]:
    routes = {r for r, _ in _routes(get_resolver().url_patterns)}
    return sorted(r for r in routes if not r.startswith("admin/"))


PARAM = re.compile(r"<(?:(\w+):)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def fill(route: str, values: dict[str, str]) -> str:
    """A concrete path for a route, its parameters taken from ``values``."""
    path = route.replace("^", "").replace("$", "")
    # A parameter not listed in url_values (a new route's) gets a plain value.
    path = PARAM.sub(lambda m: values.get(m.group(2) or m.group(3), "1"), path)
    return "/" + path


class World:
    """The games and players every example runs against (made once per endpoint)."""

    def __init__(self) -> None:
        self.anna = UserFactory(username="anna")
        self.ben = UserFactory(username="ben")
        self.carla = UserFactory(username="carla")
        self.public = started_game(self.anna, self.ben)
        fast_forward(self.public, 12)
        self.private = lobby.create_game(self.anna, num_players=2, is_public=False)
        lobby.join(self.private, self.ben, token=self.private.invite_token)  # starts it
        self.private.refresh_from_db()
        self.forming = lobby.create_game(self.anna, num_players=3, is_public=False)
        lobby.join(self.forming, self.ben, token=self.forming.invite_token)
        self.active = [self.public, self.private]
        # The background processes reported: /readyz answers 200 (ops/heartbeats.py).
        for name in heartbeats.names():
            Heartbeat.beat(name)
        self.unsubscribe = links.unsubscribe_token(self.ben)
        # A tournament open for sign-up, whose id is among the ids the examples draw.
        self.tournament = signup.create(
            self.anna, name="Fuzz Cup", fmt="swiss", table_size=2, max_players=8, rounds=2,
            signup_closes=timezone.now() + timedelta(days=1),
        )  # fmt: skip
        # Clubs (clubs/): an open one and one by invitation, Ben a member of both.
        self.clubs = [
            membership.found(self.anna, name="Fuzz Club", description="", door="open"),
            membership.found(self.anna, name="Quiet Club", description="", door="invitation"),
        ]
        for club in self.clubs:
            membership.invite(club, self.anna, self.ben)
            membership.join(club, self.ben)
        self.slugs = [club.slug for club in self.clubs]
        self.login_link = links.login_url(self.ben, self.public).rstrip("/").rsplit("/", 1)[1]
        self.ids = [
            self.public.pk, self.private.pk, self.forming.pk, self.tournament.pk, 10**12, 0,
            *HUGE_IDS,
        ]  # fmt: skip
        self.seat_ids = [
            *Seat.objects.filter(game__in=[self.public, self.forming]).values_list("pk", flat=True),
            999999,
            *HUGE_IDS,
        ]
        self.url_strategies: dict[str, st.SearchStrategy[str]] | None = None
        self.known: list[Any] | None = None  # the games after the last example that passed
        self.token_list = [
            self.private.invite_token,
            self.forming.invite_token,
            self.unsubscribe,
            self.login_link,
            "x",
            "a" * 300,
            *CONTROL_CHARACTERS,
        ]

    def user(self, actor: str, game: Game):
        if actor == "anonymous":
            return None
        if actor == "outsider":
            return self.carla
        seats = {s.number: s.user for s in game.seats.select_related("user")}
        acting = seats.get(game.acting_seat)
        waiting = next((u for n, u in seats.items() if u is not None and u != acting), None)
        return acting if actor == "acting" else waiting

    def snapshot(self) -> list[Any]:
        """Each active game's row (version, state, acting seat) and move log, in two queries."""
        ids = [game.pk for game in self.active]
        rows = {
            row.pop("id"): row
            for row in Game.objects.filter(pk__in=ids).values(
                "id", "version", "state", "acting_seat"
            )
        }
        logs: dict[int, list[dict[str, Any]]] = {pk: [] for pk in ids}
        for move in (
            Move.objects.filter(game_id__in=ids).order_by("seq").values("game_id", "seq", "action")
        ):
            logs[move.pop("game_id")].append(move)
        return [(rows.get(pk), logs[pk]) for pk in ids]

    def games_now(self) -> list[Any]:
        """The snapshot the last example left (no request came since), else a new one."""
        known, self.known = self.known, None
        return known if known is not None else self.snapshot()


def takes_post(route: str, world: World) -> bool:
    """Anything but 405 for a signed-in player's empty POST."""
    probe = Client()
    probe.force_login(world.anna)
    sample = {"pk": str(world.public.pk), "game_id": str(world.public.pk), "seat_id": "1",
              "token": "x", "key": "x", "uidb36": "1", "message_id": "1", "user_id": "1",
              "device_id": "1", "token_id": "1", "slug": world.slugs[0]}  # fmt: skip
    return probe.post(fill(route, sample)).status_code != 405


@pytest.fixture
def world(db) -> World:
    return World()


# Text that may stand in a path parameter as it is: drawn to fit rather than drawn at random
# and filtered, which threw away two examples in three before a request was made.
URL_SAFE = st.from_regex(r"[-:\w]{1,40}", fullmatch=True)
ROW_IDS = st.sampled_from([1, 2, 3, 0, 2**40, *HUGE_IDS]).map(str)


def url_strategies(world: World) -> dict[str, st.SearchStrategy[str]]:
    """Each path parameter's values, built once per world. Strategies never depend on the
    game's current state (hypothesis replays them): ids, tokens and seats are the world's
    fixed lists."""
    if world.url_strategies is None:
        ids = st.sampled_from(world.ids).map(str)
        world.url_strategies = {
            "pk": ids,
            "game_id": ids,
            "seat_id": st.sampled_from(world.seat_ids).map(str),
            "token": st.sampled_from(world.token_list) | URL_SAFE,
            "key": st.sampled_from(["abc", "1-2", "x" * 200, *CONTROL_CHARACTERS]) | URL_SAFE,
            "uidb36": st.sampled_from(["1", "z", "0"]),
            # players followed or blocked (community/): real names, an unknown one, random ones
            "name": st.sampled_from(["anna", "Ben", "carla", "nobody"]) | URL_SAFE,
            # clubs: the world's, an unknown one, random ones
            "slug": st.sampled_from([*world.slugs, "no-such-club", "new"])
            | st.from_regex(r"[-a-zA-Z0-9_]{1,30}", fullmatch=True),
            # chat messages, muted players, push devices: real-looking ids and absurd ones
            **{name: ROW_IDS for name in ("message_id", "user_id", "device_id", "token_id")},
        }
    return world.url_strategies


def url_values(data: st.DataObject, world: World, route: str) -> dict[str, str]:
    """Values for the route's path parameters, and always a game id (``pk``, ``game_id``):
    the game whose players act, on any route."""
    strategies = url_strategies(world)
    wanted = ["pk", "game_id"] + [
        name
        for match in PARAM.finditer(route)
        if (name := match.group(2) or match.group(3)) not in ("pk", "game_id")
    ]
    return {name: data.draw(strategies[name]) for name in wanted if name in strategies}


REAL = object()  # stands for "a real value of the game now", resolved after the draw
FIELD_VALUE = st.one_of(
    st.sampled_from(HOSTILE),
    text,
    json_values.map(json.dumps),
    st.tuples(st.just(REAL), st.integers(0, 10**6)),
)
FORM = st.dictionaries(
    st.sampled_from(FIELDS) | text, st.lists(FIELD_VALUE, min_size=1, max_size=2), max_size=6
)
PICK = st.integers(0, 10**6)
VERSION = st.just("current") | st.sampled_from(HOSTILE[:8])


def payload(data: st.DataObject, world: World, game: Game) -> dict[str, list[str]]:
    """Form fields: hostile values, random text and JSON, and now and then the real thing (a
    legal action, the current version, a valid token) so legal moves happen too."""
    state = game.load_state() if game.state else None
    legal = [json.dumps(a) for a in rules.legal_actions(state)] if state else []
    real = [str(game.version), *legal, *world.token_list]
    drawn = data.draw(FORM)
    fields = {
        key: [real[v[1] % len(real)] if isinstance(v, tuple) else v for v in values]
        for key, values in drawn.items()
    }
    move_now = data.draw(st.booleans())
    pick = data.draw(PICK)
    version = data.draw(VERSION)  # current half the time
    if legal and move_now:
        fields["action"] = [legal[pick % len(legal)]]
        fields["version"] = [str(game.version) if version == "current" else version]
    return fields


def was_legal(route: str, fields: dict[str, list[str]], game: Game, before: dict, user) -> bool:
    """Whether this request was one the game must accept: the acting player's legal move (or
    undo) at the current version, or a seated player's confirmed resignation."""
    if route.endswith("resign/"):
        seated = user is not None and game.seats.filter(user_id=user.pk).exists()
        return seated and ResignForm(MultiValueDict(fields)).is_valid()
    acting = game.seats.filter(number=before["acting_seat"]).values_list("user_id", flat=True)
    if user is None or user.pk not in acting:
        return False
    if fields.get("version") != [str(before["version"])]:
        return False
    state = rules.from_dict(before["state"])
    if route.endswith("undo/"):
        return rules.can_undo(state)
    try:
        (raw,) = fields.get("action", [])
        return json.loads(raw) in rules.legal_actions(state)
    except ValueError:
        return False


def fuzz_endpoint(route: str, world: World) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(data=st.data(), actor=st.sampled_from(ACTORS))
    def fuzz(data: st.DataObject, actor: str) -> None:
        values = url_values(data, world, route)
        path = fill(route, values)
        target = next(
            (g for g in world.active if str(g.pk) in (values["pk"], values["game_id"])),
            world.public,
        )
        target.refresh_from_db()
        user = world.user(actor, target)
        browser = visitor(data, user)
        before = world.games_now()
        game_row = before[world.active.index(target)][0]
        headers = {"HTTP_HX_REQUEST": "true"} if data.draw(st.booleans()) else {}
        if data.draw(st.integers(0, 9)) == 0:
            body = data.draw(RAW_BODY)
            kind = data.draw(RAW_KIND)
            fields: dict[str, list[str]] = {}
            response = browser.generic("POST", path, body, content_type=kind, **headers)
        else:
            fields = payload(data, world, target)
            response = browser.post(path, fields, **headers)
        REQUESTS[route] += 1
        if response.status_code >= 500:
            SERVER_ERRORS[route] += 1
        assert response.status_code < 500, (path, actor, fields)
        after = world.snapshot()
        for game, old, new in zip(world.active, before, after, strict=True):
            if old != new:
                legal = game.pk == target.pk and was_legal(route, fields, game, game_row, user)
                assert legal, f"{path} by {actor} changed game {game.pk}: {fields}"
                APPLIED[route] += 1
        world.known = after

    world.known = None  # the probe for a POST came in between
    fuzz()


RAW_KINDS = [
    "application/json", "text/plain", "multipart/form-data; boundary=xyz",
    "application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-16",
    "application/x-www-form-urlencoded; charset=utf-32", "application/x-www-form-urlencoded; "
    "charset=latin-1", "application/x-www-form-urlencoded; charset=x-no-such-charset",
    "multipart/form-data; boundary=xyz; charset=utf-16", "application/json; charset=utf-16",
]  # fmt: skip


def charset_encoded(value: str) -> bytes:
    """A form body as a client in another charset sends it (often not decodable as UTF-8)."""
    return f"action={value}&version={value}".encode("utf-16")


RAW_BODY = st.binary(max_size=2000) | text.map(charset_encoded)
RAW_KIND = st.sampled_from(RAW_KINDS)


def visitor(data: st.DataObject, user) -> Client:
    """A client signed in as ``user`` (None: anonymous); half the time with Django's CSRF
    check on and a CSRF cookie, so the check reads the body (no token in a header)."""
    enforce = data.draw(st.booleans())
    browser = Client(enforce_csrf_checks=enforce)
    if user is not None:
        browser.force_login(user)
    if enforce:
        browser.cookies["csrftoken"] = "a" * 32
    return browser


@pytest.fixture
def production_errors(settings):
    """DEBUG off: the site's own error handlers answer, as in production."""
    settings.DEBUG = False


# The POST fuzz's groups, by the first part of the route: one test file each, handed out whole
# to make test's workers. A route in no group is fuzzed by no file: tests/web/test_fuzz.py
# fails then and names it.
GROUPS: dict[str, frozenset[str]] = {
    "games": frozenset({"games"}),
    "accounts": frozenset({"accounts", "email", "language"}),
    "community": frozenset({"clubs", "community", "tournaments", "chat", "players"}),
    "site": frozenset({
        "", "api", "bots", "calendar", "inbox", "streams", "favicon.ico", "healthz",
        "manifest.webmanifest", "metrics", "readyz", "rules", "sw.js",
    }),
}  # fmt: skip


def groups_of(route: str) -> list[str]:
    head = route.split("/", 1)[0]
    return [name for name, heads in GROUPS.items() if head in heads]


def group_routes(group: str) -> list[str]:
    return [route for route in site_routes() if group in groups_of(route)]


def fuzz_group(group: str, world: World) -> list[str]:
    """Fuzz every route of ``group`` that takes a POST; the endpoints that must be among them
    (``CORE``) are. Returns the routes fuzzed."""
    routes = group_routes(group)
    fuzzed = []
    for route in routes:
        if takes_post(route, world):
            fuzz_endpoint(route, world)
            fuzzed.append(route)
    assert fuzzed, f"no POST endpoint in the group {group}"
    assert CORE & set(routes) <= set(fuzzed), (CORE & set(routes)) - set(fuzzed)
    assert not SERVER_ERRORS
    return fuzzed


# --- every page by GET and HEAD --------------------------------------------------------------


def takes_get(route: str, world: World) -> bool:
    """Anything but 405 for a signed-in player's plain GET."""
    probe = Client()
    probe.force_login(world.anna)
    sample = {"pk": str(world.public.pk), "game_id": str(world.public.pk), "token": "x",
              "name": "anna", "key": "x"}  # fmt: skip
    return probe.get(fill(route, sample)).status_code != 405


QUERY_KEYS = ["v", "c", "p", "step", "turn", "page", "q", "next", "part", "game", "player",
              "engine", "sort", "kind", "lang", "format", "x", "o", "steps"]  # fmt: skip


QUERY = st.dictionaries(
    st.sampled_from(QUERY_KEYS) | text,
    st.sampled_from(HOSTILE) | text | st.sampled_from([str(i) for i in HUGE_IDS]),
    max_size=4,
)
PAGE_NAMES = st.sampled_from(["anna", "Ben", "nobody", *CONTROL_CHARACTERS]) | text


def query(data: st.DataObject) -> dict[str, str]:
    return data.draw(QUERY)


def fuzz_page(route: str, world: World) -> None:
    @settings(
        max_examples=GET_EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(data=st.data(), actor=st.sampled_from(ACTORS))
    def fuzz(data: st.DataObject, actor: str) -> None:
        values = url_values(data, world, route)
        if "name" in values:  # a player's page: any text at all
            values["name"] = data.draw(PAGE_NAMES)
        path = fill(route, values)
        target = next(
            (g for g in world.active if str(g.pk) in (values["pk"], values["game_id"])),
            world.public,
        )
        browser = visitor(data, world.user(actor, target))
        params = query(data)
        headers = {"HTTP_HX_REQUEST": "true"} if data.draw(st.booleans()) else {}
        before = world.games_now()
        if "readyz" in route:  # a long run outlives the heartbeats' minute: beat them again
            for name in heartbeats.names():
                Heartbeat.beat(name)
        got = browser.get(path, params, **headers)
        head = browser.head(path, params, **headers)
        GET_REQUESTS[route] += 2
        if got.status_code >= 500 or head.status_code >= 500:
            GET_SERVER_ERRORS[route] += 1
        assert got.status_code < 500 and head.status_code < 500, (path, actor, params)
        assert head.status_code == got.status_code, (path, actor, params)
        assert head.content == b""
        after = world.snapshot()
        assert after == before  # looking changes no game
        world.known = after

    world.known = None
    fuzz()


@pytest.fixture(scope="module", autouse=True)
def fuzz_report(request):
    """Each fuzz file's requests and 5xx answers per endpoint, in a report of its own: POST
    in each group's file, GET and HEAD in test_fuzz_pages.py (the files may share a worker)."""
    for counter in (REQUESTS, SERVER_ERRORS, GET_REQUESTS, GET_SERVER_ERRORS, APPLIED):
        counter.clear()
    yield
    pages = request.module.__name__.endswith("_pages")
    if pages:
        lines = [f"{GET_REQUESTS[route]:5d} requests, {GET_SERVER_ERRORS[route]} answered 5xx: "
                 f"GET and HEAD /{route}" for route in sorted(GET_REQUESTS)]  # fmt: skip
        summary = (
            f"{sum(GET_REQUESTS.values())} GET/HEAD requests to {len(GET_REQUESTS)} pages, "
            f"{sum(GET_SERVER_ERRORS.values())} answered 5xx (goal 0)"
        )
    else:
        lines = [f"{REQUESTS[route]:5d} requests, {SERVER_ERRORS[route]} answered 5xx, "
                 f"{APPLIED[route]} legal moves applied: POST /{route}"
                 for route in sorted(REQUESTS)]  # fmt: skip
        summary = (
            f"{sum(REQUESTS.values())} requests to {len(REQUESTS)} POST endpoints, "
            f"{sum(SERVER_ERRORS.values())} answered 5xx (goal 0)"
        )
    if not lines:
        return
    lines.append(summary)
    report = REPORT.with_name(f"{request.module.__name__.rsplit('.', 1)[-1]}-report.txt")
    report.parent.mkdir(exist_ok=True)
    report.write_text("\n".join(lines) + "\n")
    figures.report(f"fuzz: {summary} (per endpoint: {report.name})")


CORE = {
    "games/<int:pk>/move/", "games/<int:pk>/undo/", "games/<int:pk>/join/",
    "games/<int:pk>/leave/", "games/<int:pk>/cancel/", "games/<int:pk>/bot/",
    "games/<int:pk>/seats/<int:seat_id>/remove/", "games/<int:pk>/invite/",
    "games/<int:pk>/start/", "games/<int:pk>/reclaim/", "games/away/", "games/new/",
    "accounts/profile/", "accounts/delete/", "accounts/login/", "accounts/signup/",
    "accounts/logout/", "accounts/email/", "accounts/password/change/",
    "accounts/reauthenticate/", "email/unsubscribe/<signed:token>/",
    "email/play/<int:game_id>/<signed:token>/", "tournaments/new/", "tournaments/<int:pk>/join/",
    "tournaments/<int:pk>/leave/", "tournaments/<int:pk>/withdraw/",
    "tournaments/<int:pk>/cancel/", "tournaments/<int:pk>/start/",
    "tournaments/<int:pk>/feature/", "tournaments/seasons/join/", "tournaments/seasons/leave/",
    "community/games/<int:pk>/requirements/", "community/players/<name:name>/follow/",
    "community/players/<name:name>/unfollow/", "community/players/<name:name>/block/",
    "community/players/<name:name>/unblock/", "clubs/new/", "clubs/<slug:slug>/join/",
    "clubs/<slug:slug>/withdraw/", "clubs/<slug:slug>/leave/", "clubs/<slug:slug>/invite/",
    "clubs/<slug:slug>/accept/", "clubs/<slug:slug>/refuse/", "clubs/<slug:slug>/remove/",
    "clubs/<slug:slug>/promote/", "clubs/<slug:slug>/challenge/",
    "clubs/<slug:slug>/tournaments/new/", "clubs/<slug:slug>/settings/", "games/<int:pk>/plan/",
    "games/<int:pk>/replay/what-if/", "games/<int:pk>/plan/orders/",
    "games/<int:pk>/plan/sandbox/", "games/<int:pk>/plan/sandbox/undo/",
    "games/<int:pk>/replay/what-if/step/", "games/<int:pk>/replay/what-if/undo/",
}  # fmt: skip
