"""App configuration for clubs: members, admins, a door, a ladder and tournaments of its own."""

from django.apps import AppConfig


class ClubsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs"

    def ready(self) -> None:
        """A ladder game's end moves the ladder; a club's tournaments admit its members only
        (tournaments.gates); an account going leaves no club without an admin."""
        from clubs import receivers, tasks  # noqa: F401 - tasks queued by name

        receivers.connect()
