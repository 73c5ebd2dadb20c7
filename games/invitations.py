"""The creator's control of a forming game's invitations: withdrawing one, or replacing the
shared invite link so the old one opens nothing (games.lobby.revoke)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from firenze_site.requests import HtmxHttpRequest
from games import lobby
from games.errors import RequestRefused
from games.forms import RevokeForm
from games.lobby_actions import lobby_action
from games.models import Game


@login_required
@require_POST
def revoke(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    form = RevokeForm(request.POST)
    done: list[str] = []

    def run(game: Game) -> None:
        if not form.is_valid():
            raise RequestRefused(str(next(iter(form.errors.values()))[0]))
        invitation_id = form.cleaned_data["invitation"]
        lobby.revoke(game, request.user, invitation_id)
        done.append(
            _("Invitation withdrawn.")
            if invitation_id
            else _("A new invite link is ready; the old one no longer works.")
        )

    return lobby_action(request, pk, run, done)
