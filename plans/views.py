"""The planning page: the sandbox of my own view, where I take my next turn's steps, undo them
and keep them as my plan. Nothing reaches the game until the turn comes."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from firenze_site.requests import HtmxHttpRequest
from games.errors import GameError
from plans import service, what_if
from plans.forms import PlanForm, StandingOrdersForm, WhatIfForm


@login_required
def plan_page(request: HttpRequest, pk: int) -> HttpResponse:
    form = PlanForm(request.POST if request.method == "POST" else None)
    steps: list[Any] = []
    status = 200
    if request.method == "POST":
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
def standing_orders(request: HttpRequest, pk: int) -> HttpResponse:
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


def _render(request: HttpRequest, pk: int, steps: list[Any], status: int) -> HttpResponse:
    try:
        plan = service.plan_of(pk, request.user)
        outcome = service.last_outcome(pk, request.user)
        orders = service.standing_orders_of(pk, request.user)
        told = service.outcome_text(pk, outcome) if outcome else None
    except GameError as exc:
        return render(request, "plans/refused.html", {"message": exc.message}, status=exc.status)
    choices: list[dict[str, Any]] = []
    words: list[str] = []
    refusal = ""
    try:
        choices = service.sandbox_choices(pk, request.user, steps)
        words = service.step_words(pk, request.user, steps)
    except GameError as exc:
        refusal, steps, status = exc.message, [], max(status, exc.status)
    context = {
        "pk": pk,
        "plan": plan,
        "outcome": told,
        "orders": orders,
        "steps_json": json.dumps(steps, separators=(",", ":")),
        "words": words,
        "choices": [
            {"payload": json.dumps(c["action"], separators=(",", ":")), "text": c["text"]}
            for c in choices
        ],
        "refusal": refusal,
        "page_title": _("Plan my next turn"),
    }
    return render(request, "plans/plan.html", context, status=status)


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
