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


def test_it_tells_what_a_plan_did_to_its_owner_and_to_nobody_else(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    """The notice of a played plan (its steps, its standing orders, why it stopped) reaches
    its owner's mailbox and planning page; no other player's email, page or outbox row has it,
    and the owner's webhook is never used for it."""
    from django.core import mail

    from games import events
    from notifications.models import Notification, Webhook

    game = started_game(anna, ben, carla, seed=31)
    seats = {s.user_id: int(s.number or 0) for s in game.seats.all()}
    owner = next(u for u in (anna, ben, carla) if seats[u.pk] != game.acting_seat)
    others = [u for u in (anna, ben, carla) if u is not owner]
    for user in (owner, *others):
        Webhook.objects.create(user=user, url=f"https://hooks.example.com/{user.pk}", format="json")
    outcome = PlanOutcome.objects.create(
        game=game,
        seat=seats[owner.pk],
        user=owner,
        played=[MARKER + "-played"],
        ordered=[MARKER + "-ordered"],
        planned=2,
        stopped_before=1,
        reason="changed",
        why={"key": "taken", "card": MARKER + "-why", "by": seats[others[0].pk]},
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        events.plan_played.send(
            Game,
            game=game,
            seat=outcome.seat,
            user_id=owner.pk,
            outcome_id=outcome.pk,
            in_full=False,
        )
    (told,) = [m for m in mail.outbox if owner.email in m.to]
    for part in ("-played", "-ordered", "-why"):
        assert MARKER + part in told.body
    assert {r.channel for r in Notification.objects.filter(kind="plan")} == {"email"}
    assert not Notification.objects.filter(kind="plan").exclude(user=owner).exists()
    for message in mail.outbox:
        if owner.email not in message.to:
            whole = message.subject + message.body + str(message.alternatives)
            assert MARKER not in whole
    plan_url = reverse("plans:plan", args=[game.pk])
    assert MARKER + "-why" in signed_in(owner).get(plan_url).content.decode()
    paths = [reverse(n, args=[game.pk]) for n in ("games:detail", "games:log")] + [plan_url]
    for viewer in [*(signed_in(u) for u in others), Client()]:
        for path in [*paths, f"/api/v1/games/{game.pk}/plan"]:
            assert MARKER not in viewer.get(path).content.decode(), path
