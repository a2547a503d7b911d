"""An event's format as a strategy: one class per (kind, format), chosen from one table.

``FORMATS[(kind, format)]`` holds the (stateless, shared) instance for every kind and format the
rules allow (every ``Tournament.Kind`` with every ``Tournament.Format``); :func:`format_of` answers it for a
tournament (or anything with its ``kind`` and ``format``, such as the published rules). Each class
is a kind mixin (:mod:`.kinds`) and a format class (:mod:`.elimination`, :mod:`.roundrobin`,
:mod:`.swiss`); what an event does its own way (its draw, what a confirmed result moves, its
standings, its desk, the rules it accepts, its entries' shape) is a method of its class, so the
services ask ``format_of(tournament).method(tournament, ...)`` instead of branching on the
format. The ABT-style modified Swiss is a Swiss with its playoffs option, handled by the Swiss
classes.
"""

from __future__ import annotations

from tournaments.models import Pairing, Tournament
from tournaments.services import draw_sync, state

from .base import EventFormat
from .elimination import DoubleElimination, Elimination, SingleElimination
from .kinds import IndividualEvent, PairsEvent, TeamEvent
from .roundrobin import RoundRobin
from .swiss import Swiss


class IndividualSingleElimination(IndividualEvent, SingleElimination):
    """A single elimination of players."""


class PairsSingleElimination(PairsEvent, SingleElimination):
    """A single elimination of consultation pairs."""


class TeamSingleElimination(TeamEvent, SingleElimination):
    """A single elimination of teams: a level team match goes to the winner of board 1."""


class IndividualDoubleElimination(IndividualEvent, DoubleElimination):
    """A double elimination of players."""


class PairsDoubleElimination(PairsEvent, DoubleElimination):
    """A double elimination of consultation pairs."""


class TeamDoubleElimination(TeamEvent, DoubleElimination):
    """A double elimination of teams."""


class IndividualRoundRobin(IndividualEvent, RoundRobin):
    """A round robin of players."""


class PairsRoundRobin(PairsEvent, RoundRobin):
    """A round robin of consultation pairs."""


class TeamRoundRobin(TeamEvent, RoundRobin):
    """A round robin of teams: each round's boards are created only when the round before is
    decided, so that captains can set later rounds' board orders."""

    def schedule_write(self, tournament: Tournament, rows: list, user, entries: list) -> state.Loaded:
        """Only round 1 starts now, so captains can set later rounds' orders; its boards name
        their pairings, which are written first."""
        Pairing.objects.bulk_create(rows)
        loaded = self.drawn(tournament, entries, rows)
        draw_sync.pairing_matches_create(tournament, [row for row in rows if row.round_number == 1], loaded, user)
        return loaded


class IndividualSwiss(IndividualEvent, Swiss):
    """A Swiss of players (a modified Swiss with its playoffs option)."""


class PairsSwiss(PairsEvent, Swiss):
    """A Swiss of consultation pairs (a modified Swiss with its playoffs option)."""


class TeamSwiss(TeamEvent, Swiss):
    """A Swiss of teams (never a modified Swiss: its playoffs are for players or pairs)."""


#: The format of every (kind, format) the rules allow, one shared instance each.
FORMATS: dict[tuple[str, str], EventFormat] = {
    (cls.kind, cls.format): cls()
    for cls in (
        IndividualSingleElimination, PairsSingleElimination, TeamSingleElimination,
        IndividualDoubleElimination, PairsDoubleElimination, TeamDoubleElimination,
        IndividualRoundRobin, PairsRoundRobin, TeamRoundRobin,
        IndividualSwiss, PairsSwiss, TeamSwiss,
    )
}


def format_for(kind: str, format: str) -> EventFormat:
    """The format of an event of ``kind`` and ``format`` (KeyError for a pair the rules do not
    allow: the rules check both first)."""
    return FORMATS[(str(kind), str(format))]


def format_of(tournament) -> EventFormat:
    """The format of ``tournament`` (or of anything with its ``kind`` and ``format``: the rules)."""
    return FORMATS[(str(tournament.kind), str(tournament.format))]


__all__ = [
    "FORMATS", "DoubleElimination", "Elimination", "EventFormat", "IndividualEvent", "PairsEvent", "RoundRobin",
    "SingleElimination", "Swiss", "TeamEvent", "format_for", "format_of",
]
