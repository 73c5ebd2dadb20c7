"""A player's own data: everything the site holds about them, and deleting it.

The export is one JSON document: the account and its preferences, email addresses, absences,
seats (with the result of finished games), the player's own moves, invitations and the emails
the site sent or meant to send them. It holds nothing hidden from them: only their own moves
(what they chose, which they saw), never another player's hand or the deck.

Deleting the account keeps the games the others played: a seat in a finished game becomes
"Former player"; in a game in progress a bot takes the seat (so the game goes on) under the
same label; a forming game the player created is cancelled and their seat in one they joined
is freed. Then the user row is deleted, and with it (by cascade) their email addresses,
outbox rows (no email goes out any more), sign-in links, absences, invitations, notification
preferences, webhook and push devices, follows, blocks and reliability; their chat messages
are blanked and marked deleted. They leave their clubs first (clubs/receivers.py, on the
user's pre_delete): a club left without an admin gets one, a club left empty ends.
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.db import transaction
from django.utils import timezone

from games.models import Game, Move, Seat

EXPORT_VERSION = 1


def _when(value: Any) -> str | None:
    return value.isoformat() if value else None


def export(user: Any) -> dict[str, Any]:
    """Everything stored about ``user``, JSON-ready."""
    seats = list(Seat.objects.filter(user=user).select_related("game").order_by("game_id"))
    return {
        "format": f"firenze-personal-data/{EXPORT_VERSION}",
        "exported_at": _when(timezone.now()),
        "account": {
            "display_name": user.display_name,
            "email": user.email,
            "date_joined": _when(user.date_joined),
            "last_login": _when(user.last_login),
        },
        # Only the cells the player changed are stored; the others are the site's defaults.
        "notification_preferences": [
            {"kind": p.kind, "channel": p.channel, "setting": p.setting}
            for p in user.notification_preferences.order_by("kind", "channel")
        ],
        "deadline_alarms_minutes_before": list(user.deadline_alarms or []),
        "morning_summary_hour": user.summary_hour,
        "webhook": _webhook(user),
        "push_devices": [
            {"device": d.device, "created": _when(d.created)}
            for d in user.push_subscriptions.order_by("created")
        ],
        "chat_messages": [
            {
                "game": m.game_id,
                "text": m.text,
                "created": _when(m.created),
                "deleted": m.deleted_at is not None,
            }
            for m in user.chat_messages.order_by("pk")
        ],  # fmt: skip
        "email_addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary}
            for a in EmailAddress.objects.filter(user=user).order_by("pk")
        ],
        "absences": [
            {"starts": _when(a.starts), "ends": _when(a.ends)}
            for a in user.absences.order_by("starts")
        ],
        "seats": [_seat(seat) for seat in seats],
        "moves": _moves(seats),
        "invitations_received": [
            {"game": i.game_id, "created": _when(i.created)}
            for i in user.invitations.order_by("pk")
        ],
        "emails": [
            {
                "kind": n.kind,
                "game": n.game_id,
                "status": n.status,
                "created": _when(n.created),
                "sent_at": _when(n.sent_at),
            }
            for n in user.notifications.order_by("created", "pk")
        ],
        "sign_in_links": [
            {"game": t.game_id, "created": _when(t.created), "used_at": _when(t.used_at)}
            for t in user.login_tokens.order_by("created")
        ],
        **_community(user),
        **_clubs(user),
    }


def _community(user: Any) -> dict[str, Any]:
    """Follows both ways, the player's own blocks (never who blocks them: blocks are private)
    and their reliability, read through the community app's relations (community/models.py)."""
    figures = getattr(user, "reliability", None)  # None before any game ended
    return {
        "following": [
            {"player": f.followed.public_name, "since": _when(f.created)}
            for f in user.following.select_related("followed").order_by("created")
        ],
        "followers": [
            {"player": f.follower.public_name, "since": _when(f.created)}
            for f in user.followers.select_related("follower").order_by("created")
        ],
        "blocking": [
            {"player": b.blocked.public_name, "since": _when(b.created)}
            for b in user.blocking.select_related("blocked").order_by("created")
        ],
        "reliability": None
        if figures is None
        else {
            "games_started": figures.games_started,
            "games_finished": figures.games_finished,
            "turns": figures.turns,
            "turns_on_time": figures.turns_on_time,
            "median_seconds_to_move": figures.median_seconds,
        },
    }


