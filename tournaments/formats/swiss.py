"""The Swiss: paired round by round from the confirmed results; the ABT-style modified Swiss is a
Swiss with its playoffs option (``Tournament.abt_playoffs``, ``tournaments.services.playoffs``)."""

from __future__ import annotations

from tournaments.models import Tournament

from .base import EventFormat


class Swiss(EventFormat):
    """A Swiss: round 1 paired at the draw, each next round by the organiser once the round
    before is decided (equal records meet, no rematches, a bye to the lowest-ranked); with its
    playoffs option, the modified Swiss stops for a knockout of those who can still cash."""

    format = Tournament.Format.SWISS
    # A modified Swiss's playoffs, at the rounds' length unless published
    length_keys = {"rounds": "main", "main": None, "playoffs": "rounds"}

    def check_counted_rounds(self, swiss_rounds: int | None, max_losses: int | None) -> None:
        """A Swiss publishes its number of rounds, or eliminates by losses, or neither."""

    def check_swiss_rules(self, swiss_pairing: str, swiss_tiebreaks: str) -> None:
        """Any pairing and tie-breaks of a Swiss."""

    def check_playoffs(self) -> None:
        """A Swiss may be a modified Swiss, if its entrants may play its playoffs."""
        self.check_modified_swiss_entrants()
