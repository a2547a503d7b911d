"""The cast of the organiser tests: pia, a player who asks; sam, staff; otto, an organiser."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, UserFactory
from tests.matches.factories_ratings import run_tasks_inline


@pytest.fixture
def pia():
    return PlayerFactory(user__username="pia", display_name="Pia Player").user


@pytest.fixture
def sam():
    return UserFactory(username="sam", staff=True)


@pytest.fixture
def otto():
    return UserFactory(username="otto", organiser=True)


@pytest.fixture
def dispatched(monkeypatch):
    """The outbox's tasks run at once after each commit, as a worker would."""
    return run_tasks_inline(monkeypatch)
