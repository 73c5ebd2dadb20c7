"""App configuration for players: profiles, finished-game records, ratings, the leaderboard."""

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
