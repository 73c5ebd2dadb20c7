"""The player's own parts of pages that are drawn once for many requests (the game page is
cached per game version and viewer, games.pagecache): the templates leave a marker, filled in
here for the signed-in player on every response.

- ``<!--inbox:count-->`` in the header: how many games wait for their move (inbox.counts).
- ``<!--inbox:next-->`` on a game page when it is not their turn: "Next game waiting for you",
  if one does.

The game page's ETag (games.pagecache) says nothing of these parts, so the count is added to
every ETag here (``"…-i3"``), and taken off again from a browser's If-None-Match when it is
still the same: a page whose count changed is drawn anew instead of answered 304.

It also records that the player looked at a game (inbox.seen) when its page, or the answer to
their move, is served, at the versions the response says it shows (games.shown).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from games import shown
from inbox import counts, seen

COUNT = "<!--inbox:count-->"
NEXT = "<!--inbox:next-->"
LOOKED = {"detail", "move", "undo"}  # games:... views that show the player the game


class InboxMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The session and the user are read only when a response needs them: the version
        # poll, answered without either, stays so.
        if request.META.get("HTTP_IF_NONE_MATCH"):
            _strip_count(request)
        response = self.get_response(request)
        game_id = _looked_at(request, response)
        markers = _is_html(response) and b"<!--inbox:" in response.content
        if game_id is None and not markers and not response.has_header("ETag"):
            return response
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return response
        if game_id is not None:
            seen.record(user, game_id, _versions_shown(response))
        if markers:
            _fill_markers(request, response, user)
        if response.has_header("ETag"):
            response["ETag"] = _with_count(response["ETag"], counts.waiting_count(user))
        return response


def _looked_at(request: HttpRequest, response: HttpResponse) -> int | None:
    """The game whose page (or the answer to a move on it) this response shows, if any."""
    match = request.resolver_match
    if match is None or match.app_name != "games" or match.url_name not in LOOKED:
        return None
    if response.status_code not in (200, 304) or "pk" not in match.kwargs:
        return None
    return int(match.kwargs["pk"])


def _versions_shown(response: HttpResponse) -> tuple[int, int] | None:
    """The versions the page itself was drawn at, if it has a body (a 304 shows the browser's
    copy: the game's current versions are recorded)."""
    if response.status_code != 200 or response.streaming:
        return None
    return shown.by(response)


def _with_count(etag: str, count: int) -> str:
    return f'{etag[:-1]}-i{count}"' if etag.endswith('"') else etag


def _strip_count(request: HttpRequest) -> None:
    """Keep the tags the browser sends that carry the player's current count, without it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return
    suffix = f'-i{counts.waiting_count(user)}"'
    tags = [tag.strip() for tag in request.META["HTTP_IF_NONE_MATCH"].split(",")]
    kept = [tag[: -len(suffix)] + '"' for tag in tags if tag.endswith(suffix)]
    request.META["HTTP_IF_NONE_MATCH"] = ", ".join(kept)


def _is_html(response: HttpResponse) -> bool:
    return (
        not response.streaming
        and response.status_code == 200
        and response.get("Content-Type", "").startswith("text/html")
    )


def _fill_markers(request: HttpRequest, response: HttpResponse, user: Any) -> None:
    content = response.content.decode(response.charset or "utf-8")
    if "<!--inbox:" not in content:
        return
    waiting = counts.waiting_count(user)
    if COUNT in content:
        badge = render_to_string("inbox/_count.html", {"waiting": waiting})
        content = content.replace(COUNT, badge, 1)
    if NEXT in content:
        link = render_to_string("inbox/_next.html", {"waiting": waiting})
        content = content.replace(NEXT, link)
    response.content = content.encode(response.charset or "utf-8")
