"""Admin for the outbox: look up what was sent to whom, and why something was not."""

from django.contrib import admin

from .models import LoginToken, Notification, PushSubscription, Webhook


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = (
        "created",
        "kind",
        "channel",
        "user",
        "game",
        "status",
        "failure",
        "digest",
        "attempts",
        "sent_at",
    )
    # "Failure" tells the operator which failed emails were never delivered and which may
    # have been (a worker that died mid-send): email is at most once, neither is resent.
    list_filter = (
        "status",
        "failure",
        "channel",
        "kind",
        "digest",
        ("failed_at", admin.DateFieldListFilter),
    )
    date_hierarchy = "created"
    search_fields = ("dedupe_key", "user__display_name", "user__email")
    raw_id_fields = ("user", "game")
    readonly_fields = ("created", "claimed_at", "sent_at", "attempts", "failure", "failed_at")


@admin.register(LoginToken)
class LoginTokenAdmin(admin.ModelAdmin):
    list_display = ("created", "user", "game", "expires_at", "used_at")
    raw_id_fields = ("user", "game")
    readonly_fields = ("created",)


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ("user", "format", "active", "failures", "last_success_at", "disabled_at")
    list_filter = ("active", "format")
    search_fields = ("user__display_name", "user__email")
    raw_id_fields = ("user",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "device", "created", "last_success_at")
    search_fields = ("user__display_name", "device")
    raw_id_fields = ("user",)
