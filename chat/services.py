"""What players do with the table talk: write, delete, mute, report, read.

Every change of a thread bumps ``Game.chat_version`` (never ``Game.version``: a chat message
must not make anyone's move stale). The game page's poll compares both, so the refresh that
brings moves brings messages too.

Input is plain text: it is checked here (length, lines, control and direction-changing
characters, HTML tags) and refused with a sentence that says what to change; nothing is stored
when it is refused. On the page it is escaped and its links made clickable (templatetags).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, F, Max, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from chat.models import MAX_LENGTH, Message, Mute, Report, Visit
from chat.signals import message_posted
from games import versions
from games.errors import Conflict, GameError, NotAllowed
from games.models import Game

MAX_LINES = 12
RATE_LIMIT = 10  # messages per RATE_WINDOW and player
RATE_WINDOW = timedelta(minutes=1)
DELETE_WINDOW = timedelta(minutes=5)
NOTIFY_EVERY = timedelta(hours=1)  # "new messages" news per game and player, at most
PAGE_MESSAGES = 50  # shown on the game page; the thread's own page has them all

# Joiners shape emoji and some scripts; tag characters make subdivision flags.
ALLOWED_FORMAT = {"\u200c", "\u200d"} | {chr(c) for c in range(0xE0020, 0xE0080)}
TAG = re.compile(r"<\s*/?\s*[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?\s*>|<!--|<!\[CDATA\[")


class ChatError(GameError):
    status = 400


class RateLimited(ChatError):
    status = 429


class NoSuchMessage(ChatError):
    status = 404


# --- writing --------------------------------------------------------------------------------


def clean_text(raw: Any) -> str:
    """The message as it will be stored, or ChatError saying what is wrong with it."""
    if not isinstance(raw, str):
        raise ChatError(_("A message must be text."))
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n").replace("\r", "\n"))
    text = text.replace("\t", " ").strip()
    if not text:
        raise ChatError(_("Write something first."))
    if len(text) > MAX_LENGTH:
        raise ChatError(
            _("A message can have at most %(max)s characters; this one has %(length)s.")
            % {"max": MAX_LENGTH, "length": len(text)}
        )
    for character in text:
        category = unicodedata.category(character)
        if character != "\n" and category in ("Cc", "Cs"):
            raise ChatError(_("Messages cannot contain control characters."))
        if category == "Cf" and character not in ALLOWED_FORMAT:
            raise ChatError(
                _("Messages cannot contain invisible formatting characters (%(code)s).")
                % {"code": f"U+{ord(character):04X}"}
            )
    if text.count("\n") >= MAX_LINES:
        raise ChatError(
            _("A message can have at most %(MAX_LINES)s lines.") % {"MAX_LINES": MAX_LINES}
        )
    if TAG.search(text):
        raise ChatError(_("Messages are plain text: HTML tags such as <b> are not allowed."))
    return text


def seat_of(game: Game, user: Any):
    """The user's (human) seat at this table, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user_id=user.pk, bot="").first()


def post(game: Game, user: Any, raw: Any) -> Message:
    """Store one message from a seated player; raises ChatError (nothing stored) if refused."""
    if game.status == Game.Status.OPEN:
        raise Conflict(_("The table talk opens when the game starts."))
    if game.status == Game.Status.CANCELLED:
        raise Conflict(_("This game was cancelled; its table talk is closed."))
    seat = seat_of(game, user)
    if seat is None:
        raise NotAllowed(_("Only the players at this table can write here."))
    text = clean_text(raw)
    since = timezone.now() - RATE_WINDOW
    if Message.objects.filter(author_id=user.pk, created__gte=since).count() >= RATE_LIMIT:
        raise RateLimited(
            _("You are writing fast: at most %(limit)s messages a minute. Wait a moment.")
            % {"limit": RATE_LIMIT}
        )
    with transaction.atomic():
        moves = game.moves.aggregate(last=Max("seq"))["last"] or 0
        message = Message.objects.create(
            game=game, author=user, seat=seat.number, text=text, after_move=moves
        )
        _changed(game)
        mark_read(game, user, message.pk)
        message_posted.send(sender=Message, game=game, message=message)
    return message


