"""`{{ colour|colour_name }}`, `{{ kind|card_kind }}`, `{{ card|card_name }}`,
`{{ count|bricks_of:colour }}`: Firenze's words in the player's language (firenze/wording.py)."""

from __future__ import annotations

from django import template

from games.rules.firenze.wording import (
    bricks_of_colour,
    card_kind,
    card_name,
    card_names,
    colour_name,
)

register = template.Library()
register.filter("colour_name", colour_name)
register.filter("card_kind", card_kind)
register.filter("card_name", card_name)
register.filter("card_names", card_names)


@register.filter
def bricks_of(count: int, colour: str) -> str:
    """ "4 white", the colour agreeing with the number ("4 bianchi")."""
    return bricks_of_colour(int(count), colour)
