"""The community app's forms: every posted value is read through one."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class RequirementForm(forms.Form):
    min_finished = forms.IntegerField(
        label=_("Games played to the end, at least (%)"), required=False, min_value=1, max_value=100
    )
    min_rating = forms.IntegerField(
        label=_("Rating at least"), required=False, min_value=-10000, max_value=10000
    )
    max_rating = forms.IntegerField(
        label=_("Rating at most"), required=False, min_value=-10000, max_value=10000
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        low, high = data.get("min_rating"), data.get("max_rating")
        if low is not None and high is not None and low > high:
            raise forms.ValidationError(_("The lowest rating must not be above the highest."))
        return data
