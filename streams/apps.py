"""App configuration for the live event streams."""

from django.apps import AppConfig


class StreamsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "streams"
    verbose_name = "Live streams"

    def ready(self) -> None:
        from streams import publish

        publish.connect()
