"""The notification settings page (/accounts/notifications/): the preferences table, the
webhook with its "send a test" button, the devices that get push notifications, and muted
players. Each form posts to its own small view and comes back here (Post/Redirect/Get); a
refused form is shown again with its errors.

push.js talks to ``subscribe`` and ``unsubscribe`` with form-encoded posts and reads JSON back.
"""

from __future__ import annotations

from typing import Any

from allauth.account.decorators import reauthentication_required
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from chat.models import Mute
from firenze_site.requests import SignedInRequest
from notifications import channels, links, preferences, push
from notifications.forms import (
    AlarmsForm,
    EndpointForm,
    PreferencesForm,
    PushSubscriptionForm,
    SummaryForm,
    WebhookForm,
    device_name,
)
from notifications.models import Notification, PushSubscription, Webhook

Status = Notification.Status


# The parts of the page an htmx request may ask for (?part=...): a test's result, polled until
# it arrives.
PARTS = {"webhook_test", "push_test"}
WAITING = {Status.PENDING, Status.SENDING}
ENDPOINT_TAKEN = gettext_lazy(
    "This browser already gets the notifications of another account; it needs a new "
    "subscription for this one."
)


def _page(request: SignedInRequest, status: int = 200, **forms: Any) -> HttpResponse:
    user = request.user
    webhook = Webhook.objects.filter(user=user).first()
    # The URL is a secret (whoever has it posts to the player's channel): a session opened
    # from an email's sign-in link sees only its host until the password is given again.
    sees_url = links.sees_secrets(request)
    initial = None
    if webhook:
        initial = {"url": webhook.url if sees_url else "", "format": webhook.format}
    tests = channels.latest_tests(user)
    context = {
        "webhook_url_masked": links.masked_url(webhook.url) if webhook and not sees_url else "",
        "tests": tests,
        "webhook_test_waiting": any(r.status in WAITING for r in tests.get("webhook", [])),
        "push_test_waiting": any(r.status in WAITING for r in tests.get("push", [])),
        "form": forms.get("form") or PreferencesForm(user=user),
        "alarms_form": forms.get("alarms_form")
        or AlarmsForm(initial={"alarms": list(user.deadline_alarms or [])}),
        "summary_form": forms.get("summary_form")
        or SummaryForm(
            initial={"hour": "" if user.summary_hour is None else str(user.summary_hour)}
        ),
        "channels": preferences.CHANNELS,
        "webhook": webhook,
        "webhook_form": forms.get("webhook_form") or WebhookForm(initial=initial),
        "devices": PushSubscription.objects.filter(user=user),
        "push_configured": push.configured(),
        "vapid_public_key": push.public_key() if push.configured() else "",
        "mutes": Mute.objects.filter(user=user).select_related("muted").order_by("created"),
    }
    template = "notifications/preferences.html"
    part = request.GET.get("part")
    if request.htmx and part in PARTS:
        template = f"{template}#{part}"
    return render(request, template, context, status=status)


@login_required
@require_GET
def preferences_page(request: SignedInRequest) -> HttpResponse:
    return _page(request)


@login_required
@require_POST
def save_preferences(request: SignedInRequest) -> HttpResponse:
    form = PreferencesForm(request.POST, user=request.user)
    if not form.is_valid():
        return _page(request, 400, form=form)
    preferences.save(request.user, form.cells())
    messages.success(request, _("Your notification preferences are saved."))
    return redirect("notification_settings:page")


@login_required
@require_POST
def save_alarms(request: SignedInRequest) -> HttpResponse:
    """The player's deadline alarms; they apply from their next turn on."""
    form = AlarmsForm(request.POST)
    if not form.is_valid():
        return _page(request, 400, alarms_form=form)
    request.user.deadline_alarms = sorted(set(form.cleaned_data["alarms"]), reverse=True)
    request.user.save(update_fields=["deadline_alarms"])
    messages.success(request, _("Your deadline alarms are saved; they apply from your next turn."))
    return redirect(reverse("notification_settings:page") + "#alarms")


@login_required
@require_POST
def save_summary(request: SignedInRequest) -> HttpResponse:
    """The player's morning summary: its hour, or off."""
    form = SummaryForm(request.POST)
    if not form.is_valid():
        return _page(request, 400, summary_form=form)
    request.user.summary_hour = form.cleaned_data["hour"]
    request.user.save(update_fields=["summary_hour"])
    messages.success(request, _("Your morning summary is saved."))
    return redirect(reverse("notification_settings:page") + "#summary")


