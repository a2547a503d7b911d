# The players' search key (the directory and the player pickers), filled from their names.

import matches.models
from django.conf import settings
from django.db import migrations, models

from core.text import search_key


def fill_search_names(apps, schema_editor):
    """Every existing player's search key, from his display name (in batches: a large directory
    is never loaded whole)."""
    Player = apps.get_model("matches", "Player")
    batch = []
    for player in Player.objects.only("pk", "display_name").order_by("pk").iterator(chunk_size=2000):
        player.search_name = search_key(player.display_name)
        batch.append(player)
        if len(batch) == 2000:
            Player.objects.bulk_update(batch, ["search_name"])
            batch = []
    if batch:
        Player.objects.bulk_update(batch, ["search_name"])


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0012_claims_player_claims'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='search_name',
            field=matches.models.SearchKeyField(source='display_name'),
        ),
        migrations.RunPython(fill_search_names, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name='player',
            index=models.Index(fields=['search_name'], name='matches_pla_search__4bc2b9_idx'),
        ),
    ]
