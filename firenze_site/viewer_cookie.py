"""A signed cookie naming who the session says is signed in, so a request can tell whose keys
to read from the shared cache before it has read the session, and read them together with it
(firenze_site.prefetch): one Redis round trip for a signed-in page instead of two.

It is only a hint. The session stays the authority on who asks: the keys read for the user the
cookie names are kept aside by their exact names, each naming that user, and are served only to
code that asks for them on behalf of the user the session verified (Django's session-hash check
included). A cookie that names someone else (stale, copied from another browser) or that is
forged (its signature fails) costs the request the second round trip, nothing else; it is put
right on that response. The cookie is set when the session gains a user (sign-in) and deleted
when it has none (sign-out, a session gone or flushed), on any response whose request read its
session; a request that never read it leaves the cookie alone.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.core import signing
from django.http import HttpRequest, HttpResponse

NAME = "firenze_viewer"
SALT = "firenze_site.viewer_cookie"


def signed(user_id: int) -> str:
    """The cookie's value for this user."""
    return signing.Signer(salt=SALT).sign(str(user_id))


def claimed(request: HttpRequest) -> int | None:
    """The user id the request's cookie names, if its signature holds (else None)."""
    try:
        value = signing.Signer(salt=SALT).unsign(request.COOKIES.get(NAME, ""))
    except signing.BadSignature:
        return None
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else None


def keep(request: HttpRequest, response: HttpResponse) -> None:
    """Set or delete the cookie so that it names the session's user, if the request read its
    session (a user id, or none: signed out, the session gone or flushed)."""
    session = getattr(request, "session", None)
    if session is None or not session.accessed:
        return
    user_id = session.get(SESSION_KEY)
    if user_id is not None and str(user_id).isdigit():
        if claimed(request) != int(user_id):
            response.set_cookie(
                NAME,
                signed(int(user_id)),
                max_age=None
                if settings.SESSION_EXPIRE_AT_BROWSER_CLOSE
                else settings.SESSION_COOKIE_AGE,
                path=settings.SESSION_COOKIE_PATH,
                domain=settings.SESSION_COOKIE_DOMAIN,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite=settings.SESSION_COOKIE_SAMESITE,
            )
    elif NAME in request.COOKIES:
        response.delete_cookie(
            NAME,
            path=settings.SESSION_COOKIE_PATH,
            domain=settings.SESSION_COOKIE_DOMAIN,
            samesite=settings.SESSION_COOKIE_SAMESITE,
        )