@login_required
@require_POST
@reauthentication_required
def save_webhook(request: SignedInRequest) -> HttpResponse:
    """Needs the password within the last minutes (allauth's reauthentication, which then
    carries the posted form on): a forwarded email's sign-in link cannot redirect the
    player's news, table talk included, to a URL of someone else's."""
    form = WebhookForm(request.POST)
    if not form.is_valid():
        return _page(request, 400, webhook_form=form)
    Webhook.objects.update_or_create(
        user=request.user,
        defaults={
            "url": form.cleaned_data["url"],
            "format": form.cleaned_data["format"],
            "active": True,
            "failures": 0,
            "last_error": "",
            "disabled_at": None,
        },
    )
    messages.success(request, _("Webhook saved. Send a test to see it arrive."))
    return redirect("notification_settings:page")


@login_required
@require_POST
@reauthentication_required
def remove_webhook(request: SignedInRequest) -> HttpResponse:
    Webhook.objects.filter(user=request.user).delete()
    messages.success(request, _("Webhook removed."))
    return redirect("notification_settings:page")


@login_required
@require_POST
def test_webhook(request: SignedInRequest) -> HttpResponse:
    webhook = Webhook.objects.filter(user=request.user).first()
    if webhook is None:
        messages.error(request, _("Save a webhook URL first."))
    elif not webhook.active:
        messages.error(request, _("Your webhook is switched off: save it again to switch it on."))
    else:
        _queue_test(request, channels.Channel.WEBHOOK)
    return redirect("notification_settings:page")


@login_required
@require_POST
def test_push(request: SignedInRequest) -> HttpResponse:
    if not push.configured():
        messages.error(request, _("Push notifications are not set up on this server."))
    elif not PushSubscription.objects.filter(user=request.user).exists():
        messages.error(request, _("Allow notifications on a device first."))
    else:
        _queue_test(request, channels.Channel.PUSH)
    return redirect("notification_settings:page")


def _queue_test(request: SignedInRequest, channel: str) -> None:
    """The test goes out from a worker once this request has committed: the page shows it on
    its way and then how it went (the part polls), so no request of ours waits for the
    player's server."""
    try:
        channels.send_test(request.user, channel)
    except channels.TooSoon as exc:
        messages.error(request, str(exc))
        return
    messages.info(request, _("The test is on its way; how it went shows below in a moment."))


# --- devices (push.js) ----------------------------------------------------------------------


@login_required
@require_POST
def subscribe(request: SignedInRequest) -> JsonResponse:
    if not push.configured():
        return JsonResponse(
            {"error": _("Push notifications are not set up on this server.")}, status=409
        )
    form = PushSubscriptionForm(request.POST)
    if not form.is_valid():
        first = next(iter(form.errors.values()))[0]
        return JsonResponse({"error": first}, status=400)
    data = form.cleaned_data
    try:
        with transaction.atomic():
            taken = (
                PushSubscription.objects.filter(endpoint=data["endpoint"])
                .exclude(user=request.user)
                .exists()
            )
            if not taken:
                subscription, _created = PushSubscription.objects.update_or_create(
                    user=request.user,
                    endpoint=data["endpoint"],
                    defaults={
                        "p256dh": data["p256dh"],
                        "auth": data["auth"],
                        "device": device_name(request.headers.get("User-Agent", ""))[:80],
                    },
                )
    except IntegrityError:  # another account took it in the meantime
        taken = True
    if taken:
        # A subscription belongs to the account that made it: push.js makes this browser a
        # new one (a new endpoint) and posts that instead.
        return JsonResponse({"error": str(ENDPOINT_TAKEN), "taken": True}, status=409)
    return JsonResponse({"device": subscription.device, "id": subscription.pk})


@login_required
@require_POST
def unsubscribe(request: SignedInRequest) -> JsonResponse:
    form = EndpointForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"error": "That is not a push endpoint."}, status=400)
    PushSubscription.objects.filter(
        user=request.user, endpoint=form.cleaned_data["endpoint"]
    ).delete()
    return JsonResponse({"removed": True})


@login_required
@require_POST
def remove_device(request: SignedInRequest, device_id: int) -> HttpResponse:
    PushSubscription.objects.filter(user=request.user, pk=device_id).delete()
    messages.success(request, _("That device will get no more notifications."))
    return redirect("notification_settings:page")
