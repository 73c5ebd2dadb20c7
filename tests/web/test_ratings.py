"""Ratings: changed exactly once when a game ends, in the same transaction, for games between
people only; ties share a place; `recompute_ratings` rebuilds them and reports differences."""

from __future__ import annotations

import random
from io import StringIO
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from games import play
from games.models import Game, Move
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy
from players.models import GameRecord, Rating, SeatResult
from players.ratings import NEW
from players.results import record_game_end
from tests.web.helpers import fast_forward, play_greedy, started_game

pytestmark = pytest.mark.django_db


def finish(game: Game, scores: dict) -> Game:
    """Play the game to its end and give each player these final PP (by user)."""
    totals = [0] * game.num_players
    for seat in game.seats.select_related("user"):
        totals[seat.number] = scores[seat.user] if seat.user else 10
    fast_forward(game, totals=totals)
    assert game.is_finished
    return game


def rating(user) -> int:
    return Rating.objects.get(user=user).shown


def test_it_raises_the_winner_and_lowers_the_loser_of_a_two_player_game(anna, ben):
    finish(started_game(anna, ben), {anna: 60, ben: 45})

    assert rating(anna) > NEW.shown > rating(ben)
    assert Rating.objects.get(user=anna).games == Rating.objects.get(user=ben).games == 1
    assert GameRecord.objects.get().rated
    first, second = SeatResult.objects.order_by("place")
    assert (first.user, first.place, first.won) == (anna, 1, True)
    assert (second.user, second.place, second.won) == (ben, 2, False)
    assert first.rating_change > 0 > second.rating_change


def test_it_orders_three_players_ratings_by_their_places(anna, ben, carla):
    finish(started_game(anna, ben, carla), {anna: 40, ben: 55, carla: 50})

    assert rating(ben) > rating(carla) > rating(anna)


def test_it_lets_tied_players_share_a_place_and_a_rating(anna, ben, carla, dario):
    finish(started_game(anna, ben, carla, dario), {anna: 50, ben: 50, carla: 61, dario: 30})

    places = dict(SeatResult.objects.values_list("user__username", "place"))
    assert places == {"carla": 1, "anna": 2, "ben": 2, "dario": 4}
    assert rating(anna) == rating(ben)
    assert rating(carla) > rating(anna) > rating(dario)


def test_it_makes_every_tied_winner_a_winner(anna, ben):
    finish(started_game(anna, ben), {anna: 50, ben: 50})

    assert list(SeatResult.objects.values_list("place", "won")) == [(1, True), (1, True)]
    assert rating(anna) == rating(ben)


def test_it_does_not_rate_a_game_with_a_bot(anna):
    finish(started_game(anna, bots=2), {anna: 70})

    assert not GameRecord.objects.get().rated
    assert not Rating.objects.exists()
    assert SeatResult.objects.get(user=anna).rating_shown is None


