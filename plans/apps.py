"""Planned turns: a seat's next turn, prepared in a sandbox of its view and played by the site
when the turn comes. The game publishes (games.events); this app listens."""

from django.apps import AppConfig


class PlansConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "plans"

    def ready(self) -> None:
        from games import events
        from plans import runner

        events.turn_passed.connect(runner.on_turn_passed, dispatch_uid="plans.run")
        events.move_made.connect(runner.on_move_made, dispatch_uid="plans.drop")
