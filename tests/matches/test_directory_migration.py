"""The directory's migration fills every existing player's search key from his name."""

import unicodedata

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("matches", "0012_claims_player_claims")]
AFTER = [("matches", "0013_directory_search_name")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_search_key_of_every_existing_player():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        apps = _migrate(BEFORE)
        Player = apps.get_model("matches", "Player")
        # Written as the table stood before the key: no pre_save of the key's field runs.
        names = ["Ștefan Popescu", "Ştefan Ionescu", "ÉVA KOVÁCS", "김민준", "مُحَمَّد"]
        ids = [Player.objects.create(display_name=name).pk for name in names]
        apps = _migrate(AFTER)
        Player = apps.get_model("matches", "Player")
        keys = dict(Player.objects.filter(pk__in=ids).values_list("display_name", "search_name"))
        assert keys == {"Ștefan Popescu": "stefan popescu", "Ştefan Ionescu": "stefan ionescu",
                        "ÉVA KOVÁCS": "eva kovacs", "김민준": unicodedata.normalize("NFKD", "김민준"),  # Hangul: as jamo
                        "مُحَمَّد": "محمد"}
    finally:
        MigrationExecutor(connection).migrate(latest)
