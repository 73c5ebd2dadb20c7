"""Views of the table talk: thin, using the game page's access helper (404 for games the
visitor may not see).

htmx requests get the thread partial back (with the error in it when something was refused, so
htmx swaps it: it does not swap 4xx answers); plain form posts follow Post/Redirect/Get back to
the game page, or show the thread's page with the error and the typed text when refused.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from chat import services
from chat.forms import GameField, MessageForm, ReportForm
from chat.templatetags.chat import thread_context
from firenze_site.requests import HtmxHttpRequest
from games.access import game_for_user
from games.errors import GameError
from games.models import Game


def _game_anchor(game: Game) -> str:
    return reverse("games:detail", args=[game.pk]) + "#chat"


def _thread_response(request: HtmxHttpRequest, game: Game, *, error: str = "", draft: str = ""):
    """The thread partial (htmx) or the thread's own page."""
    context = thread_context(request.user, game, chat_error=error, chat_draft=draft)
    if request.htmx:
        response = render(request, "games/_chat.html#thread", context)
        if not error:
            response["HX-Trigger"] = "chat-sent"
        return response
    context["thread"] = services.thread(game, request.user, limit=None)
    return render(request, "chat/thread.html", context, status=400 if error else 200)


@require_GET
def thread(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every message of a game (the game page shows the latest ones)."""
    game = game_for_user(request, pk, with_state=False)
    context = thread_context(request.user, game)
    if request.htmx:
        return render(request, "games/_chat.html#thread", context)
    context["thread"] = services.thread(game, request.user, limit=None)
    return render(request, "chat/thread.html", context)


@login_required
@require_POST
def post(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    game = game_for_user(request, pk, with_state=False)
    form = MessageForm(request.POST)
    draft = str(request.POST.get("text", ""))[: services.MAX_LENGTH * 2]
    try:
        if not form.is_valid():
            raise services.ChatError(str(form.errors["text"][0]))
        services.post(game, request.user, form.cleaned_data["text"])
    except GameError as exc:
        if request.htmx:
            return _thread_response(request, game, error=exc.message)
        response = _thread_response(request, game, error=exc.message, draft=draft)
        response.status_code = exc.status
        return response
    if request.htmx:
        return _thread_response(request, game)
    return redirect(_game_anchor(game))


def _act(request: HtmxHttpRequest, pk: int, action, done: str = "") -> HttpResponse:
    game = game_for_user(request, pk, with_state=False)
    try:
        action(game)
    except GameError as exc:
        if request.htmx:
            return _thread_response(request, game, error=exc.message)
        messages.error(request, exc.message)
        response = redirect(_game_anchor(game))
        response.status_code = 303
        return response
    if request.htmx:
        return _thread_response(request, game)
    if done:
        messages.success(request, done)
    return redirect(_game_anchor(game))


@login_required
@require_POST
def delete(request: HtmxHttpRequest, pk: int, message_id: int) -> HttpResponse:
    return _act(request, pk, lambda game: services.delete(game, request.user, message_id))


@login_required
@require_POST
def mute(request: HtmxHttpRequest, pk: int, message_id: int) -> HttpResponse:
    def run(game: Game) -> None:
        message = services.message_in(game, message_id)
        services.mute(request.user, message.author)

    return _act(request, pk, run, _("Muted: their messages are collapsed everywhere."))


@login_required
@require_POST
def unmute(request: HtmxHttpRequest, user_id: int) -> HttpResponse:
    services.unmute(request.user, user_id)
    form = GameField(request.POST)
    game_id = form.cleaned_data.get("game") if form.is_valid() else None
    game = Game.objects.filter(pk=game_id).first() if game_id else None
    name = get_user_model().objects.filter(pk=user_id).first()
    if game is not None:
        game = game_for_user(request, game.pk, with_state=False)
        if request.htmx:
            return _thread_response(request, game)
        return redirect(_game_anchor(game))
    if name is not None:
        messages.success(request, _("%(name)s is no longer muted.") % {"name": name.public_name})
    return redirect("notification_settings:page")


@login_required
@require_http_methods(["GET", "POST"])
def report(request: HtmxHttpRequest, pk: int, message_id: int) -> HttpResponse:
    game = game_for_user(request, pk, with_state=False)
    try:
        message = services.message_in(game, message_id)
    except GameError as exc:
        return render(request, "chat/report.html", {"game": game, "error": exc.message}, status=404)
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.report(request.user, message, form.cleaned_data["reason"])
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Thank you: the moderators will look at that message."))
            return redirect(_game_anchor(game))
    status = 400 if form.errors else 200
    context = {"game": game, "message": message, "form": form}
    return render(request, "chat/report.html", context, status=status)
