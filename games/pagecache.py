"""The game page, rendered once per game version and viewer, then served from the shared cache.

A game page is the same for one viewer until the game changes, so it is kept in the shared cache
with a key made of everything it is drawn from: the game row (version, table talk version,
status, last change), its seats (players, names, absences, autopilot, resignations), the viewer
(user and seat: each seat sees its own hand, so a page is never served to anyone else), the
kind of page (whole page or its htmx part), time zone, language, the "time left" as written and
the invite token in the URL. The same key, hashed, is the page's ETag: a browser that has it
gets 304 Not Modified.

A signed-in player's page is kept in their own slot for the game and kind of page, the key
stored beside the page and compared when it is read: the slot's name needs nothing but the
game, the player and the kind of page, so it is read together with the session before the
game's head is (firenze_site.prefetch, ``wanted_keys``), the whole signed-in page in one Redis
round trip. A visitor's page (shared by every visitor) is kept under its key.

What differs per request is filled in when the page is served: the CSRF token and a private
game's poll token (bound to the viewer's session: games.versions; the cached page holds an
unguessable placeholder for each) and, once a game has table talk, the thread (it marks messages
read and shows what the viewer muted, so it is drawn fresh every time). A request with pending
flash messages is drawn without the cache.

After a move commits, a task draws the pages of the seated players (they are the ones whose
poll is about to ask for them), so the first view after a move costs about a repeat view. The
page itself is drawn by games.page, for a request or, here, for a player without one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.crypto import salted_hmac
from django.utils.dateparse import parse_datetime

from firenze_site import prefetch
from games import clock, page, shown, versions
from games.models import Absence, Game, Seat
from games.templatetags.times import left
from games.timecontrol import clock_words, pace_words
from games.viewer import Viewer

TTL_SECONDS = 3600
# Unguessable, so table talk cannot smuggle one in to be replaced by a token.
CSRF_PLACEHOLDER = salted_hmac("games.pagecache", "csrf").hexdigest()[:40]
CHAT_PLACEHOLDER = "<!--" + salted_hmac("games.pagecache", "chat").hexdigest()[:40] + "-->"
POLL_PLACEHOLDER = salted_hmac("games.pagecache", "poll").hexdigest()[:40]


@dataclass
class Head:
    """What the page's key is made of, read with one plain SQL query (no model instances):
    the game row, and per seat what its line on the page shows."""

    game_id: int
    version: int
    chat_version: int
    status: str
    updated: Any
    name: str
    is_public: bool
    invite_token: str
    deadline: datetime | None
    turn_started_at: datetime | None
    turn_plan: Any  # JSON (text on SQLite)
    started_at: datetime | None
    progress: float | None
    seats: list[tuple]  # (id, number, user id, ..., display name, away until)
    seat_of_user: dict[int, int | None]

    @property
    def cacheable(self) -> bool:
        """Pages of games being played or over (forming pages change with every seat)."""
        return self.status in ("active", "finished")

    def may_view(self, viewer: Viewer, posted_token: str) -> bool:
        """Public games and seated players; others are decided by the full check of the view.
        An invite link opens no game being played or over (its table is full)."""
        if self.is_public:
            return True
        return viewer.signed_in and viewer.user.pk in self.seat_of_user

    def clock_words(self) -> tuple[str, bool, str]:
        """What the page's clock says now, as drawn (games.templatetags.clocks): the acting
        seat's time left, whether it rests, and the expected end. A page whose clock says
        something else is drawn anew."""
        now = timezone.now()
        left, resting = "", False
        if self.deadline is not None and self.turn_started_at is not None and self.turn_plan:
            data = self.turn_plan
            with suppress(ValueError, KeyError, TypeError):
                data = json.loads(data) if isinstance(data, str) else data
                plan = clock.TurnPlan.from_dict(data, self.turn_started_at, self.deadline)
                left = clock_words(plan.left(now))
                resting = plan.paused_until(now) is not None
        pace = ""
        if self.status == "active" and self.started_at is not None:
            pace = pace_words(clock.expected_end(self.started_at, now, self.progress))
        return left, resting, pace

    def viewer_seat(self, viewer: Viewer) -> int | None:
        return self.seat_of_user.get(viewer.user.pk) if viewer.signed_in else None


def _tables() -> tuple[str, str, str, str]:
    return (
        Game._meta.db_table,
        Seat._meta.db_table,
        get_user_model()._meta.db_table,
        Absence._meta.db_table,
    )


def _head_sql() -> str:
    game, seat, user, absence = _tables()
    return (
        "SELECT g.version, g.chat_version, g.status, g.updated, g.name, g.is_public, "
        "g.invite_token, g.deadline, g.turn_started_at, g.turn_plan, g.started_at, g.progress, "
        "s.id, s.number, s.user_id, s.colour, s.bot, s.bot_name, "
        "s.autopilot, s.timeouts_in_row, s.resigned_at, s.former_player, s.bank, "
        "u.display_name, "
        f"(SELECT a.ends FROM {absence} a WHERE a.user_id = s.user_id AND a.starts <= %s "
        "AND a.ends > %s ORDER BY a.starts LIMIT 1) "
        f"FROM {game} g LEFT JOIN {seat} s ON s.game_id = g.id "
        f"LEFT JOIN {user} u ON u.id = s.user_id WHERE g.id = %s "
        "ORDER BY s.number, s.joined, s.id"
    )


def _datetime(value: Any) -> datetime | None:
    """SQLite answers plain SQL with naive UTC datetimes (or text); PostgreSQL aware ones."""
    if value is None:
        return None
    parsed = value if isinstance(value, datetime) else parse_datetime(value)
    return parsed if parsed is None or parsed.tzinfo else parsed.replace(tzinfo=UTC)


def head(game_id: int) -> Head | None:
    """The game's head, or None if there is no such game."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_head_sql(), [now, now, game_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    first = rows[0]
    seats = [tuple(row[12:]) for row in rows if row[12] is not None]
    return Head(
        game_id=game_id,
        version=first[0],
        chat_version=first[1],
        status=first[2],
        updated=first[3],
        name=first[4],
        is_public=bool(first[5]),
        invite_token=first[6],
        deadline=_datetime(first[7]),
        turn_started_at=_datetime(first[8]),
        turn_plan=first[9],
        started_at=_datetime(first[10]),
        progress=first[11],
        seats=seats,
        seat_of_user={seat[2]: seat[1] for seat in seats if seat[2] is not None},
    )


