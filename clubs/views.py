"""Thin views of the clubs: each reads its input through a form, asks the clubs' services
(membership, challenges) or pages, and goes back to the club page with a message. An htmx
request gets the named partial (django-htmx's pattern): the ladder after a challenge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import access, challenges, limits, membership, pages
from clubs.forms import BackForm, ClubForm, MemberForm, PlayerNameForm
from clubs.models import Club, ClubTournament
from firenze_site.requests import HtmxHttpRequest, SignedInRequest
from games.errors import GameError
from tournaments import signup
from tournaments.forms import TournamentForm


def _club_url(club: Club) -> str:
    return reverse("clubs:detail", args=[club.slug])


def _fail(request: HtmxHttpRequest, url: str, message: str) -> HttpResponse:
    messages.error(request, message)
    return redirect(url)


@require_GET
def club_list(request: HtmxHttpRequest) -> HttpResponse:
    context = {
        "clubs": pages.clubs_list(),
        "mine": pages.my_clubs(request.user),
        "invitations": pages.my_invitations(request.user),
    }
    return render(request, "clubs/list.html", context)


@login_required
def found(request: SignedInRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                limits.check(request, "club_found")
                club = membership.found(request.user, **form.cleaned_data)
            except limits.TooMany as exc:
                form.add_error(None, exc.message)
                status = 429
            except GameError as exc:
                form.add_error("name", exc.message)
            else:
                return redirect(_club_url(club))
    return render(request, "clubs/new.html", {"form": form}, status=status)


@login_required
def club_settings(request: SignedInRequest, slug: str) -> HttpResponse:
    """An admin's page for the club's name, description and door. Outsiders of a club by
    invitation get 404 (as for its other inside pages); members who are not admins get 403."""
    club, member = access.inside_or_404(slug, request.user)
    if member is None or not member.is_admin:
        raise PermissionDenied(_("Only the club's admins can do that."))
    initial = {"name": club.name, "description": club.description, "door": club.door}
    form = ClubForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                done = membership.change_settings(club, request.user, **form.cleaned_data)
            except GameError as exc:
                form.add_error("name", exc.message)
                status = exc.status
            else:
                messages.success(request, done)
                return redirect(_club_url(club))
    return render(request, "clubs/settings.html", {"club": club, "form": form}, status=status)


def _tournament_links(club: Club, inside: bool) -> list[tuple[ClubTournament, str]]:
    links = []
    for link in pages.tournaments(club) if inside else []:
        tournament = link.tournament
        url = reverse("tournaments:detail", args=[tournament.pk])
        if not tournament.is_public:
            url += "?" + urlencode({"token": tournament.invite_token})
        links.append((link, url))
    return links


@require_GET
def detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club: its door for everyone; its ladder, challenges and tournaments for those who
    may see inside (anyone for an open club, members for one by invitation)."""
    club = access.club_or_404(slug)
    member = membership.membership(club, request.user)
    inside = access.may_see_inside(club, member)
    context: dict[str, Any] = {
        "club": club,
        "member": member,
        "inside": inside,
        "at_door": pages.door_entry(club, request.user),
        "reach": _reach(),
        "challenge_days": settings.CLUB_CHALLENGE_DAYS,
    }
    if inside:
        context.update(
            rungs=pages.ladder_rows(club, request.user),
            challenges=pages.challenges(club),
            waiting=pages.waiting_for(club, request.user),
            tournaments=_tournament_links(club, inside),
        )
    if member is not None and member.is_admin:
        context.update(door=pages.door(club), invite_form=PlayerNameForm())
    if request.htmx and inside:
        return render(request, "clubs/detail.html#ladder", context)
    return render(request, "clubs/detail.html", context)


def _reach() -> int:
    return int(settings.CLUB_LADDER_REACH)


