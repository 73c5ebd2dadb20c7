"""Planned turns on the second engine, Nim: a plan set while the other player thinks is played
by the site when the turn comes, stops at the first step that no longer holds, and every bad
plan is refused with a reason, nothing kept."""

from __future__ import annotations

import pytest

from games import lobby
from games.errors import Conflict, RequestRefused
from games.models import Game
from games.play import move
from plans import service
from plans.models import Plan, PlanOutcome
from plans.sandbox import next_choices

pytestmark = pytest.mark.django_db


def nim_game(nim, creator, *others, stones: int = 9) -> Game:
    game = lobby.create_game(
        creator, num_players=1 + len(others), options={"stones": stones}, engine_name=nim.name
    )
    for user in others:
        lobby.join(game, user)
    game.refresh_from_db()
    return game


def seated(game: Game) -> tuple:
    """(the acting user, the waiting user)."""
    seats = {s.number: s.user for s in game.seats.select_related("user")}
    acting = game.acting_seat
    return seats[acting], seats[1 - acting]


def test_it_plays_a_plan_in_full_when_the_turn_comes(nim, anna, ben):
    game = nim_game(nim, anna, ben)
    mover, planner = seated(game)
    service.set_plan(game.pk, planner, [{"type": "take", "n": 2}, {"type": "end_turn"}])
    move(game.pk, mover, {"type": "take", "n": 1}, None)
    move(game.pk, mover, {"type": "end_turn"}, None)
    game.refresh_from_db()
    state = game.load_state()
    assert state.d["pile"] == 6
    assert game.acting_seat == mover.seats.get(game=game).number  # the plan ended the turn
    outcome = PlanOutcome.objects.get(game=game, user=planner)
    assert outcome.in_full and outcome.played == ["Take 2", "End the turn"]
    assert not Plan.objects.filter(game=game).exists()
    # The move log holds the planned steps as the planner's own: it replays identically.
    moves = list(game.moves.order_by("seq").values_list("seat", "action"))
    planner_seat = planner.seats.get(game=game).number
    assert moves[2:] == [
        (planner_seat, {"type": "take", "n": 2}),
        (planner_seat, {"type": "end_turn"}),
    ]
    assert game.replayed_state([a for _, a in moves]).d == state.d


def test_it_stops_a_plan_at_the_first_step_that_no_longer_holds(nim, anna, ben):
    game = nim_game(nim, anna, ben, stones=5)
    mover, planner = seated(game)
    service.set_plan(game.pk, planner, [{"type": "take", "n": 3}, {"type": "end_turn"}])
    move(game.pk, mover, {"type": "take", "n": 3}, None)  # leaves 2: taking 3 no longer holds
    move(game.pk, mover, {"type": "end_turn"}, None)
    game.refresh_from_db()
    outcome = PlanOutcome.objects.get(game=game, user=planner)
    assert outcome.played == [] and outcome.stopped_before == 0 and outcome.reason == "changed"
    assert game.load_state().d["pile"] == 2  # nothing played for the planner
    assert game.acting_seat == planner.seats.get(game=game).number


def test_it_drops_the_plan_when_the_owner_changes_or_drops_it(nim, anna, ben):
    game = nim_game(nim, anna, ben)
    mover, planner = seated(game)
    service.set_plan(game.pk, planner, [{"type": "take", "n": 1}])
    service.set_plan(game.pk, planner, [{"type": "take", "n": 3}])
    plan = service.plan_of(game.pk, planner)
    assert plan is not None and plan.steps[0]["text"] == "Take 3"
    assert service.drop_plan(game.pk, planner) is True
    assert service.plan_of(game.pk, planner) is None


def test_it_refuses_a_plan_it_cannot_keep(nim, anna, ben, carla):
    game = nim_game(nim, anna, ben)
    mover, planner = seated(game)
    with pytest.raises(service.NoSuchPlan):
        service.set_plan(game.pk, carla, [{"type": "take", "n": 1}])
    with pytest.raises(Conflict, match="your turn"):
        service.set_plan(game.pk, mover, [{"type": "take", "n": 1}])
    with pytest.raises(RequestRefused, match="Step 1 is not possible"):
        service.set_plan(game.pk, planner, [{"type": "take", "n": 7}])
    with pytest.raises(RequestRefused, match="Step 3 comes after your turn"):
        service.set_plan(
            game.pk,
            planner,
            [{"type": "take", "n": 1}, {"type": "end_turn"}, {"type": "take", "n": 1}],
        )
    with pytest.raises(RequestRefused, match="more steps than a turn"):
        service.set_plan(game.pk, planner, [{"type": "end_turn"}] * 41)
    with pytest.raises(RequestRefused, match="not possible"):
        service.set_plan(game.pk, planner, ["take", None])
    assert not Plan.objects.exists()


def test_it_refuses_to_plan_a_finished_game(nim, anna, ben):
    game = nim_game(nim, anna, ben, stones=5)
    mover, planner = seated(game)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(Conflict, match="over"):
        service.set_plan(game.pk, planner, [{"type": "take", "n": 1}])


def test_it_plays_whole_games_where_every_seat_plans_its_next_turn(nim, anna, ben):
    """The bench's experiment on Nim: every seat plans right after its turn (the sandbox's
    first offer, then ending the turn); plans run when the turn comes, hand moves do the rest."""
    full = stopped = 0
    for _game_no in range(4):
        game = nim_game(nim, anna, ben, stones=11)
        users = {s.number: s.user for s in game.seats.select_related("user")}
        while not game.is_finished:
            seat = game.acting_seat
            state = game.load_state()
            if state.d["taken"] == 0:
                move(game.pk, users[seat], {"type": "take", "n": 1}, None)
            game.refresh_from_db()
            if game.is_finished:
                break
            move(game.pk, users[seat], {"type": "end_turn"}, None)
            game.refresh_from_db()
            if game.is_finished or game.acting_seat == seat:
                continue
            start = service.sandbox_state(game, seat)
            offers = next_choices(game.engine, start, seat, [])
            if offers:
                take = offers[-1]["action"]
                service.set_plan(game.pk, users[seat], [take, {"type": "end_turn"}])
        for outcome in PlanOutcome.objects.filter(game=game):
            full += outcome.in_full
            stopped += not outcome.in_full
            assert outcome.in_full or outcome.reason in ("changed", "ended")
        log = list(game.moves.order_by("seq").values_list("action", flat=True))
        assert game.replayed_state(log).d == game.load_state().d
    assert full > 0 and full + stopped > 0


def test_it_keeps_no_plan_once_its_owner_moved_by_hand(nim, anna, ben):
    game = nim_game(nim, anna, ben, stones=5)
    mover, planner = seated(game)
    service.set_plan(game.pk, planner, [{"type": "take", "n": 3}, {"type": "end_turn"}])
    move(game.pk, mover, {"type": "take", "n": 3}, None)
    move(game.pk, mover, {"type": "end_turn"}, None)  # leaves 2: the plan stops at step 1
    move(game.pk, planner, {"type": "take", "n": 1}, None)  # the owner plays by hand
    move(game.pk, planner, {"type": "end_turn"}, None)
    game.refresh_from_db()
    assert game.load_state().d["pile"] == 1  # the hand move, and nothing of the plan
    assert PlanOutcome.objects.filter(game=game, user=planner).count() == 1
    assert service.plan_of(game.pk, planner) is None
    assert not Plan.objects.filter(game=game).exists()
