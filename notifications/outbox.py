"""The outbox: the API the games code calls inside its transaction, and the row state machine.

``notify()`` writes one Notification row per event and channel (``key`` names the event, so
calling it twice for the same event does nothing): the email, and the same news by webhook and
push for players who set those up (``fan_out``). A row that goes out right away is queued for
``send_notification`` once the transaction commits (notifications.queueing, by task name). If
the broker is unreachable at that moment the row simply stays pending and the periodic
``send_pending`` task sends it.

Every later change of a row is a conditional UPDATE on its status (``claim``, ``finish``,
``release``): whoever changes ``pending`` to ``sending`` sends, everyone else does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Max, Q, Subquery
from django.utils import timezone

from notifications import metrics, preferences, push, queueing
from notifications.models import Notification, PushSubscription, Webhook

Kind = Notification.Kind
Status = Notification.Status

# Notices of other apps that a later answer can overtake (an invitation to a club declined before
# its email went out): kind -> why a row is overtaken, empty if it is not. An app registers its
# check in its ready() (overtaken_when), as this app may not import the apps above it.
_OVERTAKEN: dict[str, Callable[[Notification], str]] = {}


def overtaken_when(kind: str, check: Callable[[Notification], str]) -> None:
    _OVERTAKEN[kind] = check


Channel = Notification.Channel
# Kinds that are only ever sent by webhook (the "send a test" button), never emailed.
NOT_EMAILED = {Kind.TEST}
# What may go out by webhook and push: game news (the preferences table decides) and the test.
FANNED_OUT = set(preferences.KIND_OF)
# What never goes to a webhook, which may post into a channel other players read: a plan is
# seen by its owner alone (email and push reach only them).
OWNER_ONLY = {Kind.PLAN}


def notify(
    user: Any,
    kind: str,
    *,
    game: Any = None,
    key: str,
    context: dict | None = None,
) -> Notification | None:
    """Record that ``user`` should hear about an event; call it inside the game's transaction.

    ``key`` must name the event uniquely across all kinds (e.g. ``your_turn:<game>:<step>``).
    Returns the row (new or already there), or None for nobody to email: no user (a bot seat),
    an inactive account or one without an email address. Players who opted out get a row
    with status ``skipped``; daily-digest players' turn rows wait for the digest.
    """
    if user is None or getattr(user, "pk", None) is None:
        return None
    if kind not in Kind.values:
        raise ValueError(f"Unknown notification kind {kind!r}.")
    if not getattr(user, "email", "") or not getattr(user, "is_active", True):
        return None
    context = dict(context or {})
    if kind == Kind.YOUR_TURN and game is not None:
        context = {**turn_window(game, user), **context}
    notification = None
    cells = preferences.table(user)  # one query for every channel's decision
    if kind not in NOT_EMAILED:
        reason = opt_out_reason(user, kind, cells=cells)
        if (
            kind == Kind.YOUR_TURN
            and not reason
            and getattr(user, "summary_hour", None) is not None
        ):
            reason = "morning summary instead"  # notifications.morning lists the game instead
        if kind == Kind.PLAN and not reason and preferences.email_digest(user, cells):
            reason = "daily digest instead"  # the digest lists the game if the turn waits
        digest = kind == Kind.YOUR_TURN and preferences.email_digest(user, cells)
        notification = write(
            user, kind, key=key, game=game, context=context, digest=digest, reason=reason
        )
    fan_out(user, kind, game=game, key=key, context=context, cells=cells)
    return notification


def fan_out(
    user: Any, kind: str, *, game: Any, key: str, context: dict, cells: dict | None = None
) -> list[Notification]:
    """The same event by webhook and push: for each channel the player set up and wants this
    kind of news on, one row (a webhook row, and one push row per device)."""
    rows: list[Notification] = []
    if kind not in FANNED_OUT:
        return rows
    if (
        kind not in OWNER_ONLY
        and preferences.wants(user, kind, Channel.WEBHOOK, cells)
        and active_webhook(user)
    ):
        rows.append(
            write(
                user,
                kind,
                key=f"{key}:webhook",
                channel=Channel.WEBHOOK,
                game=game,
                context=context,
            )
        )
    if preferences.wants(user, kind, Channel.PUSH, cells) and push.configured():
        for subscription in PushSubscription.objects.filter(user_id=user.pk):
            rows.append(
                write(
                    user,
                    kind,
                    key=f"{key}:push:{subscription.pk}",
                    channel=Channel.PUSH,
                    game=game,
                    context=context,
                    subscription=subscription,
                )
            )
    return rows


def active_webhook(user: Any) -> bool:
    return Webhook.objects.filter(user_id=user.pk, active=True).exists()


def write(
    user: Any,
    kind: str,
    *,
    key: str,
    channel: str = Channel.EMAIL,
    game: Any = None,
    context: dict | None = None,
    digest: bool = False,
    reason: str = "",
    subscription: Any = None,
    queue: bool = True,
) -> Notification:
    """One row of the outbox (new, or the one already written for ``key``); a new row that is to
    go out now is queued once the transaction commits."""
    notification, created = Notification.objects.get_or_create(
        dedupe_key=key,
        defaults={
            "user": user,
            "kind": kind,
            "channel": channel,
            "subscription": subscription,
            "game": game,
            "context": context or {},
            "digest": digest,
            "status": Status.SKIPPED if reason else Status.PENDING,
            "last_error": reason,
        },
    )
    if created and queue and not reason and not digest:
        transaction.on_commit(partial(queue_send, notification.pk))
    return notification


def queue_send(notification_id: int) -> None:
    """Hand one row to a worker; never lets a broker failure break the request that committed."""
    queueing.queue(queueing.SEND_NOTIFICATION, notification_id)


def queue_address_invitation(invitation_id: int) -> None:
    """Hand an invitation to an address (no account, so no outbox row) to a worker; the
    invitation row itself is claimed before sending (delivery.deliver_address_invitation)."""
    queueing.queue(queueing.SEND_ADDRESS_INVITATION, invitation_id)


def max_attempts() -> int:
    """Tries per row before it is marked failed (NOTIFICATIONS_MAX_ATTEMPTS)."""
    return int(getattr(settings, "NOTIFICATIONS_MAX_ATTEMPTS", 5))


def turn_window(game: Any, user: Any) -> dict[str, int]:
    """The moves a "your turn" email reports: after the player's last move (``since``, 0 if
    they have not moved yet) up to the latest one (``upto``). One query."""
    from games.models import Seat

    seat = Seat.objects.filter(game=game, user=user).values("number")[:1]
    window = game.moves.aggregate(upto=Max("seq"), since=Max("seq", filter=Q(seat=Subquery(seat))))
    return {"since": window["since"] or 0, "upto": window["upto"] or 0}


def opt_out_reason(
    user: Any, kind: str, channel: str = Channel.EMAIL, *, cells: dict | None = None
) -> str:
    """Why this player does not want this on this channel (empty if they do): their
    preferences table (notifications.preferences)."""
    return preferences.opt_out_reason(user, kind, channel, cells)


# --- the row state machine (used by notifications.delivery) ---------------------------------


def claim(notification_id: int, *, digest: bool = False) -> Notification | None:
    """Move a pending row to sending; the row if this caller won, None if someone else did."""
    won = Notification.objects.filter(
        pk=notification_id, status=Status.PENDING, digest=digest
    ).update(status=Status.SENDING, claimed_at=timezone.now(), attempts=F("attempts") + 1)
    if not won:
        return None
    return Notification.objects.select_related("user", "game").get(pk=notification_id)


def finish(notification: Notification, status: str, error: str = "", failure: str = "") -> bool:
    """sending -> sent, skipped or failed (``failure`` says why, for the operator's report)."""
    fields: dict[str, Any] = {"status": status}
    if error:  # a row sent after a retry keeps the error that delayed it
        fields["last_error"] = error[:2000]
    if status == Status.SENT:
        fields["sent_at"] = timezone.now()
    if status == Status.FAILED:
        fields["failure"] = failure or Notification.Failure.ERROR
        fields["failed_at"] = timezone.now()
    notification.status = status
    done = bool(
        Notification.objects.filter(pk=notification.pk, status=Status.SENDING).update(**fields)
    )
    if done:
        metrics.FINISHED.labels(notification.channel, status).inc()
        if status == Status.SENT and notification.created:
            waited = (fields["sent_at"] - notification.created).total_seconds()
            metrics.DELAY.labels(notification.channel).observe(max(0.0, waited))
    return done


def release(notification: Notification, error: str) -> bool:
    """sending -> pending after an SMTP error, for the retry."""
    notification.status = Status.PENDING
    return bool(
        Notification.objects.filter(pk=notification.pk, status=Status.SENDING).update(
            status=Status.PENDING, last_error=error[:2000]
        )
    )


def stale_reason(notification: Notification) -> str:
    """Why an email row should not be sent any more (empty if it should): the player opted out
    since, lost their address, or the event is overtaken (they already moved, the game ended...).
    Webhook and push rows: notifications.channels.stale_reason."""
    user, kind = notification.user, notification.kind
    if not user.is_active or not user.email:
        return "no email address"
    if not _verified(user):
        return "email address not verified"
    reason = opt_out_reason(user, kind)
    if reason:
        return reason
    return event_stale_reason(notification)


def event_stale_reason(notification: Notification) -> str:
    """Why the event itself is overtaken, whatever the channel (empty if it is not)."""
    user, game, kind = notification.user, notification.game, notification.kind
    if kind in (Kind.YOUR_TURN, Kind.REMINDER):
        if game is None:
            return "the game is no longer in progress"
        reminder = kind == Kind.REMINDER
        upto = None if reminder else notification.context.get("upto")
        reason = game.turn_news_stale(user, reminder=reminder, since=upto)
        if reason in ("", game.MOVED_SINCE) and upto == 0 and _game_started_email(notification):
            return "the game-started email tells them"
        if reason:
            return reason
    if kind in (Kind.INVITED, Kind.TABLE_FULL) and (game is None or not game.is_open):
        return "the game is no longer open"
    if kind == Kind.INVITED and game is not None and game.seats.filter(user=user).exists():
        return "they have joined"
    if kind == Kind.NEW_MESSAGES:
        from chat.services import unread_count

        if game is None or not unread_count(game, user):
            return "they have read the messages"
    check = _OVERTAKEN.get(kind)
    return check(notification) if check is not None else ""


def _verified(user: Any) -> bool:
    """Only addresses the player has confirmed get emails (and sign-in links)."""
    from allauth.account.models import EmailAddress

    return EmailAddress.objects.filter(user=user, email__iexact=user.email, verified=True).exists()


def _game_started_email(notification: Notification) -> bool:
    """The first turn of a game: the game-started email (with its sign-in link) says it all."""
    if notification.game_id is None:
        return False
    return (
        Notification.objects.filter(
            user_id=notification.user_id,
            game=notification.game,
            kind__in=[Kind.GAME_STARTED, Kind.TOURNAMENT],  # a round's notice names the game
            channel=notification.channel,
        )
        .exclude(status__in=[Status.SKIPPED, Status.FAILED])
        .exists()
    )
