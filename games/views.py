"""Views of the lobby and the game page: thin, with access helpers that 404 or 403.

The game page follows django-htmx's pattern: one view per page that renders a named partial
for htmx requests, and Post/Redirect/Get for plain form posts.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef, Prefetch
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games import away as absence_rules
from games import limits, lobby, play
from games.errors import GameError, IllegalMove
from games.forms import (
    AbsenceForm,
    CancelAbsenceForm,
    CreateGameForm,
    InviteForm,
    MoveForm,
    TokenForm,
    VersionForm,
)
from games.models import Game, Invitation, Move, Seat
from games.presenters import game_context
from games.rules import format_line

LOG_MOVES = 40
WATCH_GAMES = 10


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what Firenze is and where to start."""
    if request.user.is_authenticated:
        return redirect("games:mine")
    return render(request, "home.html")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness probe for load balancers: answers without touching the database."""
    return HttpResponse("ok", content_type="text/plain")


# --- access helpers -------------------------------------------------------------------------


def _get_game_for_user(request: HttpRequest, pk: int, *, with_state: bool = True) -> Game:
    """The game if this user may look at it: public games, or ones they sit in or are invited to."""
    games = Game.objects.all() if with_state else Game.objects.defer("state")
    game = get_object_or_404(games, pk=pk)
    if game.is_public or _may_see_private(request, game):
        return game
    raise Http404("No such game.")


def _may_see_private(request: HttpRequest, game: Game) -> bool:
    return _may_see_private_game(request, game.pk, game.invite_token)


def _may_see_private_game(request: HttpRequest, game_id: int, invite_token: str) -> bool:
    """Seats, invitees and holders of the invite link (whose token comes with the page, its
    polls (GET) and its join form (POST)) may see a private game; nobody else learns it exists."""
    if _posted_token(request) == invite_token:
        return True
    user = request.user
    if not user.is_authenticated:
        return False
    return (
        Seat.objects.filter(game_id=game_id, user=user).exists()
        or Invitation.objects.filter(game_id=game_id, user=user).exists()
    )


def _posted_token(request: HttpRequest) -> str:
    form = TokenForm({"token": request.GET.get("token") or request.POST.get("token") or ""})
    return form.cleaned_data["token"] if form.is_valid() else ""


def _refuse(request: HttpRequest, game: Game, error: GameError) -> HttpResponse:
    """A refused request: htmx gets the fresh page parts with the message, others a status."""
    if request.htmx:
        return _render_game(request, game, error=error.message, partial="updates")
    response = _render_game(request, game, error=error.message)
    response.status_code = error.status
    return response


def game_url(game: Game) -> str:
    return reverse("games:detail", args=[game.pk])


def _back_to_game(request: HttpRequest, game: Game) -> str:
    """The game page, keeping a valid invite token: a refused stranger must still see it."""
    token = _posted_token(request)
    if token and token == game.invite_token:
        return f"{game_url(game)}?{urlencode({'token': token})}"
    return game_url(game)


# --- lobby ----------------------------------------------------------------------------------


@require_GET
def lobby_list(request: HttpRequest) -> HttpResponse:
    games = (
        Game.objects.filter(status=Game.Status.OPEN, is_public=True)
        .select_related("creator")
        .prefetch_related("seats__user")
        .order_by("-created")[:50]
    )
    return render(request, "games/lobby.html", {"games": games})


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """The player's games: every game being formed or played in full, the last few finished
    ones (the history has the rest), and public games to watch. A fixed number of queries
    however many games the player has finished; no game's state is loaded."""
    from players.models import SeatResult
    from players.profiles import latest_finished

    me = request.user
    seats = Seat.objects.select_related("user").order_by("number", "joined", "pk")
    # Led by the games not yet over (few) rather than the player's seats (one per game ever).
    games = (
        Game.objects.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user=me)))
        .defer("state")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("-updated")
    )
    my_turn, waiting, forming = [], [], []
    for game in games:
        mine = next(s for s in game.seats.all() if s.user_id == me.pk)
        game.opponents = [s for s in game.seats.all() if s is not mine]
        game.acting = next((s for s in game.seats.all() if s.number == game.acting_seat), None)
        if game.is_open:
            forming.append(game)
        elif game.acting_seat == mine.number:
            my_turn.append(game)
        else:
            waiting.append(game)
    invitations = me.invitations.filter(game__status=Game.Status.OPEN).select_related(
        "game", "invited_by"
    )
    watch = (
        Game.objects.filter(status=Game.Status.ACTIVE, is_public=True)
        .exclude(seats__user=me)
        .defer("state")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("-updated")[:WATCH_GAMES]
    )
    return render(
        request,
        "games/mine.html",
        {
            "my_turn": my_turn,
            "waiting": waiting,
            "forming": forming,
            "finished": latest_finished(me, me),
            "finished_count": SeatResult.objects.filter(user=me).count(),
            "invitations": invitations,
            "watch": list(watch),
        },
    )


