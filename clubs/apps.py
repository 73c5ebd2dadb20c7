"""App configuration for clubs: members, admins, a door, a ladder and tournaments of its own."""

from django.apps import AppConfig


class ClubsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs"

    def ready(self) -> None:
        """A ladder game's end moves the ladder; a club's tournaments admit its members only
        (tournaments.gates); an account going leaves no club without an admin; club news
        overtaken by an answer is not sent (clubs.news.stale_reason)."""
        from clubs import news, receivers, tasks  # noqa: F401 - tasks queued by name
        from notifications import outbox

        receivers.connect()
        outbox.overtaken_when(outbox.Kind.CLUB, news.stale_reason)
