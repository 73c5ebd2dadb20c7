"""The lookalike skeleton now drops accents (accounts/names.py): stored skeletons are drawn
again, so "Alíce" is refused beside an "Alice" who signed up before."""

from django.db import migrations


def redraw_skeletons(apps, schema_editor):
    from accounts.names import skeleton

    User = apps.get_model("accounts", "User")
    for user in User.objects.exclude(display_name="").only("pk", "display_name").iterator():
        User.objects.filter(pk=user.pk).update(display_name_skeleton=skeleton(user.display_name))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_user_bot_account"),
    ]

    operations = [
        migrations.RunPython(redraw_skeletons, migrations.RunPython.noop),
    ]
