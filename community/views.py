"""Thin views: a table's requirements, following and blocking. Each reads its input through a
form, asks community.social or the models, and goes back where it came from with a message."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from community import limits, social
from community.forms import RequirementForm
from community.models import TableRequirement
from firenze_site.requests import SignedInRequest
from games.models import Game, Seat
from players.history import find_player


def _back(url: str, *, failed: bool = False) -> HttpResponse:
    response = redirect(url)
    if failed:
        response.status_code = 303
    return response


@login_required
@require_POST
def requirements(request: SignedInRequest, pk: int) -> HttpResponse:
    """The creator sets who may join their open game (empty fields: anyone)."""
    game = Game.objects.defer("state").filter(pk=pk).first()
    seated = game is not None and Seat.objects.filter(game=game, user=request.user).exists()
    if game is None or not (game.is_public or seated):
        raise Http404(_("No such game."))
    url = reverse("games:detail", args=[game.pk])
    if game.creator_id != request.user.pk:
        messages.error(request, _("Only the game's creator can set who may join."))
        return _back(url, failed=True)
    if not game.is_open:
        messages.error(request, _("This game has already started or was cancelled."))
        return _back(url, failed=True)
    form = RequirementForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, str(errors[0]))
        return _back(url, failed=True)
    try:
        limits.check(request, "requirements")
    except limits.TooMany as exc:
        messages.error(request, exc.message)
        return _back(url, failed=True)
    data = form.cleaned_data
    TableRequirement.objects.update_or_create(
        game=game,
        defaults={key: data.get(key) for key in ("min_finished", "min_rating", "max_rating")},
    )
    messages.success(request, _("Who may join is saved."))
    return redirect(url)


def _player_or_404(name: str) -> Any:
    player = find_player(name)
    if player is None:
        raise Http404(_("No such player."))
    return player


def _social_action(request: SignedInRequest, name: str, action: str) -> HttpResponse:
    player = _player_or_404(name)
    url = reverse("players:profile", args=[player.display_name])
    if player.pk == request.user.pk:
        messages.error(request, _("That is you."))
        return _back(url, failed=True)
    try:
        limits.check(request, "block" if "block" in action else "follow")
    except limits.TooMany as exc:
        messages.error(request, exc.message)
        return _back(url, failed=True)
    messages.success(request, social.ACTIONS[action](request.user, player))
    return redirect(url)


@login_required
@require_POST
def follow(request: SignedInRequest, name: str) -> HttpResponse:
    return _social_action(request, name, "follow")


@login_required
@require_POST
def unfollow(request: SignedInRequest, name: str) -> HttpResponse:
    return _social_action(request, name, "unfollow")


@login_required
@require_POST
def block(request: SignedInRequest, name: str) -> HttpResponse:
    return _social_action(request, name, "block")


@login_required
@require_POST
def unblock(request: SignedInRequest, name: str) -> HttpResponse:
    return _social_action(request, name, "unblock")


@login_required
@require_GET
def friends(request: SignedInRequest) -> HttpResponse:
    """The players I follow, my new followers (told once), whom I block, and my open tables
    to invite friends to."""
    context = {
        "following": social.following(request.user),
        "new_followers": social.take_new_followers(request.user),
        "blocked": social.blocked(request.user),
        "tables": social.my_open_tables(request.user),
        "games": social.friends_games(request.user),
    }
    return render(request, "community/friends.html", context)
