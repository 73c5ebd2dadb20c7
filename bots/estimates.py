"""The Strong bot's estimate in a finished game's "what if": the line tried from a replay step
beside the turn actually played, by the review's figures (Rules.estimate_lines: the seat's
expected points margin, from its information then).

The bot thinks for seconds, so a page never waits for it: the first ask keeps the request in
the shared cache under a key of the game, the step and the line, and queues one job on the
bots queue (a second ask of the same line finds the key taken); the job writes its figures
under the same key, and the page's poll shows them once there.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction

from bots.reviews import think_seconds
from games.models import Game, Move

log = logging.getLogger(__name__)

ESTIMATE_TASK = "bots.tasks.estimate_line"
KEPT_FOR = 7 * 24 * 3600  # figures of a finished game never change: kept a week
PENDING_FOR = 15 * 60  # an ask whose job died is asked again after this


@dataclass(frozen=True)
class Estimate:
    """The bot's figures for the tried line and the played one (None: not playable, or not
    estimated by the engine); `pending` while the job thinks."""

    pending: bool = False
    tried: float | None = None
    played: float | None = None

    @property
    def difference(self) -> float | None:
        if self.tried is None or self.played is None:
            return None
        return round(self.tried - self.played, 1)


def key_of(game_id: int, step: int, tried: Sequence[Any]) -> str:
    line = json.dumps(list(tried), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(f"{game_id}/{step}/{line}".encode()).hexdigest()[:32]
    return f"what-if-estimate:{digest}"


def asked(game: Game, step: int, tried: Sequence[Any]) -> bool:
    """Whether this line was asked already (pending or known): a poll, not a new job."""
    return cache.get(key_of(game.pk, step, tried)) is not None


def ask(game: Game, step: int, tried: Sequence[Any]) -> Estimate:
    """The figures if they are known; else "pending", the job queued (once) after commit."""
    key = key_of(game.pk, step, tried)
    kept = cache.get(key)
    if isinstance(kept, dict) and kept.get("done"):
        return Estimate(tried=kept.get("tried"), played=kept.get("played"))
    request = {"game": game.pk, "step": step, "tried": list(tried)}
    if cache.add(key, request, PENDING_FOR):
        transaction.on_commit(lambda: _queue(game.pk, key))
    return Estimate(pending=True)


def _queue(game_id: int, key: str) -> None:
    from celery import current_app
    from kombu.exceptions import OperationalError

    try:
        current_app.tasks[ESTIMATE_TASK].delay(game_id, key)
    except OperationalError:
        cache.delete(key)  # asked again by the next poll
        log.warning("estimate %s not queued: the broker is unreachable", key, exc_info=True)


def compute(game_id: int, key: str) -> bool:
    """The job: the asked line and the played turn side by side, kept under the key. False
    when there is nothing to do (the ask expired, or the figures are there)."""
    request = cache.get(key)
    if not isinstance(request, dict) or request.get("done") or request.get("game") != game_id:
        return False
    game = Game.objects.get(pk=game_id)
    step, tried = int(request["step"]), list(request["tried"])
    moves = list(Move.objects.filter(game=game).order_by("seq").values_list("seat", "action"))
    engine = game.engine
    state = game.initial_state()
    for _seat, action in moves[:step]:
        state = engine.apply_action(state, action)
    seat = engine.acting_seat(state)
    if seat is None:
        return False
    played = []
    for mover, action in moves[step:]:
        if mover != seat:
            break
        played.append(action)
    figures = engine.estimate_lines(state, seat, [tried, played], think_seconds())
    tried_figure, played_figure = figures if figures else (None, None)
    done = {"done": True, "tried": tried_figure, "played": played_figure}
    cache.set(key, done, KEPT_FOR)
    return True


def forget(key: str) -> None:
    """The job gave up (its time limit): the next poll asks again."""
    cache.delete(key)
