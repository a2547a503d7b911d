"""The Swiss: paired round by round from the confirmed results; the ABT-style modified Swiss is a
Swiss with its playoffs option (``Tournament.abt_playoffs``, ``tournaments.services.playoffs``)."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from tournaments.draw import standings
from tournaments.draw.standings import TEAM
from tournaments.models import Tournament
from tournaments.services import state

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
