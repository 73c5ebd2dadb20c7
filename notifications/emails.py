"""Every email the site sends about games, rendered from template triplets.

Each kind has templates/emails/<kind>.subject.txt, <kind>.txt and <kind>.html (the HTML ones
extend emails/base.html, an inline-styled layout that reads well on phones). Each message is an
EmailMultiAlternatives with a link to the game, a one-click unsubscribe link and the
List-Unsubscribe / List-Unsubscribe-Post headers (RFC 2369, RFC 8058).

What an email says about a game comes only from public data: seat names, the stored public log
lines of the moves (games.models.Move.log, the same lines the game page shows) and, once a game
is over, the engine's scores and winners. Never a hand, never the deck.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from firenze_site.language import language_of_user
from games.models import Game, Move, Seat, abandoned_after, time_limit_label
from games.rules.wording import place as place_words
from games.standings import standings
from notifications import links, preferences
from notifications.models import Notification

log = logging.getLogger(__name__)

Kind = Notification.Kind
# A turn email lists at most this many log lines (the latest); the game page has the rest.
MAX_LINES = 60
MAX_DIGEST_LINES = 20
MAX_CHAT = 20


# --- building and sending a message ---------------------------------------------------------


def render(template: str, context: dict[str, Any]) -> tuple[str, str, str]:
    """Subject (one line), plain text and HTML of emails/<template>.*."""
    subject = render_to_string(f"emails/{template}.subject.txt", context)
    text = render_to_string(f"emails/{template}.txt", context)
    html = render_to_string(f"emails/{template}.html", context)
    return " ".join(subject.split()), text.strip() + "\n", html


def message(user: Any, template: str, context: dict[str, Any]) -> EmailMultiAlternatives:
    context = {**common_context(user, unsubscribe_kind(template)), **context}
    # Dates read in the player's own time zone (accounts.User.time_zone), as on the site.
    with timezone.override(getattr(user, "zone", None) or timezone.get_default_timezone()):
        subject, text, html = render(template, context)
    unsubscribe = context["unsubscribe_url"]
    email = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",  # RFC 3834: no out-of-office replies, please
            "X-Auto-Response-Suppress": "All",
        },
    )
    email.attach_alternative(html, "text/html")
    return email


def send(email: EmailMultiAlternatives) -> None:
    """Send through Django's email backend; SMTP errors (smtplib.SMTPException, OSError) reach
    the caller. A failure while closing the connection after the server accepted the message
    is only logged, so it cannot make the message go out twice."""
    connection = get_connection(fail_silently=False)
    connection.open()
    try:
        connection.send_messages([email])
    finally:
        try:
            connection.close()
        except Exception:
            log.warning("closing the email connection failed", exc_info=True)


def notification_message(notification: Notification) -> EmailMultiAlternatives:
    """The email for one outbox row, in its recipient's language, whoever triggered it."""
    with translation.override(language_of_user(notification.user)):
        return _notification_message(notification)


def _notification_message(notification: Notification) -> EmailMultiAlternatives:
    user, game = notification.user, notification.game
    context = game_context(user, game) if game is not None else {}
    context.update(BUILDERS[notification.kind](notification, context))
    email = message(user, notification.kind, context)
    # Names the outbox row: lets a mailbox (and the integration tests) spot a duplicate.
    email.extra_headers["X-Firenze-Notification"] = str(notification.pk)
    return email


def digest_message(user: Any, notifications: list[Notification]) -> EmailMultiAlternatives:
    """One email for a player's pending turns: per game, what happened since their last move."""
    with translation.override(language_of_user(user)):
        return _digest_message(user, notifications)


def _digest_message(user: Any, notifications: list[Notification]) -> EmailMultiAlternatives:
    by_game: dict[int | None, list[Notification]] = {}
    for notification in notifications:
        by_game.setdefault(notification.game_id, []).append(notification)
    entries = []
    for rows in by_game.values():
        game = _game(rows[0])
        context = game_context(user, game)
        since = min(row.context.get("since", 0) for row in rows)
        upto = max(row.context.get("upto", 0) for row in rows)
        lines, earlier = moves_since(game, since, upto, context["names"], MAX_DIGEST_LINES)
        context.update(
            lines=lines,
            earlier=earlier,
            first=upto == 0,
            login_url=links.login_url(user, game),
            **table_talk(game, user, since),
        )
        entries.append(context)
    # The most urgent game first; games without a deadline last.
    entries.sort(key=lambda e: (e["deadline"] is None, e["deadline"] and e["deadline"].timestamp()))
    return message(user, "digest", {"entries": entries, "count": len(entries)})


def summary_message(user: Any, games: list[Game]) -> EmailMultiAlternatives:
    """The morning summary (notifications.morning): the games waiting for the player's move,
    in the order given (the least clock left first), in their language."""
    with translation.override(language_of_user(user)):
        entries = [game_context(user, game) for game in games]
        return message(user, "summary", {"entries": entries, "count": len(entries)})


# --- context --------------------------------------------------------------------------------


