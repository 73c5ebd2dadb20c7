"""Views of the lobby and the game page: thin, with access helpers that 404 or 403.

The game page follows django-htmx's pattern: one view per page that renders a named partial
for htmx requests, and Post/Redirect/Get for plain form posts.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter as get_account_adapter
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_POST

from firenze_site.requests import HtmxHttpRequest, SignedInRequest, sessionless
from games import (
    absences,
    answer,
    creation,
    limits,
    listings,
    lobby,
    lobbycache,
    page,
    pagecache,
    play,
    poll,
    presence,
    titles,
    versions,
)
from games.access import game_for_user, game_url, may_see_private, posted_token
from games.errors import GameError, RequestRefused
from games.forms import (
    AbsenceForm,
    BotLevelForm,
    BotsNowForm,
    CancelAbsenceForm,
    CreateGameForm,
    InviteForm,
    MoveForm,
    ResignForm,
    VersionForm,
    chosen_engine,
)
from games.lobby_actions import lobby_action
from games.look import rules_url
from games.models import Game, Seat
from games.pagecache import render_game_page
from games.resign import resign as resign_seat
from games.rules import registry
from games.viewer import Viewer


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The landing page: what the game is and where to start."""
    if request.user.is_authenticated:
        return redirect("games:mine")
    return render(
        request,
        "home.html",
        {"pitch": registry.default().look.pitch, "bots_form": BotsNowForm()},
    )


