"""A table's state is cached by the session's version: a second read of an unchanged table costs one
query, and any change (a game, a correction, a player joining) is seen at once, even by a caller
holding an old copy of the session row."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chouette.selectors import chouette_state
from chouette.services import chouette_game_void
from tests.chouette.factories import ids, play, quick, table
from tests.clubs.factories import club_cast

pytestmark = pytest.mark.django_db


def test_an_unchanged_table_is_read_from_the_cache_and_a_change_is_seen_at_once():
    cast = club_cast()
    p = ids(cast)
    session = table(cast)
    play(cast, session, quick("box", cubes={p["otis"]: 2}))
    first = chouette_state(session=session)
    with CaptureQueriesContext(connection) as queries:
        again = chouette_state(session=session)
    assert len(queries) == 1 and again.ledger == first.ledger
    stale_copy = session  # its version is the one before the next changes
    play(cast, session, quick("team"))
    assert chouette_state(session=stale_copy).game_count == 2
    chouette_game_void(club_id=cast.club.pk, chouette_id=session.pk, number=2, user=cast.organiser)
    after_void = chouette_state(session=stale_copy)
    assert after_void.games[0].voided and after_void.ledger == first.ledger
