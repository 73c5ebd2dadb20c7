"""`make run` set-up: a demo account with a game against two bots waiting for its move."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games import lobby
from games.models import Game
from games.play import run_bots

DEMO_EMAIL = "demo@firenze.local"
DEMO_PASSWORD = "firenze-demo"


class Command(BaseCommand):
    help = "Create (or refresh) the demo account and make sure it has a game against two bots."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username="demo", defaults={"email": DEMO_EMAIL, "display_name": "Demo"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        EmailAddress.objects.update_or_create(
            user=user, email=DEMO_EMAIL, defaults={"verified": True, "primary": True}
        )
        game = (
            Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE)
            .order_by("-created")
            .first()
        )
        if game is None:
            with transaction.atomic():
                game = lobby.create_game(user, num_players=3)
                lobby.add_bot(game, user)
                lobby.add_bot(game, user)  # the table is full: the game starts
            run_bots(game.pk)  # the bots move before the demo player if they sit first
        link = f"{settings.SITE_URL}/games/{game.pk}/"
        self.stdout.write(
            self.style.SUCCESS(f"Demo login: {DEMO_EMAIL} / {DEMO_PASSWORD} -> {link}")
        )
