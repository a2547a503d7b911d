"""An event's club is held by the clubs app now (``clubs.ClubEvent``, filled by clubs 0005)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0005_eventmatch"),
        ("clubs", "0005_clubevent"),
    ]

    operations = [
        migrations.RemoveField(model_name="tournament", name="club"),
    ]
