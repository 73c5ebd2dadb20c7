"""App configuration for notifications."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        from chat.signals import message_posted
        from notifications import (
            game_events,
            tasks,  # noqa: F401 - registers the tasks notifications/queueing.py names
        )
        from notifications.table_talk import new_message

        message_posted.connect(new_message, dispatch_uid="notifications.table_talk")
        game_events.connect()