def _clubs(user: Any) -> dict[str, Any]:
    """The player's clubs (role and ladder rung), their requests and invitations at clubs'
    doors, and the ladder challenges they made or received (clubs/models.py)."""
    return {
        "clubs": [
            {"club": m.club.name, "role": m.role, "rung": m.rung, "joined": _when(m.joined)}
            for m in user.club_memberships.select_related("club").order_by("joined")
        ],
        "club_doors": [
            {"club": e.club.name, "kind": e.kind, "since": _when(e.created)}
            for e in user.club_door_entries.select_related("club").order_by("created")
        ],
        "club_challenges": [
            {
                "club": c.club.name,
                "challenger": c.challenger.public_name,
                "challenged": c.challenged.public_name,
                "game": c.game_id,
                "status": c.status,
                "created": _when(c.created),
                "settled": _when(c.settled),
            }
            for related in (user.club_challenges_made, user.club_challenges_received)
            for c in related.select_related("club", "challenger", "challenged").order_by("pk")
        ],
    }


def _webhook(user: Any) -> dict[str, Any] | None:
    from notifications.models import Webhook

    hook = Webhook.objects.filter(user=user).first()
    if hook is None:
        return None
    return {"url": hook.url, "format": hook.format, "active": hook.active}


def _seat(seat: Seat) -> dict[str, Any]:
    game = seat.game
    entry: dict[str, Any] = {
        "game": game.pk,
        "status": game.status,
        "seat": seat.number,
        "colour": seat.colour,
        "joined": _when(seat.joined),
        "created_by_you": game.creator_id == seat.user_id,
    }
    final = (game.state or {}).get("final") if game.is_finished else None
    if final and seat.number is not None:
        entry["total"] = final["players"][seat.number]["total"]
        entry["won"] = seat.number in final["winners"]
    return entry


def _moves(seats: list[Seat]) -> list[dict[str, Any]]:
    moves = []
    for seat in seats:
        if seat.number is None:
            continue
        rows = Move.objects.filter(game_id=seat.game_id, seat=seat.number, by_bot=False)
        for move in rows.order_by("seq"):
            moves.append(
                {
                    "game": seat.game_id,
                    "seq": move.seq,
                    "action": move.action,
                    "at": _when(move.created),
                    "timeout": move.timeout,
                }
            )
    return moves


def delete_account(user: Any) -> None:
    """Delete the account; the games it played in go on without it (module docstring)."""
    from games.play import queue_bots

    to_wake = []
    with transaction.atomic():
        for seat in Seat.objects.filter(user=user).select_related("game"):
            game = Game.objects.select_for_update().get(pk=seat.game_id)
            if game.is_open:
                if game.creator_id == user.pk:
                    game.status = Game.Status.CANCELLED
                    game.save(update_fields=["status", "updated"])
                    seat.user = None
                    seat.former_player = True
                    seat.save(update_fields=["user", "former_player"])
                else:
                    seat.delete()
                continue
            seat.user = None
            seat.former_player = True
            if game.is_active:
                seat.bot = seat.bot or game.engine.default_bot
                seat.autopilot = False
                to_wake.append(game)
            seat.save(update_fields=["user", "former_player", "bot", "autopilot"])
        # Their table talk stops being readable (the thread shows the message as deleted).
        user.chat_messages.filter(deleted_at__isnull=True).update(
            text="", deleted_at=timezone.now()
        )
        user.delete()
    for game in to_wake:
        queue_bots(game)
