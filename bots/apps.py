"""App configuration for bots: the levels people choose, the takeover preference, the levels'
ratings from a calibration ladder, and post-game reviews."""

from django.apps import AppConfig


class BotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"
    verbose_name = "Bots"

    def ready(self) -> None:
        """Register the review task, which bots.reviews queues by name (no import circle)."""
        from bots import tasks  # noqa: F401
