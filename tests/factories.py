"""factory-boy factories shared by the web tests."""

from __future__ import annotations

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

PASSWORD = "firenze-towers-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.LazyAttribute(lambda u: u.username.capitalize())
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")

    @factory.post_generation
    def password(self, create: bool, extracted: str | None, **kwargs: object) -> None:
        self.set_password(extracted or PASSWORD)
        if create:
            self.save(update_fields=["password"])

    @factory.post_generation
    def verified(self, create: bool, extracted: bool | None, **kwargs: object) -> None:
        """A verified primary address, as allauth requires before login."""
        if create and extracted is not False:
            EmailAddress.objects.get_or_create(
                user=self, email=self.email, defaults={"verified": True, "primary": True}
            )


def finished_record(
    players: list,
    pp: list[int],
    *,
    finished_at=None,
    days: int = 3,
    campanile: bool = False,
    is_public: bool = True,
    rated: bool = True,
    turns: int = 60,
):
    """A finished game as the history lists it (game, seats, record, results) without playing
    it: for lists that need many games. ``players`` are users or bot names ("greedy"); ``pp``
    their final PP in seat order. The game has no state: it is never opened."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game, Seat
    from games.rules.firenze.engine import SEAT_COLOURS
    from players.models import GameRecord, SeatResult
    from players.results import places

    finished_at = finished_at or timezone.now()
    people = [p for p in players if not isinstance(p, str)]
    game = Game.objects.create(
        creator=people[0],
        num_players=len(players),
        options={"campanile": campanile, "neutral_seals": 5, "seal_placement": "recommended"},
        status=Game.Status.FINISHED,
        is_public=is_public,
        version=turns * 3,
    )
    record = GameRecord.objects.create(
        game=game,
        started_at=finished_at - timedelta(days=days),
        finished_at=finished_at,
        num_players=len(players),
        is_public=is_public,
        engine_name="firenze",
        details={"campanile": campanile, "seal_placement": "recommended", "neutral_seals": 5},
        facets=f";campanile={'on' if campanile else 'off'};",
        turns=turns,
        moves=turns * 3,
        rated=rated,
    )
    ranks = places(pp)
    for number, (who, points) in enumerate(zip(players, pp, strict=True)):
        bot = who if isinstance(who, str) else ""
        user = None if bot else who
        seat = Seat.objects.create(
            game=game, user=user, bot=bot, number=number, colour=SEAT_COLOURS[number]
        )
        SeatResult.objects.create(
            record=record,
            user=user,
            seat=number,
            name=seat.name,
            bot=bot,
            place=ranks[number],
            score=points,
            won=ranks[number] == 1,
            steps=turns,
            finished_at=finished_at,
            is_public=is_public,
        )
    return record
