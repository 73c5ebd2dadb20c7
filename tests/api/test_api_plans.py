"""The API of planned turns: a waiting player builds a plan in the sandbox of their own view,
keeps it, reads it back, and the site plays it when the turn comes. Nobody else reads it."""

from __future__ import annotations

import random

import pytest

from games.models import Game
from games.play import store_step
from games.rules import moves
from plans.models import Plan
from tests.web.helpers import started_game

pytestmark = pytest.mark.django_db


def acting_and_waiting(game: Game, *users):
    acting = next(u for u in users if game.seats.get(user=u).number == game.acting_seat)
    waiting = next(u for u in users if u is not acting)
    return acting, waiting


def build_plan(client, pk: int) -> list[dict]:
    """Take the sandbox's last offer each time (often ending a phase) until it offers none."""
    steps: list[dict] = []
    while True:
        answer = client.post(f"/games/{pk}/plan/sandbox", {"steps": steps})
        assert answer.status_code == 200, answer.content
        choices = answer.json()["choices"]
        if not choices or len(steps) >= 12:
            return steps
        steps.append(choices[-1]["action"])


def play_turn_by_bot(game: Game) -> None:
    """The acting seat's whole turn as the Standard bot plays it, through the move service."""
    game.refresh_from_db()
    seat = game.acting_seat
    rng = random.Random(5)
    while game.acting_seat == seat and not game.is_finished:
        step = moves.bot_step(game.engine, game.load_state(), "standard", rng)
        store_step(game, seat, step)


def test_it_keeps_a_plan_from_the_sandbox_and_plays_it_when_the_turn_comes(api_as, anna, ben):
    game = started_game(anna, ben, seed=31)
    acting, waiting = acting_and_waiting(game, anna, ben)
    client = api_as(waiting)
    steps = build_plan(client, game.pk)
    assert steps
    kept = client.put(f"/games/{game.pk}/plan", {"steps": steps})
    assert kept.status_code == 200, kept.content
    words = kept.json()["steps"]
    assert len(words) == len(steps) and all(isinstance(w, str) and w for w in words)
    assert client.get(f"/games/{game.pk}/plan").json()["steps"] == words
    before = game.moves.count()
    play_turn_by_bot(game)
    outcome = client.get(f"/games/{game.pk}/plan").json()
    assert outcome["steps"] == []  # played (or stopped): the plan is gone
    assert outcome["last_outcome"]["planned"] == len(steps)
    played = outcome["last_outcome"]["played"]
    assert played and played == words[: len(played)]
    game.refresh_from_db()
    log = list(game.moves.order_by("seq").values_list("action", flat=True))
    assert len(log) >= before  # every stored step replays: no illegal move was made
    assert game.engine.to_dict(game.replayed_state(log)) == game.engine.to_dict(game.load_state())


def test_it_shows_a_plan_to_its_owner_only(api_as, anna, ben, carla):
    game = started_game(anna, ben, seed=31)
    acting, waiting = acting_and_waiting(game, anna, ben)
    steps = build_plan(api_as(waiting), game.pk)
    words = api_as(waiting).put(f"/games/{game.pk}/plan", {"steps": steps}).json()["steps"]
    assert api_as(acting).get(f"/games/{game.pk}/plan").json()["steps"] == []
    outsider = api_as(carla).get(f"/games/{game.pk}/plan")
    assert outsider.status_code == 404 and outsider.json()["code"] == "not_found"
    nowhere = api_as(carla).get(f"/games/{game.pk + 1000}/plan")
    assert nowhere.status_code == 404 and nowhere.json() == outsider.json()
    assert api_as(None).get(f"/games/{game.pk}/plan").status_code in (401, 403)
    for reader in (acting, carla):
        for path in (f"/games/{game.pk}", f"/games/{game.pk}/log"):
            text = api_as(reader, "read").get(path).content.decode()
            assert not any(word in text for word in words)


def test_it_refuses_plans_it_cannot_keep(api_as, anna, ben, carla):
    game = started_game(anna, ben, seed=31)
    acting, waiting = acting_and_waiting(game, anna, ben)
    refused = api_as(acting).put(f"/games/{game.pk}/plan", {"steps": [{"type": "end_turn"}]})
    assert refused.status_code == 409 and "your turn" in refused.json()["message"]
    outsider = api_as(carla).put(f"/games/{game.pk}/plan", {"steps": [{"type": "end_turn"}]})
    assert outsider.status_code == 404
    never = api_as(waiting).put(f"/games/{game.pk}/plan", {"steps": [{"type": "fly"}]})
    assert never.status_code == 400 and "Step 1" in never.json()["message"]
    too_many = api_as(waiting).put(f"/games/{game.pk}/plan", {"steps": [{"type": "x"}] * 41})
    assert too_many.status_code == 400
    read_only = api_as(waiting, "read").put(f"/games/{game.pk}/plan", {"steps": []})
    assert read_only.status_code == 403
    assert not Plan.objects.exists()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    over = api_as(waiting).put(f"/games/{game.pk}/plan", {"steps": [{"type": "end_turn"}]})
    assert over.status_code == 409


def test_it_drops_a_plan_on_request(api_as, anna, ben):
    game = started_game(anna, ben, seed=31)
    _acting, waiting = acting_and_waiting(game, anna, ben)
    client = api_as(waiting)
    client.put(f"/games/{game.pk}/plan", {"steps": build_plan(client, game.pk)})
    assert client.delete(f"/games/{game.pk}/plan").status_code == 200
    assert client.get(f"/games/{game.pk}/plan").json()["steps"] == []


def test_it_reads_and_sets_the_standing_orders_and_refuses_bad_ones(api_as, anna, ben, carla):
    game = started_game(anna, ben, seed=31)
    acting, waiting = acting_and_waiting(game, anna, ben)
    client = api_as(waiting)
    offered = client.get(f"/games/{game.pk}/plan").json()["standing_orders"]
    assert [o["key"] for o in offered] == ["skip_exchange", "end_turn"]
    assert not any(o["on"] for o in offered) and all(o["label"] for o in offered)
    kept = client.put(f"/games/{game.pk}/plan/orders", {"orders": ["end_turn"]})
    assert kept.status_code == 200, kept.content
    assert [o["on"] for o in kept.json()["standing_orders"]] == [False, True]
    # On one's own turn too: orders stand from turn to turn.
    assert api_as(acting).put(f"/games/{game.pk}/plan/orders", {"orders": []}).status_code == 200
    unknown = client.put(f"/games/{game.pk}/plan/orders", {"orders": ["skip_exchange", "fly"]})
    assert unknown.status_code == 400 and "“fly”" in unknown.json()["message"]
    outsider = api_as(carla).put(f"/games/{game.pk}/plan/orders", {"orders": []})
    assert outsider.status_code == 404
    read_only = api_as(waiting, "read").put(f"/games/{game.pk}/plan/orders", {"orders": []})
    assert read_only.status_code == 403
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    over = client.put(f"/games/{game.pk}/plan/orders", {"orders": ["end_turn"]})
    assert over.status_code == 409 and "over" in over.json()["message"]
    after = client.get(f"/games/{game.pk}/plan").json()["standing_orders"]
    assert [o["on"] for o in after] == [False, True]  # nothing half applied


def test_the_schema_lists_the_standing_orders(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert "put" in schema["paths"]["/api/v1/games/{pk}/plan/orders"]
    plan_out = schema["components"]["schemas"]["PlanOut"]["properties"]
    assert "standing_orders" in plan_out
    outcome = schema["components"]["schemas"]["PlanOutcomeOut"]["properties"]
    assert {"why", "ordered"} <= set(outcome)