def page_key(viewer: Viewer, head: Head, partial: str | None) -> str:
    """The hashed description of the page this viewer would get (cache key and ETag).
    Everything the page is drawn from is in it, the viewer's seat above all: a page drawn
    for one seat shows that seat's hand."""
    user = viewer.user
    who = (user.pk, user.public_name) if viewer.signed_in else (None, "")
    material = (
        head.game_id,
        head.version,
        head.chat_version,
        head.status,
        str(head.updated),
        head.name,
        [tuple(map(str, seat)) for seat in head.seats],
        who,
        head.viewer_seat(viewer),
        partial or "",
        timezone.get_current_timezone_name(),
        translation.get_language(),
        left(head.deadline),
        head.clock_words(),
        viewer.token,
    )
    return hashlib.sha256(repr(material).encode()).hexdigest()[:32]


def no_messages(request: HttpRequest) -> bool:
    """No flash messages waiting to be shown (a page with them is drawn without the cache)."""
    return len(get_messages(request)) == 0


def etag_for(request: HttpRequest, key: str) -> str:
    """The key, the CSRF secret the page's forms are filled in for (the cookie's, or the one
    this response sets: get_token has run) and the session a private game's poll token is
    bound to."""
    csrf = request.META.get("CSRF_COOKIE", "")
    seen_by = f"{key}:{csrf}:{versions.viewer(request)}"
    return '"' + hashlib.sha256(seen_by.encode()).hexdigest()[:32] + '"'


def partial_of(request: HttpRequest) -> str | None:
    """The part of the page a request asks for: the game's part for htmx (not a boosted
    link, which wants the whole page), else the whole page (None)."""
    htmx = getattr(request, "htmx", None)
    return "game" if htmx and not htmx.boosted else None


def slot(game_id: int, user_id: int, partial: str | None) -> str:
    """Where a signed-in player's page of a game is kept (the key inside says which)."""
    return f"game-page:{game_id}:u{user_id}:{partial or 'page'}"


def _cache_key(viewer: Viewer, head: Head, partial: str | None, key: str) -> str:
    if viewer.signed_in:
        return slot(head.game_id, viewer.user.pk, partial)
    return f"game-page:{head.game_id}:v{head.version}:{key}"


def wanted_keys(request: HttpRequest, user_id: int) -> list[str]:
    """The slot a game page's request will read for this user (firenze_site.prefetch)."""
    match = request.resolver_match
    if match is None or match.view_name != "games:detail" or request.method != "GET":
        return []
    pk = match.kwargs.get("pk")
    return [slot(pk, user_id, partial_of(request))] if isinstance(pk, int) else []


