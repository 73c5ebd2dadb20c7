"""Pages and posts of the bots app: the levels page, the takeover preference, asking for a
review. Thin views: forms read every value, bots.reviews and the models do the work."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from bots import estimates, ladder, reviews
from bots.forms import ReviewForm, TakeoverForm
from bots.models import TakeoverPreference
from firenze_site.requests import HtmxHttpRequest
from games import limits
from games.errors import GameError, NotInGame, RequestRefused
from games.models import Game
from games.rules import registry
from plans import what_if
from plans.forms import WhatIfForm


@require_GET
def levels(request: HttpRequest) -> HttpResponse:
    """Each level of the site's game in words, and its strength in numbers (the ladder's)."""
    engine = registry.default()
    return render(
        request,
        "bots/levels.html",
        {"engine": engine, "rows": ladder.level_rows(engine), "updated": ladder.updated(engine)},
    )


@login_required
@require_POST
def takeover(request: HttpRequest) -> HttpResponse:
    form = TakeoverForm(request.POST)
    assert request.user.is_authenticated  # login_required
    if form.is_valid():
        TakeoverPreference.objects.update_or_create(
            user=request.user, defaults={"level": form.cleaned_data["level"]}
        )
        messages.success(request, _("Saved: that bot plays your turn when your time runs out."))
    else:
        messages.error(request, _("Choose one of the bot levels offered."))
    return redirect(reverse("accounts:profile") + "#takeover")


@login_required
@require_POST
def review(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of a finished game asks for their review (computed in the background)."""
    ReviewForm(request.POST).is_valid()  # nothing to read but the CSRF token
    assert request.user.is_authenticated  # login_required
    game = Game.objects.defer("state").filter(pk=pk).first()
    if game is None or not game.seats.filter(user=request.user).exists():
        raise Http404(_("No such game."))
    try:
        reviews.request_review(game, request.user)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("The Strong bot is reviewing your game; the replay shows it when done.")
        )
    return redirect(reverse("games:replay", args=[game.pk]))


@require_GET
def what_if_estimate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The Strong bot's estimate of a "what if" line beside what was played (?step=N and
    steps=[...], the line tried): "estimating…" with a poll until the bots queue answers."""
    context: dict[str, object] = {"pk": pk}
    status = 200
    try:
        game = what_if.finished_game(pk)
        context["game"] = game
        if not request.user.is_authenticated:
            raise NotInGame(_("Sign in to ask the Strong bot for its estimate."))
        form = WhatIfForm({**request.GET.dict(), "do": ""})
        if not form.is_valid():
            raise RequestRefused(_("The step could not be read; open the replay again."))
        step, tried = form.cleaned_data["step"], form.cleaned_data["steps"]
        if not tried:
            raise RequestRefused(_("Take a step of your own first: the bot compares two lines."))
        what_if.build(game, step, tried)  # refuses a step or a line the sandbox never allowed
        if not estimates.asked(game, step, tried):  # a new line costs a bot job; polls do not
            limits.check(request, "what_if_estimate")
        context["estimate"] = estimates.ask(game, step, tried)
        context["poll_url"] = request.get_full_path()
    except GameError as exc:
        context["refusal"], status = exc.message, exc.status
    template = "bots/_what_if_estimate.html" if request.htmx else "bots/what_if_estimate.html"
    return render(request, template, context, status=status)
