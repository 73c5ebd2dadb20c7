"""Every game names its engine and the rules version it is played under. The games stored
before this were all Firenze games under rules version "1" (firenze.rules.RULES_VERSION then):
the values are written here as literals, since a migration must not change with the code."""

from django.db import migrations, models

import games.rules.registry


def existing_games_play_firenze_1(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(rules_version="").update(engine_name="firenze", rules_version="1")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_seat_former_player_creator_set_null"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="engine_name",
            field=models.CharField(
                default="firenze",
                help_text="The game played: the name of its engine in games.rules.registry.",
                max_length=40,
            ),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="game",
            name="engine_name",
            field=models.CharField(
                default=games.rules.registry.default_name,
                help_text="The game played: the name of its engine in games.rules.registry.",
                max_length=40,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="rules_version",
            field=models.CharField(
                blank=True,
                help_text="The engine's rules version the game is played under (set when created).",
                max_length=20,
            ),
        ),
        migrations.RunPython(existing_games_play_firenze_1, migrations.RunPython.noop),
    ]
