"""The API tokens page of the account: make a token (shown once), see when each was last used,
revoke one; and turn the account into a bot account.

Making a token and becoming a bot account need the password within the last minutes (allauth's
reauthentication): a session opened by a sign-in link from an email can play, but cannot hand
the account to a program.
"""

from __future__ import annotations

from typing import Any, cast

from allauth.account.decorators import reauthentication_required
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from api import bots, tokens
from api.forms import BotAccountForm, NewTokenForm
from api.models import ApiToken
from games import limits
from games.errors import GameError


def _page(
    request: HttpRequest,
    *,
    form: NewTokenForm | None = None,
    bot_form: BotAccountForm | None = None,
    new_token: tokens.NewToken | None = None,
    status: int = 200,
) -> HttpResponse:
    context: dict[str, Any] = {
        "form": form or NewTokenForm(),
        "bot_form": bot_form or BotAccountForm(),
        "tokens": list(ApiToken.objects.filter(user=cast(Any, request.user), revoked_at=None)),
        "new_token": new_token,
        "max_tokens": tokens.MAX_TOKENS,
    }
    response = render(request, "api/tokens.html", context, status=status)
    add_never_cache_headers(response)  # a new token is on it once, and must stay nowhere
    response["Cache-Control"] += ", no-store"
    return response


@login_required
@require_GET
def tokens_page(request: HttpRequest) -> HttpResponse:
    return _page(request)


@login_required
@require_POST
@reauthentication_required
def create_token(request: HttpRequest) -> HttpResponse:
    form = NewTokenForm(request.POST)
    if not form.is_valid():
        return _page(request, form=form, status=400)
    try:
        limits.check(request, "profile")
        made = tokens.create(request.user, form.cleaned_data["name"], form.cleaned_data["scope"])
    except GameError as exc:
        form.add_error(None, exc.message)
        return _page(request, form=form, status=exc.status)
    return _page(request, new_token=made, status=201)


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    if tokens.revoke(request.user, token_id):
        messages.success(request, _("The token is revoked: programs using it are refused now."))
    else:
        messages.error(request, _("There is no such token to revoke."))
    return redirect("api:tokens")


@login_required
@require_POST
@reauthentication_required
def become_bot(request: HttpRequest) -> HttpResponse:
    form = BotAccountForm(request.POST)
    if not form.is_valid():
        return _page(request, bot_form=form, status=400)
    try:
        bots.make_bot_account(request.user)
    except GameError as exc:
        form.add_error(None, exc.message)
        return _page(request, bot_form=form, status=exc.status)
    messages.success(request, _("This account is now a bot account: it plays through the API."))
    return redirect("api:tokens")