def test_it_does_not_rate_a_game_the_bot_mostly_played_for_someone(anna, ben):
    game = started_game(anna, ben)
    fast_forward(game, totals=[50, 40])
    bens_seat = game.seats.get(user=ben).number
    GameRecord.objects.all().delete()
    Rating.objects.all().delete()
    moves = Move.objects.filter(game=game, seat=bens_seat).order_by("seq")
    mostly = [m.pk for m in moves][: moves.count() // 2 + 1]
    Move.objects.filter(pk__in=mostly).update(by_bot=True, timeout=True)

    record_game_end(game, game.load_state())

    assert not GameRecord.objects.get().rated
    assert SeatResult.objects.get(user=ben).abandoned
    assert not Rating.objects.exists()


def test_it_applies_a_game_end_processed_twice_once(anna, ben):
    game = finish(started_game(anna, ben), {anna: 60, ben: 45})
    after_once = {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}

    with transaction.atomic():
        record_game_end(game, game.load_state())

    assert {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == after_once
    assert GameRecord.objects.count() == 1
    assert SeatResult.objects.count() == 2


def test_it_rates_the_game_in_the_transaction_that_ends_it(anna, ben):
    """The last move's transaction fails after the rating: nothing of the end is kept."""
    game = started_game(anna, ben)
    play_greedy(game, until=lambda s: _one_step_from_the_end(s))
    state = game.load_state()
    mover = game.seats.get(number=rules.acting_seat(state)).user
    action = _last_action(state)

    with (
        mock.patch("notifications.outbox.notify", side_effect=RuntimeError("mail down")),
        pytest.raises(RuntimeError),
    ):
        play.submit_move(game.pk, mover, action, game.version)

    game.refresh_from_db()
    assert not game.is_finished
    assert not GameRecord.objects.exists() and not Rating.objects.exists()
    play.submit_move(game.pk, mover, action, game.version)  # the end goes through next time
    assert GameRecord.objects.get().rated and Rating.objects.count() == 2


def _one_step_from_the_end(state: rules.State) -> bool:
    return _last_action(state) is not None


def _last_action(state: rules.State):
    """The action that ends the game now, if one does."""
    if rules.is_over(state):
        return None
    for action in rules.legal_actions(state):
        if rules.is_over(rules.apply_action(state, action)):
            return action
    return None


def test_it_rates_games_in_the_order_they_ended(anna, ben, carla):
    finish(started_game(anna, ben), {anna: 60, ben: 45})
    finish(started_game(ben, carla), {ben: 60, carla: 45})
    finish(started_game(carla, anna), {carla: 60, anna: 45})

    assert {r.user.username: r.games for r in Rating.objects.select_related("user")} == {
        "anna": 2,
        "ben": 2,
        "carla": 2,
    }
    history = list(
        SeatResult.objects.filter(user=anna).order_by("finished_at").values_list("rating_shown")
    )
    assert history[-1][0] == rating(anna)


# --- recompute_ratings -------------------------------------------------------------------------


def recompute(*args: str) -> str:
    out = StringIO()
    call_command("recompute_ratings", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def rated_games(anna, ben, carla):
    finish(started_game(anna, ben), {anna: 60, ben: 45})
    finish(started_game(ben, carla, anna), {ben: 60, carla: 45, anna: 50})
    finish(started_game(carla, bots=1), {carla: 80})


def test_it_finds_no_difference_when_nothing_changed(rated_games):
    assert (
        recompute()
        .strip()
        .endswith("Rebuilt ratings from 2 rated games: 0 differences from the stored ones.")
    )


def test_it_reports_and_repairs_a_tampered_rating(rated_games, anna):
    Rating.objects.filter(user=anna).update(mu=40.0, shown=1900)

    with pytest.raises(CommandError, match="1 difference"):
        recompute("--dry-run")
    assert rating(anna) == 1900  # a dry run changes nothing

    report = recompute()

    assert "Anna: stored rating 1900 after 2 games, rebuilt" in report
    assert rating(anna) != 1900
    assert "0 differences" in recompute()


def test_it_rebuilds_every_rating_from_scratch(rated_games):
    stored = {r.user_id: (r.mu, r.sigma, r.games, r.shown) for r in Rating.objects.all()}
    Rating.objects.all().delete()
    SeatResult.objects.update(rating_mu=None, rating_sigma=None, rating_shown=None)

    recompute()

    assert {r.user_id: (r.mu, r.sigma, r.games, r.shown) for r in Rating.objects.all()} == stored


def test_it_records_finished_games_that_have_no_record(anna, ben):
    game = finish(started_game(anna, ben), {anna: 60, ben: 45})
    stored = rating(anna)
    GameRecord.objects.all().delete()
    Rating.objects.all().delete()

    report = recompute()

    assert f"Game {game.pk}: no record; written from its final state." in report
    assert GameRecord.objects.get().game == game
    assert rating(anna) == stored


def test_it_plays_through_moves_then_rates(anna, ben, django_capture_on_commit_callbacks):
    """The real path: moves submitted by the players until the game ends."""
    game = started_game(anna, ben)
    rng = random.Random(4)
    while not game.is_finished:
        state = game.load_state()
        mover = game.seats.get(number=rules.acting_seat(state)).user
        game = play.submit_move(game.pk, mover, greedy(state, rng), game.version)
    winners = rules.winners(game.load_state())

    results = {r.seat: r for r in SeatResult.objects.all()}
    assert {s for s, r in results.items() if r.won} == set(winners)
    assert Rating.objects.count() == 2
