"""The Swiss: paired round by round from the confirmed results; the ABT-style modified Swiss is a
Swiss with its playoffs option (``Tournament.abt_playoffs``, ``tournaments.services.playoffs``)."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from tournaments import errors
from tournaments.draw import SwissPairing, standings
from tournaments.draw.standings import TEAM
from tournaments.models import Round, Tournament
from tournaments.services import advance, contention, playoffs, state, swiss_rounds

from .base import EventFormat


class Swiss(EventFormat):
    """A Swiss: round 1 paired at the draw, each next round by the organiser once the round
    before is decided (equal records meet, no rematches, a bye to the lowest-ranked); with its
    playoffs option, the modified Swiss stops for a knockout of those who can still cash."""

    format = Tournament.Format.SWISS
    # A modified Swiss's playoffs, at the rounds' length unless published
    length_keys = {"rounds": "main", "main": None, "playoffs": "rounds"}

    # --- the pages ---
    pairs_round_by_round = True

    def entrant_tables(self, tournament: Tournament, loaded: state.Loaded) -> list[tuple[tuple, str | None]]:
        """The Swiss table (``state.swiss_table``: the event's tie-breaks; a modified Swiss's
        playoffs left out)."""
        return [(state.swiss_table(loaded), None)]

    def team_tables(self, tournament: Tournament, loaded: state.Loaded) -> list[tuple[tuple, str | None]]:
        """One table of teams: team-match wins (a bye counts as one), board points, head-to-head."""
        played = [p for p in loaded.pairings if p.entry1_id is not None and state.has_matches(p)]
        results = [state.result_of(p, loaded.by_id) for p in played]
        byes = [p.entry0_id for p in loaded.pairings if p.entry1_id is None and p.entry0_id is not None]
        return [(standings(loaded.order, results, byes, tiebreaks=TEAM), None)]

    def rule_lines(self, tournament: Tournament) -> list[tuple[str, str]]:
        """The number of rounds, and the losses that put an entrant out."""
        lines = [(gettext("Swiss rounds"), str(tournament.swiss_rounds or gettext("as the organiser decides")))]
        if tournament.max_losses:
            lines.append((gettext("Elimination"), ngettext("out at %(count)d loss", "out at %(count)d losses",
                                                           tournament.max_losses) % {"count": tournament.max_losses}))
        return lines

    def round_title(self, flight: str, number: int) -> str:
        """A Swiss round is its number (its playoffs' rounds name their flight)."""
        if flight in ("swiss", "main"):
            return gettext("Round %(number)d") % {"number": number}
        return super().round_title(flight, number)

    def modified_swiss(self, tournament: Tournament) -> bool:
        """With its playoffs option (``abt_playoffs``)."""
        return bool(tournament.abt_playoffs)

    def check_counted_rounds(self, swiss_rounds: int | None, max_losses: int | None) -> None:
        """A Swiss publishes its number of rounds, or eliminates by losses, or neither."""

    def check_swiss_rules(self, swiss_pairing: str, swiss_tiebreaks: str) -> None:
        """Any pairing and tie-breaks of a Swiss."""

    def check_playoffs(self) -> None:
        """A Swiss may be a modified Swiss, if its entrants may play its playoffs."""
        self.check_modified_swiss_entrants()

    def match_result_changed(self, tournament: Tournament, match) -> None:
        """A correction of a round already paired on re-pairs the next round
        (``advance.swiss_confirmed``)."""
        advance.swiss_confirmed(tournament, match)

    def team_match_changed(self, tournament: Tournament, loaded: state.Loaded, pairing) -> None:
        swiss_rounds.swiss_corrected(tournament, loaded, pairing)

    def contention(self, loaded: state.Loaded):
        """A modified Swiss's (``contention.swiss_contention``)."""
        return contention.swiss_contention(loaded)

    def playoffs_start(self, tournament: Tournament, user) -> None:
        """A modified Swiss's (``playoffs.swiss_playoffs_start``)."""
        playoffs.swiss_playoffs_start(tournament, user)

    def draw(self, tournament: Tournament, order: tuple[int, ...], user, entries: list) -> state.Loaded:
        """Round 1, paired as every round is (``swiss_rounds.swiss_pair``). Raises Conflict
        ``no_pairing`` when none is possible (e.g. all of one club)."""
        loaded = self.drawn(tournament, entries, [])
        answer = swiss_rounds.swiss_pair(tournament, loaded)
        if not isinstance(answer, SwissPairing):
            raise errors.no_pairing(answer.round, answer.code, answer.message)
        swiss_rounds.swiss_round_write(tournament, loaded, answer, user)
        return loaded

    def announce_draw(self, tournament: Tournament, loaded: state.Loaded, names: dict, user) -> None:
        """Round 1 is announced by ``swiss_rounds.swiss_round_write``, as every round."""

    def pair_next_round(self, tournament: Tournament, user) -> Round:
        """The next round from the confirmed results (see ``draw.tournament_pair_next_round``)."""
        if tournament.status == Tournament.Status.FINISHED:
            raise errors.finished()
        if tournament.status != Tournament.Status.RUNNING:
            raise errors.not_drawn()
        # A modified Swiss stops for its playoffs
        if tournament.abt_playoff:
            raise errors.playoffs_started()
        loaded = state.load(tournament)
        current = max((p.round_number for p in loaded.pairings), default=0)
        missing = [p for p in loaded.pairings
                   if p.round_number == current and state.has_matches(p) and not state.is_confirmed(p)]
        if missing:
            raise errors.round_incomplete(current, len(missing))
        if tournament.abt_playoffs:
            found = contention.event_contention(loaded)
            if found is not None and found.complete and found.state.to_playoffs:
                raise errors.playoffs_due(len(found.state.can_cash), found.state.paid)
        if tournament.swiss_rounds is not None and current >= tournament.swiss_rounds:
            raise errors.swiss_complete(gettext("all %(count)d rounds are played: finish the event")
                                        % {"count": tournament.swiss_rounds})
        answer = swiss_rounds.swiss_pair(tournament, loaded)
        if not isinstance(answer, SwissPairing):
            if answer.code == "finished":
                last = loaded.by_id[answer.unpaired[0]]
                raise errors.swiss_complete(gettext("%(name)s is the last player left: finish the event")
                                            % {"name": state.entrant_name(last)})
            raise errors.no_pairing(answer.round, answer.code, answer.message)
        return swiss_rounds.swiss_round_write(tournament, loaded, answer, user)
