"""App configuration for ops: readiness, metrics, request and task logs, backups."""

from django.apps import AppConfig


class OpsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ops"

    def ready(self) -> None:
        from ops import listeners, tasks  # noqa: F401 - registers the heartbeat task

        listeners.connect()
