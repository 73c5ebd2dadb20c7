"""The player's own parts of pages that are drawn once for many requests (the game page is
cached per game version and viewer, games.pagecache): the templates leave a marker, filled in
here for the signed-in player on every response.

- ``<!--inbox:count-->`` in the header: how many games wait for their move (inbox.counts).
- ``<!--inbox:next-->`` on a game page when it is not their turn: "Next game waiting for you",
  if one does.

The game page's ETag (games.pagecache) says nothing of these parts, so the count is added to
every ETag here (``"…-i3"``) and taken off a browser's If-None-Match before the view compares
it; a 304 for a page whose count has changed since is answered with the page instead. The count
and the player's last look are read together with the session and the cached page, in one
Redis round trip (firenze_site.prefetch: ``wanted_keys``).

It also records that the player looked at a game (inbox.seen) when its page, or the answer to
their move, is served, at the versions the response says it shows (games.shown).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation

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
        sent_counts = _strip_count(request) if request.META.get("HTTP_IF_NONE_MATCH") else None
        response = self.get_response(request)
        if (
            sent_counts is not None
            and response.status_code == 304
            and _count_changed(request, sent_counts)
        ):
            # The browser's copy is the page, but its header counts other games: send it anew.
            del request.META["HTTP_IF_NONE_MATCH"]
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
        if markers or response.has_header("ETag"):
            waiting = counts.waiting_count(user)  # read with the page's own read (prefetch)
            if markers:
                _fill_markers(response, waiting)
            if response.has_header("ETag"):
                response["ETag"] = _with_count(response["ETag"], waiting)
        return response


def _count_changed(request: HttpRequest, sent: set[int]) -> bool:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return False
    return counts.waiting_count(user) not in sent


def wanted_keys(request: HttpRequest, user_id: int) -> list[str]:
    """What the middleware will read for this user after the view (firenze_site.prefetch):
    their count, and their last look at the game a game page shows."""
    keys = [counts.key(user_id)]
    match = request.resolver_match
    if match is not None and match.app_name == "games" and match.url_name in LOOKED:
        pk = match.kwargs.get("pk")
        if isinstance(pk, int):
            keys.append(seen.key(user_id, pk))
    return keys


def _looked_at(request: HttpRequest, response: HttpResponse) -> int | None:
    """The game whose page (or the answer to a move on it) this response shows, if any."""
    match = request.resolver_match
    if match is None or match.app_name != "games" or match.url_name not in LOOKED:
        return None
    if response.status_code not in (200, 304) or "pk" not in match.kwargs:
        return None
    return int(match.kwargs["pk"])


def _versions_shown(response: HttpResponse) -> tuple[int, int] | None:
    """The versions the page was drawn at, or those of the browser's copy a 304 confirms
    (None: the response does not say; the game's current versions are recorded)."""
    if response.status_code not in (200, 304) or response.streaming:
        return None
    return shown.by(response)


def _with_count(etag: str, count: int) -> str:
    return f'{etag[:-1]}-i{count}"' if etag.endswith('"') else etag


def _strip_count(request: HttpRequest) -> set[int] | None:
    """Take the count off the tags the browser sends, reading nothing (whether it is still the
    player's count is asked once the view has answered); the counts they carried, if any. A
    tag without one (a visitor's page) stays as it is."""
    tags = [tag.strip() for tag in request.META["HTTP_IF_NONE_MATCH"].split(",")]
    kept, sent = [], set()
    for tag in tags:
        page_tag, _, count = tag.removesuffix('"').rpartition("-i")
        if page_tag and count.isascii() and count.isdigit() and len(count) <= 9:
            sent.add(int(count))
            kept.append(page_tag + '"')
        else:
            kept.append(tag)
    request.META["HTTP_IF_NONE_MATCH"] = ", ".join(kept)
    return sent or None


def _is_html(response: HttpResponse) -> bool:
    return (
        not response.streaming
        and response.status_code == 200
        and response.get("Content-Type", "").startswith("text/html")
    )


def _fill_markers(response: HttpResponse, waiting: int) -> None:
    """The markers filled in the page's bytes (they are ASCII, and so is what replaces
    them but for the words, encoded as the page is)."""
    charset = response.charset or "utf-8"
    language = translation.get_language()
    content = response.content
    if COUNT.encode() in content:
        badge = _drawn("inbox/_count.html", waiting, language).encode(charset)
        content = content.replace(COUNT.encode(), badge, 1)
    if NEXT.encode() in content:
        content = content.replace(
            NEXT.encode(), _drawn("inbox/_next.html", waiting, language).encode(charset)
        )
    response.content = content


@functools.lru_cache(maxsize=256)
def _drawn(template: str, waiting: int, language: str | None) -> str:
    """A marker's few words for a count, drawn once per language (every page shows one)."""
    with translation.override(language):
        return render_to_string(template, {"waiting": waiting})
