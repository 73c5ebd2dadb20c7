"""The end of a game as the history, profiles and ratings keep it.

`record_game_end` runs inside the transaction that stores the game's last move (a receiver of
games.events.game_over, sent after the move is saved with the game row locked), so a finished
game without its record, or a rating changed by a game that was rolled back, cannot exist. It
is idempotent: a second call for the same game (a task run twice, a replayed end) finds the
record and does nothing, so ratings change exactly once per game.

Rated games (RATED_RULE below): only people, each of whom played at least half of their own
steps. A game with a bot seat, or with a seat the bot played for most of the game (timeouts,
autopilot), says little about the people in it; imported games are never rated.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Min, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, Move, Seat
from games.rules import protocol
from games.standings import standings
from players import ratings
from players.models import BotPoolRating, GameRecord, Rating, SeatResult

BOT_POOL_RULE = _(
    "Games with a bot account (a program playing through the API) are rated apart, in the "
    "bot pool, by the same rule."
)
RATED_RULE = _(
    "Rated: games between people only, in which the bot (after timeouts or on autopilot) "
    "played no more than half of any player's steps (a resignation does not count: it is a "
    "rated loss). Imported games are not rated."
)


def game_over(sender: Any, *, game: Game, state: Any, **kw: Any) -> None:
    """games.events.game_over: the game's record, and the ratings if it is rated."""
    record_game_end(game, state)


def game_imported(sender: Any, *, game: Game, state: Any, **kw: Any) -> None:
    """games.events.game_imported: an imported game's record (never rated)."""
    record_game_end(game, state, imported=True)


def places(totals: list[int]) -> list[int]:
    """Standard competition ranking: 1 for the highest total, ties share a place (1, 1, 3)."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


def record_game_end(
    game: Game, state: Any, *, imported: bool = False, finished_at: Any = None
) -> GameRecord:
    """Write the game's record, its seats' results and, if rated, the new ratings.

    `finished_at` is now, except when recompute_ratings records a game that ended before
    records existed."""
    existing = GameRecord.objects.filter(game=game).first()
    if existing is not None:
        return existing
    engine = game.engine
    details = engine.record_details(state)
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("number"))
    activity = _activity(game)
    now = finished_at or timezone.now()
    # Places, winners and points from the one ranking the game page shows: ties share a place,
    # a resigned player comes last, a game a resignation ended counts the points in play.
    ranking = {
        row.seat: row
        for row in standings(state, seats, game.engine, abandoned=game.abandoned_at is not None)
    }
    record = GameRecord.objects.create(
        game=game,
        started_at=activity["started"] or now,
        finished_at=now,
        num_players=game.num_players,
        is_public=game.is_public,
        engine_name=engine.name,
        details=details.get("game", {}),
        facets=protocol.facet_text(details.get("facets", {})),
        turns=engine.turn_no(state),
        moves=engine.step(state),
        rated=False,
        imported=imported,
    )
    results = []
    for seat in seats:
        number = seat.number
        assert number is not None  # the game was played: every seat has its number
        steps, bot_steps = activity["by_seat"].get(number, (0, 0))
        person = not seat.is_bot and seat.user_id is not None
        results.append(
            SeatResult(
                record=record,
                user=seat.user if person else None,
                seat=number,
                name=seat.name,
                bot=seat.bot,
                place=ranking[number].place,
                score=ranking[number].score,
                won=ranking[number].winner,
                steps=steps,
                bot_steps=bot_steps,
                abandoned=person
                and not seat.has_resigned
                and (seat.autopilot or 2 * bot_steps > steps),
                resigned=seat.has_resigned,
                finished_at=now,
                is_public=game.is_public,
                details=details["seats"][number],
            )
        )
    record.rated = not imported and is_rated(results)
    record.bot_pool = not imported and is_rated(results, pool="bots")
    if record.rated:
        record.save(update_fields=["rated"])
        apply_ratings(results)
    elif record.bot_pool:  # rated apart: its ratings are not the people's (no chart points)
        record.save(update_fields=["bot_pool"])
        apply_ratings(results, model=BotPoolRating, note=False)
    SeatResult.objects.bulk_create(results)
    return record


def _activity(game: Game) -> dict[str, Any]:
    """Steps per seat and how many of them the bot played; the time of the first move."""
    rows = (
        Move.objects.filter(game=game)
        .values("seat")
        .annotate(
            steps=Count("id"), bot_steps=Count("id", filter=Q(by_bot=True)), first=Min("created")
        )
    )
    by_seat, started = {}, None
    for row in rows:
        by_seat[row["seat"]] = (row["steps"], row["bot_steps"])
        if started is None or row["first"] < started:
            started = row["first"]
    return {"by_seat": by_seat, "started": started}


def is_rated(results: list[SeatResult], pool: str = "people") -> bool:
    """People only, each of whom played at least half of their steps, except those who
    resigned: the bot's steps after a resignation do not make the game unrated (conceding is a
    loss, not a way out of one). Bot accounts count as people who play, but a game with one is
    rated in the bot pool (``pool="bots"``), never among people."""
    accounts = len(results) >= 2 and all(
        r.user_id is not None and not r.bot and (r.resigned or 2 * r.bot_steps <= r.steps)
        for r in results
    )
    with_bots = accounts and any(r.user is not None and r.user.bot_account for r in results)
    return with_bots if pool == "bots" else accounts and not with_bots


def apply_ratings(
    results: list[SeatResult], *, model: type[Rating | BotPoolRating] = Rating, note: bool = True
) -> None:
    """Rate the game: lock the players' rating rows (two games ending at once for one player
    must not lose an update), compute, store, and (``note``) note each player's new rating on
    the result. ``model`` is the pool: Rating among people, BotPoolRating with bot accounts."""
    user_ids = [r.user_id for r in results if r.user_id is not None]
    assert len(user_ids) == len(results)  # a rated game: accounts only (is_rated)
    fresh: list[Any] = [  # of the pool's model (mypy reads a union of models as neither)
        model(user_id=uid, mu=ratings.NEW.mu, sigma=ratings.NEW.sigma, shown=ratings.NEW.shown)
        for uid in user_ids
    ]
    model.objects.bulk_create(fresh, ignore_conflicts=True)
    rows = {r.user_id: r for r in model.objects.select_for_update().filter(user_id__in=user_ids)}
    before = [ratings.Skill(rows[u].mu, rows[u].sigma, rows[u].games) for u in user_ids]
    after = ratings.rate(before, [r.place for r in results])
    for result, uid, old, new in zip(results, user_ids, before, after, strict=True):
        row = rows[uid]
        row.mu, row.sigma, row.games, row.shown = new.mu, new.sigma, new.games, new.shown
        row.save(update_fields=["mu", "sigma", "games", "shown", "updated"])
        if not note:
            continue
        result.rating_mu, result.rating_sigma = new.mu, new.sigma
        result.rating_shown = new.shown
        result.rating_change = new.shown - old.shown
