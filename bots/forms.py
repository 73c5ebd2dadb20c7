"""Every value posted to the bots app, read through a form: the takeover preference and the
request for a review (nothing but the CSRF token). The field offering an engine's levels,
`bot_level_field`, lives with the games app's forms (the create form, "Seat a bot" and quick
play use it too), so the games app never imports this one.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import bot_level_field
from games.rules import protocol, registry


class TakeoverForm(forms.Form):
    """Who plays my turn when my time runs out (and my seat once the autopilot keeps it)."""

    def __init__(self, *args: Any, engine: protocol.Engine | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine or registry.default()
        self.fields["level"] = bot_level_field(
            self.engine,
            label=_("When my time runs out, my turn is played by"),
            help_text=_(
                "The bot that plays your turn when the clock runs out, and your seat once "
                "the autopilot keeps it after repeated timeouts."
            ),
        )


class ReviewForm(forms.Form):
    """Asking for a review posts nothing but the CSRF token."""
