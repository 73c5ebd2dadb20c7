"""The game page, rendered once per game version and viewer, then served from the shared cache.

A game page is the same for one viewer until the game changes, so it is kept in the shared cache
under a key made of everything it is drawn from: the game row (version, table talk version,
status, last change), its seats (players, names, absences, autopilot, resignations), the viewer
(user and seat: each seat sees its own hand, so a page is never served to anyone else), the
kind of page (whole page or its htmx part), time zone, language, the "time left" as written and
the invite token in the URL. The same key, hashed, is the page's ETag: a browser that has it
gets 304 Not Modified.

What differs per request is filled in when the page is served: the CSRF token (the cached page
holds an unguessable placeholder) and, once a game has table talk, the thread (it marks messages
read and shows what the viewer muted, so it is drawn fresh every time). A request with pending
flash messages is drawn without the cache.

After a move commits, a task draws the pages of the seated players (they are the ones whose
poll is about to ask for them), so the first view after a move costs about a repeat view.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextlib import nullcontext, suppress
from typing import Any

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.crypto import salted_hmac

from games.templatetags.times import left

TTL_SECONDS = 3600
# Unguessable, so table talk cannot smuggle one in to be replaced by a token.
CSRF_PLACEHOLDER = salted_hmac("games.pagecache", "csrf").hexdigest()[:40]
CHAT_PLACEHOLDER = "<!--" + salted_hmac("games.pagecache", "chat").hexdigest()[:40] + "-->"


def _seat_fingerprint(seat: Any) -> tuple:
    user = seat.user
    return (
        seat.pk,
        seat.number,
        seat.user_id,
        seat.name,
        seat.colour,
        seat.bot,
        seat.autopilot,
        seat.timeouts_in_row,
        seat.resigned_at,
        seat.former_player,
        getattr(seat, "away_until", None),
        user.username if user is not None else "",
    )


def viewer_seat(request: HttpRequest, seats: list) -> int | None:
    user = request.user
    if not user.is_authenticated:
        return None
    return next((s.number for s in seats if s.user_id == user.pk), None)


def page_key(request: HttpRequest, game: Any, seats: list, partial: str | None) -> str:
    """The hashed description of the page this request would get (cache key and ETag)."""
    user = request.user
    viewer = (user.pk, user.public_name) if user.is_authenticated else (None, "")
    material = (
        game.pk,
        game.version,
        game.chat_version,
        game.status,
        game.updated.isoformat() if game.updated else "",
        game.name,
        [_seat_fingerprint(s) for s in seats],
        viewer,
        viewer_seat(request, seats),
        partial or "",
        timezone.get_current_timezone_name(),
        translation.get_language(),
        left(game.deadline),
        request.GET.get("token", ""),
    )
    return hashlib.sha256(repr(material).encode()).hexdigest()[:32]


def cacheable(request: HttpRequest, game: Any) -> bool:
    """Pages of games being played or over; not with flash messages waiting to be shown."""
    return cacheable_status(game) and len(get_messages(request)) == 0


def etag_for(request: HttpRequest, key: str) -> str:
    """The key, and the CSRF secret the page's forms are filled in for (the cookie's, or the
    one this response sets)."""
    get_token(request)
    csrf = request.META.get("CSRF_COOKIE", "")
    return '"' + hashlib.sha256(f"{key}:{csrf}".encode()).hexdigest()[:32] + '"'


def _cache_key(game: Any, key: str) -> str:
    return f"game-page:{game.pk}:{game.version}:{key}"


def serve(
    request: HttpRequest,
    game: Any,
    seats: list,
    partial: str | None,
    render_page: Callable[[], HttpResponse],
    render_chat: Callable[[], str],
) -> HttpResponse:
    """The page from the cache (or 304), drawing and storing it with ``render_page`` first if
    it is not there. ``render_page`` must use the placeholders (see page_context)."""
    key = page_key(request, game, seats, partial)
    etag = etag_for(request, key)
    if etag in _if_none_match(request):
        response = HttpResponse(status=304)
    else:
        html = cache.get(_cache_key(game, key))
        if html is None:
            html = render_page().content.decode()
            cache.set(_cache_key(game, key), html, TTL_SECONDS)
        html = html.replace(CSRF_PLACEHOLDER, get_token(request))
        if CHAT_PLACEHOLDER in html:
            html = html.replace(CHAT_PLACEHOLDER, render_chat())
        response = HttpResponse(html)
    response["ETag"] = etag
    # Stored by the browser but asked about every time (a stale position must not show).
    patch_cache_control(response, private=True, no_cache=True, max_age=0)
    patch_vary_headers(response, ["Cookie", "HX-Request"])
    return response


def _if_none_match(request: HttpRequest) -> set[str]:
    header = request.headers.get("If-None-Match", "")
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


def page_context(game: Any) -> dict[str, Any]:
    """Context entries that make a drawn page cacheable: placeholders for per-request parts."""
    return {
        "csrf_token": CSRF_PLACEHOLDER,
        "chat_placeholder": CHAT_PLACEHOLDER if game.chat_version else "",
    }


# --- drawing the players' pages after a change ----------------------------------------------


def after_change(game_id: int, version: int) -> None:
    """Inside the transaction of a move: once it commits, a worker draws the players' pages."""

    def queue() -> None:
        from kombu.exceptions import OperationalError

        from games.tasks import draw_pages

        with suppress(OperationalError):  # pages are then drawn on the first view
            draw_pages.delay(game_id, version)

    transaction.on_commit(queue)


def draw_players_pages(game_id: int) -> int:
    """Draw and cache the page of every seated player (the htmx part their poll fetches, and
    the whole page) as they would request it; returns how many pages were drawn."""
    from django.test import RequestFactory
    from django.urls import reverse
    from django_htmx.middleware import HtmxDetails

    from games import views
    from games.models import Game

    game = Game.objects.defer("state").filter(pk=game_id).first()
    if game is None or not cacheable_status(game):
        return 0
    seats = views.game_seats(game)
    factory = RequestFactory()
    url = reverse("games:detail", args=[game.pk])
    drawn = 0
    for seat in seats:
        user = seat.user
        if user is None or seat.bot or seat.former_player:
            continue
        for htmx in (True, False):
            request = factory.get(url, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
            request.user = user
            request.htmx = HtmxDetails(request)
            zone = getattr(user, "zone", None)
            with timezone.override(zone) if zone else nullcontext():
                partial = "game" if htmx else None
                key = page_key(request, game, seats, partial)
                if cache.get(_cache_key(game, key)) is None:
                    response = views.render_game_page(request, game, seats, partial)
                    cache.set(_cache_key(game, key), response.content.decode(), TTL_SECONDS)
                    drawn += 1
    return drawn


def cacheable_status(game: Any) -> bool:
    return not (game.is_open or game.status == game.Status.CANCELLED)