def unsubscribe_kind(template: str) -> str | None:
    """The row of the preferences table an email belongs to (what its one-click unsubscribe
    switches off); None for emails about the player's own settings (every game email)."""
    if template == "digest":
        return preferences.YOUR_TURN
    return preferences.KIND_OF.get(template)


def common_context(user: Any, kind: str | None = None) -> dict[str, Any]:
    return {
        "user": user,
        "name": user.public_name,
        "site_url": settings.SITE_URL.rstrip("/"),
        "site_name": settings.SITE_NAME,
        "profile_url": links.absolute(reverse("notification_settings:page")),
        "unsubscribe_url": links.unsubscribe_url(user, kind),
        "unsubscribe_label": (
            _("Stop “%(label)s” emails") % {"label": preferences.KIND_LABELS[kind]}
            if kind
            else _("Unsubscribe from all game emails")
        ),
        "login_valid": links.login_validity(),
    }


def seat_names(seats: list[Seat]) -> list[str]:
    """Names indexed by seat number, the way log lines and the engine count seats."""
    names = ["" for _ in seats]
    for index, seat in enumerate(seats):
        number = seat.number if seat.number is not None else index
        if 0 <= number < len(names):
            names[number] = seat.name
    return names


def join_names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def game_context(user: Any, game: Game) -> dict[str, Any]:
    seats = list(game.seats.select_related("user").order_by("number", "joined", "pk"))
    names = seat_names(seats)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    others = [s.name for s in seats if s is not mine]
    return {
        "game": game,
        "game_title": game.title,
        "game_kind": game.engine.look.title,  # the game played: "Your turn in Nim"
        "game_url": links.game_url(game),
        "names": names,
        "players": names,
        "opponents": join_names(others),
        "my_seat": mine.number if mine is not None else None,
        "deadline": game.deadline if game.is_active else None,
        "time_limit": time_limit_label(game.time_limit),
        "clock": game.clock_label,
    }


def moves_since(
    game: Game, since: int, upto: int, names: list[str], limit: int = MAX_LINES
) -> tuple[list[str], int]:
    """The public log lines of moves ``since`` < seq <= ``upto``, with names filled in: the
    latest ``limit`` of them and how many earlier ones were left out."""
    logs = (
        Move.objects.filter(game=game, seq__gt=since, seq__lte=upto)
        .order_by("seq")
        .values_list("log", flat=True)
    )
    engine = game.engine
    lines = [engine.format_line(line, names) for lines in logs for line in lines]
    earlier = max(0, len(lines) - limit)
    return lines[earlier:], earlier


def table_talk(game: Game, user: Any, since_move: int) -> dict[str, Any]:
    """The chat messages of the others since the player's last move (move ``since_move``; 0:
    since the game began): the latest MAX_CHAT of them, and how many came from muted players."""
    from chat.services import messages_since

    last_move = (
        Move.objects.filter(game=game, seq=since_move).values_list("created", flat=True).first()
        if since_move
        else None
    )
    messages, muted = messages_since(game, user, last_move)
    earlier = max(0, len(messages) - MAX_CHAT)
    chat = [{"name": m.author_name, "text": m.text} for m in messages[earlier:]]
    return {"chat": chat, "chat_earlier": earlier, "chat_muted": muted}


def _game(notification: Notification) -> Game:
    """The game a notification about a game is about (every kind but webhook_off)."""
    game = notification.game
    assert game is not None, notification.kind
    return game


