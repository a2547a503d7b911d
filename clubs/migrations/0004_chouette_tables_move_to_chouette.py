"""The chouette tables now belong to the ``chouette`` app (chouette/migrations/0001_initial.py):
clubs forgets ChouetteSession and ChouetteStep, state only; their tables (``clubs_chouettesession``,
``clubs_chouettestep``) and every row stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0003_homeclub_clubmatch"),
        ("chouette", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ChouetteStep"),
                migrations.DeleteModel(name="ChouetteSession"),
            ],
            database_operations=[],
        ),
    ]
