"""The round robin: every entrant of a group meets every other, the whole schedule drawn at once."""

from __future__ import annotations

from tournaments.models import Tournament

from .base import EventFormat


class RoundRobin(EventFormat):
    """A round robin in groups: its schedule (rounds, byes) is drawn at once and every match of
    an individual or pairs event exists from the draw."""

    format = Tournament.Format.ROUND_ROBIN
    length_keys = {"rounds": "main", "main": None}

    def check_groups(self, groups: int) -> None:
        """Any number of groups (their range is the rules' own check)."""

    def check_round_robin_order(self, round_robin_order: str) -> None:
        """Any order of rounds."""
