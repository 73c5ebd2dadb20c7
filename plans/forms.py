"""What the planning page posts: the steps taken so far in the sandbox (JSON) and what to do."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import MAX_ACTION_DEPTH, json_depth
from plans.sandbox import MAX_STEPS

NOT_READ = _("The plan could not be read; open the planning page again.")


class PlanForm(forms.Form):
    steps = forms.CharField(
        strip=False, required=False, max_length=20_000, error_messages={"max_length": NOT_READ}
    )
    add = forms.CharField(strip=False, required=False, max_length=1000)
    do = forms.ChoiceField(
        choices=[("add", "add"), ("undo", "undo"), ("save", "save"), ("drop", "drop")]
    )

    def _json(self, raw: str, depth: int) -> Any:
        if json_depth(raw) > depth:
            raise forms.ValidationError(NOT_READ)
        try:
            return json.loads(raw)
        except ValueError:
            raise forms.ValidationError(NOT_READ) from None

    def clean_steps(self) -> list[Any]:
        raw = self.cleaned_data["steps"] or "[]"
        steps = self._json(raw, MAX_ACTION_DEPTH + 1)
        if not isinstance(steps, list) or len(steps) > MAX_STEPS:
            raise forms.ValidationError(NOT_READ)
        return steps

    def clean_add(self) -> Any:
        raw = self.cleaned_data["add"]
        return None if not raw else self._json(raw, MAX_ACTION_DEPTH)


def read_steps(raw: str | None) -> list[Any] | None:
    """The sandbox's steps from its address (?steps=...): None when they cannot be read."""
    form = PlanForm({"steps": raw or "", "do": "add"})
    return form.cleaned_data["steps"] if form.is_valid() else None


class WhatIfForm(forms.Form):
    """A "what if" step: the replay step to try from, the tried steps so far, what to do."""

    step = forms.IntegerField(min_value=0, max_value=9_999_999)
    steps = PlanForm.base_fields["steps"]
    add = PlanForm.base_fields["add"]
    do = forms.ChoiceField(choices=[("add", "add"), ("undo", "undo")], required=False)

    clean_steps = PlanForm.clean_steps
    clean_add = PlanForm.clean_add
    _json = PlanForm._json


class StandingOrdersForm(forms.Form):
    """The standing orders to switch on (the engine's keys; every other one goes off)."""

    orders = forms.MultipleChoiceField(
        required=False,
        error_messages={"invalid_choice": _("This game has no standing order “%(value)s”.")},
    )

    def __init__(self, *args: Any, keys: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["orders"].choices = [(key, key) for key in keys]  # type: ignore[attr-defined]
