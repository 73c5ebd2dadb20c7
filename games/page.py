"""The game page, drawn for one viewer: the one place that turns a stored game into its page.

The views draw it for a request; after a move, a worker draws the seated players' pages ahead
of their polls (games.pagecache.draw_players_pages). Both go through `render`, with a `Viewer`:
the user, the invite token in the address, whether it is an htmx request, and the request when
there is one (a whole page needs it: its layout reads the request's messages and context
processors; the htmx part a worker draws does not).

What the engine draws comes from what the viewer's seat may see (protocol.Seen: its
player_view and its own choices), never from the state, so a page cannot show another
player's hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from games import admission, gamelog, since, versions
from games.forms import BotLevelForm, InviteForm
from games.models import Game, Seat
from games.rules import protocol, registry
from games.rules.wording import in_sentence
from games.seat_panel import seat_panel
from games.standings import standings

PAGE_TEMPLATE = "games/game.html"  # the game page of every engine, around the engine's parts


@dataclass(frozen=True)
class Viewer:
    """Who a page is drawn for."""

    user: Any  # a user, or AnonymousUser
    token: str = ""  # the invite token in the page's address: its links and polls keep it
    htmx: bool = False  # an htmx request: its part carries the page's <title>
    request: HttpRequest | None = field(default=None, compare=False)

    @classmethod
    def of(cls, request: HttpRequest) -> Viewer:
        htmx = getattr(request, "htmx", None)
        return cls(request.user, request.GET.get("token", ""), bool(htmx), request)

    @property
    def signed_in(self) -> bool:
        return bool(getattr(self.user, "is_authenticated", False))

    def seat_in(self, seats: Sequence[Seat]) -> Seat | None:
        if not self.signed_in:
            return None
        return next((s for s in seats if s.user_id == self.user.pk), None)

    def absolute(self, path: str) -> str:
        if self.request is not None:
            return self.request.build_absolute_uri(path)
        return settings.SITE_URL.rstrip("/") + path


def look_context(engine: protocol.Presentation) -> dict[str, Any]:
    """What the game page (and the replay) take from the engine's look: its parts and how its
    scores are counted."""
    look = engine.look
    return {
        "page_parts": look.page_parts,
        "score_template": look.score_template,
        "score_unit": look.score_unit,
        "score_name": look.score_name,
    }


def site_title(title: str) -> str:
    """A page's title in the browser tab: what it shows, then the site's name."""
    return f"{title} · {settings.SITE_NAME}"


def page_title(game: Game, *, my_turn: bool, acting_name: str | None) -> str:
    """The browser tab's title; it follows the game on every refresh."""
    if game.is_finished:
        return site_title(_("%(title)s: game over") % {"title": game.title})
    if game.is_open or game.status == Game.Status.CANCELLED:
        words = {"title": game.title, "status": in_sentence(game.get_status_display())}
        return site_title(_("%(title)s: %(status)s") % words)
    if my_turn:
        return site_title(_("(Your turn) %(title)s") % {"title": game.title})
    words = {"title": game.title, "acting_name": acting_name or ""}
    return site_title(_("%(title)s: %(acting_name)s to play") % words)


def render(
    viewer: Viewer,
    game: Game,
    seats: list[Seat],
    *,
    error: str | None = None,
    partial: str | None = None,
    template: str = "",
    whole_log: bool = False,
    extra: dict[str, Any] | None = None,
) -> str:
    """The game page (or its ``partial``) as ``viewer`` sees it. ``seats``: the game's seats
    with their players and absences (Game.seats_for_page). A game still forming (or cancelled)
    has one page, without parts."""
    context = _common_context(viewer, game, seats, error)
    if game.is_open or game.status == Game.Status.CANCELLED:  # the whole page, no parts
        context.update(_forming_context(viewer, game, seats))
        context.update(extra or {})
        return render_to_string("games/forming.html", context, request=viewer.request)
    context.update(_play_context(viewer, game, seats, whole_log))
    context.update(extra or {})
    template = template or PAGE_TEMPLATE
    if partial:
        template = f"{template}#{partial}"
    return render_to_string(template, context, request=viewer.request)


def render_chat(viewer: Viewer, game: Game, seats: list[Seat], csrf_token: str) -> str:
    """The table talk of a game page, drawn fresh for each request (games.pagecache)."""
    context = {"user": viewer.user, "game": game, "seats": seats, "csrf_token": csrf_token}
    return render_to_string(f"{PAGE_TEMPLATE}#chat", context)