def _your_turn(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    game = _game(notification)
    since = notification.context.get("since", 0)
    upto = notification.context.get("upto", 0)
    lines, earlier = moves_since(game, since, upto, context["names"])
    return {
        "lines": lines,
        "earlier": earlier,
        "first": upto == 0,
        "login_url": links.login_url(notification.user, game),
        **table_talk(game, notification.user, since),
    }


def _reminder(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    deadline = context.get("deadline") or parse_datetime(notification.context.get("deadline", ""))
    return {
        "deadline": deadline,
        "login_url": links.login_url(notification.user, notification.game),
    }


def _invited(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    game = _game(notification)
    by = notification.context.get("by") or (game.creator.public_name if game.creator else "")
    return {"by": by, "num_players": game.num_players, "seated": len(context["players"])}


def _game_started(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    game = _game(notification)
    # The start player (public, in the stored state): by the time this is sent they may have
    # moved already.
    first = game.first_seat()
    you_first = first is not None and first == context["my_seat"]
    return {
        "first_player": context["names"][first] if first is not None else "",
        "you_first": you_first,
        "login_url": links.login_url(notification.user, game) if you_first else "",
    }


def _timed_out(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    return {
        "autopilot": bool(notification.context.get("autopilot")),
        "timeouts": notification.context.get("timeouts") or 1,
    }


def _game_over(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    game = _game(notification)
    seats = list(game.seats.select_related("user"))
    ranking = standings(game.load_state(), seats, game.engine, abandoned=game.ended_abandoned)
    mine = context["my_seat"]
    results = [
        {
            "name": row.name,
            "score": row.score,
            "place": row.place_label,
            "winner": row.winner,
            "resigned": row.resigned,
            "absent": row.absent,
            "you": row.seat == mine,
        }
        for row in ranking
    ]
    won = [row.seat for row in ranking if row.winner]
    you = pgettext("the winner", "you")
    winner_names = [you if seat == mine else context["names"][seat] for seat in sorted(won)]
    resigned = [row.name for row in ranking if row.resigned]
    return {
        "score_name": game.engine.look.score_name,  # lazy: worded in the recipient's language
        "results": results,
        "winners": join_names(winner_names),
        "you_won": mine in won,
        "tie": len(won) > 1,
        "ended_by_resignation": game.ended_by_resignation,
        "ended_abandoned": game.ended_abandoned,
        "abandoned_after": _days(abandoned_after()),
        "resigned": join_names(resigned),
    }


def _days(value: Any) -> str:
    days = max(1, round(value.total_seconds() / 86400))
    return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}


def _table_full(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    return {"login_url": links.login_url(notification.user, notification.game)}


def _new_messages(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    from chat.services import unread_messages

    messages = unread_messages(_game(notification), notification.user)
    earlier = max(0, len(messages) - MAX_CHAT)
    return {
        "chat": [{"name": m.author_name, "text": m.text} for m in messages[earlier:]],
        "chat_earlier": earlier,
        "count": len(messages),
    }


def _webhook_off(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    return {
        "error": notification.context.get("error", ""),
        "failures": notification.context.get("failures", 10),
        "preferences_url": links.absolute(reverse("notification_settings:page")),
    }


def _tournament(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    """News of a tournament (its context says which: a round with the player's table, a bye,
    a withdrawal, the end, a cancellation); a round's table is its game, announced here."""
    data = notification.context
    words = {
        "event": data.get("event", ""),
        "tournament": data.get("tournament", ""),
        "tournament_url": links.absolute(str(data.get("url") or "/")),
        "round": data.get("round"),
        "final": bool(data.get("final")),
        "place": place_words(data["place"]) if data.get("place") else "",
        "players_count": data.get("players"),
        "mates": join_names(list(data.get("mates") or [])),
    }
    if notification.game is not None:
        words.update(_game_started(notification, context))
    return words


def _club(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    """An invitation to a club, or (to its admins) a player asking to join one."""
    data = notification.context
    return {
        "event": data.get("event", ""),
        "club": data.get("club", ""),
        "by": data.get("by", ""),
        "club_url": links.absolute(str(data.get("url") or "/")),
    }


def _plan(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    """What the owner's planned turn played and why it stopped (plans.service words it)."""
    return {
        **plan_words(notification, context),
        "login_url": links.login_url(notification.user, notification.game),
    }


def plan_words(notification: Notification, context: dict[str, Any]) -> dict[str, Any]:
    """The plan's outcome in words, read for the row's own user only (a plan is private)."""
    from plans import service as plans

    game = _game(notification)
    outcome = plans.outcome_for(game, notification.user, notification.context.get("outcome"))
    if outcome is None:
        return {"played": [], "ordered": [], "in_full": True, "stopped_at": None, "why": ""}
    return plans.outcome_words(game, outcome, context["names"])


BUILDERS: dict[str, Callable[[Notification, dict[str, Any]], dict[str, Any]]] = {
    Kind.YOUR_TURN: _your_turn,
    Kind.REMINDER: _reminder,
    Kind.INVITED: _invited,
    Kind.GAME_STARTED: _game_started,
    Kind.TIMED_OUT: _timed_out,
    Kind.GAME_OVER: _game_over,
    Kind.TABLE_FULL: _table_full,
    Kind.NEW_MESSAGES: _new_messages,
    Kind.WEBHOOK_OFF: _webhook_off,
    Kind.TOURNAMENT: _tournament,
    Kind.CLUB: _club,
    Kind.PLAN: _plan,
}


def address_invitation_message(invitation: Any) -> EmailMultiAlternatives:
    """The invitation to an address with no account: no unsubscribe link (there is no
    account to unsubscribe), one email only, and a link that leads through sign-up. Written in
    the inviter's language: the only hint there is to the friend's."""
    with translation.override(language_of_user(invitation.invited_by)):
        return _address_invitation_message(invitation)


def _address_invitation_message(invitation: Any) -> EmailMultiAlternatives:
    game = invitation.game
    context = {
        "site_url": settings.SITE_URL.rstrip("/"),
        "site_name": settings.SITE_NAME,
        "by": invitation.invited_by.public_name,
        "game_title": game.title,
        "game_kind": game.engine.look.title,
        "game_url": links.absolute(reverse("games:invite_link", args=[invitation.link_token])),
        "num_players": game.num_players,
        "time_limit": time_limit_label(game.time_limit),
        "clock": game.clock_label,
        "players": seat_names(list(game.seats.select_related("user"))),
        "address": invitation.email,
    }
    subject, text, html = render("invited_by_email", context)
    email = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[invitation.email],
        headers={"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All"},
    )
    email.attach_alternative(html, "text/html")
    return email
