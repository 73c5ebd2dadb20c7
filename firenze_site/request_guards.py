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
- ``page_not_found``: the site's 404 handler, Django's without the CSRF check that reads the
  body (the same 500 as below, on a path that names nothing).
- ``bad_request``: the site's 400 handler (handler400 in firenze_site/urls.py). Django's own
  runs the CSRF check again, which reads the body again: a form in a charset Django refuses
  (``charset=utf-16`` with bytes that are not) then raised a second time, a 500. This one reads
  nothing of the request and says what was wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import (
    BadRequest,
    DisallowedHost,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    StreamingHttpResponse,
)
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views import defaults

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


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 404 page, drawn as Django's is but without its CSRF check first
    (``requires_csrf_token``): that check reads the body of a POST, and a form in a charset
    Django refuses, posted to a path that names nothing, then raised from the handler: a 500.
    The page's own forms still get their token (the middleware sets the cookie)."""
    return defaults.page_not_found.__wrapped__(request, exception)  # type: ignore[attr-defined]


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 400 page: what was wrong, in the reader's language, without reading the request."""
    page = render_to_string("400.html", {"reason": _reason(exception)})
    return HttpResponseBadRequest(page)


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