@require_GET
def members(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club, member = access.inside_or_404(slug, request.user)
    context: dict[str, Any] = {"club": club, "member": member, "members": pages.members(club)}
    if member is not None and member.is_admin:
        context["door"] = pages.door(club)
    return render(request, "clubs/members.html", context)


@require_GET
def games(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club, member = access.inside_or_404(slug, request.user)
    context = {"club": club, "member": member, "games": pages.members_games(club, request.user)}
    return render(request, "clubs/games.html", context)


def _act(
    request: SignedInRequest,
    slug: str,
    action: Callable[[Club], str],
    *,
    limit: str = "",
    back: str = "detail",
) -> HttpResponse:
    club = access.club_or_404(slug)
    url = reverse(f"clubs:{back}", args=[club.slug])
    came_from = BackForm(request.POST)
    if came_from.is_valid() and came_from.cleaned_data["back"] == "inbox":
        url = reverse("inbox:inbox")
    try:
        if limit:
            limits.check(request, limit)
        done = action(club)
    except (GameError, limits.TooMany) as exc:
        return _fail(request, url, exc.message)
    messages.success(request, done)
    return redirect(url)


@login_required
@require_POST
def join(request: SignedInRequest, slug: str) -> HttpResponse:
    return _act(request, slug, lambda club: membership.join(club, request.user), limit="club_join")


@login_required
@require_POST
def withdraw(request: SignedInRequest, slug: str) -> HttpResponse:
    return _act(request, slug, lambda club: membership.withdraw_request(club, request.user))


@login_required
@require_POST
def leave(request: SignedInRequest, slug: str) -> HttpResponse:
    club = access.club_or_404(slug)
    try:
        done = membership.leave(club, request.user)
    except GameError as exc:
        return _fail(request, _club_url(club), exc.message)
    messages.success(request, done)
    gone = not Club.objects.filter(pk=club.pk).exists()
    return redirect(reverse("clubs:list") if gone else _club_url(club))


def _player(name: str) -> Any:
    User = get_user_model()
    return User.objects.filter(display_name__iexact=name.strip()).exclude(display_name="").first()


@login_required
@require_POST
def invite(request: SignedInRequest, slug: str) -> HttpResponse:
    form = PlayerNameForm(request.POST)

    def action(club: Club) -> str:
        if not form.is_valid():
            raise GameError(_("Give the name of the player to invite."))
        player = _player(form.cleaned_data["display_name"])
        if player is None:
            raise GameError(
                _('There is no player called "%(name)s".')
                % {"name": form.cleaned_data["display_name"]}
            )
        if player.pk == request.user.pk:
            raise GameError(_("That is you."))
        return membership.invite(club, request.user, player)

    return _act(request, slug, action, limit="club_invite", back="members")


def _member_action(
    request: SignedInRequest, slug: str, service: Callable[[Club, Any, int], str], back: str
) -> HttpResponse:
    form = MemberForm(request.POST)

    def action(club: Club) -> str:
        if not form.is_valid():
            raise GameError(_("Choose a player from the list."))
        return service(club, request.user, form.cleaned_data["user"])

    return _act(request, slug, action, back=back)


@login_required
@require_POST
def accept(request: SignedInRequest, slug: str) -> HttpResponse:
    return _member_action(request, slug, membership.accept, "members")


@login_required
@require_POST
def refuse(request: SignedInRequest, slug: str) -> HttpResponse:
    return _member_action(request, slug, membership.refuse, "members")


@login_required
@require_POST
def remove(request: SignedInRequest, slug: str) -> HttpResponse:
    return _member_action(request, slug, membership.remove, "members")


@login_required
@require_POST
def promote(request: SignedInRequest, slug: str) -> HttpResponse:
    return _member_action(request, slug, membership.promote, "members")


@login_required
@require_POST
def challenge(request: SignedInRequest, slug: str) -> HttpResponse:
    """Challenge a member above; an htmx request gets the ladder back with the answer, a
    refusal included (htmx swaps only a 2xx answer)."""
    club = access.club_or_404(slug)
    form = MemberForm(request.POST)
    try:
        if not form.is_valid():
            raise GameError(_("Choose a member on the ladder."))
        opponent = get_user_model().objects.filter(pk=form.cleaned_data["user"]).first()
        if opponent is None or membership.membership(club, opponent) is None:
            raise GameError(_("Choose a member on the ladder."))
        limits.check(request, "club_challenge")
        messages.success(request, challenges.challenge(club, request.user, opponent))
    except (GameError, limits.TooMany) as exc:
        messages.error(request, exc.message)
    if request.htmx and access.may_see_inside(club, membership.membership(club, request.user)):
        context = {
            "club": club,
            "member": membership.membership(club, request.user),
            "inside": True,
            "rungs": pages.ladder_rows(club, request.user),
            "reach": _reach(),
            "show_messages": True,
        }
        return render(request, "clubs/detail.html#ladder", context)
    return redirect(_club_url(club))


@login_required
def new_tournament(request: SignedInRequest, slug: str) -> HttpResponse:
    """A club admin starts a tournament of any format, open to the club's members only."""
    club, member = access.inside_or_404(slug, request.user)
    if member is None or not member.is_admin:
        return _fail(request, _club_url(club), _("Only the club's admins can do that."))
    form = TournamentForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            fields = form.tournament_fields()
            fields["is_public"] = bool(fields["is_public"] and club.is_open)
            try:
                limits.check(request, "create_tournament")
                tournament = signup.create(request.user, **fields)
            except limits.TooMany as exc:
                form.add_error(None, exc.message)
                status = 429
            except GameError as exc:
                form.add_error(None, exc.message)
            else:
                ClubTournament.objects.create(tournament=tournament, club=club)
                return redirect(_club_url(club))
    return render(request, "clubs/new_tournament.html", {"club": club, "form": form}, status=status)
