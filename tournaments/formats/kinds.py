"""The kinds of entrant an event takes, as mixins of :class:`~tournaments.formats.base.EventFormat`:
a player (:class:`IndividualEvent`), a consultation pair (:class:`PairsEvent`), a team of players
on boards (:class:`TeamEvent`). A kind says what an entry is and how its matches are played; the
format class it is mixed with says how the draw goes."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext

from core.errors import DomainError
from tournaments import errors
from tournaments.models import BoardOrder, Pairing, TeamMember, Tournament
from tournaments.services import draw_sync, naming, state

from .base import EventFormat


class IndividualEvent(EventFormat):
    """An event of single players: an entry is one player's side."""

    kind = Tournament.Kind.INDIVIDUAL
    single_players = True

    def check_divisions(self, divisions: list) -> None:
        """Divisions (by rating) are for single players: any are accepted."""

    def refuse_walk_ins(self) -> None:
        """Walk-ins are single players: taken."""

    def check_side_size(self, count: int) -> None:
        if count != 1:
            raise errors.bad_entrant(gettext("an entrant of this event is one player, not %(count)d") % {"count": count})

    def sign_up_ids(self, player_id: int, partner_id: int | None) -> list[int]:
        """The player alone: DomainError ``partner_not_allowed`` for a partner."""
        if partner_id is not None:
            raise errors.partner_not_allowed()
        return [player_id]


class PairsEvent(EventFormat):
    """An event of consultation pairs: an entry is a side of two players."""

    has_pairs = True
    kind = Tournament.Kind.PAIRS

    def check_side_size(self, count: int) -> None:
        if count != 2:
            raise errors.bad_entrant(gettext("an entrant of this event is a pair of two players, not %(count)d")
                                     % {"count": count})

    def sign_up_ids(self, player_id: int, partner_id: int | None) -> list[int]:
        """The player and his partner: DomainError ``partner_required`` without one."""
        if partner_id is None:
            raise errors.partner_required()
        return [player_id, partner_id]


class TeamEvent(EventFormat):
    """An event of teams: an entry is a team, and a team match is played on boards (one match a
    board, ``tournaments.services.teams``), decided by the majority of boards."""

    kind = Tournament.Kind.TEAMS

    #: A team does not re-enter.
    takes_reentries = False

    def refuse_sides(self) -> None:
        raise errors.team_event()

    def refuse_match_correction(self) -> None:
        raise DomainError(gettext("a team match is corrected board by board, on each board's match page"),
                          code="team_correction")

    def require_teams(self) -> None:
        """A team event takes teams."""

    def result_confirmed(self, tournament: Tournament, match) -> None:
        """A confirmed board may decide its team match: the format moves on from the whole event
        (:meth:`team_match_changed`). A match that is no board of the event moves nothing."""
        pairing = Pairing.objects.filter(tournament=tournament, boards__match_id=match.pk).only("key").first()
        if pairing is None:
            return
        loaded = state.load(tournament)
        self.team_match_changed(tournament, loaded, loaded.by_key[pairing.key])

    def refuse_unstarted(self, tournament: Tournament, loaded: state.Loaded) -> None:
        """A round robin of teams creates each round's boards only when the round before is
        decided: a pairing of two teams without boards is a team match still to be played."""
        unstarted = [p.key for p in loaded.pairings
                     if p.entry0_id is not None and p.entry1_id is not None and not state.has_matches(p)]
        if unstarted:
            raise errors.event_unfinished(
                ngettext("%(count)d team match not started yet, first %(first)s",
                         "%(count)d team matches not started yet, first %(first)s",
                         len(unstarted)) % {"count": len(unstarted),
                                            "first": naming.match_namer(tournament, loaded)(unstarted[0])}
            )

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
        draw_sync.pairing_matches_create(tournament, matched, loaded, created_by)

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
