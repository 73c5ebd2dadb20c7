"""The notification settings page (/accounts/notifications/): the preferences table, the
webhook with its "send a test" button, the devices that get push notifications, and muted
players. Each form posts to its own small view and comes back here (Post/Redirect/Get); a
refused form is shown again with its errors.

push.js talks to ``subscribe`` and ``unsubscribe`` with form-encoded posts and reads JSON back.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from chat.models import Mute
from firenze_site.requests import SignedInRequest
from notifications import channels, preferences, push
from notifications.forms import (
    EndpointForm,
    PreferencesForm,
    PushSubscriptionForm,
    WebhookForm,
    device_name,
)
from notifications.models import Notification, PushSubscription, Webhook

Status = Notification.Status


def _page(request: SignedInRequest, status: int = 200, **forms: Any) -> HttpResponse:
    user = request.user
    webhook = Webhook.objects.filter(user=user).first()
    initial = {"url": webhook.url, "format": webhook.format} if webhook else None
    context = {
        "form": forms.get("form") or PreferencesForm(user=user),
        "channels": preferences.CHANNELS,
        "webhook": webhook,
        "webhook_form": forms.get("webhook_form") or WebhookForm(initial=initial),
        "devices": PushSubscription.objects.filter(user=user),
        "push_configured": push.configured(),
        "vapid_public_key": push.public_key() if push.configured() else "",
        "mutes": Mute.objects.filter(user=user).select_related("muted").order_by("created"),
    }
    return render(request, "notifications/preferences.html", context, status=status)


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
def save_webhook(request: SignedInRequest) -> HttpResponse:
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
        _report_test(request, channels.Channel.WEBHOOK, "webhook")
    return redirect("notification_settings:page")


@login_required
@require_POST
def test_push(request: SignedInRequest) -> HttpResponse:
    if not push.configured():
        messages.error(request, _("Push notifications are not set up on this server."))
    elif not PushSubscription.objects.filter(user=request.user).exists():
        messages.error(request, _("Allow notifications on a device first."))
    else:
        _report_test(request, channels.Channel.PUSH, "device")
    return redirect("notification_settings:page")


def _report_test(request: SignedInRequest, channel: str, what: str) -> None:
    try:
        rows = channels.send_test(request.user, channel)
    except channels.TooSoon as exc:
        messages.error(request, str(exc))
        return
    for row in rows:
        name = row.subscription.device if row.subscription else f"your {what}"
        if row.status == Status.SENT:
            messages.success(request, _("Test sent to %(name)s.") % {"name": name or _("a device")})
        else:
            messages.error(
                request,
                _("The test to %(name)s failed: %(error)s")
                % {"name": name or _("a device"), "error": row.last_error},
            )


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
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=data["endpoint"],
        defaults={
            "user": request.user,
            "p256dh": data["p256dh"],
            "auth": data["auth"],
            "device": device_name(request.headers.get("User-Agent", ""))[:80],
        },
    )
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
