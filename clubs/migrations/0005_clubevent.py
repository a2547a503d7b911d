"""A club holds the events on its calendar: ``ClubEvent`` carries every ``Tournament.club`` there
is (the column itself goes in tournaments 0006, which depends on this). Backwards: the column is
filled again from the links."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def links_from_column(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    ClubEvent = apps.get_model("clubs", "ClubEvent")
    ClubEvent.objects.bulk_create(
        ClubEvent(tournament_id=pk, club_id=club_id)
        for pk, club_id in Tournament.objects.filter(club__isnull=False).order_by("pk").values_list("pk", "club_id")
    )


def column_from_links(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    ClubEvent = apps.get_model("clubs", "ClubEvent")
    link = ClubEvent.objects.filter(tournament_id=OuterRef("pk")).values("club_id")[:1]
    Tournament.objects.filter(pk__in=ClubEvent.objects.values("tournament_id")).update(club_id=Subquery(link))


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0004_chouette_tables_move_to_chouette"),
        ("tournaments", "0005_eventmatch"),
    ]

    operations = [
        migrations.CreateModel(
            name="ClubEvent",
            fields=[
                ("tournament", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                                    related_name="club_event", serialize=False,
                                                    to="tournaments.tournament")),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="events",
                                           to="clubs.club")),
            ],
        ),
        migrations.RunPython(links_from_column, column_from_links),
    ]
