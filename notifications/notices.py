"""What a webhook message or a push notification says: one short notice per outbox row.

A notice names the player (a webhook may post into a channel several players share), the game
and its title, and links to the game page. It never carries a sign-in link (a shared channel
would let anyone in) and, like the emails, it is built only from public data: seat names,
deadlines, final scores, and chat messages the table already sees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.rules.wording import place as place_words
from notifications import emails, links
from notifications.models import Notification

Kind = Notification.Kind
MAX_QUOTE = 200


@dataclass
class Notice:
    kind: str
    title: str
    text: str
    url: str
    game_id: int | None
    game_title: str

    @property
    def tag(self) -> str:
        """Groups a game's notifications on a device: a newer one replaces the older."""
        return f"game-{self.game_id}" if self.game_id else f"firenze-{self.kind}"


def for_notification(notification: Notification) -> Notice:
    user, game = notification.user, notification.game
    name = user.public_name
    if notification.kind == Kind.TOURNAMENT:
        return _tournament(notification, name)
    if notification.kind == Kind.CLUB:
        return _club(notification, name)
    if game is None:
        site = emails.common_context(user)["site_url"]
        return Notice(
            notification.kind,
            settings.SITE_NAME,
            _("Test from %(site)s: %(name)s's notifications arrive here.")
            % {"site": settings.SITE_NAME, "name": name},
            f"{site}/",
            None,
            "",
        )
    context = emails.game_context(user, game)
    title_of_game = context["game_title"]
    title, text = BUILDERS[notification.kind](notification, context, name)
    return Notice(notification.kind, title, text, context["game_url"], game.pk, title_of_game)


def _time_left(context: dict[str, Any]) -> str:
    deadline = context.get("deadline")
    return " " + _("%(left)s left to move.") % {"left": timeuntil(deadline)} if deadline else ""


def _your_turn(notification, context, name):
    words = {"name": name, "game": context["game_title"], "others": context["opponents"]}
    if context["opponents"]:
        text = _("%(name)s, it is your turn in %(game)s with %(others)s.") % words
    else:
        text = _("%(name)s, it is your turn in %(game)s.") % words
    return _("Your turn in %(game)s") % words, text + _time_left(context)


def _reminder(notification, context, name):
    words = {"name": name, "game": context["game_title"]}
    return (
        _("Reminder: your turn in %(game)s") % words,
        _("%(name)s, your time to move in %(game)s is running out.") % words + _time_left(context),
    )


def _timed_out(notification, context, name):
    words = {"name": name, "game": context["game_title"]}
    text = _("%(name)s, your time ran out in %(game)s, so the bot played your turn.") % words
    if notification.context.get("autopilot"):
        text += " " + _("The bot now plays all your turns until you take your seat back.")
    return _("Time ran out in %(game)s") % words, text


def _game_over(notification, context, name):
    game = context["game_title"]
    result = emails.BUILDERS[Kind.GAME_OVER](notification, context)
    resigned, absent = _("(resigned)"), _("(absent)")
    scores = ", ".join(
        f"{row['place']} {row['name']} {row['score']}"
        + (f" {resigned}" if row["resigned"] else "")
        + (f" {absent}" if row["absent"] else "")
        for row in result["results"]
    )
    you = pgettext("the winner", "you")
    winners = result["winners"].replace(you, name, 1) if result["you_won"] else result["winners"]
    words = {"game": game, "winners": winners, "scores": scores}
    if result["ended_abandoned"]:
        text = _(
            "%(game)s was ended: every player's seat was left to the bot. %(winners)s won. "
            "Scores as it stood: %(scores)s."
        )
        return _("%(game)s is over") % words, text % words
    return (
        _("%(game)s is over") % words,
        _("%(game)s is over: %(winners)s won. Final scores: %(scores)s.") % words,
    )


def _invited(notification, context, name):
    by = notification.context.get("by") or notification.game.creator.public_name
    words = {"by": by, "name": name, "game": context["game_title"]}
    return _("Invitation to %(game)s") % words, _("%(by)s invited %(name)s to %(game)s.") % words


def _game_started(notification, context, name):
    first = notification.game.first_seat()
    first_name = context["names"][first] if first is not None else ""
    you_first = first is not None and first == context["my_seat"]
    words = {
        "name": name,
        "game": context["game_title"],
        "others": context["opponents"],
        "first": first_name,
    }
    words["who"] = _("you go first") if you_first else _("%(first)s goes first") % words
    if context["opponents"]:
        text = _("%(name)s, %(game)s has started with %(others)s: %(who)s.") % words
    else:
        text = _("%(name)s, %(game)s has started: %(who)s.") % words
    return _("%(game)s has started") % words, text


