"""What the site does with a request before any view sees it, so that no request, however odd,
answers 500 and every page answers HEAD as it answers GET.

- ``HeadAsGetMiddleware`` (first in MIDDLEWARE): a HEAD request runs as the GET it stands for,
  through every middleware and view, and goes back with the GET's status and headers (its
  Content-Length included) but no body. Views then need no HEAD of their own (``require_GET``
  is enough) and a new page answers HEAD from its first day. The request is marked
  ``head_only`` for the few views that would start something a HEAD must not (a live
  stream's subscription: streams.views).
- ``IdGuardMiddleware``: an id in the URL beyond what the database can hold (a 64-bit signed
  integer) names nothing: 404, before a query could overflow (SQLite raises OverflowError,
  PostgreSQL an out-of-range error).
- ``bad_request``: the site's 400 handler (handler400 in firenze_site/urls.py). Django's own
  runs the CSRF check again, which reads the body again: a form in a charset Django refuses
  (``charset=utf-16`` with bytes that are not) then raised a second time, a 500. This one reads
  nothing of the request and says what was wrong.
- ``not_found``: the site's 404 handler. Django's own runs the CSRF check too (so that its page
  may hold a form), and for a POST to a path that names nothing that check read a body Django
  refuses while the 404 was being answered: a 500. Such a request now gets the 400 above.
- ``server_error``: the site's 500 handler. A database this node cannot reach (its link cut, a
  failover, a lock given up on) is the site away for a moment, not a fault in the request:
  503 with Retry-After, telling the player to reload before they send it again (the move may
  have been saved just before). Everything else stays Django's 500.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from django.core.exceptions import (
    BadRequest,
    DisallowedHost,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.db import InterfaceError, OperationalError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    StreamingHttpResponse,
)
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import defaults

from firenze_site.language import language_of_request

RETRY_SECONDS = 30  # a failover or a cut link: back within seconds, or an operator's matter
MAX_ID = 2**63 - 1  # the largest primary key of a BigAutoField (and of SQLite's INTEGER)


class HeadAsGetMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "HEAD":
            return self.get_response(request)
        request.method = "GET"
        request.head_only = True  # type: ignore[attr-defined]
        response = self.get_response(request)
        if isinstance(response, StreamingHttpResponse):
            response.streaming_content = []
        else:
            response["Content-Length"] = str(len(response.content))
            response.content = b""
        return response


class IdGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable, args: tuple, kwargs: dict[str, Any]
    ) -> None:
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not -MAX_ID <= value <= MAX_ID:
                raise Http404(_("no page has a number that large"))


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 400 page: what was wrong, in the reader's language, without reading the request."""
    page = render_to_string("400.html", {"reason": _reason(exception)})
    return HttpResponseBadRequest(page)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 page, or the 400 page when its CSRF check cannot read the body."""
    try:
        return defaults.page_not_found(request, exception)
    except BadRequest as unreadable:
        return bad_request(request, unreadable)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's 500 page, or the 503 page when the database was out of reach (the exception
    being handled: Django calls its 500 handler inside its ``except``)."""
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        # In the reader's language even when the fault came before the language middleware
        # (the first read of the session): from the cookie or the browser, no database.
        with translation.override(language_of_request(request)):
            page = render_to_string("503.html")
        response = HttpResponse(page, status=503)
        response["Retry-After"] = str(RETRY_SECONDS)
        return response
    return defaults.server_error(request)


def _reason(exception: Exception | None) -> str:
    if isinstance(exception, RequestDataTooBig):
        return _("The request is too large for this site.")
    if isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
        return _("The form has more fields than any form of this site.")
    if isinstance(exception, DisallowedHost):
        return _("This site is not served at that address.")
    if isinstance(exception, BadRequest) and "UTF-8" in str(exception):
        return _("The form could not be read: forms must be sent encoded as UTF-8.")
    return _("The site could not read this request.")
