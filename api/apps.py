"""App configuration for the public API: personal tokens, bot accounts, /api/v1/."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "API"
