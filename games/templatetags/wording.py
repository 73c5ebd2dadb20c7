"""`{{ label|in_sentence }}`: a label inside a sentence (games/rules/wording.py)."""

from __future__ import annotations

from django import template

from games.rules.wording import in_sentence

register = template.Library()
register.filter("in_sentence", in_sentence)
