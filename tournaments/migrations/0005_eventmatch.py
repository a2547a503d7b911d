"""An event holds its matches: ``EventMatch`` links a match to its event, carrying every
``Match.event`` there is (the column itself goes in matches 0004, which depends on this).

Backwards: ``Match.event`` is filled again from the links.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery

BATCH = 2000


def links_from_matches(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    EventMatch = apps.get_model("tournaments", "EventMatch")
    rows = Match.objects.filter(event__isnull=False).order_by("pk").values_list("pk", "event_id")
    batch = []
    for match_id, tournament_id in rows.iterator(chunk_size=BATCH):
        batch.append(EventMatch(match_id=match_id, tournament_id=tournament_id))
        if len(batch) == BATCH:
            EventMatch.objects.bulk_create(batch)
            batch = []
    EventMatch.objects.bulk_create(batch)


def matches_from_links(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    EventMatch = apps.get_model("tournaments", "EventMatch")
    event = EventMatch.objects.filter(match_id=OuterRef("pk")).values("tournament_id")[:1]
    Match.objects.filter(pk__in=EventMatch.objects.values("match_id")).update(event_id=Subquery(event))


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0003_match_club'),
        ('tournaments', '0004_tournament_appeal_minutes'),
    ]

    operations = [
        migrations.CreateModel(
            name='EventMatch',
            fields=[
                ('match', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='event_link', serialize=False, to='matches.match')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='match_links', to='tournaments.tournament')),
            ],
        ),
        migrations.RunPython(links_from_matches, matches_from_links, elidable=False),
    ]
