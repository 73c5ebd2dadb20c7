"""Private notes: one notepad per player per game, saved as they type (htmx, debounced) and
shown to that player only, on the game's page, during the game and after it. The game page
is shared by many requests (games.pagecache), so the notepad is fetched on its own."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games.models import Seat
from inbox.forms import NoteForm
from inbox.models import Note


def notepad(request: HttpRequest, game_id: int) -> str:
    """The notepad of the signed-in player for this game, or "" if they have no seat in it."""
    user = request.user
    if not user.is_authenticated or not Seat.objects.filter(game_id=game_id, user=user).exists():
        return ""
    note = Note.objects.filter(user=user, game_id=game_id).first()
    form = NoteForm(initial={"text": note.text if note else ""}, auto_id="note_%s")
    context = {"form": form, "game_id": game_id, "note": note}
    return render_to_string("inbox/_notepad.html", context, request=request)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def notes(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the notepad (the game page loads it); POST: store the notes, htmx gets a short
    status, a plain form post goes back to the game. Only a seated player has notes (others
    get 404: nothing to see)."""
    user: Any = request.user
    if not Seat.objects.filter(game_id=pk, user=user).exists():
        raise Http404(_("No such game."))
    if request.method == "GET":
        return HttpResponse(notepad(request, pk))
    form = NoteForm(request.POST)
    if not form.is_valid():
        error = str(next(iter(form.errors.values()))[0])
        if getattr(request, "htmx", False):
            return HttpResponse(error, content_type="text/plain; charset=utf-8")
        messages.error(request, error)
        return redirect(reverse("games:detail", args=[pk]) + "#notes")
    Note.objects.update_or_create(
        user=user, game_id=pk, defaults={"text": form.cleaned_data["text"]}
    )
    if getattr(request, "htmx", False):
        return HttpResponse(_("Saved."), content_type="text/plain; charset=utf-8")
    messages.success(request, _("Your notes are saved."))
    return redirect(reverse("games:detail", args=[pk]) + "#notes")
