"""Views of the lobby and the game page: thin, with access helpers that 404 or 403.

The game page follows django-htmx's pattern: one view per page that renders a named partial
for htmx requests, and Post/Redirect/Get for plain form posts.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import add_never_cache_headers
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_POST

from bots.forms import BotLevelForm
from chat.templatetags.chat import thread_context
from games import absences, limits, lobby, lobbycache, pagecache, play, poll, versions
from games.errors import GameError, RequestRefused
from games.forms import (
    AbsenceForm,
    CancelAbsenceForm,
    CreateGameForm,
    InviteForm,
    MoveForm,
    ResignForm,
    TokenForm,
    VersionForm,
)
from games.gamelog import first_turn_shown, log_turns, resignation_notes
from games.models import Game, Invitation, Move, Seat
from games.resign import resign as resign_seat
from games.results import standings
from games.rules import protocol, registry
from games.wording import in_sentence

WATCH_GAMES = 10


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what the game is and where to start."""
    if request.user.is_authenticated:
        return redirect("games:mine")
    return render(request, "home.html", {"pitch": registry.default().pitch})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness probe for load balancers: answers without touching the database."""
    return HttpResponse("ok", content_type="text/plain")


healthz.skip_user_time_zone = True  # accounts.middleware: no session or user lookup


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico on every site; the icon itself is a static file."""
    return redirect(static("favicon.ico"), permanent=True)


favicon.skip_user_time_zone = True


@require_GET
def rules_page(request: HttpRequest) -> HttpResponse:
    """The rules as this site plays them; the game page links its phases and cards here."""
    engine = registry.default()
    return render(request, engine.rules_template, engine.rules_context())


# --- access helpers -------------------------------------------------------------------------


def _get_game_for_user(request: HttpRequest, pk: int, *, with_state: bool = True) -> Game:
    """The game if this user may look at it: public games, or ones they sit in or are invited to."""
    games = Game.objects.all() if with_state else Game.objects.defer("state")
    game = games.filter(pk=pk).first()
    if game is None:
        raise Http404(_("No such game."))
    if game.is_public or _may_see_private(request, game):
        return game
    raise Http404(_("No such game."))


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
    if "token" not in request.GET and "token" not in request.POST:
        return ""
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


LOBBY_PAGE_SIZE = 25


def lobby_games():
    """Open public games, newest first: filtered and ordered by one index (game_lobby)."""
    return Game.objects.filter(status=Game.Status.OPEN, is_public=True).order_by("-created")


@require_GET
def lobby_list(request: HttpRequest) -> HttpResponse:
    """The lobby, a page at a time: its cost does not grow with the number of open games, and
    the list is drawn once per change of the open games (games.lobbycache), not per visitor.
    A page number that is not one shows the first page; one past the end, the last."""
    # Only what the list shows: the creator, and how many seats are taken (counted in SQL
    # for the page's rows only).
    taken = (
        Seat.objects.filter(game=OuterRef("pk"))
        .order_by()
        .values("game")
        .annotate(count=Count("pk"))
        .values("count")
    )
    games = (
        lobby_games()
        .defer("state")
        .select_related("creator")
        .annotate(seats_taken=Coalesce(Subquery(taken), 0))
    )
    asked = lobbycache.page_param(request.GET.get("page"))

    def draw() -> str:
        page = Paginator(games, LOBBY_PAGE_SIZE).get_page(asked)
        context = {"games": page.object_list, "page": page}
        return render_to_string("games/_lobby_list.html", context, request=request)

    signed_in = request.user.is_authenticated
    game_list = mark_safe(lobbycache.drawn_list(asked, signed_in, draw))  # noqa: S308 - our template
    return render(request, "games/lobby.html", {"game_list": game_list})


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
    my_turn, waiting, forming, to_start = [], [], [], []
    for game in games:
        mine = next(s for s in game.seats.all() if s.user_id == me.pk)
        game.opponents = [s for s in game.seats.all() if s is not mine]
        game.acting = next((s for s in game.seats.all() if s.number == game.acting_seat), None)
        if game.is_open and game.creator_id == me.pk and len(game.seats.all()) >= game.num_players:
            to_start.append(game)  # full, created without auto-start: only its creator starts it
        elif game.is_open:
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
            "to_start": to_start,
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
            with transaction.atomic():  # the game with its bots, or nothing
                game = lobby.create_game(
                    request.user,
                    name=data["name"],
                    num_players=data["num_players"],
                    options=form.options(),
                    engine_name=form.engine.name,
                    time_limit=timedelta(seconds=int(data["time_limit"])),
                    is_public=data["is_public"],
                    auto_start=data["auto_start"],
                )
                for level in form.bot_levels():
                    lobby.add_bot(game, request.user, bot=level)
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(game_url(game))
    status = 200
    if form.errors:
        status = 429 if limits.MESSAGES["create_game"] in form.non_field_errors() else 400
    return render(request, "games/create.html", {"form": form}, status=status)


