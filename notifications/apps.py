"""App configuration for notifications."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        from chat.signals import message_posted
        from notifications import game_events, tasks
        from notifications.table_talk import new_message

        message_posted.connect(new_message, dispatch_uid="notifications.table_talk")
        game_events.connect()
        assert tasks.send_notification  # imported: registers the tasks queueing.py names
