"""App configuration for games."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from allauth.account.signals import email_confirmed

        from games import tasks  # noqa: F401 - registers the Celery tasks play.py queues by name
        from games.signals import link_invitations_on_confirmation

        email_confirmed.connect(link_invitations_on_confirmation, dispatch_uid="games.invites")
