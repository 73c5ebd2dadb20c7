"""Pages behind the links in emails: one-click unsubscribe and the sign-in link to a game; and
the service worker script of push notifications.

Mail scanners open links in emails to check them, so a GET never changes anything: it shows a
one-button confirmation page (which submits itself, static/js/site.js, when the link is older
than a few minutes, i.e. opened by a person, not by a scanner at delivery). The POST does the
work. A sign-in link never switches accounts silently: with someone else signed in, the page
asks "continue as ...?" and only an explicit answer signs the link's owner in. A session opened
by a link is marked as such (an allauth authentication record of its own), so it can play but
must give the password for account changes. Mail providers
unsubscribe with a POST of ``List-Unsubscribe=One-Click`` (RFC 8058): no cookies, no CSRF
token, so the unsubscribe view is CSRF-exempt; its signed token is the authorisation.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from notifications import links, preferences

LINK_SESSION = "firenze_signed_in_by_email_link"

LINK_EXPIRED = gettext_lazy(
    "That sign-in link has expired or was already used. Sign in to continue to your game."
)


@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """One click turns off the kind of email the link came in (every kind for links from
    before the preferences table). The confirmation page also offers every other kind and
    "all game emails", each one click: the signed token is the authorisation, the posted
    ``kind`` only chooses among the player's own kinds."""
    User = get_user_model()
    try:
        user_id, kind, fresh = links.read_unsubscribe_token(token)
    except signing.BadSignature:
        return render(request, "notifications/bad_link.html", status=400)
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return render(request, "notifications/bad_link.html", status=400)
    if request.method == "GET":
        context = {
            "player": user,
            "kind": kind,
            "kind_label": preferences.KIND_LABELS.get(kind or "", ""),
            "kinds": [(k, label) for k, label, _help in preferences.KINDS if k != kind],
            "autosubmit": not fresh,
        }
        return render(request, "notifications/unsubscribe_confirm.html", context)
    if request.POST.get("List-Unsubscribe") == "One-Click":
        preferences.unsubscribe(user, kind)
        return HttpResponse("Unsubscribed.\n", content_type="text/plain")
    chosen: str | None = request.POST.get("kind", kind or "")
    if chosen == "all" or chosen == "":
        chosen = None
    elif chosen not in preferences.KIND_LABELS:
        return render(request, "notifications/bad_link.html", status=400)
    preferences.unsubscribe(user, chosen)
    context = {"player": user, "kind_label": preferences.KIND_LABELS.get(chosen or "", "")}
    return render(request, "notifications/unsubscribed.html", context)


@never_cache
@require_http_methods(["GET", "POST"])
def login_link(request: HttpRequest, game_id: int, token: str) -> HttpResponse:
    game_path = reverse("games:detail", args=[game_id])
    login_token, fresh = links.read_login_token(token, game_id)
    if login_token is not None and request.user.pk == login_token.user_id:
        return redirect(game_path)  # already signed in as this player
    if (
        login_token is None
        or login_token.used_at is not None
        or not login_token.user.is_active
        or not links.fingerprint_matches(login_token)
    ):
        return _sign_in_instead(request, game_path)
    other = request.user if request.user.is_authenticated else None
    switching = request.method == "POST" and request.POST.get("switch") == "yes"
    if request.method == "GET" or (other is not None and not switching):
        context = {
            "player": login_token.user,
            "other": other,
            "game_id": game_id,
            "autosubmit": not fresh and other is None,
        }
        return render(request, "notifications/login_confirm.html", context)
    if not links.use_login_token(login_token):
        return _sign_in_instead(request, game_path)
    login(request, login_token.user, backend="django.contrib.auth.backends.ModelBackend")
    _mark_link_session(request)
    return redirect(game_path)


def _mark_link_session(request: HttpRequest) -> None:
    """Record how this session was opened, the way allauth records its own sign-ins: a record
    that is never "reauthenticated", so email and password changes ask for the password."""
    from allauth.account.internal.flows.login import record_authentication

    record_authentication(request, request.user, method="email_link")
    request.session[LINK_SESSION] = True


def _sign_in_instead(request: HttpRequest, game_path: str) -> HttpResponse:
    """The usual sign-in page, coming back to the game afterwards."""
    messages.info(request, str(LINK_EXPIRED))
    return redirect(f"{reverse('account_login')}?{urlencode({'next': game_path})}")


SERVICE_WORKER = settings.BASE_DIR / "static" / "js" / "sw.js"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js served from /sw.js: a service worker controls only pages under its own
    path, so from the root it covers every game page. Browsers check it for updates; no-cache
    makes them revalidate rather than keep an old one for a day."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
