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
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, replace_url

from firenze_site.requests import HtmxHttpRequest
from games.errors import GameError, RequestRefused
from games.forms import MoveForm, VersionForm
from games.look import rules_url
from games.models import Game
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


WHAT_IF_NOT_READ = _lazy("The step could not be read; open the replay again.")


@require_http_methods(["GET", "POST"])
def what_if_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Another line from any step of a finished game's replay; a GET opens it at ?step=N (and
    the steps tried so far, ?steps=...), a POST takes or takes back a step by the lines' form."""
    try:
        game = what_if.finished_game(pk)
    except GameError as exc:
        return render(request, "plans/refused.html", {"message": exc.message}, status=exc.status)
    data = request.POST if request.method == "POST" else _what_if_address(request)
    form = WhatIfForm(data)
    if not form.is_valid():
        return _what_if_render(request, game, None, [], 400, refusal=str(WHAT_IF_NOT_READ))
    steps = form.cleaned_data["steps"]
    if form.cleaned_data["do"] == "undo":
        steps = steps[:-1]
    elif form.cleaned_data["add"] is not None:
        steps = [*steps, form.cleaned_data["add"]]
    try:
        result = what_if.build(game, form.cleaned_data["step"], steps)
    except GameError as exc:
        return _what_if_render(request, game, None, [], exc.status, refusal=exc.message)
    return _what_if_render(request, game, result, steps, 200)


@require_POST
def what_if_step(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A step taken on the what-if's board or action panel (where it starts and the steps so
    far in the address), refused as the sandbox refuses it; nothing reaches the game."""
    return _what_if_change(request, pk, take=True)


@require_POST
def what_if_undo(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The what-if without its last tried step."""
    return _what_if_change(request, pk, take=False)


def _what_if_address(request: HtmxHttpRequest) -> dict[str, str]:
    return {"step": request.GET.get("step", "0"), "steps": request.GET.get("steps", "")}


def _what_if_change(request: HtmxHttpRequest, pk: int, *, take: bool) -> HttpResponse:
    try:
        game = what_if.finished_game(pk)
    except GameError as exc:
        return render(request, "plans/refused.html", {"message": exc.message}, status=exc.status)
    where = WhatIfForm(_what_if_address(request))
    if not where.is_valid():
        return _what_if_render(request, game, None, [], 400, refusal=str(WHAT_IF_NOT_READ))
    step, steps = where.cleaned_data["step"], where.cleaned_data["steps"]
    form = MoveForm(request.POST) if take else VersionForm(request.POST)
    tried, error = steps[:-1], ""
    if not form.is_valid():
        tried, error = steps, form.first_error()
    elif take:
        tried = [*steps, form.cleaned_data["action"]]
    try:
        result = what_if.build(game, step, tried)
    except GameError as exc:
        tried, error = steps, exc.message
        try:  # the step is refused: the line stays where it was, saying why
            result = what_if.build(game, step, tried)
        except GameError as again:
            return _what_if_render(request, game, None, [], again.status, refusal=again.message)
    if request.htmx:
        return _what_if_render(request, game, result, tried, 200, error=error, partial="updates")
    if error:
        return _what_if_render(request, game, result, tried, 400, error=error)
    return redirect(reverse("plans:what_if", args=[pk]) + board.what_if_query(step, tried))


def _what_if_render(
    request: HtmxHttpRequest,
    game: Game,
    result: what_if.WhatIf | None,
    steps: list[Any],
    status: int,
    *,
    refusal: str = "",
    error: str = "",
    partial: str | None = None,
) -> HttpResponse:
    """The what-if page (htmx: its sandbox, or after a board step the panel with the rest
    swapped beside it), its board drawn as the planning sandbox draws it."""
    context: dict[str, Any] = {
        "game": game,
        "result": result,
        "refusal": refusal,
        "error": error,
        "steps_json": json.dumps(steps, separators=(",", ":")),
        "page_title": _("What if?"),
    }
    if result is not None and result.state is not None:
        context.update(
            board.what_if_context(
                game,
                game.seats_for_page(),
                result.seat,
                result.state,
                result.step,
                steps,
                going_on=result.going_on,
            )
        )
    if partial is None and request.htmx:
        partial = "sandbox"
    template = f"plans/what_if.html#{partial}" if partial else "plans/what_if.html"
    response = render(request, template, context, status=status)
    if partial == "updates" and result is not None:  # a reload shows the line where it is
        address = reverse("plans:what_if", args=[game.pk])
        replace_url(response, address + board.what_if_query(result.step, steps))
    return response
