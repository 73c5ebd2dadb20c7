"""A new game as the create form describes it: the create page and the API's create both come
here, so both offer the same choices (options, clock, days off, bots) and check them the same
way (games.forms.CreateGameForm); create_for_two is the game another app asks for between two
players (a club's ladder challenge), with the lobby's checks."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction

from games import lobby
from games.forms import CreateGameForm
from games.models import Game


def create_from_form(user: Any, form: CreateGameForm) -> Game:
    """The game with the creator's seat and the bots chosen, or nothing (a GameError)."""
    data = form.cleaned_data
    with transaction.atomic():  # the game with its bots, or nothing
        game = lobby.create_game(
            user,
            name=data["name"],
            num_players=data["num_players"],
            options=form.options(),
            engine_name=form.engine.name,
            time_limit=timedelta(seconds=int(data["time_limit"])),
            time_control=form.time_control(),
            is_public=data["is_public"],
            auto_start=data["auto_start"],
        )
        for level in form.bot_levels():
            lobby.add_bot(game, user, bot=level)
    return game


def create_for_two(creator: Any, invitee: Any, *, name: str, is_public: bool) -> Game:
    """A game of the default engine for two, its creator seated and ``invitee`` invited: it
    starts when they take their seat (another app's challenge between two players)."""
    with transaction.atomic():  # the game with its invitation, or nothing
        game = lobby.create_game(creator, num_players=2, name=name, is_public=is_public)
        lobby.invite(game, creator, invitee.display_name)
    return game