@sessionless
@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request: HtmxHttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico on every site; the icon itself is a static file."""
    return redirect(static("favicon.ico"), permanent=True)


@require_GET
def rules_page(request: HtmxHttpRequest) -> HttpResponse:
    """The rules as this site plays them (?game= another game of the site's); the game page
    links its phases and cards here."""
    engine = chosen_engine(request.GET)
    return render(request, engine.look.rules_template, engine.rules_context())


# --- access helpers -------------------------------------------------------------------------


# --- lobby ----------------------------------------------------------------------------------


@require_GET
def lobby_list(request: HtmxHttpRequest) -> HttpResponse:
    """The lobby, a page at a time: its cost does not grow with the number of open games, and
    the list is drawn once per change of the open games (games.lobbycache), not per visitor.
    A page number that is not one shows the first page; one past the end, the last."""
    games = listings.lobby_listing()
    asked = lobbycache.page_param(request.GET.get("page"))

    def draw() -> str:
        page = Paginator(games, listings.LOBBY_PAGE_SIZE).get_page(asked)
        context = {"games": page.object_list, "page": page}
        return render_to_string("games/_lobby_list.html", context, request=request)

    signed_in = request.user.is_authenticated
    game_list = mark_safe(lobbycache.drawn_list(asked, signed_in, draw))  # noqa: S308 - our template
    return render(request, "games/lobby.html", {"game_list": game_list})


@login_required
@require_GET
def my_games(request: SignedInRequest) -> HttpResponse:
    """The player's games: every game being formed or played in full, the last few finished
    ones (the history has the rest: {% finished_games %} draws them from the players app's
    records), and public games to watch. A fixed number of queries however many games the
    player has finished; no game's state is loaded."""
    me = request.user
    games = listings.my_games(me)
    my_turn, waiting, forming, to_start = [], [], [], []
    for game in games:
        mine = next(s for s in game.seats.all() if s.user_id == me.pk)
        game.opponents = [s for s in game.seats.all() if s is not mine]
        game.acting = next((s for s in game.seats.all() if s.number == game.acting_seat), None)
        game.mine = mine
        if game.is_open and game.creator_id == me.pk and len(game.seats.all()) >= game.num_players:
            to_start.append(game)  # full, created without auto-start: only its creator starts it
        elif game.is_open:
            forming.append(game)
        elif game.acting_seat == mine.number:
            my_turn.append(game)
        else:
            waiting.append(game)
    return render(
        request,
        "games/mine.html",
        {
            "to_start": to_start,
            "my_turn": my_turn,
            "waiting": waiting,
            "forming": forming,
            "invitations": listings.open_invitations(me),
            "watch": listings.games_to_watch(me),
            "bots_form": BotsNowForm(),
        },
    )


@login_required
def create(request: HtmxHttpRequest) -> HttpResponse:
    """A new game: the site's game, or the one chosen above the form when the site has
    several (?game=, then posted with the form)."""
    engine = chosen_engine(request.POST if request.method == "POST" else request.GET)
    form = CreateGameForm(request.POST or None, engine=engine)
    if request.method == "POST" and form.is_valid():
        try:
            limits.check(request, "create_game")
            game = creation.create_from_form(request.user, form)
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(game_url(game))
    status = 200
    if form.errors:
        status = 429 if limits.MESSAGES["create_game"] in form.non_field_errors() else 400
    games = [
        {
            "title": other.look.title,
            "url": f"?{urlencode({'game': other.name})}",
            "current": other is engine,
        }
        for other in registry.current()
    ]
    context = {
        "form": form,
        "games": games if len(games) > 1 else [],
        "rules_url": rules_url(engine),
    }
    return render(request, "games/create.html", context, status=status)


@login_required
@require_POST
def join(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    token = posted_token(request) or None
    try:
        limits.check(request, "join_game")
    except limits.TooManyRequests as exc:  # the page with the message, and no seat taken
        return answer.after_step(request, game_for_user(request, pk), None, exc)
    return lobby_action(
        request, pk, lambda g: lobby.join(g, request.user, token=token), _("You took a seat.")
    )


@login_required
@require_POST
def leave(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return lobby_action(
        request, pk, lambda g: lobby.leave(g, request.user), _("You left the game.")
    )


@login_required
@require_POST
def cancel(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return lobby_action(request, pk, lambda g: lobby.cancel(g, request.user), _("Game cancelled."))


@login_required
@require_POST
def add_bot(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Seat a bot of the level chosen beside the button (the engine's default without one)."""
    game = game_for_user(request, pk, with_state=False)
    form = BotLevelForm(request.POST, engine=game.engine)
    level = form.cleaned_data["level"] if form.is_valid() else ""
    if not level and request.POST.get("level"):
        messages.error(request, _("Choose one of the bot levels offered."))
        return redirect(game_url(game))
    return lobby_action(request, pk, lambda g: lobby.add_bot(g, request.user, bot=level), "")


@login_required
@require_POST
def remove_seat(request: HtmxHttpRequest, pk: int, seat_id: int) -> HttpResponse:
    return lobby_action(request, pk, lambda g: lobby.remove_seat(g, request.user, seat_id), "")


@login_required
@require_POST
def start(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return lobby_action(request, pk, lambda g: lobby.start(g, request.user), "")


@login_required
@require_POST
def invite(request: HtmxHttpRequest, pk: int) -> HttpResponse:
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
                before_email=lambda invitee: _count_invitation_email(request, invitee),
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
            invitee = invitation.user
            assert invitee is not None  # invited by display name: an account
            confirmation.append(
                _("%(public_name)s is invited.") % {"public_name": invitee.public_name}
            )

    return lobby_action(request, pk, run, confirmation)


def _count_invitation_email(request: HttpRequest, invitee: Any) -> None:
    """An invitation typed as an address: limited per pair, and in all per day (whether the
    address has an account or not, so the limit tells nothing about accounts)."""
    limits.check(request, "invite_pair", key=f"{request.user.pk}:{_invitee_key(invitee)}")
    limits.check(request, "invite_email")


def _invitee_key(invitee: Any) -> str:
    """Invitations are limited per inviter and invitee: an account, or an address."""
    return str(invitee) if isinstance(invitee, str) else str(invitee.pk)


@require_GET
def invite_link(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """An invite link: the game's shared one or an emailed invitee's own. While it opens the
    game (Game.admits) it leads to the seat; used, revoked or with the table full it says so."""
    game = Game.objects.defer("state").filter(invite_token=token).first()
    if game is None and token:
        game = Game.objects.defer("state").filter(invitations__token=token).first()
    if game is None:
        raise Http404(_("This invite link does not lead to a game."))
    user = request.user
    if user.is_authenticated and game.seats.filter(user=user).exists():
        return redirect(game_url(game))
    if game.admits(token):
        if not user.is_authenticated:
            _vouch_for_invited_address(request, game, token)
        return redirect(f"{game_url(game)}?{urlencode({'token': token})}")
    if game.is_public:
        return redirect(game_url(game))
    return render(request, "games/link_used.html", {"game_open": game.is_open}, status=410)


def _vouch_for_invited_address(request: HttpRequest, game: Game, token: str) -> None:
    """An emailed invitee's own link proves they read that address: the sign-up form offers
    it and asks for no confirmation of it (allauth's verified-email stash, this session only)."""
    email = game.invitations.filter(token=token).exclude(email="").values_list("email", flat=True)
    address = next(iter(email), "")
    if address:
        get_account_adapter(request).stash_verified_email(request, address)


# --- the game page --------------------------------------------------------------------------


@require_GET
def detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The game page, from the shared cache per game version and viewer (games.pagecache).
    The browser keeps it but asks every time (no-cache, ETag): Back must not show a stale
    position whose buttons the server then refuses (games.js also reloads a page restored from
    bfcache); an unchanged page costs a 304."""
    partial = pagecache.partial_of(request)
    head = pagecache.head(pk)
    if head is None:
        raise Http404(_("No such game."))
    viewer = Viewer.of(request)
    cached = (
        head.cacheable
        and head.may_view(viewer, posted_token(request))
        and pagecache.no_messages(request)
    )
    if not cached:  # forming pages, invitees of private games, flash messages
        game = game_for_user(request, pk)
        return add_never_cache_headers_to(answer.drawn(request, game, partial=partial))
    drawn: dict[str, Any] = {}

    def game_and_seats() -> tuple[Game, list[Seat]]:
        if not drawn:
            drawn["game"] = game = Game.objects.get(pk=pk)
            drawn["seats"] = game.seats_for_page()
        return drawn["game"], drawn["seats"]

    def chat() -> str:
        return page.render_chat(viewer, *game_and_seats(), csrf_token=get_token(request))

    return pagecache.serve(
        request,
        head,
        partial,
        render_page=lambda: render_game_page(viewer, *game_and_seats(), partial),
        render_chat=chat,
    )


def add_never_cache_headers_to(response: HttpResponse) -> HttpResponse:
    add_never_cache_headers(response)
    return response


@never_cache
@require_GET
def game_log(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The whole log of a game, every turn from the first."""
    game = game_for_user(request, pk)
    if game.is_open or game.status == Game.Status.CANCELLED:
        return redirect(game_url(game))
    return answer.drawn(request, game, template="games/log.html", whole_log=True)


@require_POST
def move(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """One step of the acting player. The game is read once, locked, inside submit_move; a
    refused step answers with the game as it is (read again: the step changed nothing)."""
    form = MoveForm(request.POST)
    error: GameError | None
    try:
        if not form.is_valid():
            raise RequestRefused(form.first_error())
        if request.user.is_authenticated:
            limits.check(request, "move")
        moved = play.move(
            pk, request.user, form.cleaned_data["action"], form.cleaned_data["version"]
        )
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None
    except GameError as exc:
        game, seats, error = game_for_user(request, pk), None, exc
    else:  # the seats the move read under the game's lock: no second read
        game, seats, error = moved.game, moved.seats, None
    return answer.after_step(request, game, seats, error)


@require_POST
def undo(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    game = game_for_user(request, pk, with_state=False)
    form = VersionForm(request.POST)
    try:
        if not form.is_valid():
            raise RequestRefused(form.first_error())
        if request.user.is_authenticated:
            limits.check(request, "move")
        undone = play.undo_move(game.pk, request.user, form.cleaned_data["version"])
    except GameError as exc:
        return answer.after_step(request, Game.objects.get(pk=game.pk), None, exc)
    return answer.after_step(request, undone.game, undone.seats, None)


@sessionless  # the hot poll: no session, no user, no time zone
@never_cache
@require_GET
def version(request: HtmxHttpRequest, pk: int) -> HttpResponse:
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
    if not row[2] and not versions.valid_poll_token(
        pk, versions.viewer(request), request.GET.get("p")
    ):
        game = Game.objects.defer("state").filter(pk=pk).first()
        if game is None or not may_see_private(request, game):
            raise Http404(_("No such game."))
    presence.touch_from_poll(pk, request.GET.get("o"))
    return poll.answer(row, request.GET)


# --- clock: taking a seat back, absences ----------------------------------------------------


@login_required
@require_POST
def reclaim(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Take one's seat back from the bot after repeated timeouts."""
    return lobby_action(
        request,
        pk,
        lambda g: lobby.reclaim_seat(g, request.user),
        _("Your seat is yours again; the bot has stopped playing for you."),
    )


@login_required
def resign(request: SignedInRequest, pk: int) -> HttpResponse:
    """Concede the game: a page that says what will happen, and a confirmation to tick."""
    game = game_for_user(request, pk, with_state=False)
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
    staying = list(game.seats.filter(resigned_at=None).exclude(pk=seat.pk).select_related("user"))
    people = any(not s.bot for s in staying)
    context = {
        "game": game,
        "form": form,
        "ends_game": len(staying) <= 1 or not people,
        "winner_name": staying[0].name if len(staying) == 1 else "",
        "page_title": titles.site_title(_("Resign %(title)s") % {"title": game.title}),
    }
    return render(request, "games/resign.html", context, status=400 if form.errors else 200)


@login_required
def away(request: SignedInRequest) -> HttpResponse:
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
                    raise RequestRefused(str(cancel.errors["cancel"][0]))
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
