from django.apps import AppConfig


class FirenzeConfig(AppConfig):
    name = "firenze"
    verbose_name = "Firenze"

    def ready(self) -> None:
        """Make the Firenze engine known to the platform (games.engines)."""
        from firenze.engine import FirenzeEngine
        from games import engines

        engines.register(FirenzeEngine())
