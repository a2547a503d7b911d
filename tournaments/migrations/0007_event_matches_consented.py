from django.db import migrations

GIVEN = "given"


def consent_event_matches(apps, schema_editor):
    """An event's matches keep counting: the event vouches for both sides (as it does for new
    ones, tournaments/hooks.py)."""
    Match = apps.get_model("matches", "Match")
    EventMatch = apps.get_model("tournaments", "EventMatch")
    Match.objects.filter(pk__in=EventMatch.objects.values("match_id")).update(consent0=GIVEN, consent1=GIVEN)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0006_remove_tournament_club"),
        ("matches", "0005_match_consent"),
    ]

    operations = [
        migrations.RunPython(consent_event_matches, migrations.RunPython.noop),
    ]
