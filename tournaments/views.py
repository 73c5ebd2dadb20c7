"""Views of tournaments and seasons: thin, with an access helper that 404s (a private
tournament one may not see does not exist for them), forms for every posted value, and
django-htmx's pattern (one view per page, a named partial for htmx requests).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from allauth.core import ratelimit
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django_htmx.middleware import HtmxDetails

from games.errors import GameError
from tournaments import pages, rounds, seasons, signup, withdrawals
from tournaments.forms import FeatureForm, LadderForm, ListFilterForm, TokenForm, TournamentForm
from tournaments.models import Entry, LadderMember, Round, Tournament

STANDINGS_SECONDS = 3600


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (its docs' typing recipe)."""

    htmx: HtmxDetails


CREATE_LIMIT_MESSAGE = gettext_lazy(
    "You have created many tournaments in a short time; wait a while before the next."
)


def _token(request: HttpRequest) -> str:
    form = TokenForm({"token": request.GET.get("token") or request.POST.get("token") or ""})
    return form.cleaned_data["token"] if form.is_valid() else ""


def _get_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None or not signup.may_see(tournament, request.user, _token(request)):
        raise Http404(_("No such tournament."))
    return tournament


def detail_url(tournament: Tournament, token: str = "") -> str:
    url = reverse("tournaments:detail", args=[tournament.pk])
    return f"{url}?{urlencode({'token': token})}" if token else url


# --- lists ----------------------------------------------------------------------------------


@require_GET
def tournament_list(request: HtmxHttpRequest) -> HttpResponse:
    form = ListFilterForm(request.GET)
    context = {
        "form": form,
        "sections": pages.sections(form.filters()),
        "mine": pages.mine(request.user),
    }
    template = "tournaments/list.html#results" if request.htmx else "tournaments/list.html"
    return render(request, template, context)


@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            if not ratelimit.consume(request, action="create_tournament", user=request.user):
                form.add_error(None, str(CREATE_LIMIT_MESSAGE))
                status = 429
            else:
                try:
                    tournament = signup.create(request.user, **form.tournament_fields())
                except GameError as exc:
                    form.add_error(None, exc.message)
                else:
                    return redirect(detail_url(tournament))
        status = status if status != 200 else 400
    return render(request, "tournaments/create.html", {"form": form}, status=status)


# --- one tournament -------------------------------------------------------------------------


def _start_if_due(tournament: Tournament) -> Tournament:
    """The page-view check: sign-up has closed and the beat has not dealt round one yet."""
    if tournament.is_signup and tournament.signup_closes <= timezone.now():
        rounds.start(tournament.pk)
        tournament.refresh_from_db()
    return tournament


def _viewer_entry(tournament: Tournament, user: Any) -> Entry | None:
    if not user.is_authenticated:
        return None
    return tournament.entries.filter(user_id=user.pk).first()


def _selected_round(tournament: Tournament, asked: str | None) -> Round | None:
    rounds_ = tournament.round_set.all()
    number = tournament.current_round
    if asked and asked.isascii() and asked.isdigit() and len(asked) < 6:
        number = int(asked)
    return rounds_.filter(number=number).first() or rounds_.order_by("-number").first()


@require_GET
def detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    tournament = _start_if_due(_get_tournament(request, pk))
    selected = _selected_round(tournament, request.GET.get("round"))
    round_html = _round_html(tournament, selected)
    if request.htmx and request.GET.get("round"):
        return HttpResponse(round_html)
    entry = _viewer_entry(tournament, request.user)
    context = {
        "tournament": tournament,
        "token": _token(request),
        "selected": selected,
        "round_html": round_html,
        "entry": entry,
        "entries": list(tournament.entries.select_related("user").order_by("seed", "joined")),
        "rounds": list(tournament.round_set.all()),
        "standings": _standings_html(request, tournament),
        "schedule": pages.schedule(entry) if entry is not None else [],
        "rules": pages.RULES[tournament.format],
        "withdrawal_rule": pages.WITHDRAWAL_RULE,
        "may_manage": signup.may_manage(tournament, request.user),
        "signup_refusal": signup.refusal(tournament, request.user)
        if entry is None and tournament.signup_open and request.user.is_authenticated
        else None,
        "invite_url": request.build_absolute_uri(detail_url(tournament, tournament.invite_token)),
    }
    return render(request, "tournaments/detail.html", context)


def _round_html(tournament: Tournament, selected: Round | None) -> str:
    """A round's tables, drawn once per version of the tournament, of the round's games (a
    move changes whose turn it is) and language."""
    if selected is None:
        return ""
    key = (
        f"tournament-round:{tournament.pk}:{tournament.version}:{selected.number}:"
        f"{pages.round_version(selected)}:{translation.get_language()}"
    )
    drawn = cache.get(key)
    if drawn is None:
        context = {
            "selected": selected,
            "tables": pages.round_tables(selected),
            "total": tournament.rounds,
        }
        drawn = render_to_string("tournaments/_round.html", context)
        cache.set(key, drawn, STANDINGS_SECONDS)
    return mark_safe(drawn)  # noqa: S308 - our own template's output


