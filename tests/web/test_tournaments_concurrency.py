"""A round is dealt once and every result counts, however requests and workers race: two
starts at the same moment (the beat and a page view, a double click on "start now"), the last
two games of a round ending at the same moment on two workers, sign-ups racing for the last
place. On PostgreSQL (``-m postgres``): threads with their own connections, released together.
"""

from __future__ import annotations

import random
import time
from functools import partial

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import events
from games.models import Game, Move
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy
from tests.web.helpers import with_totals
from tests.web.test_games_concurrency import at_once, outcomes
from tests.web.tournament_helpers import field, started, table_users
from tests.web.tournament_helpers import tournament as make_tournament
from tournaments import results, rounds, signup
from tournaments.models import Entry, Round, Table, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL=$(scripts/postgres.sh url) pytest -m postgres")


@pytest.fixture
def slow_refresh(monkeypatch):
    """Hold each writer a moment inside its transaction, so the other meets its lock."""
    real = results.refresh

    def slow(tournament):
        time.sleep(0.2)
        return real(tournament)

    monkeypatch.setattr(results, "refresh", slow)


def test_two_simultaneous_starts_deal_round_one_once(postgres, anna, slow_refresh):
    found = make_tournament(anna)
    for player in field(6):
        signup.sign_up(found, player)
    Tournament.objects.filter(pk=found.pk).update(signup_closes=timezone.now())

    answers = at_once(partial(rounds.start, found.pk), partial(rounds.start, found.pk))

    assert sorted(value for _, value, *_ in answers) == [False, True], answers
    assert Round.objects.filter(tournament=found).count() == 1
    assert Table.objects.filter(tournament=found).count() == 3
    assert Game.objects.count() == 3


def test_a_double_click_on_start_now_deals_round_one_once(postgres, anna, slow_refresh):
    found = make_tournament(anna)
    for player in field(4):
        signup.sign_up(found, player)
    tabs = [Client(), Client()]
    for tab in tabs:
        tab.force_login(anna)
    url = reverse("tournaments:start", args=[found.pk])

    answers = at_once(*(partial(tab.post, url) for tab in tabs))

    assert sorted(value.status_code for _, value, *_ in answers) == [302, 303]
    assert Round.objects.filter(tournament=found).count() == 1
    assert Game.objects.count() == 2


def final_state(game: Game, winner_first: list) -> tuple[list[Move], object]:
    """The moves to the end of the game, and its last state with the ranking wanted."""
    state = game.load_state()
    rng = random.Random(game.seed)
    moves = []
    while not rules.is_over(state):
        seat = rules.acting_seat(state)
        action = greedy(state, rng)
        before, state = state, rules.apply_action(state, action)
        moves.append(
            Move(game=game, seq=state.step, seat=seat, turn=before.turn_no, action=action,
                 log=rules.log_tokens(state), changes=rules.changes(before, state))
        )  # fmt: skip
    seats = {s.user_id: s.number for s in game.seats.all()}
    totals = [0] * game.num_players
    for score, user in zip((100, 50), winner_first, strict=False):
        totals[seats[user.pk]] = score
    return moves, with_totals(state, totals)


def end_at_once(game_id: int, moves: list[Move], state: object) -> None:
    """The game's last move as a worker stores it: under the game's lock, game_over (the
    record, then the table) in the same transaction."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        Move.objects.bulk_create(moves)
        game.store_state(state)
        game.version += len(moves)
        game.save()
        events.game_over.send(Game, game=game, state=state)  # players records it first


def test_the_last_two_games_ending_at_once_both_count_and_round_two_comes_once(
    postgres, anna, slow_refresh
):
    players = field(4)
    found = started(anna, players, rounds=2)
    tables = list(Table.objects.filter(tournament=found).order_by("number"))
    endings = []
    for table in tables:
        users = sorted(table_users(table), key=lambda u: u.username)
        endings.append((table.game_id, *final_state(table.game, users)))

    answers = at_once(*(partial(end_at_once, *ending) for ending in endings))

    assert [kind for kind, *_ in answers] == ["ok", "ok"], answers
    found.refresh_from_db()
    assert found.current_round == 2
    assert Round.objects.filter(tournament=found, number=2).count() == 1
    assert Table.objects.filter(tournament=found, round__number=2).count() == 2
    points = sorted(row["points"] for row in found.standings)
    assert points == [0, 0, 1, 1]  # both results in the standings
    assert Table.objects.filter(tournament=found, round__number=1, finished_at=None).count() == 0


def test_sign_ups_racing_for_the_last_places_never_pass_the_limit(postgres, anna):
    found = make_tournament(anna, max_players=2)
    racers = field(4)

    answers = at_once(*(partial(signup.sign_up, found, user) for user in racers))

    assert outcomes(answers) == ["Conflict", "Conflict", "applied", "applied"], answers
    assert Entry.objects.filter(tournament=found).count() == 2


def test_a_double_clicked_sign_up_makes_one_entry(postgres, anna, ben):
    found = make_tournament(anna)
    tabs = [Client(), Client()]
    for tab in tabs:
        tab.force_login(ben)
    url = reverse("tournaments:join", args=[found.pk])

    answers = at_once(*(partial(tab.post, url) for tab in tabs))

    assert sorted(value.status_code for _, value, *_ in answers) == [302, 303]
    assert Entry.objects.filter(tournament=found, user=ben).count() == 1