@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = CreateGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            limits.check(request, "create_game")
            game = lobby.create_game(
                request.user,
                num_players=data["num_players"],
                options=form.options(),
                time_limit=timedelta(seconds=int(data["time_limit"])),
                is_public=data["is_public"],
            )
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(game_url(game))
    status = 200
    if form.errors:
        status = 429 if limits.MESSAGES["create_game"] in form.non_field_errors() else 400
    return render(request, "games/create.html", {"form": form}, status=status)


def _lobby_action(request: HttpRequest, pk: int, run: Any, success: str) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        run(game)
    except GameError as exc:
        messages.error(request, exc.message)
        response = redirect(_back_to_game(request, game))
        if not request.htmx:
            response.status_code = 303
        return response
    if success:
        messages.success(request, success)
    return redirect(game_url(game))


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    token = _posted_token(request) or None
    return _lobby_action(
        request, pk, lambda g: lobby.join(g, request.user, token=token), "You took a seat."
    )


@login_required
@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda g: lobby.leave(g, request.user), "You left the game.")


@login_required
@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda g: lobby.cancel(g, request.user), "Game cancelled.")


@login_required
@require_POST
def add_bot(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda g: lobby.add_bot(g, request.user), "")


@login_required
@require_POST
def remove_seat(request: HttpRequest, pk: int, seat_id: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda g: lobby.remove_seat(g, request.user, seat_id), "")


@login_required
@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda g: lobby.start(g, request.user), "")


@login_required
@require_POST
def invite(request: HttpRequest, pk: int) -> HttpResponse:
    form = InviteForm(request.POST)
    name = form.cleaned_data["display_name"].strip() if form.is_valid() else ""

    def run(game: Game) -> None:
        if not name:
            raise IllegalMove("Write the display name of the player to invite.")
        limits.check(request, "invite")
        lobby.invite(
            game,
            request.user,
            name,
            before_email=lambda user: limits.check(
                request, "invite_pair", key=f"{request.user.pk}:{user.pk}"
            ),
        )

    return _lobby_action(request, pk, run, f"{name} is invited.")


@require_GET
def invite_link(request: HttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game, invite_token=token)
    return redirect(f"{game_url(game)}?token={token}")


# --- the game page --------------------------------------------------------------------------


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").order_by("number", "joined", "pk"))


def _viewer_seat(request: HttpRequest, seats: list[Seat]) -> int | None:
    if not request.user.is_authenticated:
        return None
    return next((s.number for s in seats if s.user_id == request.user.pk), None)


def _log(game: Game, names: list[str]) -> list[dict[str, Any]]:
    moves = Move.objects.filter(game=game).only("seq", "log", "timeout").order_by("-seq")
    moves = moves[:LOG_MOVES]
    entries = []
    for move in moves:
        for line in move.log:
            entries.append(
                {
                    "seq": move.seq,
                    "text": format_line(line, names),
                    "raw": line,  # names become profile links: {% log_line %}
                    "timeout": move.timeout,
                }
            )
    return entries


def _render_game(
    request: HttpRequest, game: Game, *, error: str | None = None, partial: str | None = None
) -> HttpResponse:
    seats = _seats(game)
    context: dict[str, Any] = {
        "game": game,
        "seats": seats,
        "error": error,
        "token": request.GET.get("token", ""),
    }
    template = "games/game.html"
    context["my_seat"] = next(
        (s for s in seats if request.user.is_authenticated and s.user_id == request.user.pk),
        None,
    )
    if game.is_open or game.status == Game.Status.CANCELLED:
        context["is_creator"] = request.user == game.creator
        context["invite_form"] = InviteForm()
        context["invite_url"] = request.build_absolute_uri(
            reverse("games:invite_link", args=[game.invite_token])
        )
        return render(request, "games/forming.html", context)
    names = [s.name for s in seats]
    colours = [s.colour for s in seats]
    viewer = _viewer_seat(request, seats)
    context.update(game_context(game.load_state(), viewer, names, colours, _log(game, names)))
    if partial:
        template = f"games/game.html#{partial}"
    return render(request, template, context)


