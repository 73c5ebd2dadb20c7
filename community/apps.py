"""App configuration for community: reliability, table requirements, follows and blocks."""

from django.apps import AppConfig


class CommunityConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "community"

    def ready(self) -> None:
        """The figures are refreshed when a game ends; the lobby asks these checks before it
        seats anyone (games.admission)."""
        from community import checks, social, standing, tasks  # noqa: F401 - tasks queued by name

        standing.connect()
        checks.connect()
        social.connect()
