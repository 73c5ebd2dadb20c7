"""The inbox: every game waiting for the player's move, soonest deadline first, each marked
when it changed or has table talk they have not read since they last looked; the games that
changed while waiting for others; "next game"; and the calendar feed's settings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, F, OuterRef, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.models import Game, Seat, SeatClock
from inbox import counts, seen
from inbox.forms import CalendarForm
from inbox.models import CalendarFeed, new_feed_token

FAR_FUTURE = datetime.max


@dataclass
class Entry:
    game: Game
    opponents: list[Seat]
    moved: bool  # moves since the player last looked
    talked: bool  # table talk since then
    clock: SeatClock | None = None  # the player's own clock, as the game page shows it

    @property
    def changed(self) -> bool:
        return self.moved or self.talked


def _entries(user: Any, games: list[Game]) -> list[Entry]:
    looked = seen.last_seen(user, [g.pk for g in games])
    entries = []
    for game in games:
        version, chat = looked.get(game.pk, (0, 0))
        seats = list(game.seats.all())
        opponents = [s for s in seats if s.user_id != user.pk]
        mine = next((s for s in seats if s.user_id == user.pk), None)
        clock = game.time_left(mine) if mine is not None else None
        moved, talked = game.version > version, game.chat_version > chat
        entries.append(Entry(game, opponents, moved, talked, clock))
    return entries


def _my_games(user: Any) -> tuple[list[Game], list[Game]]:
    """The player's games in progress: (waiting for them, soonest deadline first; the rest)."""
    seats = Seat.objects.select_related("user").order_by("number")
    waiting = counts.waiting_seats(user).filter(game=OuterRef("pk"))
    games = (
        Game.objects.filter(status=Game.Status.ACTIVE)
        .filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user=user)))
        .annotate(waiting_for_me=Exists(waiting))
        .defer("state")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by(F("deadline").asc(nulls_last=True), "pk")
    )
    mine: list[Game] = []
    others: list[Game] = []
    for game in games:
        (mine if game.waiting_for_me else others).append(game)
    return mine, others


@login_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    user: Any = request.user
    waiting, others = _my_games(user)
    changed = [e for e in _entries(user, others) if e.changed]
    feed = CalendarFeed.objects.filter(user=user).first()
    feed_url = (
        request.build_absolute_uri(reverse("inbox:calendar", args=[feed.token])) if feed else ""
    )
    # Invitations wait for an answer as turns wait for a move (My games lists them too).
    invitations = user.invitations.filter(game__status=Game.Status.OPEN).select_related(
        "game", "invited_by"
    )
    context = {
        "waiting": _entries(user, waiting),
        "invitations": invitations,
        "changed": changed,
        "feed_url": feed_url,
        "page_title": _("Your move") + " · Firenze",
    }
    return render(request, "inbox/inbox.html", context)


@login_required
@require_GET
def next_game(request: HttpRequest) -> HttpResponse:
    """Straight to the game that waits longest for the player's move (the soonest deadline),
    or to the inbox when none does."""
    waiting, _others = _my_games(request.user)
    if waiting:
        return redirect("games:detail", waiting[0].pk)
    messages.info(request, _("No game is waiting for your move right now."))
    return redirect("inbox:inbox")


@login_required
@require_POST
def calendar_settings(request: HttpRequest) -> HttpResponse:
    """Turn the private calendar address on, replace it (the old one stops working) or off."""
    form = CalendarForm(request.POST)
    if not form.is_valid():
        messages.error(request, str(next(iter(form.errors.values()))[0]))
        return redirect(reverse("inbox:inbox") + "#calendar")
    action = form.cleaned_data["calendar"]
    user: Any = request.user
    CalendarFeed.objects.filter(user=user).delete()
    if action == "off":
        messages.success(request, _("The calendar address is turned off."))
    else:
        CalendarFeed.objects.create(user=user, token=new_feed_token())
        messages.success(
            request,
            _("A new calendar address is ready; the old one no longer works.")
            if action == "renew"
            else _("Your calendar address is ready."),
        )
    return redirect(reverse("inbox:inbox") + "#calendar")
