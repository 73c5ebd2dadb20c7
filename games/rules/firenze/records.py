"""What Firenze's finished games keep for the history and profiles (players.GameRecord's and
SeatResult's details), and how lists and profiles put it in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy, ngettext

from games.rules.firenze import rules
from games.rules.firenze.rules.data import COLORS
from games.rules.firenze.wording import colour_name
from games.rules.protocol import RecordFacet

FACETS = (
    RecordFacet(
        key="campanile",
        label="Campanile",
        choices=(
            ("", gettext_lazy("With or without")),
            ("on", gettext_lazy("With the Campanile")),
            ("off", gettext_lazy("Without")),
        ),
    ),
)


def record_details(state: rules.State) -> dict[str, Any]:
    """Its options, the Campanile as a facet of the history, and per seat the commissions
    sealed per colour (a profile shows the favourite colour)."""
    view = rules.player_view(state, None)
    options = view["options"]
    sealed = [dict.fromkeys(COLORS, 0) for _ in range(view["num_players"])]
    for square in view["board"]["commissions"]:
        seal = square["seal"]
        if isinstance(seal, int):  # a seat's seal, not an open or neutral square
            sealed[seal][square["color"]] += 1
    return {
        "game": {
            "campanile": bool(options["campanile"]),
            "seal_placement": options["seal_placement"],
            "neutral_seals": options["neutral_seals"],
        },
        "facets": {"campanile": "on" if options["campanile"] else "off"},
        "seats": sealed,
    }


def describe_options(options: Mapping[str, Any]) -> list[str]:
    """A game's options in words, as lists of games and the finished page show them."""
    placement = options.get("seal_placement", "recommended")
    labels = ["Campanile"] if options.get("campanile") else []
    if placement == "dead_color":
        labels.append(gettext("dead-colour seals"))
    else:
        seals = options.get("neutral_seals", 0)
        count = ngettext("%(count)s neutral seal", "%(count)s neutral seals", seals)
        wording = gettext("random placement" if placement == "random" else "recommended placement")
        labels.append(f"{count % {'count': seals}}, {wording}")
    return labels


def career_facts(tallies: Mapping[str, int]) -> list[tuple[str, str]]:
    """The favourite tower: the colour of most commissions sealed over the player's games."""
    sealed = {colour: tallies.get(colour) or 0 for colour in COLORS}
    if not any(sealed.values()):
        return [(gettext("Favourite tower"), "–")]
    favourite = max(COLORS, key=lambda colour: sealed[colour])
    chip = format_html(
        '<span class="brick brick-{}" aria-hidden="true">{}</span> {}',
        favourite,
        favourite[:1].upper(),
        colour_name(favourite),
    )
    return [(gettext("Favourite tower"), chip)]
