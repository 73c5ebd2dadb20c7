"""`{{ colour|colour_name }}`, `{{ kind|card_kind }}`: Firenze's words in the player's
language (firenze/wording.py)."""

from __future__ import annotations

from django import template

from games.rules.firenze.wording import card_kind, colour_name

register = template.Library()
register.filter("colour_name", colour_name)
register.filter("card_kind", card_kind)