def _table_full(notification, context, name):
    words = {"name": name, "game": context["game_title"], "players": ", ".join(context["players"])}
    return (
        _("Your table is full: %(game)s") % words,
        _("%(name)s, every seat of %(game)s is taken (%(players)s); start the game when you like.")
        % words,
    )


def _new_messages(notification, context, name):
    from chat.services import unread_messages

    words = {"name": name, "game": context["game_title"]}
    messages = unread_messages(notification.game, notification.user)
    if not messages:
        return (
            _("New messages in %(game)s") % words,
            _("%(name)s, there are new messages in %(game)s.") % words,
        )
    last = messages[-1]
    quote = last.text if len(last.text) <= MAX_QUOTE else last.text[: MAX_QUOTE - 1] + "…"
    words.update(author=last.author_name, quote=quote, count=len(messages))
    if len(messages) > 1:
        text = _("%(name)s, new messages in %(game)s (%(count)s new). %(author)s: “%(quote)s”")
    else:
        text = _("%(name)s, new messages in %(game)s. %(author)s: “%(quote)s”")
    return _("New messages in %(game)s") % words, text % words


def _tournament(notification: Notification, name: str) -> Notice:
    """A tournament's news, from the row's context alone (names, round, place: all public)."""
    data, game = notification.context, notification.game
    event = data.get("event")
    words = {
        "name": name,
        "tournament": data.get("tournament", ""),
        "round": data.get("round"),
        "mates": emails.join_names(list(data.get("mates") or [])),
        "place": place_words(data["place"]) if data.get("place") else "",
        "players": data.get("players"),
    }
    title = str(words["tournament"])
    if event == "round" and data.get("final"):
        title = _("The final table of %(tournament)s") % words
        text = _("%(name)s, you play the final table of %(tournament)s with %(mates)s.") % words
    elif event == "round":
        title = _("Round %(round)s of %(tournament)s") % words
        text = (
            _("%(name)s, round %(round)s of %(tournament)s has started: you play with %(mates)s.")
            % words
        )
    elif event == "bye":
        title = _("Round %(round)s of %(tournament)s") % words
        text = (
            _(
                "%(name)s, round %(round)s of %(tournament)s has started; you have a bye this "
                "round (it counts as a win)."
            )
            % words
        )
    elif event == "withdrawn":
        text = (
            _(
                "%(name)s, you were withdrawn from %(tournament)s after two timeouts in a row; a "
                "bot plays your games to their end."
            )
            % words
        )
    elif event == "over":
        text = _("%(tournament)s is over: %(name)s finished %(place)s of %(players)s.") % words
    else:
        text = _("%(tournament)s was cancelled: too few players signed up.") % words
    url = links.absolute(str(data.get("url") or "/"))
    if game is not None:
        url = links.game_url(game)
    return Notice(
        notification.kind,
        title,
        text,
        url,
        game.pk if game is not None else None,
        game.title if game is not None else str(data.get("tournament", "")),
    )


def _club(notification: Notification, name: str) -> Notice:
    """An invitation to a club, or a request to join one (to its admins)."""
    data = notification.context
    words = {"name": name, "club": data.get("club", ""), "by": data.get("by", "")}
    if data.get("event") == "asked":
        text = _("%(name)s, %(by)s asks to join %(club)s.") % words
    else:
        text = _("%(name)s, %(by)s invites you to join %(club)s.") % words
    url = links.absolute(str(data.get("url") or "/"))
    return Notice(notification.kind, str(words["club"]), text, url, None, "")


def _plan(notification, context, name):
    """A push to the plan's owner (never a webhook: notifications.outbox.OWNER_ONLY)."""
    words = emails.plan_words(notification, context)
    game = {"game": context["game_title"]}
    if words["in_full"]:
        steps = "; ".join([*words["played"], *words["ordered"]])
        return (
            _("Your plan was played in %(game)s") % game,
            _("Your plan was played in full: %(steps)s.") % {"steps": steps},
        )
    text = _("Your plan stopped before step %(n)s: %(why)s.") % {
        "n": words["stopped_at"],
        "why": words["why"],
    }
    return _("Your plan stopped in %(game)s") % game, text + " " + _("It is your turn.")


BUILDERS: dict[str, Callable[[Notification, dict[str, Any], str], tuple[str, str]]] = {
    Kind.YOUR_TURN: _your_turn,
    Kind.REMINDER: _reminder,
    Kind.TIMED_OUT: _timed_out,
    Kind.GAME_OVER: _game_over,
    Kind.INVITED: _invited,
    Kind.GAME_STARTED: _game_started,
    Kind.NEW_MESSAGES: _new_messages,
    Kind.TABLE_FULL: _table_full,
    Kind.PLAN: _plan,
}
