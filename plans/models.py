"""A seat's planned turn and what the site did with it: private to the seat's player."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game


class Plan(models.Model):
    """The steps of one seat's next turn, each as {"intent": ..., "text": ...}: the engine's
    intent (Rules.plan_intent) and its wording when it was planned."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    steps = models.JSONField(default=list)
    created = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_plan_a_seat")]

    def __str__(self) -> str:
        return f"plan of seat {self.seat} in game {self.game_id}"


class PlanOutcome(models.Model):
    """What a plan did when its turn came: the steps played (in words) and, if it stopped
    early, before which step (0-based) and why (an engine's key, "changed" or "ended")."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    played = models.JSONField(default=list)
    planned = models.PositiveSmallIntegerField()
    stopped_before = models.PositiveSmallIntegerField(null=True)
    reason = models.CharField(max_length=40, blank=True)
    # Why it stopped, as the engine tells it (Rules.plan_why; Presentation.plan_why_text words
    # it in the reader's language when shown): public facts only.
    why = models.JSONField(default=dict, blank=True)
    # The steps the owner's standing orders took after the plan, in words.
    ordered = models.JSONField(default=list, blank=True)
    # The intents of the played and ordered steps, in that order (Rules.plan_intent): worded
    # again in the reader's language when shown, as the plan ran in whoever's request moved.
    intents = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"plan outcome of seat {self.seat} in game {self.game_id}"

    @property
    def in_full(self) -> bool:
        return self.stopped_before is None


class StandingOrders(models.Model):
    """The standing orders one seat's player switched on (keys of the engine's
    Presentation.standing_orders): they stand from turn to turn, beside any plan, and are as
    private as the plan."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    orders = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_set_of_orders_a_seat")
        ]

    def __str__(self) -> str:
        return f"standing orders of seat {self.seat} in game {self.game_id}"
