"""Bot accounts: an account a program plays through the API (as Lichess's BOT accounts).

An account becomes a bot account for good, and only before it has played: its games and rating
would otherwise mix a person's play with a program's. From then on it is marked as a bot
wherever its name appears, plays only through the API (api.middleware refuses its posts to
the pages), can be invited to a seat like anyone, and its games are rated in a pool of their
own (players.results).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict
from games.models import Seat


def make_bot_account(user: Any) -> None:
    """Turn ``user`` into a bot account; Conflict if it has sat at a table already."""
    with transaction.atomic():
        if user.bot_account:
            raise Conflict(_("This account is a bot account already."))
        if Seat.objects.filter(user=user).exists() or user.results.exists():
            raise Conflict(
                _(
                    "Only an account that has never taken a seat can become a bot account; "
                    "make a new account for your bot."
                )
            )
        user.bot_account = True
        user.save(update_fields=["bot_account"])
