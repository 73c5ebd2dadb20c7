"""The page of a game still being formed (or cancelled before it started): its seats, the
invitations, the bot and invite forms, and why this viewer may not sit (instead of the button
the join would refuse). The game page (games.page) shows it whole, without the engine's parts."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games import admission
from games.forms import BotLevelForm, InviteForm
from games.models import Game, Seat
from games.viewer import Viewer


def forming_context(
    viewer: Viewer, game: Game, seats: list[Seat], mine: Seat | None
) -> dict[str, Any]:
    """The forming page's own part, finished; ``seats`` as Game.seats_for_page reads them,
    ``mine`` the viewer's seat among them."""
    is_creator = viewer.signed_in and viewer.user.pk == game.creator_id
    invitations = list(game.invitations.select_related("user")) if game.is_open else []
    free_seats = max(0, game.num_players - len(seats)) if game.is_open else 0
    seeks_seat = viewer.signed_in and free_seats > 0 and mine is None
    return {
        "join_refusal": admission.refusal(viewer.user, game) if seeks_seat else None,
        "is_creator": is_creator,
        "free_seats": free_seats,
        "open_seat_slots": range(free_seats),
        "invite_form": InviteForm(),
        "bot_form": BotLevelForm(engine=game.engine, auto_id="bot-%s"),
        "invite_url": viewer.absolute(reverse("games:invite_link", args=[game.invite_token])),
        "invited_players": [i for i in invitations if not i.by_email and i.user_id],
        "invited_addresses": [i for i in invitations if i.by_email] if is_creator else [],
        "invited_elsewhere": 0 if is_creator else sum(1 for i in invitations if i.by_email),
    }
