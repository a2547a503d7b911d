"""The chouette tests' shared cast: the club's four players (Ann, Otis, Mia, Max) by name and id,
and a table where one game is played (Ann +4 in the box: Otis -2 after his own double, Mia -1,
Max -1)."""

from __future__ import annotations

import pytest

from tests.chouette.factories import ids, play, quick, table
from tests.clubs.factories import club_cast


@pytest.fixture
def cast():
    return club_cast()


@pytest.fixture
def p(cast):
    return ids(cast)


@pytest.fixture
def session(cast, p):
    session = table(cast)
    play(cast, session, quick("box", cubes={p["otis"]: 2}))
    return session
