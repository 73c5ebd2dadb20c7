"""Forms of the notification settings: the preferences table, the webhook, a device's push
subscription. Every posted value goes through one of these."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.rules.wording import in_sentence
from notifications import preferences, safe_http
from notifications.models import Notification, Webhook

Channel = Notification.Channel
Setting = preferences.Setting
TURN_TIMING = [
    (Setting.ON, _("One email per turn, right away")),
    (Setting.DAILY, _("One daily digest of all my turns")),
]


def cell_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class PreferencesForm(forms.Form):
    """The table: one checkbox per kind and channel, and how turn emails arrive."""

    turn_email_timing = forms.ChoiceField(
        label=_("Your-turn emails"), choices=TURN_TIMING, widget=forms.RadioSelect
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        cells = preferences.table(user)
        initial: dict[str, Any] = {
            cell_name(k, c): value != Setting.OFF for (k, c), value in cells.items()
        }
        timing = cells[preferences.YOUR_TURN, Channel.EMAIL]
        initial["turn_email_timing"] = Setting.DAILY if timing == Setting.DAILY else Setting.ON
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        for kind, label, _help in preferences.KINDS:
            for channel, channel_label in preferences.CHANNELS:
                words = {"kind": label, "channel": in_sentence(channel_label)}
                self.fields[cell_name(kind, channel)] = forms.BooleanField(
                    required=False, label=_("%(kind)s by %(channel)s") % words
                )

    def rows(self) -> list[dict[str, Any]]:
        """The table as the template draws it."""
        return [
            {
                "kind": kind,
                "label": label,
                "help": help_text,
                "cells": [self[cell_name(kind, channel)] for channel, _ in preferences.CHANNELS],
            }
            for kind, label, help_text in preferences.KINDS
        ]

    def cells(self) -> dict[tuple[str, str], str]:
        data = self.cleaned_data
        cells: dict[tuple[str, str], str] = {}
        for kind, _label, _help in preferences.KINDS:
            for channel, _channel_label in preferences.CHANNELS:
                cells[kind, channel] = Setting.ON if data[cell_name(kind, channel)] else Setting.OFF
        turn = (preferences.YOUR_TURN, Channel.EMAIL)
        if cells[turn] == Setting.ON and data["turn_email_timing"] == Setting.DAILY:
            cells[turn] = Setting.DAILY
        return cells


class WebhookForm(forms.Form):
    url = forms.URLField(
        label=_("Webhook URL"),
        max_length=500,
        assume_scheme="https",
        help_text=_("An https:// address: a Discord or Slack channel's webhook, or your own."),
        widget=forms.URLInput(attrs={"placeholder": "https://discord.com/api/webhooks/…"}),
    )
    format = forms.ChoiceField(label=_("Format"), choices=Webhook.Format.choices)

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        try:
            safe_http.check_url(url)
        except safe_http.Refused as exc:
            raise forms.ValidationError(str(exc)) from None
        return url


def _b64url(value: str, length: int, what: str) -> bytes:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise forms.ValidationError(f"The {what} is not base64url.") from None
    if len(raw) != length:
        raise forms.ValidationError(f"The {what} has the wrong length.")
    return raw


class PushSubscriptionForm(forms.Form):
    """What PushManager.subscribe() gives the browser (static/js/push.js posts it)."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=100)
    auth = forms.CharField(max_length=40)

    def clean_endpoint(self) -> str:
        endpoint = self.cleaned_data["endpoint"]
        try:
            safe_http.check_url(endpoint)
        except safe_http.Refused as exc:
            raise forms.ValidationError(str(exc)) from None
        return endpoint

    def clean_p256dh(self) -> str:
        value = self.cleaned_data["p256dh"].strip()
        if _b64url(value, 65, "device key")[0] != 4:
            raise forms.ValidationError("The device key is not an uncompressed P-256 key.")
        return value

    def clean_auth(self) -> str:
        value = self.cleaned_data["auth"].strip()
        _b64url(value, 16, "auth secret")
        return value


class EndpointForm(forms.Form):
    endpoint = forms.URLField(max_length=1000, assume_scheme="https")


def device_name(user_agent: str) -> str:
    """A label for the devices list: "Firefox on Android", "Chrome on Windows"..."""
    agent = user_agent or ""
    browser = next(
        (
            name
            for token, name in (
                ("Edg/", "Edge"),
                ("OPR/", "Opera"),
                ("Firefox/", "Firefox"),
                ("Chrome/", "Chrome"),
                ("Safari/", "Safari"),
            )
            if token in agent
        ),
        "A browser",
    )
    system = next(
        (
            name
            for token, name in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Windows", "Windows"),
                ("Mac OS X", "macOS"),
                ("CrOS", "ChromeOS"),
                ("Linux", "Linux"),
            )
            if token in agent
        ),
        "",
    )
    return f"{browser} on {system}" if system else browser


# The deadline alarms a player may pick, minutes before their clock runs out.
ALARM_CHOICES = [
    (1440, _("24 hours")),
    (480, _("8 hours")),
    (120, _("2 hours")),
    (30, _("30 minutes")),
]


class AlarmsForm(forms.Form):
    """When to be warned before the player's clock runs out (by the channels their
    preferences choose for reminders); none ticked: the site's default."""

    alarms = forms.TypedMultipleChoiceField(
        label=_("Warn me before my clock runs out"),
        choices=ALARM_CHOICES,
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Once for each time ticked, each turn. Nothing ticked: halfway through the turn "
            "and when a tenth of it is left."
        ),
    )


class SummaryForm(forms.Form):
    """The morning summary (notifications.morning): off, or the hour it comes in the player's
    own time zone; while it is on, no email per turn."""

    hour = forms.TypedChoiceField(
        label=_("Morning summary"),
        choices=[("", _("Off: an email for each turn"))]
        + [(str(h), f"{h:02d}:00") for h in range(24)],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_(
            "One email at this hour (your time zone) listing every game waiting for your move, "
            "the least time left first, instead of one email per turn. Deadline alarms still "
            "come."
        ),
    )
