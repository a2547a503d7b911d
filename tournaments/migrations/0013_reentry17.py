# Re-entry (buy-back) into the main while its first round is open.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0012_swiss17_pairing_tiebreaks'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='entry',
            name='entry_side_once_per_event',
        ),
        migrations.AddField(
            model_name='entry',
            name='reentry_of',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.RESTRICT, related_name='reentry', to='tournaments.entry'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='reentries',
            field=models.PositiveSmallIntegerField(default=0, help_text='re-entries (buy-backs) into the main allowed per player while its first round is open: 0 or 1'),
        ),
        migrations.AddConstraint(
            model_name='entry',
            constraint=models.UniqueConstraint(condition=models.Q(('reentry_of__isnull', True), ('side__isnull', False)), fields=('tournament', 'side'), name='entry_side_once_per_event'),
        ),
        migrations.AddConstraint(
            model_name='entry',
            constraint=models.UniqueConstraint(condition=models.Q(('reentry_of__isnull', False)), fields=('tournament', 'side'), name='entry_side_reenters_once_per_event'),
        ),
        migrations.AddConstraint(
            model_name='entry',
            constraint=models.CheckConstraint(condition=models.Q(('reentry_of__isnull', True), ('side__isnull', False), _connector='OR'), name='entry_reentry_is_a_side'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('reentries__lte', 1)), name='tournament_reentries_at_most_one'),
        ),
    ]
