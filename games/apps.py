"""App configuration for games."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from allauth.account.signals import email_confirmed
        from django.db.models.signals import post_delete, post_save

        from firenze_site import prefetch
        from games import (
            pagecache,
            since,
            tasks,  # noqa: F401 - registers the Celery tasks play.py queues by name
        )
        from games.models import Game, Seat
        from games.signals import game_saved, link_invitations_on_confirmation, seat_changed

        email_confirmed.connect(link_invitations_on_confirmation, dispatch_uid="games.invites")
        post_save.connect(game_saved, sender=Game, dispatch_uid="games.versions")
        post_save.connect(seat_changed, sender=Seat, dispatch_uid="games.lobby.seat_saved")
        post_delete.connect(seat_changed, sender=Seat, dispatch_uid="games.lobby.seat_deleted")
        prefetch.wants(pagecache.wanted_keys)  # the page's slot, read with the session
        since.connect()  # what happened since a player's last turn: their view then
