"""Routes: where each match of a bracket sends its winner and its loser, read off the bracket's shape.

A confirmed result changes only the matches it feeds, and the matches those feed in turn when
they resolve without being played (a bye, a walkover). :class:`Routes` indexes a bracket for
that walk: for each match the slots it fills (``feeds``), and for each slot whether it can ever
hold a real player given the number of entrants (:meth:`Routes.is_real`: a slot that cannot is a
bye, whatever the results).

The shape of a bracket (its match ids and which slot each result fills) depends only on its
size (a power of two) and its flights, never on who was drawn or how many: ``n`` entrants in a
``size`` bracket differ from ``size`` entrants only in which first-round slots are byes (seeds
above ``n``). So one :class:`Routes` serves every event of that size and those rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .bracket import Bracket, BracketMatch, LoserOf, Seeded, WinnerOf

WINNER = "winner"
LOSER = "loser"
DECIDER = "decider"


@dataclass(frozen=True)
class Feed:
    """The ``kind`` of ``source``'s outcome (its winner, its loser, or whether a decider is
    needed) fills side ``side`` (``top``/``bottom``; None for a decider) of match ``target``."""

    target: str
    side: str | None
    kind: str


@dataclass
class Routes:
    """A bracket's shape indexed for walking downstream (see the module docstring)."""

    bracket: Bracket
    feeds: dict[str, tuple[Feed, ...]] = field(init=False)
    index: dict[str, int] = field(init=False)

    def __post_init__(self):
        feeds: dict[str, list[Feed]] = {m.id: [] for m in self.bracket.matches}
        for m in self.bracket.matches:
            for side, slot in (("top", m.top), ("bottom", m.bottom)):
                if isinstance(slot, WinnerOf):
                    feeds[slot.match].append(Feed(m.id, side, WINNER))
                elif isinstance(slot, LoserOf):
                    feeds[slot.match].append(Feed(m.id, side, LOSER))
            if m.decider_of:
                feeds[m.decider_of].append(Feed(m.id, None, DECIDER))
        self.feeds = {k: tuple(v) for k, v in feeds.items()}
        self.index = {m.id: i for i, m in enumerate(self.bracket.matches)}

    def match(self, match_id: str) -> BracketMatch:
        """Raises ``DrawError`` ``unknown_match``."""
        return self.bracket.match(match_id)

    def sources(self, match_id: str) -> tuple[str, ...]:
        """The matches whose outcome fills ``match_id``'s slots (a decider: its final too)."""
        m = self.match(match_id)
        found = [s.match for s in (m.top, m.bottom) if isinstance(s, WinnerOf | LoserOf)]
        if m.decider_of:
            found.append(m.decider_of)
        return tuple(dict.fromkeys(found))

    def is_real(self, slot, entrants: int) -> bool:
        """Whether ``slot`` can ever hold a player (not a bye) when ``entrants`` are drawn: a seed
        up to ``entrants``; the winner of a match with a real side; the loser of a match whose two
        sides are real. O(rounds): the top side of every first-round match is a real seed."""
        if isinstance(slot, Seeded):
            return slot.seed <= entrants
        if isinstance(slot, WinnerOf):
            m = self.bracket.by_id[slot.match]
            return self.is_real(m.top, entrants) or self.is_real(m.bottom, entrants)
        if isinstance(slot, LoserOf):
            m = self.bracket.by_id[slot.match]
            return self.is_real(m.top, entrants) and self.is_real(m.bottom, entrants)
        return False
