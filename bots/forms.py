"""Every value posted to the bots app, read through a form: a bot level (create form, seating a
bot, the takeover preference) and the request for a review (nothing but the CSRF token).

`bot_level_field` is the one field that offers an engine's levels: the platform's create form,
the forming game's "Seat a bot" and a one-click "play against bots" form all use it.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.rules import protocol, registry


def level_choices(engine: protocol.Engine) -> list[tuple[str, Any]]:
    """(key, name in the reader's language) for each of the engine's levels, weakest first."""
    return [(level.key, level.label) for level in engine.bot_levels]


def bot_level_field(
    engine: protocol.Engine,
    *,
    label: Any = None,
    blank: Any = None,
    initial: str | None = None,
    help_text: Any = "",
) -> forms.ChoiceField:
    """A choice of the engine's bot levels; with `blank`, an empty choice first (labelled so)."""
    choices = level_choices(engine)
    if blank is not None:
        choices = [("", blank), *choices]
    return forms.ChoiceField(
        label=label if label is not None else _("Bot level"),
        choices=choices,
        required=blank is None,
        initial=initial
        if initial is not None
        else ("" if blank is not None else engine.default_bot),
        help_text=help_text,
    )


class BotLevelForm(forms.Form):
    """The level of a bot the creator seats (games: Seat a bot)."""

    def __init__(self, *args: Any, engine: protocol.Engine | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine or registry.default()
        self.fields["level"] = bot_level_field(self.engine)


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
