"""App configuration for players: profiles, finished-game records, ratings, the leaderboard."""

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"

    def ready(self) -> None:
        """A finished game's record is written when the game publishes its end."""
        from games import events
        from games.models import Game
        from players import results

        events.game_over.connect(results.game_over, sender=Game, dispatch_uid="players.game_over")
        events.game_imported.connect(
            results.game_imported, sender=Game, dispatch_uid="players.game_imported"
        )