def _lobby_action(
    request: HttpRequest, pk: int, run: Any, success: str | list[str]
) -> HttpResponse:
    """Run a lobby action; ``success`` is the message (or a list ``run`` fills in)."""
    game = _get_game_for_user(request, pk)
    try:
        run(game)
    except GameError as exc:
        messages.error(request, exc.message)
        response = redirect(_back_to_game(request, game))
        if not request.htmx:
            response.status_code = 303
        return response
    for text in [success] if isinstance(success, str) else success:
        if text:
            messages.success(request, text)
    return redirect(game_url(game))


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    token = _posted_token(request) or None
    return _lobby_action(
        request, pk, lambda g: lobby.join(g, request.user, token=token), _("You took a seat.")
    )


@login_required
@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(
        request, pk, lambda g: lobby.leave(g, request.user), _("You left the game.")
    )


@login_required
@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda g: lobby.cancel(g, request.user), _("Game cancelled."))


@login_required
@require_POST
def add_bot(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat a bot of the level chosen beside the button (the engine's default without one)."""
    game = _get_game_for_user(request, pk, with_state=False)
    form = BotLevelForm(request.POST, engine=game.engine)
    level = form.cleaned_data["level"] if form.is_valid() else ""
    if not level and request.POST.get("level"):
        messages.error(request, _("Choose one of the bot levels offered."))
        return redirect(game_url(game))
    return _lobby_action(request, pk, lambda g: lobby.add_bot(g, request.user, bot=level), "")


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
    confirmation: list[str] = []

    def run(game: Game) -> None:
        if not form.is_valid():
            errors = form.errors.get("display_name") or ["Enter a display name or an address."]
            raise RequestRefused(str(errors[0]))
        limits.check(request, "invite")
        if form.email:
            lobby.invite_by_email(
                game,
                request.user,
                form.email,
                before_email=lambda invitee: limits.check(
                    request, "invite_pair", key=f"{request.user.pk}:{_invitee_key(invitee)}"
                ),
            )
            confirmation.append(
                _("An invitation is on its way to %(email)s.") % {"email": form.email}
            )
        else:
            invitation = lobby.invite(
                game,
                request.user,
                form.cleaned_data["display_name"],
                before_email=lambda invitee: limits.check(
                    request, "invite_pair", key=f"{request.user.pk}:{_invitee_key(invitee)}"
                ),
            )
            confirmation.append(
                _("%(public_name)s is invited.") % {"public_name": invitation.user.public_name}
            )

    return _lobby_action(request, pk, run, confirmation)


def _invitee_key(invitee: Any) -> str:
    """Invitations are limited per inviter and invitee: an account, or an address."""
    return str(invitee) if isinstance(invitee, str) else str(invitee.pk)


@require_GET
def invite_link(request: HttpRequest, token: str) -> HttpResponse:
    game = Game.objects.filter(invite_token=token).first()
    if game is None:
        raise Http404(_("This invite link does not lead to a game."))
    return redirect(f"{game_url(game)}?token={token}")


# --- the game page --------------------------------------------------------------------------


def _seats(game: Game) -> list[Seat]:
    """The seats with their players and absences (one query; a move's own read if it made
    one, under the game's lock: see games.play)."""
    return game.page_seats if game.page_seats is not None else game.seats_for_page()


def _viewer_seat(request: HttpRequest, seats: list[Seat]) -> int | None:
    if not request.user.is_authenticated:
        return None
    return next((s.number for s in seats if s.user_id == request.user.pk), None)


def _moves(game: Game, turn_no: int, *, whole: bool, last: int | None = None) -> list[Move]:
    """The moves the log shows: every one (whole log), or those of the last few turns; with
    ``last``, only those of the last ``last`` turns and without their log lines."""
    moves = Move.objects.filter(game=game)
    if last is not None:
        return list(
            moves.filter(turn__gte=turn_no - last + 1).only("seq", "turn", "seat", "changes")
        )
    if not whole:
        moves = moves.filter(turn__gte=first_turn_shown(turn_no, whole=False))
    return list(moves.only("seq", "turn", "seat", "log", "timeout", "changes", "created"))


LOG_CACHE_SECONDS = 3600


def _log_key(game: Game, whole: bool) -> str:
    """The drawn log is the same for everyone at a version, but for the time zone its times
    are written in, and the language."""
    zone = timezone.get_current_timezone_name()
    language = translation.get_language()
    return f"game-log:{game.pk}:{game.version}:{int(whole)}:{zone}:{language}"


def _last_day(ends: Any) -> Any:
    """An absence ends at midnight of the day the player is back: its last day is the one
    before ("away until Thursday")."""
    return ends - timedelta(microseconds=1) if ends else None


def page_title(game: Game, *, my_turn: bool, acting_name: str | None) -> str:
    """The browser tab's title; it follows the game on every refresh."""
    if game.is_finished:
        return _("%(title)s: game over · Firenze") % {"title": game.title}
    if game.is_open or game.status == Game.Status.CANCELLED:
        return _("%(title)s: %(status)s · Firenze") % {
            "title": game.title,
            "status": in_sentence(game.get_status_display()),
        }
    if my_turn:
        return _("(Your turn) %(title)s · Firenze") % {"title": game.title}
    return _("%(title)s: %(acting_name)s to play · Firenze") % {
        "title": game.title,
        "acting_name": acting_name,
    }


def _forming_context(request: HttpRequest, game: Game, context: dict[str, Any]) -> None:
    is_creator = request.user == game.creator
    invitations = list(game.invitations.select_related("user")) if game.is_open else []
    free_seats = max(0, game.num_players - len(context["seats"])) if game.is_open else 0
    context.update(protocol.page_names(game.engine))
    context.update(
        is_creator=is_creator,
        free_seats=free_seats,
        open_seat_slots=range(free_seats),
        invite_form=InviteForm(),
        bot_form=BotLevelForm(engine=game.engine, auto_id="bot-%s"),
        invite_url=request.build_absolute_uri(
            reverse("games:invite_link", args=[game.invite_token])
        ),
        invited_players=[i for i in invitations if not i.by_email and i.user_id],
        invited_addresses=[i for i in invitations if i.by_email] if is_creator else [],
        invited_elsewhere=0 if is_creator else sum(1 for i in invitations if i.by_email),
        page_title=page_title(game, my_turn=False, acting_name=None),
    )


def _render_game(
    request: HttpRequest,
    game: Game,
    *,
    error: str | None = None,
    partial: str | None = None,
    template: str = "",
    whole_log: bool = False,
    seats: list[Seat] | None = None,
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    seats = _seats(game) if seats is None else seats
    context: dict[str, Any] = {
        "game": game,
        "seats": seats,
        "error": error,
        "token": request.GET.get("token", ""),
        # Reversed once here: the templates use them in loops.
        "rules_url": reverse("games:rules"),
        "move_url": reverse("games:move", args=[game.pk]),
        # Lets the poll of a private game answer without loading the session.
        "poll_token": "" if game.is_public else versions.poll_token(game.pk),
    }
    context["my_seat"] = next(
        (s for s in seats if request.user.is_authenticated and s.user_id == request.user.pk),
        None,
    )
    if game.is_open or game.status == Game.Status.CANCELLED:
        _forming_context(request, game, context)
        return render(request, "games/forming.html", context)
    names = [s.name for s in seats]
    colours = [s.colour for s in seats]
    viewer = _viewer_seat(request, seats)
    engine = game.engine
    state = game.load_state()
    turn_no = engine.turn_no(state)
    whole_log = whole_log or game.is_finished
    log_key = _log_key(game, whole_log)
    log_html = cache.get(log_key)
    if log_html is None:
        moves = _moves(game, turn_no, whole=whole_log)
    else:  # the log is drawn already: only the last turns' changes, for the highlights
        moves = _moves(game, turn_no, whole=False, last=2)
    context.update(protocol.page_names(engine))
    context.update(engine.page_context(state, viewer, names, colours, moves))
    context["whole_log"] = whole_log
    if log_html is None:
        ended_early = game.ended_by_resignation
        log = log_turns(
            moves,
            names,
            colours,
            engine=engine,
            notes=resignation_notes(seats, names, ended=ended_early),
            game_over=game.is_finished and not ended_early,
        )
        log_html = render_to_string(
            "games/_log.html", {"log": log, "whole_log": whole_log, "seats": seats}
        )
        cache.set(log_key, log_html, LOG_CACHE_SECONDS)
    context["log_html"] = log_html
    context["standings"] = standings(state, seats, game.engine) if game.is_finished else None
    if context["standings"] and context["final"]:  # a resigned seat never wins
        won = {row.seat for row in context["standings"] if row.winner}
        for number, entry in enumerate(context["final"]):
            entry["winner"] = number in won
    context["resigned_names"] = [s.name for s in seats if s.has_resigned]
    for player, seat in zip(context["players"], seats, strict=True):
        player["away_until"] = _last_day(seat.away_until)
        player["resigned"] = seat.has_resigned
        player["bot_plays"] = seat.bot_plays
        player["is_bot"] = seat.is_bot
    acting = next((s for s in seats if s.number == game.acting_seat), None)
    context["acting_away_until"] = (
        _last_day(acting.away_until) if acting and game.is_active else None
    )
    context["page_title"] = page_title(
        game, my_turn=context["my_turn"], acting_name=context["acting_name"]
    )
    context.update(extra or {})
    template = template or protocol.PAGE_TEMPLATE
    if partial:
        template = f"{template}#{partial}"
    return render(request, template, context)


game_seats = _seats


def render_game_page(
    request: HttpRequest, game: Game, seats: list[Seat], partial: str | None
) -> HttpResponse:
    """The game page as games.pagecache keeps it: placeholders for the per-request parts."""
    return _render_game(
        request, game, partial=partial, seats=seats, extra=pagecache.page_context(game)
    )


@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The game page, from the shared cache per game version and viewer (games.pagecache).
    The browser keeps it but asks every time (no-cache, ETag): Back must not show a stale
    position whose buttons the server then refuses (games.js also reloads a page restored from
    bfcache); an unchanged page costs a 304."""
    partial = "game" if request.htmx and not request.htmx.boosted else None
    head = pagecache.head(pk)
    if head is None:
        raise Http404(_("No such game."))
    cached = (
        head.cacheable
        and head.may_view(request, _posted_token(request))
        and pagecache.no_messages(request)
    )
    if not cached:  # forming pages, invitees of private games, flash messages
        game = _get_game_for_user(request, pk)
        return add_never_cache_headers_to(_render_game(request, game, partial=partial))
    drawn: dict[str, Any] = {}

    def game_and_seats() -> tuple[Game, list[Seat]]:
        if not drawn:
            drawn["game"] = game = Game.objects.get(pk=pk)
            drawn["seats"] = _seats(game)
        return drawn["game"], drawn["seats"]

    def chat() -> str:
        game, seats = game_and_seats()
        context = thread_context(request, game, seats=seats, csrf_token=get_token(request))
        return render_to_string("games/_chat.html", context)

    return pagecache.serve(
        request,
        head,
        partial,
        render_page=lambda: render_game_page(request, *game_and_seats(), partial),
        render_chat=chat,
    )


def add_never_cache_headers_to(response: HttpResponse) -> HttpResponse:
    add_never_cache_headers(response)
    return response


@never_cache
@require_GET
def game_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole log of a game, every turn from the first."""
    game = _get_game_for_user(request, pk)
    if game.is_open or game.status == Game.Status.CANCELLED:
        return redirect(game_url(game))
    return _render_game(request, game, template="games/log.html", whole_log=True)


@require_POST
def move(request: HttpRequest, pk: int) -> HttpResponse:
    """One step of the acting player. The game is read once, locked, inside submit_move."""
    form = MoveForm(request.POST)
    try:
        if not form.is_valid():
            raise RequestRefused(form.first_error())
        if request.user.is_authenticated:
            limits.check(request, "move")
        game = play.submit_move(
            pk, request.user, form.cleaned_data["action"], form.cleaned_data["version"]
        )
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None
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
            raise RequestRefused(form.first_error())
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
    """The cheap poll (the most frequent request): answered from the shared cache (no database,
    no session) while the game is unchanged (games.versions). A private game answers only to
    those who may see its page: its page sends a token the poll checks without the session;
    without it, seats, invitees and invite-link holders, like the page.

    ``v`` is the version of the moves the page shows, ``c`` that of its table talk (chat/):
    either one changing refreshes the page, so new messages ride the same poll as moves.

    games.poll.PollMiddleware answers the same way before the middleware stack when the cache
    has the versions and no session is needed; this view answers the rest."""
    row = versions.current(pk)
    if row is None:
        raise Http404(_("No such game."))
    if not row[2] and not versions.valid_poll_token(pk, request.GET.get("p")):
        invite_token = Game.objects.filter(pk=pk).values_list("invite_token", flat=True).first()
        if invite_token is None or not _may_see_private_game(request, pk, invite_token):
            raise Http404(_("No such game."))
    return poll.answer(row, request.GET)


version.skip_user_time_zone = True  # the hot poll: no session, no user, no time zone


# --- clock: taking a seat back, absences ----------------------------------------------------


@login_required
@require_POST
def reclaim(request: HttpRequest, pk: int) -> HttpResponse:
    """Take one's seat back from the bot after repeated timeouts."""
    return _lobby_action(
        request,
        pk,
        lambda g: lobby.reclaim_seat(g, request.user),
        _("Your seat is yours again; the bot has stopped playing for you."),
    )


@login_required
def resign(request: HttpRequest, pk: int) -> HttpResponse:
    """Concede the game: a page that says what will happen, and a confirmation to tick."""
    game = _get_game_for_user(request, pk, with_state=False)
    seat = game.seats.filter(user=request.user).first()
    if seat is None:
        raise PermissionDenied(_("You are not playing in this game."))
    if not game.is_active or seat.has_resigned:
        messages.error(request, _("Only a player of a game in progress can resign it."))
        return redirect(game_url(game))
    form = ResignForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            game = resign_seat(game.pk, request.user)
        except GameError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("You resigned this game."))
        return redirect(game_url(game))
    staying = game.seats.filter(resigned_at=None).exclude(pk=seat.pk)
    people = staying.filter(bot="").exists()
    context = {
        "game": game,
        "form": form,
        "ends_game": staying.count() <= 1 or not people,
        "page_title": _("Resign %(title)s · Firenze") % {"title": game.title},
    }
    return render(request, "games/resign.html", context, status=400 if form.errors else 200)


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
                    raise RequestRefused(cancel.errors["cancel"][0])
                absences.end_absence(request.user, cancel.cleaned_data["cancel"])
                messages.success(request, _("Absence cancelled."))
                return redirect("games:away")
            if form.is_valid():
                data = form.cleaned_data
                absences.add_absence(request.user, data["first_day"], data["last_day"])
                messages.success(request, _("Absence saved: your turn clocks pause while away."))
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
        "days_used": absences.days_used(request.user, year),
        "days_max": absences.max_days(),
        "year": year,
    }
    return render(request, "games/away.html", context, status=status)
