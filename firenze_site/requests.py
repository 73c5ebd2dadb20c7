"""What the views of every app know about a request beyond Django's own.

`HtmxHttpRequest`: the request of an htmx-aware view, typed as django-htmx's documentation
suggests (its middleware gives every request its `htmx` details); `SignedInRequest`, that of a
view behind login_required, whose user is an account (the user model, named for the type
checker only). `sessionless` marks a view
that must not load a session or a user (the hot poll, the health check): the time zone and
language middlewares (accounts.middleware, firenze_site.language) leave it alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

if TYPE_CHECKING:
    from accounts.models import User

View = TypeVar("View", bound=Callable[..., object])


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class SignedInRequest(HtmxHttpRequest):
    user: User


def sessionless(view: View) -> View:
    view.skip_user_time_zone = True  # type: ignore[attr-defined]
    return view
