"""The kinds of entrant an event takes, as mixins of :class:`~tournaments.formats.base.EventFormat`:
a player (:class:`IndividualEvent`), a consultation pair (:class:`PairsEvent`), a team of players
on boards (:class:`TeamEvent`). A kind says what an entry is and how its matches are played; the
format class it is mixed with says how the draw goes."""

from __future__ import annotations

from django.utils.translation import gettext

from tournaments import errors
from tournaments.models import Pairing, Tournament
from tournaments.services import advance, state

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

    def result_confirmed(self, tournament: Tournament, match) -> None:
        """A confirmed board may decide its team match: the format moves on from the whole event
        (:meth:`team_match_changed`). A match that is no board of the event moves nothing."""
        pairing = Pairing.objects.filter(tournament=tournament, boards__match_id=match.pk).only("key").first()
        if pairing is None:
            return
        loaded = state.load(tournament)
        self.team_match_changed(tournament, loaded, loaded.by_key[pairing.key])

    def pairings_loaded(self, pairings: list) -> None:
        """Each pairing's boards, as ``board_rows`` (one query)."""
        state.attach_boards(pairings)

    def pairings_fresh(self, pairings: list) -> None:
        """No reports yet, and a pairing without boards written (a bye) has none."""
        for pairing in pairings:
            pairing.has_reports = False
            if not hasattr(pairing, "board_rows"):
                pairing.board_rows = []

    def pairings_write(self, tournament: Tournament, rows: list, matched: list, loaded: state.Loaded, created_by) -> None:
        """A team match's boards name its pairing: the pairings are written first."""
        Pairing.objects.bulk_create(rows)
        advance.pairing_matches_create(tournament, matched, loaded, created_by)

    def check_modified_swiss_entrants(self) -> None:
        raise errors.bad_rules("abt_playoffs", gettext("the playoffs of a modified Swiss are for players or pairs, "
                                                       "not teams"))
