"""After 0004 moved their values into the details: the old Firenze columns go, and the list
indexes carry the facets instead of the Campanile. A migration of its own: PostgreSQL does not
alter a table with the data migration's deferred constraint checks still pending."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0004_game_neutral_record_details"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="gamerecord",
            name="record_finished",
        ),
        migrations.RemoveIndex(
            model_name="gamerecord",
            name="record_players_finished",
        ),
        migrations.RemoveIndex(
            model_name="seatresult",
            name="result_user_finished",
        ),
        migrations.RemoveField(
            model_name="gamerecord",
            name="campanile",
        ),
        migrations.RemoveField(
            model_name="gamerecord",
            name="neutral_seals",
        ),
        migrations.RemoveField(
            model_name="gamerecord",
            name="seal_placement",
        ),
        migrations.RemoveField(
            model_name="seatresult",
            name="blue",
        ),
        migrations.RemoveField(
            model_name="seatresult",
            name="green",
        ),
        migrations.RemoveField(
            model_name="seatresult",
            name="purple",
        ),
        migrations.RemoveField(
            model_name="seatresult",
            name="red",
        ),
        migrations.RemoveField(
            model_name="seatresult",
            name="white",
        ),
        migrations.RemoveField(
            model_name="seatresult",
            name="yellow",
        ),
        migrations.AddIndex(
            model_name="gamerecord",
            index=models.Index(
                fields=["-finished_at", "-game", "is_public", "num_players", "facets"],
                name="record_finished",
            ),
        ),
        migrations.AddIndex(
            model_name="gamerecord",
            index=models.Index(
                fields=["num_players", "-finished_at", "-game", "is_public", "facets"],
                name="record_players_finished",
            ),
        ),
        migrations.AddIndex(
            model_name="seatresult",
            index=models.Index(
                fields=["user", "-finished_at", "-record"],
                include=("won", "pp", "abandoned", "rating_shown"),
                name="result_user_finished",
            ),
        ),
    ]
