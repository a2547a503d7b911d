"""The round robin: every entrant of a group meets every other, the whole schedule drawn at once."""

from __future__ import annotations

from tournaments.models import Tournament

from .base import EventFormat


class RoundRobin(EventFormat):
    """A round robin in groups: its schedule (rounds, byes) is drawn at once and every match of
    an individual or pairs event exists from the draw."""

    format = Tournament.Format.ROUND_ROBIN
