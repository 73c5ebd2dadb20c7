"""URL routes of the notification settings page (mounted at accounts/notifications/)."""

from django.urls import path

from . import settings_views as views

app_name = "notification_settings"

urlpatterns = [
    path("", views.preferences_page, name="page"),
    path("preferences/", views.save_preferences, name="save"),
    path("alarms/", views.save_alarms, name="alarms"),
    path("summary/", views.save_summary, name="summary"),
    path("webhook/", views.save_webhook, name="webhook"),
    path("webhook/remove/", views.remove_webhook, name="webhook_remove"),
    path("webhook/test/", views.test_webhook, name="webhook_test"),
    path("push/subscribe/", views.subscribe, name="subscribe"),
    path("push/unsubscribe/", views.unsubscribe, name="unsubscribe"),
    path("push/test/", views.test_push, name="push_test"),
    path("devices/<int:device_id>/remove/", views.remove_device, name="device_remove"),
]
