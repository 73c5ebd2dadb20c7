"""App configuration for tournaments: Swiss, round robin in groups, knock-out, and the monthly
seasons of the standing ladder, all built from the platform's games."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from tournaments import receivers, tasks  # noqa: F401 - tasks queued by name

        receivers.connect()
