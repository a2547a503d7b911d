"""The knockout formats: a bracket built from the seeding and the published flights
(:class:`SingleElimination`, with its consolation, playoff and last-chance flights, and
:class:`DoubleElimination`), advanced as results are confirmed."""

from __future__ import annotations

from tournaments.models import Tournament

from .base import EventFormat


class Elimination(EventFormat):
    """A bracket: the whole draw is made at once from the seeding, its pairings filled as the
    results they wait for are confirmed; a withdrawn entrant's opponent goes through."""


class SingleElimination(Elimination):
    """Single elimination: one loss and out of the main, with the flights its rules publish (a
    consolation, the playoff for 2nd, a last chance) and re-entry into the main's first round."""

    format = Tournament.Format.SINGLE_ELIMINATION
    length_keys = {"main": None, "consolation": "main", "last_chance": "consolation", "playoff": "main"}

    def payout_flights(self, consolation_rounds: int, last_chance: bool) -> tuple[str, ...]:
        """The main, and the consolation and last chance as the event has them."""
        return ("main",) + (("consolation",) if consolation_rounds else ()) + (("last_chance",) if last_chance else ())

    def check_consolation(self, consolation_rounds: int) -> None:
        """Any number of consolation rounds (their range is the rules' own check)."""

    def check_last_chance_open(self, last_chance_open: bool) -> None:
        """A last chance open to everyone who has not cashed is a single elimination's flight."""

    def check_reentries(self, reentries: int) -> None:
        """Re-entry is into the main of a single elimination."""


class DoubleElimination(Elimination):
    """Double elimination: a winners' bracket, a losers' bracket and a final (with its reset)."""

    format = Tournament.Format.DOUBLE_ELIMINATION
    length_keys = {"winners": "main", "losers": "winners", "final": None, "main": None}
