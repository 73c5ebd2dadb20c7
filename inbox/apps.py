"""App configuration of the player's desk: the inbox of games waiting for them, its count in
every page's header, the private calendar feed of turn deadlines and private notes."""

from django.apps import AppConfig


class InboxConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "inbox"
    verbose_name = "Inbox"

    def ready(self) -> None:
        from firenze_site import prefetch
        from inbox import counts, middleware

        counts.connect()
        prefetch.wants(middleware.wanted_keys)
