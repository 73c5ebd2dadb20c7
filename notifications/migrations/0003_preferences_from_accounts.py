"""Carry the players' email choices (accounts.User.turn_emails and .reminders, removed by
accounts 0003) over to the preferences table.

- turn_emails "daily": your-turn emails come as the daily digest;
- turn_emails "never": every kind of game email off (as "Never" stopped them all), except
  reminders, which had their own switch;
- reminders off: reminder emails off.
Players who kept the defaults get no rows (the table's defaults say the same).
"""

from django.db import migrations

EMAIL = "email"
GAME_EMAIL_KINDS = ["your_turn", "timeout", "game_over", "invitations"]


def forwards(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Preference = apps.get_model("notifications", "Preference")
    rows = []
    choices = User.objects.values_list("pk", "turn_emails", "reminders")
    for user_id, turn_emails, reminders in choices.iterator():
        if turn_emails == "daily":
            rows.append(Preference(user_id=user_id, kind="your_turn", channel=EMAIL, setting="daily"))
        elif turn_emails == "never":
            rows += [
                Preference(user_id=user_id, kind=kind, channel=EMAIL, setting="off")
                for kind in GAME_EMAIL_KINDS
            ]
        if not reminders:
            rows.append(Preference(user_id=user_id, kind="reminder", channel=EMAIL, setting="off"))
    Preference.objects.bulk_create(rows, batch_size=1000, ignore_conflicts=True)


def backwards(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Preference = apps.get_model("notifications", "Preference")
    email = Preference.objects.filter(channel=EMAIL)
    daily = email.filter(kind="your_turn", setting="daily").values("user_id")
    never = email.filter(kind="your_turn", setting="off").values("user_id")
    no_reminders = email.filter(kind="reminder", setting="off").values("user_id")
    User.objects.filter(pk__in=daily).update(turn_emails="daily")
    User.objects.filter(pk__in=never).update(turn_emails="never")
    User.objects.filter(pk__in=no_reminders).update(reminders=False)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_email_preferences"),
        ("notifications", "0002_webhooks_push_and_preferences"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
