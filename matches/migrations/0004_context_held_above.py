"""matches names no model of an app above it: a match's event, club and club night and a player's
home club are held by tournaments (``EventMatch``) and clubs (``ClubMatch``, ``HomeClub``), whose
migrations carried the rows first. Backwards, the columns come back empty and those migrations,
unapplied after this one, fill them again."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0003_match_club'),
        ('tournaments', '0005_eventmatch'),
        ('clubs', '0003_homeclub_clubmatch'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='match',
            name='club',
        ),
        migrations.RemoveField(
            model_name='match',
            name='club_night',
        ),
        migrations.RemoveField(
            model_name='match',
            name='event',
        ),
        migrations.RemoveField(
            model_name='player',
            name='club',
        ),
    ]
