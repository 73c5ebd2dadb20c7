"""App configuration for bots: the levels people choose, the takeover preference, the levels'
ratings from a calibration ladder, and post-game reviews."""

from django.apps import AppConfig


class BotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"
    verbose_name = "Bots"
