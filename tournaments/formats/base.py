"""What every event format answers, whatever its kind and format (:class:`EventFormat`).

An event's behaviour is chosen once, by :func:`tournaments.formats.format_of`, from the table
``FORMATS[(kind, format)]``: one class per kind of entrant (a player, a consultation pair, a team:
:mod:`.kinds`) and format (single or double elimination, round robin, Swiss), built from a kind
mixin and a format class. The instances are stateless and shared: every method takes the
tournament (or the rules) it is about.
"""

from __future__ import annotations

from tournaments.models import Tournament


class EventFormat:
    """One (kind, format) of event. Subclasses set :attr:`kind` and :attr:`format` (the
    ``Tournament.Kind`` and ``Tournament.Format`` values) and override what their kind or format
    does its own way; the base says what most events do."""

    #: The event's ``Tournament.Format`` value.
    format: str = ""
    #: The event's ``Tournament.Kind`` value.
    kind: str = ""

    #: The length schedules the format reads from ``Tournament.lengths``, and where a missing one
    #: falls back (``tournaments.services.state.schedule``).
    length_keys: dict[str, str | None] = {}

    def minimum_entries(self, tournament: Tournament) -> int:
        """How many checked-in entrants the draw needs."""
        return 2

    def draw(self, tournament: Tournament, order: tuple[int, ...], user, entries: list):
        """Write the draw of ``tournament`` for the entrants ``order`` (seed 1 first; ``entries``
        every entry, their seeds written): its pairings and first matches. Returns what
        ``state.load`` would read now. Raises ``DrawError``."""
        raise NotImplementedError

    def result_confirmed(self, tournament: Tournament, match) -> None:
        """Move the event's draw on after ``match``'s confirmed result changed (first confirmed,
        corrected or reopened), under the event's lock."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.kind} {self.format}>"

    @property
    def label(self) -> str:
        """The format's name as people read it (``Swiss``)."""
        return str(Tournament.Format(self.format).label)
