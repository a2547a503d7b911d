"""Cascades: what a corrected result changes further down a bracket, before anything is changed.

When a director corrects a result so that the other player won, every later match the old winner
reached because of it was played (or is to be played) by the wrong player, and so was every match
the old loser's drop reached (a consolation, last-chance or losers' bracket match). Those matches
are *reset*: their own results no longer stand (the wrong player may have won or lost them), so
what they fed is reset in turn, and so on down the bracket, in every flight.

:func:`cascade` works that out from the bracket's shape (:class:`~.routes.Routes`) and the
confirmed results alone: it walks downstream from the corrected match along the routes, and only
there, and gives each match whose players change (:class:`Reset`), with its players before and
after and the result it loses. Matches whose players stay the same keep their results, so a
correction that keeps the winner (another score) resets nothing. Pure: no Django, no rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .bracket import PLAYED, BracketState, MatchState, advance
from .errors import DrawError
from .routes import Routes
from .values import Entrant


@dataclass(frozen=True)
class Reset:
    """A later match the correction reaches: as it stood (``before``) and as it will stand
    (``after``: the new player in, or a player still to be decided). ``voided`` is the winner of
    the result it loses (None when it had none)."""

    before: MatchState
    after: MatchState

    @property
    def id(self) -> str:
        return self.before.match.id

    @property
    def voided(self) -> Entrant | None:
        return self.before.winner if self.before.status == PLAYED else None

    @property
    def leaving(self) -> tuple[Entrant, ...]:
        """The players who played (or were to play) it and no longer do."""
        now = {self.after.top, self.after.bottom}
        return tuple(p for p in (self.before.top, self.before.bottom) if p is not None and p not in now)

    @property
    def entering(self) -> tuple[Entrant, ...]:
        """The players the correction puts in it (none while a side is still to be decided)."""
        was = {self.before.top, self.before.bottom}
        return tuple(p for p in (self.after.top, self.after.bottom) if p is not None and p not in was)


@dataclass(frozen=True)
class Cascade:
    """What correcting ``source`` to ``winner`` changes: the later matches it resets (bracket
    order) and where the bracket then stands (``after``, ``results``: the results that still
    stand, the corrected one included)."""

    source: str
    old_winner: Entrant
    winner: Entrant
    resets: tuple[Reset, ...]
    results: Mapping[str, Entrant]
    after: BracketState

    @property
    def same_winner(self) -> bool:
        return self.old_winner == self.winner


def cascade(routes: Routes, results: Mapping[str, Entrant], source: str, winner: Entrant) -> Cascade:
    """The cascade of correcting match ``source`` (which has a result in ``results``) so that
    ``winner`` won it.

    Walks the routes downstream of ``source`` only: a match is reset when its players change;
    its result, if any, is then void, and what it feeds is looked at in turn. Raises
    ``DrawError``: ``unknown_match``; ``match_not_ready`` (``source`` has no result to correct);
    ``not_in_match`` (``winner`` did not play ``source``)."""
    before = advance(routes.bracket, results, lenient=True)
    was = before.get(source)
    if was.status != PLAYED:
        raise DrawError(f"{source} has no result to correct", code="match_not_ready", match=source)
    if winner not in (was.top, was.bottom):
        raise DrawError(f"{winner!r} is not playing {source}", code="not_in_match", match=source, winner=winner)
    standing = dict(results)
    standing[source] = winner
    if winner == was.winner:
        return Cascade(source, was.winner, winner, (), standing, before)
    reached = _downstream(routes, source)
    # Each pass voids the results that no longer fit their match (a reset one); a void result
    # changes what its match feeds, which the next pass sees. At most one pass per round.
    while True:
        after = advance(routes.bracket, standing, lenient=True)
        void = [key for key in reached if key in standing and after.by_id[key].status != PLAYED]
        if not void:
            break
        for key in void:
            del standing[key]
    resets = []
    for key in sorted(reached, key=routes.index.__getitem__):
        old, new = before.by_id[key], after.by_id[key]
        if (old.top, old.bottom) != (new.top, new.bottom) or (old.status == PLAYED and key not in standing):
            resets.append(Reset(old, new))
    return Cascade(source, was.winner, winner, tuple(resets), standing, after)


def _downstream(routes: Routes, source: str) -> set[str]:
    """Every match the outcome of ``source`` can reach along the routes (winner, loser, decider)."""
    found: set[str] = set()
    frontier = [source]
    while frontier:
        key = frontier.pop()
        for feed in routes.feeds[key]:
            if feed.target not in found:
                found.add(feed.target)
                frontier.append(feed.target)
    return found
