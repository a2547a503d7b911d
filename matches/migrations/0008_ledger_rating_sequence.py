"""The ratings ledger: each rating change gets its match's place in the ledger (``sequence``) and
may be superseded by a correction (when, and by which match's correction) instead of deleted.

Existing changes get, as their place, the smallest id of their match's changes: a player's
changes were inserted under his row lock, so id order is the order they were applied in, and a
match's two rows share one place."""

import django.db.models.deletion
import django.db.models.manager
from django.db import migrations, models
from django.db.models import Min, OuterRef, Subquery


def places(apps, schema_editor):
    RatingChange = apps.get_model("matches", "RatingChange")
    first = (RatingChange.objects.filter(match_id=OuterRef("match_id")).order_by().values("match_id")
             .annotate(first=Min("id")).values("first"))
    RatingChange.objects.update(sequence=Subquery(first))


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0007_match_newest_first'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='ratingchange',
            options={'base_manager_name': 'ledger', 'ordering': ['sequence', 'id']},
        ),
        migrations.AlterModelManagers(
            name='ratingchange',
            managers=[
                ('objects', django.db.models.manager.Manager()),
                ('ledger', django.db.models.manager.Manager()),
            ],
        ),
        migrations.RemoveConstraint(
            model_name='ratingchange',
            name='rating_once_per_player_per_match',
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='corrected_match',
            field=models.ForeignKey(blank=True, help_text='the match whose correction superseded this change', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='matches.match'),
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='sequence',
            field=models.PositiveBigIntegerField(help_text="the match's place in the ratings ledger", null=True),
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='superseded_at',
            field=models.DateTimeField(blank=True, help_text='when a correction recomputed or removed this change', null=True),
        ),
        migrations.RunPython(places, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='ratingchange',
            name='sequence',
            field=models.PositiveBigIntegerField(help_text="the match's place in the ratings ledger"),
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(condition=models.Q(('superseded_at__isnull', False)), fields=['player', 'match'], name='rating_superseded_by_player'),
        ),
        migrations.AddConstraint(
            model_name='ratingchange',
            constraint=models.UniqueConstraint(condition=models.Q(('superseded_at__isnull', True)), fields=('player', 'match'), name='rating_once_per_player_per_match'),
        ),
        migrations.AddConstraint(
            model_name='ratingchange',
            constraint=models.UniqueConstraint(condition=models.Q(('superseded_at__isnull', True)), fields=('player', 'sequence'), name='rating_one_place_per_player'),
        ),
        migrations.AddConstraint(
            model_name='ratingchange',
            constraint=models.CheckConstraint(condition=models.Q(('superseded_at__isnull', False), ('corrected_match__isnull', True), _connector='OR'), name='rating_corrected_only_when_superseded'),
        ),
    ]
