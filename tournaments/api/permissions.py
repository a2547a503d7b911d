"""Who may call which write endpoint of the tournaments API.

The services check the same rules again under the tournament's row lock and stay the authority.
These checks run first, so that an outsider gets a 403 before his body is even read (another
organiser sending a bad body learns nothing about the event's rules). Each function returns
nothing and raises :class:`core.errors.NotAllowed` (HTTP 403).
"""

from __future__ import annotations

from tournaments import errors
from tournaments.models import Tournament
from tournaments.services.common import runs
from tournaments.services.events import may_create_events


def check_may_create(user) -> None:
    """Only organisers (and staff) create tournaments, and a club's owner his club's (the service
    checks the club)."""
    if not may_create_events(user):
        raise errors.not_an_organiser()


def check_runs(tournament: Tournament, user) -> None:
    """Only the tournament's organiser (its director) or staff act on it."""
    if not runs(tournament, user):
        raise errors.not_organiser()
