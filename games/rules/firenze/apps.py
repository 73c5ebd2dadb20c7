"""The Firenze app: its engine, templates, static files and template tags."""

from __future__ import annotations

from django.apps import AppConfig


class FirenzeConfig(AppConfig):
    name = "games.rules.firenze"
    label = "firenze"  # unchanged since the app lived at the top level: stored names keep it
    verbose_name = "Firenze"

    def ready(self) -> None:
        """Make the Firenze engine known to the platform. `register` takes an Engine: mypy
        proves here that FirenzeEngine satisfies the whole protocol (`make lint`)."""
        from games.rules import registry
        from games.rules.firenze.engine import FirenzeEngine

        registry.register(FirenzeEngine())
