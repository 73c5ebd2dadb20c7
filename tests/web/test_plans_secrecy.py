"""A plan and what it played are its owner's alone, before and after the game: a marker put in
the plan's words shows on the owner's planning page and nowhere anybody else can look."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from plans.models import Plan, PlanOutcome
from tests.web.helpers import signed_in, started_game

pytestmark = pytest.mark.django_db

MARKER = "Zq7-secret-plan-step"


def test_it_shows_a_plan_and_its_outcome_to_nobody_but_its_owner(anna, ben, carla):
    game = started_game(anna, ben, seed=31)
    seats = {s.user_id: int(s.number or 0) for s in game.seats.all()}
    owner = anna if seats[anna.pk] != game.acting_seat else ben
    other = ben if owner is anna else anna
    step = {"action": {"type": "end_turn"}, "intent": {"type": "end_turn"}, "text": MARKER}
    Plan.objects.create(game=game, seat=seats[owner.pk], user=owner, steps=[step])
    plan_url = reverse("plans:plan", args=[game.pk])
    assert MARKER in signed_in(owner).get(plan_url).content.decode()  # the marker is shown
    paths = [reverse(name, args=[game.pk]) for name in ("games:detail", "games:log")]
    viewers = [signed_in(other), signed_in(carla), Client()]
    for viewer in viewers:
        for path in [*paths, plan_url]:
            assert MARKER not in viewer.get(path).content.decode(), path

    Plan.objects.all().delete()
    PlanOutcome.objects.create(
        game=game, seat=seats[owner.pk], user=owner, played=[MARKER], planned=1
    )
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert MARKER in signed_in(owner).get(plan_url).content.decode()
    paths.append(reverse("games:export", args=[game.pk]))
    for viewer in viewers:
        for path in [*paths, plan_url]:
            assert MARKER not in viewer.get(path).content.decode(), path
