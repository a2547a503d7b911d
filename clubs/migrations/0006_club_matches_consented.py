from django.db import migrations

GIVEN = "given"


def consent_club_matches(apps, schema_editor):
    """A club's existing matches keep counting (new ones: the club vouches for its members' sides,
    clubs/hooks.py)."""
    Match = apps.get_model("matches", "Match")
    ClubMatch = apps.get_model("clubs", "ClubMatch")
    Match.objects.filter(pk__in=ClubMatch.objects.values("match_id")).update(consent0=GIVEN, consent1=GIVEN)


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0005_clubevent"),
        ("matches", "0005_match_consent"),
    ]

    operations = [
        migrations.RunPython(consent_club_matches, migrations.RunPython.noop),
    ]
