"""Planned turns: a seat's next turn, prepared in a sandbox of its view and played by the site
when the turn comes. The game publishes (games.events); this app listens."""

from django.apps import AppConfig


class PlansConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "plans"

    def ready(self) -> None:
        from games import events
        from plans import runner

        # Only turn_passed: a plan is set only while it is not its seat's turn and is claimed
        # when the turn comes, so no plan is left for a hand move, a bot or a timeout to drop.
        events.turn_passed.connect(runner.on_turn_passed, dispatch_uid="plans.run")
