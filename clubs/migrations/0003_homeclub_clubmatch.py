"""A club holds its matches and its players' home clubs: ``ClubMatch`` carries every
``Match.club`` / ``Match.club_night`` there is, ``HomeClub`` every ``Player.club`` (the columns
themselves go in matches 0004, which depends on this).

A match with a night but no club (never written by the services, which take the night's club)
gets the night's club. Backwards: the columns are filled again from the links.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery

BATCH = 2000


def _bulk(model, rows):
    batch = []
    for row in rows:
        batch.append(model(**row))
        if len(batch) == BATCH:
            model.objects.bulk_create(batch)
            batch = []
    model.objects.bulk_create(batch)


def links_from_columns(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Player = apps.get_model("matches", "Player")
    ClubMatch = apps.get_model("clubs", "ClubMatch")
    HomeClub = apps.get_model("clubs", "HomeClub")
    matches = (Match.objects.filter(models.Q(club__isnull=False) | models.Q(club_night__isnull=False))
               .order_by("pk").values_list("pk", "club_id", "club_night_id", "club_night__club_id"))
    _bulk(ClubMatch, ({"match_id": pk, "club_id": club_id or night_club_id, "night_id": night_id}
                      for pk, club_id, night_id, night_club_id in matches.iterator(chunk_size=BATCH)))
    players = Player.objects.filter(club__isnull=False).order_by("pk").values_list("pk", "club_id")
    _bulk(HomeClub, ({"player_id": pk, "club_id": club_id} for pk, club_id in players.iterator(chunk_size=BATCH)))


def columns_from_links(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Player = apps.get_model("matches", "Player")
    ClubMatch = apps.get_model("clubs", "ClubMatch")
    HomeClub = apps.get_model("clubs", "HomeClub")
    link = ClubMatch.objects.filter(match_id=OuterRef("pk"))
    Match.objects.filter(pk__in=ClubMatch.objects.values("match_id")).update(
        club_id=Subquery(link.values("club_id")[:1]), club_night_id=Subquery(link.values("night_id")[:1]))
    home = HomeClub.objects.filter(player_id=OuterRef("pk")).values("club_id")[:1]
    Player.objects.filter(pk__in=HomeClub.objects.values("player_id")).update(club_id=Subquery(home))


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_members_nights_seasons_chouettes'),
        ('matches', '0003_match_club'),
    ]

    operations = [
        migrations.CreateModel(
            name='ClubMatch',
            fields=[
                ('match', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='club_link', serialize=False, to='matches.match')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='match_links', to='clubs.club')),
                ('night', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='match_links', to='clubs.clubnight')),
            ],
        ),
        migrations.CreateModel(
            name='HomeClub',
            fields=[
                ('player', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='home_club', serialize=False, to='matches.player')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='home_players', to='clubs.club')),
            ],
        ),
        migrations.RunPython(links_from_columns, columns_from_links, elidable=False),
    ]
