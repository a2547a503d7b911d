"""The kinds of entrant an event takes, as mixins of :class:`~tournaments.formats.base.EventFormat`:
a player (:class:`IndividualEvent`), a consultation pair (:class:`PairsEvent`), a team of players
on boards (:class:`TeamEvent`). A kind says what an entry is and how its matches are played; the
format class it is mixed with says how the draw goes."""

from __future__ import annotations

from django.utils.translation import gettext

from tournaments import errors
from tournaments.models import Tournament
from tournaments.services import state

from .base import EventFormat


class IndividualEvent(EventFormat):
    """An event of single players: an entry is one player's side."""

    kind = Tournament.Kind.INDIVIDUAL

    def check_divisions(self, divisions: list) -> None:
        """Divisions (by rating) are for single players: any are accepted."""


class PairsEvent(EventFormat):
    """An event of consultation pairs: an entry is a side of two players."""

    kind = Tournament.Kind.PAIRS


class TeamEvent(EventFormat):
    """An event of teams: an entry is a team, and a team match is played on boards (one match a
    board, ``tournaments.services.teams``), decided by the majority of boards."""

    kind = Tournament.Kind.TEAMS

    def pairings_loaded(self, pairings: list) -> None:
        """Each pairing's boards, as ``board_rows`` (one query)."""
        state.attach_boards(pairings)

    def check_modified_swiss_entrants(self) -> None:
        raise errors.bad_rules("abt_playoffs", gettext("the playoffs of a modified Swiss are for players or pairs, "
                                                       "not teams"))
