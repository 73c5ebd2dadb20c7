"""The planning page: a waiting player takes steps in the sandbox of their view, undoes one,
keeps the plan and drops it; nobody else sees it, and a bad post is refused, not a 500."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from plans.models import Plan
from tests.web.helpers import offered_actions, signed_in, started_game

pytestmark = pytest.mark.django_db


def seated(game, *users):
    acting = next(u for u in users if game.seats.get(user=u).number == game.acting_seat)
    return acting, next(u for u in users if u is not acting)


def steps_of(html: str) -> str:
    found = re.search(r'name="steps" value="([^"]*)"', html)
    return found.group(1).replace("&quot;", '"') if found else "[]"


def test_it_plans_undoes_keeps_and_drops_in_the_sandbox(anna, ben, django_assert_max_num_queries):
    game = started_game(anna, ben, seed=31)
    acting, waiting = seated(game, anna, ben)
    client = signed_in(waiting)
    url = reverse("plans:plan", args=[game.pk])
    game_page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert url in game_page
    with django_assert_max_num_queries(12):
        page = client.get(url).content.decode()
    first = offered_actions(page)[0]
    step = reverse("plans:sandbox", args=[game.pk])
    answer = client.post(step, {"action": json.dumps(first), "version": game.version})
    assert answer.status_code == 302  # to the sandbox's address with the step in it
    page = client.get(answer["Location"]).content.decode()
    assert "Undo a step" in page
    taken = steps_of(page)
    assert json.loads(taken) == [first]
    undo = reverse("plans:sandbox_undo", args=[game.pk]) + answer["Location"].split(url)[1]
    page = client.get(client.post(undo, {"version": game.version})["Location"]).content.decode()
    assert "No step taken yet." in page and "Undo a step" not in page
    response = client.post(url, {"steps": taken, "do": "save"})
    assert response.status_code == 302
    plan = Plan.objects.get(game=game)
    page = client.get(url).content.decode()
    assert plan.steps[0]["text"] in page
    # The opponent's game page and planning page never show it.
    other = signed_in(acting)
    assert plan.steps[0]["text"] not in other.get(url).content.decode()
    for path in ("games:detail", "games:log"):
        shown = other.get(reverse(path, args=[game.pk])).content.decode()
        assert plan.steps[0]["text"] not in shown and "Your plan" not in shown
    client.post(url, {"do": "drop"})
    assert not Plan.objects.exists()


def test_it_refuses_outsiders_and_bad_posts(anna, ben, carla, client):
    game = started_game(anna, ben, seed=31)
    acting, waiting = seated(game, anna, ben)
    url = reverse("plans:plan", args=[game.pk])
    assert client.get(url).status_code == 302  # sign in first
    outsider = signed_in(carla).get(url)
    assert outsider.status_code == 404  # someone else's plan does not exist for an outsider
    nowhere = signed_in(carla).get(reverse("plans:plan", args=[game.pk + 1000]))
    assert nowhere.status_code == 404
    for answer in (outsider, nowhere):
        assert "No such game." in answer.content.decode()
    mine = signed_in(acting).get(url)
    assert mine.status_code == 409 and "your turn" in mine.content.decode()
    for bad in (
        {"steps": "[[[[[[[1]]]]]]]", "do": "add"},
        {"steps": "nope", "do": "save"},
        {"steps": '[{"type": "fly"}]', "do": "save"},
        {"do": "explode"},
    ):
        response = signed_in(waiting).post(url, bad)
        assert response.status_code in (400, 409), bad
    assert not Plan.objects.exists()