class Drawn(NamedTuple):
    """A page as the cache keeps it: its HTML and the versions it shows (games.shown), kept
    together so no one reads them back out of the HTML, and the page's key."""

    html: str
    shown: shown.Versions | None
    key: str = ""


def _kept(found: Any, key: str) -> Drawn | None:
    """The page a slot holds, if it is the one this key describes."""
    return found if isinstance(found, Drawn) and found.key == key else None


def _store(where: str, drawn: Drawn, key: str) -> Drawn:
    """Keep a page just drawn, with the key ``_kept`` compares on the next read."""
    drawn = drawn._replace(key=key)
    cache.set(where, drawn, TTL_SECONDS)
    return drawn


def serve(
    request: HttpRequest,
    head: Head,
    partial: str | None,
    render_page: Callable[[], Drawn],
    render_chat: Callable[[], str],
) -> HttpResponse:
    """The page from the cache (or 304), drawing and storing it with ``render_page`` first if
    it is not there. ``render_page`` must use the placeholders (see render_game_page)."""
    viewer = Viewer.of(request)
    key = page_key(viewer, head, partial)
    # Masked anew on each call (random bytes): asked once, for the forms and the ETag's secret.
    csrf_token = get_token(request)
    etag = etag_for(request, key)
    if etag in _if_none_match(request):
        # The browser's copy is this version's page; what the rest of the request reads (the
        # viewer's count, their last look: firenze_site.prefetch) read with the session.
        prefetch.get_many(request, [])
        response = shown.mark(HttpResponse(status=304), (head.version, head.chat_version))
    else:
        # The page, with what the rest of the request will read: read with the session.
        where = _cache_key(viewer, head, partial, key)
        drawn = _kept(prefetch.get_many(request, [where]).get(where), key)
        if drawn is None:
            drawn = _store(where, render_page(), key)
        html = drawn.html
        html = html.replace(CSRF_PLACEHOLDER, csrf_token)
        if POLL_PLACEHOLDER in html:
            token = versions.poll_token(head.game_id, versions.viewer(request))
            html = html.replace(POLL_PLACEHOLDER, token)
        if CHAT_PLACEHOLDER in html:
            html = html.replace(CHAT_PLACEHOLDER, render_chat())
        response = shown.mark(HttpResponse(html), drawn.shown)
    response["ETag"] = etag
    # Stored by the browser but asked about every time (a stale position must not show).
    patch_cache_control(response, private=True, no_cache=True, max_age=0)
    patch_vary_headers(response, ["Cookie", "HX-Request"])
    return response


def _if_none_match(request: HttpRequest) -> set[str]:
    # META, not request.headers: the inbox middleware rewrites this header in META, and
    # request.headers is a copy cached by whichever middleware read a header first.
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


def render_game_page(viewer: Viewer, game: Game, seats: list[Seat], partial: str | None) -> Drawn:
    """The game page as the cache keeps it: placeholders for the per-request parts (the CSRF
    token; the table talk, once the game has any), with the versions it shows."""
    extra = {
        "csrf_token": CSRF_PLACEHOLDER,
        "chat_placeholder": CHAT_PLACEHOLDER if game.chat_version else "",
        "poll_token": "" if game.is_public else POLL_PLACEHOLDER,
    }
    html = page.render(viewer, game, seats, partial=partial, extra=extra)
    return Drawn(html, shown.of_game(game))


# --- drawing the players' pages after a change ----------------------------------------------


def draw_players_pages(game_id: int) -> int:
    """Draw and cache the page of every seated player as their poll fetches it (the htmx part
    of the page; a whole page is drawn on its first view); returns how many were drawn."""
    found = head(game_id)
    if found is None or not found.cacheable:
        return 0
    game = Game.objects.get(pk=game_id)
    seats = game.seats_for_page()
    players = get_user_model().objects.filter(pk__in=found.seat_of_user)
    drawn = 0
    for user in players:
        viewer = Viewer(user, htmx=True)
        # Drawn as the player's own request would be: in their time zone and language.
        zone = timezone.override(user.zone) if user.zone else nullcontext()
        with zone, translation.override(user.language or settings.LANGUAGE_CODE):
            key = page_key(viewer, found, "game")
            where = _cache_key(viewer, found, "game", key)
            if _kept(cache.get(where), key) is None:
                _store(where, render_game_page(viewer, game, seats, "game"), key)
                drawn += 1
    return drawn
