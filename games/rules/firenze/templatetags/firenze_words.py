"""`{{ colour|colour_name }}`, `{{ kind|card_kind }}`, `{{ card|card_name }}`: Firenze's words
in the player's language (firenze/wording.py)."""

from __future__ import annotations

from django import template

from games.rules.firenze.wording import card_kind, card_name, card_names, colour_name

register = template.Library()
register.filter("colour_name", colour_name)
register.filter("card_kind", card_kind)
register.filter("card_name", card_name)
register.filter("card_names", card_names)
