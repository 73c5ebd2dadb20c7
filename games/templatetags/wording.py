"""`{{ colour|colour_name }}`: a colour key in the player's language (games/wording.py)."""

from __future__ import annotations

from django import template

from games.wording import card_kind, colour_name, in_sentence

register = template.Library()
register.filter("colour_name", colour_name)
register.filter("in_sentence", in_sentence)
register.filter("card_kind", card_kind)
