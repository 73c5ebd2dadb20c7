"""Shapes of the URL's path parameters, checked before a view (or the database) sees them.

PostgreSQL refuses a NUL in a query (a 500 if it got that far), and no token, signed value or
name of the site has a control character in it: a path that does not fit its shape is a 404,
as any path the site does not serve. Registered on import: a URLconf that uses one imports
this module.
"""

from __future__ import annotations

from django.urls import register_converter


class _Shape:
    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class Token(_Shape):
    """A random token (secrets.token_urlsafe): invite links, calendar feeds."""

    regex = "[A-Za-z0-9_-]{1,64}"


class Signed(_Shape):
    """A value signed by django.core.signing (value, timestamp and signature, ':'-separated)."""

    regex = "[A-Za-z0-9_:.=-]{1,300}"


class Name(_Shape):
    """A display name: anything but a slash or a control character."""

    regex = "[^/\x00-\x1f\x7f]+"


register_converter(Token, "token")
register_converter(Signed, "signed")
register_converter(Name, "name")
