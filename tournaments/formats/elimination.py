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


class DoubleElimination(Elimination):
    """Double elimination: a winners' bracket, a losers' bracket and a final (with its reset)."""

    format = Tournament.Format.DOUBLE_ELIMINATION
