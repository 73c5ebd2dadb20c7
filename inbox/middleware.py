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
their move, is served.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from inbox import counts, seen

COUNT = "<!--inbox:count-->"
NEXT = "<!--inbox:next-->"
LOOKED = {"detail", "move", "undo"}  # games:... views that show the player the game


class InboxMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The session is read lazily: only a request with an ETag to check needs the user now.
        if request.META.get("HTTP_IF_NONE_MATCH"):
            _strip_count(request)
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return response
        self._record_look(request, response, user)
        if _is_html(response):
            _fill_markers(request, response, user)
        if response.has_header("ETag"):
            response["ETag"] = _with_count(response["ETag"], counts.waiting_count(user))
        return response

    @staticmethod
    def _record_look(request: HttpRequest, response: HttpResponse, user: Any) -> None:
        match = request.resolver_match
        if match is None or match.app_name != "games" or match.url_name not in LOOKED:
            return
        if response.status_code in (200, 304) and "pk" in match.kwargs:
            seen.record(user, int(match.kwargs["pk"]))


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
