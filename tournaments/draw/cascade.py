"""Cascades: what a corrected result changes in a bracket, worked out before anything is changed.

When a director corrects a result so that the other player won, every later match the old winner
reached because of it was played (or is to be played) by the wrong player, and so was every match
the old loser's drop reached (a consolation, last-chance or losers' bracket match). Those matches
are *reset*: a match made for players who no longer play it is removed, and its result no longer
stands, whoever won it (the player who stays in it may have won, but against the wrong opponent),
so what it fed is reset in turn, and so on down the bracket, in every flight.

:func:`cascade` works that out as the stored bracket will stand once the correction is made, from
what is stored: the confirmed results, which matches exist (``matched``), what each match's row
holds (``stored``: :func:`~.bracket.stored_entries`) and who has withdrawn (walkovers:
:func:`~.bracket.settle`). It removes the matches that no longer fit (:func:`~.bracket.is_stale`,
the rule the bracket's synchronisation removes them by) until none is left. So it is the plan of
the change, whole: every match removed and every row rewritten (:class:`Reset`, with its players
before and after), and where the bracket then stands. A correction that keeps the winner (another
score) resets nothing. Pure: no Django, no rows.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from .bracket import PLAYED, READY, Bracket, BracketState, MatchState, advance, is_stale, settle, stored_entries
from .errors import DrawError
from .values import Entrant

NOTHING = (None, None)


@dataclass(frozen=True)
class Reset:
    """A match the correction changes: as it stood (``before``) and as it will stand (``after``).
    ``removed``: its match is removed (it had been made for other players, or is not to be played
    any more); otherwise only what its row holds changes (a bye, a walkover, a match that gets
    its players). ``voided`` is the winner of the result it loses (None when it had none)."""

    before: MatchState
    after: MatchState
    removed: bool

    @property
    def id(self) -> str:
        return self.before.match.id

    @property
    def voided(self) -> Entrant | None:
        return self.before.winner if self.before.status == PLAYED else None

    @property
    def leaving(self) -> tuple[Entrant, ...]:
        """The players who played (or were to play) it and no longer do."""
        now = set(stored_entries(self.after))
        return tuple(p for p in stored_entries(self.before) if p is not None and p not in now)

    @property
    def entering(self) -> tuple[Entrant, ...]:
        """The players the correction puts in it (none while a side is still to be decided)."""
        was = set(stored_entries(self.before))
        return tuple(p for p in stored_entries(self.after) if p is not None and p not in was)


@dataclass(frozen=True)
class Cascade:
    """What correcting ``source`` to ``winner`` changes: the matches it resets (bracket order) and
    where the bracket then stands: ``results`` (the results that still stand, the corrected one
    included), ``after`` (its state), ``walkovers`` (the matches decided by a walkover) and
    ``matched`` (the matches that still exist; each match ``after`` gives as ready without one
    is made)."""

    source: str
    old_winner: Entrant
    winner: Entrant
    resets: tuple[Reset, ...]
    results: Mapping[str, Entrant]
    after: BracketState
    walkovers: frozenset[str]
    matched: frozenset[str]

    @property
    def same_winner(self) -> bool:
        return self.old_winner == self.winner

    @property
    def removed(self) -> tuple[str, ...]:
        """The matches removed, in bracket order."""
        return tuple(reset.id for reset in self.resets if reset.removed)

    @property
    def to_make(self) -> tuple[str, ...]:
        """The matches to make once the correction is done: ready, and none exists."""
        return tuple(s.match.id for s in self.after.matches if s.status == READY and s.match.id not in self.matched)


def cascade(bracket: Bracket, results: Mapping[str, Entrant], source: str, winner: Entrant, *,
            matched: Collection[str] | None = None, stored: Mapping[str, tuple] | None = None,
            withdrawn: Collection[Entrant] = frozenset()) -> Cascade:
    """The cascade of correcting match ``source`` (which has a result in ``results``) so that
    ``winner`` won it.

    ``matched``: the matches that exist (default: every match the results make ready or
    played, as a bracket kept in step with them has); ``stored``: what each match's row holds
    (default: as the results place them); ``withdrawn``: who has withdrawn (a ready match
    without a match of its own where one of them plays is a walkover).

    Raises ``DrawError``: ``unknown_match``; ``match_not_ready`` (``source`` has no result to
    correct); ``not_in_match`` (``winner`` did not play ``source``); what :func:`advance` raises
    when ``results`` do not fit the bracket."""
    withdrawn = frozenset(withdrawn)
    if matched is None:
        kept = advance(bracket, results)
        matched = frozenset(s.match.id for s in kept.matches if s.status in (READY, PLAYED))
    matched = frozenset(matched)
    before, walkovers = settle(bracket, results, withdrawn=withdrawn, matched=matched)
    if stored is None:
        stored = {s.match.id: stored_entries(s) for s in before.matches}
    was = before.get(source)
    if was.status != PLAYED or source not in results:
        raise DrawError(f"{source} has no result to correct", code="match_not_ready", match=source)
    if winner not in (was.top, was.bottom):
        raise DrawError(f"{winner!r} is not playing {source}", code="not_in_match", match=source, winner=winner)
    standing = dict(results)
    standing[source] = winner
    if winner == was.winner:
        return Cascade(source, was.winner, winner, (), standing, before, walkovers, matched)
    # Each pass removes the matches that no longer fit where the bracket stands; a result that
    # goes with one changes what its match feeds, and a ready match left without a match of its
    # own may be a walkover: the next pass sees both.
    live, removed = set(matched), set()
    while True:
        after, walkovers = settle(bracket, standing, withdrawn=withdrawn, matched=live, lenient=True)
        stale = [s.match.id for s in after.matches
                 if s.match.id in live and is_stale(s, stored.get(s.match.id, NOTHING))]
        if not stale:
            break
        for key in stale:
            live.discard(key)
            removed.add(key)
            standing.pop(key, None)
    after, walkovers = settle(bracket, standing, withdrawn=withdrawn, matched=live)  # every result left fits
    resets = tuple(
        Reset(before.by_id[s.match.id], s, s.match.id in removed)
        for s in after.matches
        if s.match.id != source
        and (s.match.id in removed or tuple(stored.get(s.match.id, NOTHING)) != stored_entries(s))
    )
    return Cascade(source, was.winner, winner, resets, standing, after, walkovers, frozenset(live))
