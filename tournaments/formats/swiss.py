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
