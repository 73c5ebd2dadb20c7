"""The Firenze app: its engine, templates, static files and template tags."""

from __future__ import annotations

from django.apps import AppConfig


class FirenzeConfig(AppConfig):
    name = "games.rules.firenze"
    label = "firenze"  # unchanged since the app lived at the top level: stored names keep it
    verbose_name = "Firenze"

    def ready(self) -> None:
        """Make the Firenze engine known to the platform. `register` takes an Engine: mypy
        proves here that FirenzeEngine satisfies the whole protocol (`make lint`). The Strong
        bot's thinking time per decision comes from the settings (docs/bots.md)."""
        from django.conf import settings

        from games.rules import registry
        from games.rules.firenze.engine import FirenzeEngine

        registry.register(FirenzeEngine(getattr(settings, "BOTS_THINK_SECONDS", None)))