def _common_context(
    viewer: Viewer, game: Game, seats: list[Seat], error: str | None
) -> dict[str, Any]:
    return {
        "game": game,
        "seats": seats,
        "user": viewer.user,
        "error": error,
        "token": viewer.token,
        "is_htmx": viewer.htmx,
        "my_seat": viewer.seat_in(seats),
        # Reversed once here: the templates use them in loops.
        "rules_url": rules_url(game.engine),
        "move_url": reverse("games:move", args=[game.pk]),
        # Lets the poll of a private game answer without loading the session.
        # Bound to the viewer's session (games.versions); a page drawn without a request
        # gets games.pagecache's placeholder instead, filled in when it is served.
        "poll_token": ""
        if game.is_public or viewer.request is None
        else versions.poll_token(game.pk, versions.viewer(viewer.request)),
    }


def rules_url(engine: protocol.Rules) -> str:
    """The rules page of the game's engine (the site's default game needs no parameter)."""
    url = reverse("games:rules")
    return url if engine.name == registry.default_name() else f"{url}?game={engine.name}"


def _forming_context(viewer: Viewer, game: Game, seats: list[Seat]) -> dict[str, Any]:
    is_creator = viewer.signed_in and viewer.user.pk == game.creator_id
    invitations = list(game.invitations.select_related("user")) if game.is_open else []
    free_seats = max(0, game.num_players - len(seats)) if game.is_open else 0
    seeks_seat = viewer.signed_in and free_seats > 0 and viewer.seat_in(seats) is None
    return {
        # Why this player may not sit here (a table's requirements, a block...), shown
        # instead of the button the join would refuse.
        "join_refusal": admission.refusal(viewer.user, game) if seeks_seat else None,
        **look_context(game.engine),
        "is_creator": is_creator,
        "free_seats": free_seats,
        "open_seat_slots": range(free_seats),
        "invite_form": InviteForm(),
        "bot_form": BotLevelForm(engine=game.engine, auto_id="bot-%s"),
        "invite_url": viewer.absolute(reverse("games:invite_link", args=[game.invite_token])),
        "invited_players": [i for i in invitations if not i.by_email and i.user_id],
        "invited_addresses": [i for i in invitations if i.by_email] if is_creator else [],
        "invited_elsewhere": 0 if is_creator else sum(1 for i in invitations if i.by_email),
        "page_title": page_title(game, my_turn=False, acting_name=None),
    }


def seen_by(
    engine: protocol.Rules,
    state: protocol.State,
    viewer: int | None,
    *,
    live: bool = True,
    **more: Any,
) -> protocol.Seen:
    """What seat ``viewer`` may see of ``state`` (None: a watcher); not ``live`` once the game
    has ended, however it ended (no choices then, whatever the state was in the middle of)."""
    acting = engine.acting_seat(state)
    mine = live and viewer is not None and acting == viewer
    return protocol.Seen(
        view=engine.player_view(state, viewer),
        viewer=viewer,
        acting=acting,
        choices=engine.legal_actions(state) if mine else [],
        can_undo=mine and engine.can_undo(state),
        scores=engine.scores(state),
        live=live,
        **more,
    )


def _play_context(viewer: Viewer, game: Game, seats: list[Seat], whole_log: bool) -> dict[str, Any]:
    """The engine's parts as the viewer's seat sees them, beside the platform's own: the log,
    the seats' clocks and absences, and the standings once the game is over."""
    mine = viewer.seat_in(seats)
    engine = game.engine
    state = game.load_state()
    whole_log = whole_log or game.is_finished
    log = gamelog.drawn_log(game, seats, engine.turn_no(state), whole=whole_log)
    since_view, since_turn = (
        since.last_action_view(game, mine.number)
        if mine and mine.number is not None and game.is_active
        else (None, None)
    )
    names = [s.name for s in seats]
    seen = seen_by(
        engine,
        state,
        mine.number if mine else None,
        names=names,
        colours=[s.colour for s in seats],
        moves=log.moves,
        live=game.is_active,
        since_view=since_view,
        since_turn=since_turn,
    )
    context: dict[str, Any] = {**look_context(engine), **engine.page_context(seen)}
    if since_view is not None and mine is not None and mine.number is not None:
        changes = engine.changes_since(since_view, seen.view, mine.number, names)
        context["since"] = changes if changes.any else None
        context["since_turn"] = since_turn
    panel = seat_panel(game, seats)
    context.update(
        whole_log=whole_log,
        log_html=log.html,
        standings=(
            standings(state, seats, engine, abandoned=game.ended_abandoned)
            if game.is_finished
            else None
        ),
        resigned_names=[s.name for s in seats if s.has_resigned],
        player_rows=panel.beside(context["players"]),
        acting_clock=panel.acting_clock,
        acting_away_until=panel.acting_away_until,
        page_title=page_title(game, my_turn=context["my_turn"], acting_name=context["acting_name"]),
    )
    return context