def _changed(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(chat_version=F("chat_version") + 1)
    versions.changed(game.pk)
    game.chat_version = (game.chat_version or 0) + 1  # the caller's copy shows the change too


def message_in(game: Game, message_id: Any) -> Message:
    """A message of this game (a message id from another game is not found here)."""
    message = (
        Message.objects.select_related("author")
        .filter(game=game, pk=message_id if str(message_id).isdigit() else -1)
        .first()
    )
    if message is None:
        raise NoSuchMessage(_("There is no such message in this game."))
    return message


def can_delete(message: Message, user: Any, now=None) -> bool:
    now = now or timezone.now()
    return (
        getattr(user, "pk", None) is not None
        and message.author_id == user.pk
        and not message.is_deleted
        and now - message.created <= DELETE_WINDOW
    )


def delete(game: Game, user: Any, message_id: Any) -> Message:
    message = message_in(game, message_id)
    if message.author_id != getattr(user, "pk", None):
        raise NotAllowed(_("You can only delete your own messages."))
    if message.is_deleted:
        return message
    if not can_delete(message, user):
        raise Conflict(_("A message can be deleted only in the first 5 minutes."))
    with transaction.atomic():
        Message.objects.filter(pk=message.pk).update(text="", deleted_at=timezone.now())
        _changed(game)
    message.refresh_from_db()
    return message


# --- muting and reporting -------------------------------------------------------------------


def mute(user: Any, muted: Any) -> None:
    if muted is None or muted.pk == user.pk:
        raise ChatError(_("You cannot mute yourself."))
    Mute.objects.get_or_create(user=user, muted=muted)


def unmute(user: Any, muted_id: int) -> None:
    Mute.objects.filter(user=user, muted_id=muted_id).delete()


def muted_ids(user: Any) -> set[int]:
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(Mute.objects.filter(user=user).values_list("muted_id", flat=True))


def report(user: Any, message: Message, reason: str) -> Report:
    if message.author_id == user.pk:
        raise ChatError(_("You cannot report your own message."))
    if message.is_deleted:
        raise Conflict(_("That message was deleted."))
    report, _created = Report.objects.get_or_create(
        message=message, reporter=user, defaults={"reason": reason, "text": message.text}
    )
    return report


# --- reading --------------------------------------------------------------------------------


def last_read(game: Game, user: Any) -> int:
    if not getattr(user, "is_authenticated", False):
        return 0
    return (
        Visit.objects.filter(game=game, user_id=user.pk).values_list("last_read", flat=True).first()
        or 0
    )


def mark_read(game: Game, user: Any, message_id: int) -> None:
    """Remember the newest message the player has seen (never moves backwards)."""
    visit, created = Visit.objects.get_or_create(
        game=game, user_id=user.pk, defaults={"last_read": message_id}
    )
    if not created and visit.last_read < message_id:
        Visit.objects.filter(pk=visit.pk, last_read__lt=message_id).update(last_read=message_id)


def _others(game: Game, user: Any):
    messages = Message.objects.filter(game=game, deleted_at=None).exclude(author_id=user.pk)
    return messages.exclude(author_id__in=Mute.objects.filter(user=user).values("muted_id"))


def unread_messages(game: Game, user: Any) -> list[Message]:
    """Messages of the others (not muted, not deleted) since the player's last visit."""
    since = last_read(game, user)
    return list(_others(game, user).filter(pk__gt=since).select_related("author"))


def unread_count(game: Game, user: Any) -> int:
    return _others(game, user).filter(pk__gt=last_read(game, user)).count()


def messages_since(game: Game, user: Any, since) -> tuple[list[Message], int]:
    """For emails: the others' messages written after ``since`` (a time; None for all), the
    latest ``limit`` of them, and how many of them come from muted players (left out)."""
    messages = Message.objects.filter(game=game, deleted_at=None).exclude(author_id=user.pk)
    if since is not None:
        messages = messages.filter(created__gt=since)
    muted = muted_ids(user)
    shown, hidden = [], 0
    for message in messages.select_related("author"):
        if message.author_id in muted:
            hidden += 1
        else:
            shown.append(message)
    return shown, hidden


def messages_until(game: Game, move: int) -> list[Message]:
    """The thread as it stood after ``move`` moves: what a replay shows at that step."""
    return list(Message.objects.filter(game=game, after_move__lte=move).select_related("author"))


@dataclass
class Entry:
    message: Message
    mine: bool
    muted: bool
    unread: bool
    deletable: bool
    colour: str = ""


@dataclass
class Thread:
    game: Game
    entries: list[Entry]
    earlier: int
    unread: int
    can_post: bool
    is_player: bool
    signed_in: bool


# closed(user, author_ids): the authors among these whose talk the viewer never sees, not even
# folded away as muted (a block: another app registers it; chat names none of them).
_closed_talk: list[Any] = []


def register_closed_talk(closed: Any) -> None:
    if closed not in _closed_talk:
        _closed_talk.append(closed)


def _closed_authors(user: Any, rows: list[Message]) -> set[int]:
    """Asked only when the page holds talk of a muted author: a block is also a mute."""
    muted = {m.author_id for m in rows if getattr(m, "muted", False) and m.author_id}
    if not muted:
        return set()
    return set().union(*(closed(user, muted) for closed in _closed_talk))


def thread(
    game: Game,
    user: Any,
    *,
    limit: int | None = PAGE_MESSAGES,
    mark: bool = True,
    seats: list | None = None,
) -> Thread:
    """The thread as ``user`` sees it; for a seated player, also records this visit.

    One query reads the messages with, per row, whether the viewer muted its author and the
    viewer's last visit (none while the game's chat_version says nothing was written);
    ``seats`` (the game page has them already) saves another. A count follows only when there
    are more messages than the page shows."""
    signed_in = bool(getattr(user, "is_authenticated", False))
    seats = seats if seats is not None else list(game.seats.all())
    seat = next((s for s in seats if signed_in and s.user_id == user.pk and not s.bot), None)
    colours = {s.number: s.colour for s in seats if s.number is not None}
    if not game.chat_version:  # nothing was ever written: no query at all
        messages = Message.objects.none()
    else:
        messages = Message.objects.filter(game=game).select_related("author").order_by("-pk")
    if signed_in and game.chat_version:
        messages = messages.annotate(
            muted=Exists(Mute.objects.filter(user_id=user.pk, muted_id=OuterRef("author_id"))),
            seen=Subquery(Visit.objects.filter(game=game, user_id=user.pk).values("last_read")[:1]),
        )
    rows = list(messages[: limit + 1] if limit is not None else messages)
    earlier = 0
    if limit is not None and len(rows) > limit:
        rows = rows[:limit]
        earlier = Message.objects.filter(game=game).count() - limit
    rows.reverse()
    closed = _closed_authors(user, rows) if signed_in else set()
    seen = (getattr(rows[0], "seen", 0) or 0) if rows and seat is not None else None
    now = timezone.now()
    entries = []
    unread = 0
    for message in rows:
        if message.author_id in closed:
            continue
        mine = signed_in and message.author_id == user.pk
        is_muted = bool(getattr(message, "muted", False))
        is_unread = (
            seen is not None
            and message.pk > seen
            and not mine
            and not message.is_deleted
            and not is_muted
        )
        unread += is_unread
        entries.append(
            Entry(
                message,
                mine,
                is_muted,
                is_unread,
                can_delete(message, user, now),
                colours.get(message.seat, ""),
            )
        )
    if seat is not None and mark and rows and rows[-1].pk > (seen or 0):
        mark_read(game, user, rows[-1].pk)
    return Thread(
        game=game,
        entries=entries,
        earlier=earlier,
        unread=unread,
        can_post=seat is not None and game.status in (Game.Status.ACTIVE, Game.Status.FINISHED),
        is_player=seat is not None,
        signed_in=signed_in,
    )