def _standings_html(request: HttpRequest, tournament: Tournament) -> str:
    """The standings table, drawn once per version, language and viewer's entry (their row is
    marked) and kept in the shared cache: a 512-player table is drawn once per game end."""
    viewer = request.user.pk if request.user.is_authenticated else 0
    key = (
        f"tournament-standings:{tournament.pk}:{tournament.version}:"
        f"{translation.get_language()}:{viewer}"
    )
    drawn = cache.get(key)
    if drawn is None:
        rows = pages.standing_rows(tournament, request.user)
        token = _token(request)
        groups = pages.by_group(rows) if tournament.format == "groups" else []
        context = {
            "tournament": tournament,
            "rows": rows,
            "rows_html": pages.rows_html(rows, token=token),
            "groups": [
                (group, pages.rows_html(members, in_group=True, token=token))
                for group, members in groups
            ],
            "tiebreak_labels": pages.TIEBREAK_LABELS[tournament.format],
        }
        drawn = render_to_string("tournaments/_standings.html", context, request=request)
        cache.set(key, drawn, STANDINGS_SECONDS)
    return mark_safe(drawn)  # noqa: S308 - our own template's output


@require_GET
def standings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The standings on their own page; for the tournament page's poll (htmx, ``v`` = the
    version it shows) 204 while nothing changed, else the fresh table."""
    tournament = _get_tournament(request, pk)
    seen = request.GET.get("v", "")
    if request.htmx and seen == str(tournament.version):
        return HttpResponse(status=204)
    context = {"tournament": tournament, "standings": _standings_html(request, tournament)}
    if request.htmx:
        return render(request, "tournaments/standings.html#poll", context)
    return render(request, "tournaments/standings.html", context)


@require_GET
def schedule(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    tournament = _get_tournament(request, pk)
    entry = tournament.entries.select_related("user").filter(pk=entry_id).first()
    if entry is None:
        raise Http404(_("No such player in this tournament."))
    context = {
        "tournament": tournament,
        "player": entry,
        "lines": pages.schedule(entry),
        "token": _token(request),
    }
    return render(request, "tournaments/schedule.html", context)


def _action(
    request: HttpRequest, pk: int, run: Callable[[Tournament], Any], success: str
) -> HttpResponse:
    """Run a tournament action; the message and back to its page (303 with the refusal)."""
    tournament = _get_tournament(request, pk)
    token = _token(request)
    try:
        run(tournament)
    except GameError as exc:
        messages.error(request, exc.message)
        response = redirect(detail_url(tournament, token))
        response.status_code = 303
        return response
    if success:
        messages.success(request, success)
    return redirect(detail_url(tournament, token))


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    token = _token(request)
    return _action(
        request,
        pk,
        lambda t: signup.sign_up(t, request.user, token=token),
        _("You are signed up. Your first table comes by email when sign-up closes."),
    )


@login_required
@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    return _action(
        request, pk, lambda t: signup.leave(t, request.user), _("You are no longer signed up.")
    )


@login_required
@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    return _action(
        request,
        pk,
        lambda t: withdrawals.withdraw_self(t, request.user),
        _("You have withdrawn; a bot finishes your games in progress."),
    )


@login_required
@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _action(
        request, pk, lambda t: signup.cancel(t, request.user), _("The tournament is cancelled.")
    )


@login_required
@require_POST
def start_now(request: HttpRequest, pk: int) -> HttpResponse:
    def run(tournament: Tournament) -> None:
        with transaction.atomic():  # one lock: a second click finds it started
            signup.close_signup_now(tournament, request.user)
            rounds.start(tournament.pk)

    return _action(request, pk, run, _("Sign-up is closed and the first round is dealt."))


@login_required
@require_POST
def feature(request: HttpRequest, pk: int) -> HttpResponse:
    form = FeatureForm(request.POST)

    def run(tournament: Tournament) -> None:
        if not form.is_valid():
            raise GameError(_("Say whether to feature the tournament."))
        signup.feature(tournament, request.user, form.cleaned_data["featured"])

    return _action(request, pk, run, "")


# --- seasons --------------------------------------------------------------------------------


@require_GET
def ladder(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    member_of = set()
    if request.user.is_authenticated:
        member_of = set(
            LadderMember.objects.filter(user=request.user, active=True).values_list(
                "table_size", flat=True
            )
        )
    current = {
        t.table_size: t
        for t in Tournament.objects.filter(
            format=Tournament.Format.SEASON, season_month=seasons.month_start(today)
        )
    }
    ladders = []
    for size in seasons.sizes():
        season = current.get(size)
        ladders.append(
            {
                "size": size,
                "member": size in member_of,
                "members": LadderMember.objects.filter(table_size=size, active=True).count(),
                "season": season,
                "top": pages.standing_rows(season)[:5] if season is not None else [],
            }
        )
    past = Tournament.objects.filter(
        format=Tournament.Format.SEASON, status=Tournament.Status.FINISHED
    ).order_by("-season_month", "table_size")[:12]
    return render(request, "tournaments/ladder.html", {"ladders": ladders, "past": list(past)})


def _ladder_action(request: HttpRequest, run: Callable[[int], Any], success: str) -> HttpResponse:
    form = LadderForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("There is no ladder for tables of that size."))
        return redirect("tournaments:ladder")
    try:
        run(form.cleaned_data["size"])
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)
    return redirect("tournaments:ladder")


@login_required
@require_POST
def ladder_join(request: HttpRequest) -> HttpResponse:
    return _ladder_action(
        request,
        lambda size: seasons.join(request.user, size),
        _("You are on the ladder: your games come every week."),
    )


@login_required
@require_POST
def ladder_leave(request: HttpRequest) -> HttpResponse:
    return _ladder_action(
        request,
        lambda size: seasons.leave(request.user, size),
        _("You have left the ladder; your games in progress go on."),
    )
