"""What the views of every app know about a request beyond Django's own.

`HtmxHttpRequest`: the request of an htmx-aware view, typed as django-htmx's documentation
suggests (its middleware gives every request its `htmx` details). `sessionless` marks a view
that must not load a session or a user (the hot poll, the health check): the time zone and
language middlewares (accounts.middleware, firenze_site.language) leave it alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

View = TypeVar("View", bound=Callable[..., object])


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def sessionless(view: View) -> View:
    view.skip_user_time_zone = True  # type: ignore[attr-defined]
    return view
