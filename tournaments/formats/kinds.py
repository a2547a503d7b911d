"""The kinds of entrant an event takes, as mixins of :class:`~tournaments.formats.base.EventFormat`:
a player (:class:`IndividualEvent`), a consultation pair (:class:`PairsEvent`), a team of players
on boards (:class:`TeamEvent`). A kind says what an entry is and how its matches are played; the
format class it is mixed with says how the draw goes."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from tournaments import errors
from tournaments.models import BoardOrder, TeamMember, Tournament
from tournaments.services import state

from .base import EventFormat


class IndividualEvent(EventFormat):
    """An event of single players: an entry is one player's side."""

    kind = Tournament.Kind.INDIVIDUAL
    single_players = True

    def check_divisions(self, divisions: list) -> None:
        """Divisions (by rating) are for single players: any are accepted."""


class PairsEvent(EventFormat):
    """An event of consultation pairs: an entry is a side of two players."""

    has_pairs = True
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

    # --- the pages ---
    has_teams = True
    pairing_title = gettext_lazy("Team match")

    def standing_tables(self, tournament: Tournament, loaded: state.Loaded) -> list[tuple[tuple, str | None]]:
        """The team tables: team-match wins (a level match half), board points, head-to-head."""
        return self.team_tables(tournament, loaded)

    def player_entry(self, tournament: Tournament, loaded: state.Loaded, player_id: int) -> tuple:
        """His team's entry (captain, member or reserve) and its board orders by round
        (``{round: [player ids]}``). One query (two when he is in a team)."""
        team_id = TeamMember.objects.filter(tournament=tournament, player_id=player_id).values_list(
            "team_id", flat=True).first()
        entry = next((e for e in loaded.entries if team_id is not None and e.team_id == team_id), None)
        if entry is None:
            return None, {}
        return entry, dict(BoardOrder.objects.filter(team_id=team_id).values_list("round_number", "players"))

    def draw_match_href(self, tournament: Tournament, match) -> str | None:
        """A pairing of two teams links to its team match card (it has no match of its own)."""
        known = match.top is not None and match.bottom is not None and match.pairing_id is not None
        return reverse("tournaments:team_match", args=[tournament.pk, match.pairing_id]) if known else None


#: The kinds of entrant the new-event form offers: players and pairs.
NEW_EVENT_KINDS = (IndividualEvent.kind, PairsEvent.kind)
