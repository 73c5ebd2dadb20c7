"""Post-game reviews: asked for by a player of a finished game, computed once on the bots queue,
kept, and shown beside each turn of the replay to that player only.

The engine does the reviewing (Engine.review: its strongest bot's judgement of each of the
seat's decisions, from the seat's information then); this module only stores the entries and
hands them to the replay by turn. A review is a player's own: it is shown only to the player of
that seat, never to the other players of the game or to watchers.
"""

from __future__ import annotations

import logging
from bisect import bisect_right
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bots.models import Review
from games.errors import Conflict, NotInGame
from games.models import Game, Move

log = logging.getLogger(__name__)

REVIEW_TASK = "bots.tasks.review_game"
# A review left "running" this long was cut off (a worker died): it may be asked for again.
STALE_AFTER = timedelta(hours=1)


def think_seconds() -> float:
    """The reviewing bot's CPU time per decision (settings.BOTS_REVIEW_SECONDS)."""
    return float(getattr(settings, "BOTS_REVIEW_SECONDS", 1.0))


def request_review(game: Game, user: Any) -> Review:
    """Ask for `user`'s review of a finished game they played; asking again for one that
    failed (or was cut off) starts it afresh, asking for one that exists changes nothing."""
    seat = (
        game.seats.filter(user=user).exclude(number=None).first() if user.is_authenticated else None
    )
    if seat is None or seat.number is None:
        raise NotInGame(_("Only the players of a game can ask for its review."))
    if not game.is_finished:
        raise Conflict(_("A game can be reviewed once it is over."))
    with transaction.atomic():
        review, created = Review.objects.get_or_create(
            game=game, seat=seat.number, defaults={"user": user, "seconds": think_seconds()}
        )
        stale = timezone.now() - STALE_AFTER
        retry = review.status == Review.Status.FAILED or (
            review.status == Review.Status.RUNNING
            and review.started_at is not None
            and review.started_at < stale
        )
        if retry:
            Review.objects.filter(pk=review.pk).update(
                status=Review.Status.PENDING, entries=[], started_at=None, finished_at=None
            )
            review.refresh_from_db()
        if created or retry:
            transaction.on_commit(lambda: _queue(review.pk))
    return review


def _queue(review_id: int) -> None:
    from celery import current_app
    from kombu.exceptions import OperationalError

    try:
        current_app.tasks[REVIEW_TASK].delay(review_id)
    except OperationalError:
        log.warning("review %s not queued: the broker is unreachable", review_id, exc_info=True)


def compute(review_id: int) -> bool:
    """Claim a pending review (a conditional update: one worker only) and compute it."""
    claimed = Review.objects.filter(pk=review_id, status=Review.Status.PENDING).update(
        status=Review.Status.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return False
    try:
        review = Review.objects.select_related("game").get(pk=review_id)
        game = review.game
        moves = Move.objects.filter(game=game).order_by("seq")
        actions = list(moves.values_list("action", flat=True))
        initial = game.initial_state()
        entries = game.engine.review(initial, actions, review.seat, review.seconds)
        entries = with_stakes(game.engine, initial, actions, review.seat, entries)
    except (OperationalError, InterfaceError):  # retried by the task: leave it to be claimed
        Review.objects.filter(pk=review_id).update(status=Review.Status.PENDING, started_at=None)
        raise
    Review.objects.filter(pk=review_id).update(
        status=Review.Status.DONE, entries=entries, finished_at=timezone.now()
    )
    return True


def margin(scores: list[int], seat: int) -> int:
    """The seat's points minus the best other player's: what "winning by" means."""
    others = [score for i, score in enumerate(scores) if i != seat]
    return scores[seat] - max(others, default=0)


def with_stakes(
    engine: Any, initial: Any, actions: list[Any], seat: int, entries: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each entry with the game's own figures at its step, from the log replayed: "margin" (the
    seat's points minus the best other's then) and "at_stake" (the points every player still
    scored after it: no decision can have moved the final margin by more), and a last entry's
    "final_margin". The engine's estimate of a decision's loss is read against these."""
    steps = {int(entry["step"]) for entry in entries}
    scores_at: dict[int, list[int]] = {}
    state = initial
    for step, action in enumerate(actions):
        if step in steps:
            scores_at[step] = list(engine.scores(state))
        state = engine.apply_action(state, action)
    final = list(engine.scores(state))
    out = []
    for entry in entries:
        scores = scores_at.get(int(entry["step"]), final)
        out.append(
            {
                **entry,
                "margin": margin(scores, seat),
                "at_stake": sum(f - s for f, s in zip(final, scores, strict=True)),
                "final_margin": margin(final, seat),
            }
        )
    return out


def fail(review_id: int) -> None:
    """The task gave up (its time limit): the player may ask again."""
    Review.objects.filter(pk=review_id).exclude(status=Review.Status.DONE).update(
        status=Review.Status.FAILED, finished_at=timezone.now()
    )


def own_review(game: Game, user: Any) -> tuple[int | None, Review | None]:
    """The user's seat in the game (None: not a player) and their review of it, if any."""
    if not user.is_authenticated:
        return None, None
    seat = game.seats.filter(user=user).values_list("number", flat=True).first()
    if seat is None:
        return None, None
    return seat, Review.objects.filter(game=game, seat=seat).first()


def worded(game: Game, review: Review, turn_starts: list[int]) -> list[dict[str, Any]]:
    """The review's entries with their words (in the active language) and replay turn."""
    engine = game.engine
    rows = []
    for entry in review.entries:
        loss = float(entry.get("loss", 0.0))
        if "at_stake" in entry:  # never more than the points still to be scored then
            loss = min(loss, max(0.0, float(entry["at_stake"])))
        rows.append(
            {
                **engine.review_text(entry),
                "loss": round(loss, 1),
                "agree": bool(entry.get("agree", entry.get("loss", 0) == 0)),
                "turn": bisect_right(turn_starts, int(entry["step"])),
                "margin": entry.get("margin"),
                "final_margin": entry.get("final_margin"),
            }
        )
    return rows


def costliest(rows: list[dict[str, Any]], count: int = 3) -> list[dict[str, Any]]:
    """The decisions the bot judged most costly, costliest first (ties: the earlier first)."""
    costly = [row for row in rows if not row["agree"] and row["loss"] > 0]
    return sorted(costly, key=lambda row: -row["loss"])[:count]
