"""The organisers and staff the tournaments tests act as (tests/tournaments/factories.py makes them)."""

import pytest

from tests.tournaments.factories import make_another_organiser, make_organiser, make_staff


@pytest.fixture
def organiser():
    return make_organiser()


@pytest.fixture
def another_organiser():
    return make_another_organiser()


@pytest.fixture
def staff():
    return make_staff()
