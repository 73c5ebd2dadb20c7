"""GameRecord and SeatResult keep what the engine reports (Engine.record_details) as
game-neutral JSON: the record's options in `details` and its history filters in `facets`
(";campanile=on;"), each seat's sealed commissions per colour in the result's `details`.
The old columns' values are moved over before they are dropped (both ways)."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery

COLOURS = ("white", "yellow", "green", "red", "blue", "purple")
BATCH = 1000


def _batches(rows, build, model, fields):
    changed = []
    for row in rows.iterator(chunk_size=BATCH):
        build(row)
        changed.append(row)
        if len(changed) == BATCH:
            model.objects.bulk_update(changed, fields)
            changed = []
    if changed:
        model.objects.bulk_update(changed, fields)


def forwards(apps, schema_editor):
    GameRecord = apps.get_model("players", "GameRecord")
    SeatResult = apps.get_model("players", "SeatResult")
    Game = apps.get_model("games", "Game")
    engine = Subquery(Game.objects.filter(pk=OuterRef("game_id")).values("engine_name")[:1])
    GameRecord.objects.update(engine_name=engine)
    old = GameRecord.objects.filter(engine_name="firenze")
    old.filter(campanile=True).update(facets=";campanile=on;")
    old.filter(campanile=False).update(facets=";campanile=off;")

    def record_details(record):
        record.details = {
            "campanile": record.campanile,
            "seal_placement": record.seal_placement,
            "neutral_seals": record.neutral_seals,
        }

    _batches(
        old.only("pk", "campanile", "seal_placement", "neutral_seals"),
        record_details,
        GameRecord,
        ["details"],
    )

    def seat_details(result):
        result.details = {colour: getattr(result, colour) for colour in COLOURS}

    results = SeatResult.objects.filter(record__engine_name="firenze").only("pk", *COLOURS)
    _batches(results, seat_details, SeatResult, ["details"])


def backwards(apps, schema_editor):
    GameRecord = apps.get_model("players", "GameRecord")
    SeatResult = apps.get_model("players", "SeatResult")

    def record_columns(record):
        details = record.details or {}
        record.campanile = bool(details.get("campanile", False))
        record.seal_placement = details.get("seal_placement", "")
        record.neutral_seals = details.get("neutral_seals", 0)

    _batches(
        GameRecord.objects.only("pk", "details"),
        record_columns,
        GameRecord,
        ["campanile", "seal_placement", "neutral_seals"],
    )

    def seat_columns(result):
        for colour in COLOURS:
            setattr(result, colour, (result.details or {}).get(colour, 0))

    _batches(SeatResult.objects.only("pk", "details"), seat_columns, SeatResult, list(COLOURS))




class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_lobby_and_sweep_indexes"),
        ("players", "0003_game_record_options_default"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="gamerecord",
            name="details",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="gamerecord",
            name="engine_name",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="gamerecord",
            name="facets",
            field=models.CharField(blank=True, default="", max_length=120),
        ),
        migrations.AddField(
            model_name="seatresult",
            name="details",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(forwards, backwards, elidable=True),
    ]
