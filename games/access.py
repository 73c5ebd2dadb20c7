"""Who may look at a game: the one access rule of the games app, for its views and for every
other app that serves a game (the API, the streams, the table talk, the archive).

A private game is shown to its seats, its invitees and the holders of a live invite link; to
anyone else it does not exist (404, never 403: nobody learns its number is taken).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from games.forms import TokenForm
from games.models import Game, Invitation, Seat


def game_for_user(request: HttpRequest, pk: int, *, with_state: bool = True) -> Game:
    """The game if this user may look at it: public games, or ones they sit in or are invited
    to; 404 otherwise. ``with_state=False`` leaves the state (the largest column) unread."""
    games = Game.objects.all() if with_state else Game.objects.defer("state")
    game = games.filter(pk=pk).first()
    if game is None:
        raise Http404(_("No such game."))
    if game.is_public or may_see_private(request, game):
        return game
    raise Http404(_("No such game."))


def may_see_private(request: HttpRequest, game: Game) -> bool:
    """Seats, invitees and holders of a live invite link (whose token comes with the page and
    its join form) may see a private game; nobody else learns it exists. A link opens only a
    game still forming with a seat free (Game.admits): never the board or the table talk."""
    token = posted_token(request)
    if token and game.admits(token):
        return True
    user = request.user
    if not user.is_authenticated:
        return False
    return (
        Seat.objects.filter(game_id=game.pk, user=user).exists()
        or Invitation.objects.filter(game_id=game.pk, user=user).exists()
    )


def posted_token(request: HttpRequest) -> str:
    """The invite token the request carries (query or form), if it is one; else ''."""
    if "token" not in request.GET and "token" not in request.POST:
        return ""
    form = TokenForm({"token": request.GET.get("token") or request.POST.get("token") or ""})
    return form.cleaned_data["token"] if form.is_valid() else ""


def game_url(game: Game) -> str:
    return reverse("games:detail", args=[game.pk])
