"""The planning page: the sandbox of my own view, where I take my next turn's steps, undo them
and keep them as my plan. Nothing reaches the game until the turn comes."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, replace_url

from firenze_site.requests import HtmxHttpRequest
from games.errors import GameError, RequestRefused
from games.forms import MoveForm, VersionForm
from games.look import rules_url
from plans import board, service, what_if
from plans.forms import NOT_READ, PlanForm, StandingOrdersForm, WhatIfForm, read_steps


@login_required
def plan_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    form = PlanForm(request.POST if request.method == "POST" else None)
    steps: list[Any] = []
    status = 200
    if request.method == "GET":
        read = read_steps(request.GET.get("steps"))
        if read is None:
            messages.error(request, str(NOT_READ))
            status = 400
        steps = read or []
    else:
        if not form.is_valid():
            status = 400
        else:
            steps = form.cleaned_data["steps"]
            do = form.cleaned_data["do"]
            try:
                if do == "save":
                    service.set_plan(pk, request.user, steps)
                    messages.success(request, _("Your plan is kept for your next turn."))
                    return redirect(reverse("plans:plan", args=[pk]))
                if do == "drop":
                    service.drop_plan(pk, request.user)
                    messages.success(request, _("Your plan is dropped."))
                    return redirect(reverse("plans:plan", args=[pk]))
                if do == "undo":
                    steps = steps[:-1]
                elif form.cleaned_data["add"] is not None:
                    steps = [*steps, form.cleaned_data["add"]]
            except GameError as exc:
                messages.error(request, exc.message)
                status = exc.status
    return _render(request, pk, steps, status)


@login_required
@require_POST
def standing_orders(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Switch the standing orders beside the plan on or off (all of them at once)."""
    try:
        offered = service.standing_orders_of(pk, request.user)
    except GameError as exc:
        return render(request, "plans/refused.html", {"message": exc.message}, status=exc.status)
    form = StandingOrdersForm(request.POST, keys=[order["key"] for order in offered])
    if not form.is_valid():
        messages.error(request, str(form.errors["orders"][0]))
        return _render(request, pk, [], 400)
    try:
        service.set_standing_orders(pk, request.user, form.cleaned_data["orders"])
    except GameError as exc:
        messages.error(request, exc.message)
        return _render(request, pk, [], exc.status)
    messages.success(request, _("Your standing orders are kept."))
    return redirect(reverse("plans:plan", args=[pk]) + "#orders-h")


def _render(
    request: HtmxHttpRequest,
    pk: int,
    steps: list[Any],
    status: int,
    *,
    error: str = "",
    partial: str | None = None,
) -> HttpResponse:
    context: dict[str, Any] = {"pk": pk}
    if not partial:  # the sandbox's answer to a step shows neither
        try:
            context.update(service.owners_part(pk, request.user))
        except GameError as exc:
            message = {"message": exc.message}
            return render(request, "plans/refused.html", message, status=exc.status)
    try:
        box = service.open_sandbox(pk, request.user, steps)
    except GameError as exc:
        if steps:  # a step the sandbox never allowed: it starts afresh, saying why
            status = max(status, exc.status)
            return _render(request, pk, [], status, error=exc.message, partial=partial)
        if partial:  # no sandbox at all now (the seat's turn, the game over...)
            return HttpResponseClientRedirect(reverse("plans:plan", args=[pk]))
        context.update(refusal=exc.message, page_title=_("Plan my next turn"))
        return render(request, board.PLAN_PAGE, context, status=max(status, exc.status))
    context.update(
        board.board_context(box.game, box.seats, box.seat, box.state, steps, going_on=box.going_on)
    )
    context.update(
        sandbox=box,
        error=error,
        rules_url=rules_url(box.game.engine),
        steps_json=json.dumps(steps, separators=(",", ":")),
        words=box.words,
        page_title=_("Plan my next turn"),
    )
    template = f"{board.PLAN_PAGE}#{partial}" if partial else board.PLAN_PAGE
    response = render(request, template, context, status=status)
    if partial:  # a reload shows the sandbox where the player left it
        replace_url(response, reverse("plans:plan", args=[pk]) + board.steps_query(steps))
    return response


def _sandbox_answer(
    request: HtmxHttpRequest, pk: int, steps: list[Any], error: GameError | None = None
) -> HttpResponse:
    """After a step or an undo in the sandbox: htmx gets the panel with the board and players
    beside it (as a real move's answer), a plain form the page at its new address."""
    if request.htmx:
        return _render(
            request, pk, steps, 200, error=error.message if error else "", partial="updates"
        )
    if error is not None:
        return _render(request, pk, steps, error.status, error=error.message)
    return redirect(reverse("plans:plan", args=[pk]) + board.steps_query(steps))


@login_required
@require_POST
def sandbox_step(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """One step in the sandbox, posted by the engine's own action panel and board (the steps
    so far in the address): refused as a real turn would refuse it; nothing reaches the game."""
    steps = read_steps(request.GET.get("steps")) or []
    form = MoveForm(request.POST)
    try:
        if read_steps(request.GET.get("steps")) is None or not form.is_valid():
            raise RequestRefused(form.first_error() if form.errors else str(NOT_READ))
        steps = service.take_step(
            pk, request.user, steps, form.cleaned_data["action"], form.cleaned_data["version"]
        )
    except GameError as exc:
        return _sandbox_answer(request, pk, steps if exc.status != 409 else [], exc)
    return _sandbox_answer(request, pk, steps)


@login_required
@require_POST
def sandbox_undo(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The sandbox without its last step: undo is always free there."""
    steps = read_steps(request.GET.get("steps")) or []
    form = VersionForm(request.POST)
    try:
        if read_steps(request.GET.get("steps")) is None or not form.is_valid():
            raise RequestRefused(form.first_error() if form.errors else str(NOT_READ))
        steps = service.take_back(pk, request.user, steps, form.cleaned_data["version"])
    except GameError as exc:
        return _sandbox_answer(request, pk, steps if exc.status != 409 else [], exc)
    return _sandbox_answer(request, pk, steps)


@require_http_methods(["GET", "POST"])
def what_if_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Another line from any step of a finished game's replay; a GET opens it at ?step=N."""
    try:
        game = what_if.finished_game(pk)
    except GameError as exc:
        return render(request, "plans/refused.html", {"message": exc.message}, status=exc.status)
    data = request.POST if request.method == "POST" else {"step": request.GET.get("step", "0")}
    form = WhatIfForm(data)
    status, steps, result, refusal = 200, [], None, ""
    if not form.is_valid():
        status, refusal = 400, _("The step could not be read; open the replay again.")
    else:
        steps = form.cleaned_data["steps"]
        if form.cleaned_data["do"] == "undo":
            steps = steps[:-1]
        elif form.cleaned_data["add"] is not None:
            steps = [*steps, form.cleaned_data["add"]]
        try:
            result = what_if.build(game, form.cleaned_data["step"], steps)
        except GameError as exc:
            status, refusal, steps = exc.status, exc.message, []
    context = {
        "game": game,
        "result": result,
        "refusal": refusal,
        "steps_json": json.dumps(steps, separators=(",", ":")),
        "choices": [
            {"payload": json.dumps(c["action"], separators=(",", ":")), "text": c["text"]}
            for c in (result.choices if result else [])
        ],
        "page_title": _("What if?"),
    }
    template = "plans/what_if.html#sandbox" if request.htmx else "plans/what_if.html"
    return render(request, template, context, status=status)
