"""A game a resignation ended kept the seat that was to act; a finished game has none (as one
the engine ended), which is what manage.py replay_games now checks."""

from django.db import migrations


def clear_acting_seats(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(status="finished").exclude(acting_seat=None).update(acting_seat=None)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_invitation_token"),
    ]

    operations = [
        migrations.RunPython(clear_acting_seats, migrations.RunPython.noop),
    ]