@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    partial = "game" if request.htmx and not request.htmx.boosted else None
    return _render_game(request, game, partial=partial)


@require_POST
def move(request: HttpRequest, pk: int) -> HttpResponse:
    """One step of the acting player. The game is read once, locked, inside submit_move."""
    form = MoveForm(request.POST)
    try:
        if not form.is_valid():
            raise IllegalMove(form.first_error())
        if request.user.is_authenticated:
            limits.check(request, "move")
        game = play.submit_move(
            pk, request.user, form.cleaned_data["action"], form.cleaned_data["version"]
        )
    except Game.DoesNotExist:
        raise Http404("No such game.") from None
    except GameError as exc:
        return _refuse(request, _get_game_for_user(request, pk), exc)
    if request.htmx:
        return _render_game(request, game, partial="updates")
    return redirect(game_url(game))


@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk, with_state=False)
    form = VersionForm(request.POST)
    try:
        if not form.is_valid():
            raise IllegalMove(form.first_error())
        if request.user.is_authenticated:
            limits.check(request, "move")
        game = play.undo_move(game.pk, request.user, form.cleaned_data["version"])
    except GameError as exc:
        return _refuse(request, Game.objects.get(pk=game.pk), exc)
    if request.htmx:
        return _render_game(request, game, partial="updates")
    return redirect(game_url(game))


@never_cache
@require_GET
def version(request: HttpRequest, pk: int) -> HttpResponse:
    """The cheap poll (the most frequent request): for a public game one indexed query, no
    state loaded, no session touched; a private one answers only to those who may see its
    page (seats, invitees, invite-link holders), like the page.

    ``v`` is the version of the moves the page shows, ``c`` that of its table talk (chat/):
    either one changing refreshes the page, so new messages ride the same poll as moves."""
    row = (
        Game.objects.filter(pk=pk)
        .values_list("version", "chat_version", "is_public", "invite_token")
        .first()
    )
    if row is None:
        raise Http404("No such game.")
    version_now, chat_now, is_public, invite_token = row
    if not is_public and not _may_see_private_game(request, pk, invite_token):
        raise Http404("No such game.")
    seen, seen_chat = request.GET.get("v"), request.GET.get("c")
    if seen == str(version_now) and seen_chat in (None, str(chat_now)):
        return HttpResponse(status=204)
    response = JsonResponse({"version": version_now, "chat": chat_now})
    if seen is not None:
        response["HX-Trigger"] = "game-changed"
    return response


# --- clock: taking a seat back, absences ----------------------------------------------------


@login_required
@require_POST
def reclaim(request: HttpRequest, pk: int) -> HttpResponse:
    """Take one's seat back from the bot after repeated timeouts."""
    return _lobby_action(
        request,
        pk,
        lambda g: lobby.reclaim_seat(g, request.user),
        "Your seat is yours again; the bot has stopped playing for you.",
    )


@login_required
def away(request: HttpRequest) -> HttpResponse:
    """Vacation: the player's absences, and a form to add one (clocks pause while away)."""
    form = AbsenceForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        try:
            limits.check(request, "away")
            if "cancel" in request.POST:
                form = AbsenceForm()
                cancel = CancelAbsenceForm(request.POST)
                if not cancel.is_valid():
                    raise IllegalMove(cancel.errors["cancel"][0])
                absence_rules.end_absence(request.user, cancel.cleaned_data["cancel"])
                messages.success(request, "Absence cancelled.")
                return redirect("games:away")
            if form.is_valid():
                data = form.cleaned_data
                absence_rules.add_absence(request.user, data["first_day"], data["last_day"])
                messages.success(request, "Absence saved: your turn clocks pause while away.")
                return redirect("games:away")
        except GameError as exc:
            if form.is_bound:
                form.add_error(None, exc.message)
            else:  # cancelling: the add form stays blank, the message goes on top
                messages.error(request, exc.message)
            status = exc.status
    year = timezone.localdate().year
    context = {
        "form": form,
        "absences": request.user.absences.filter(ends__gt=timezone.now()),
        "days_used": absence_rules.days_used(request.user, year),
        "days_max": absence_rules.max_days(),
        "year": year,
    }
    return render(request, "games/away.html", context, status=status)
