"""Reads of a round robin as a table: each group's crosstable (players by players, each cell the
result of their match from the row player's side) and, round by round, who sits out (with an odd
number of players in a group, one player a round has no match: the circle method's bye seat).

Two queries whatever the event's size (``tournaments.services.state.load``); the group's members
and the sitters-out are read off the stored pairings, so they hold after late changes too.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments import formats
from tournaments.models import Tournament

from .selectors.event import Entrant, entrant_of
from .selectors.pairings import oriented_score
from .services import state

#: A group is drawn as a crosstable up to this many players (a bigger one is a league: its
#: standings say enough, and a table of thousands of cells helps nobody).
CROSSTABLE_MAX = 32


@dataclass(frozen=True)
class CrossCell:
    """The row player's match against the column player: ``mine``/``theirs`` points once
    confirmed (None before), ``won`` True/False once decided (None before), ``status`` as played."""

    mine: int | None
    theirs: int | None
    won: bool | None
    match_id: int | None


@dataclass(frozen=True)
class CrossRow:
    entrant: Entrant
    cells: tuple[CrossCell | None, ...]  # None: the diagonal (himself), or no match between them
    wins: int


@dataclass(frozen=True)
class GroupTable:
    name: str
    entrants: tuple[Entrant, ...]
    rows: tuple[CrossRow, ...]  # empty when the group is bigger than CROSSTABLE_MAX
    sit_outs: dict[int, tuple[Entrant, ...]]  # round number -> who has no match that round


def round_robin_tables(*, tournament: Tournament) -> tuple[GroupTable, ...]:
    """Each group of a round robin (by name) with its crosstable and its sitters-out per round.
    Empty for another format or before the draw. Two queries."""
    if not formats.format_of(tournament).has_crosstables or tournament.drawn_at is None:
        return ()
    loaded = state.load(tournament)
    entrants = {e.pk: entrant_of(e) for e in loaded.entries}
    groups: dict[str, list] = {}
    for pairing in loaded.pairings:
        if pairing.entry0_id is not None and pairing.entry1_id is not None:
            groups.setdefault(pairing.flight, []).append(pairing)
    out = []
    for name in sorted(groups, key=lambda g: (len(g), g)):
        pairings = groups[name]
        members = {e for p in pairings for e in (p.entry0_id, p.entry1_id)}
        order = sorted(members, key=lambda e: (entrants[e].seed is None, entrants[e].seed or 0, entrants[e].name))
        rounds: dict[int, set[int]] = {}
        for p in pairings:
            rounds.setdefault(p.round_number, set()).update((p.entry0_id, p.entry1_id))
        sit_outs = {number: tuple(entrants[e] for e in order if e not in playing)
                    for number, playing in sorted(rounds.items())}
        rows = ()
        if len(order) <= CROSSTABLE_MAX:
            results: dict[tuple[int, int], CrossCell] = {}
            for p in pairings:
                score = oriented_score(p, loaded.by_id)
                winner = state.winner_entry(p, loaded.by_id)
                for me, them, flip in ((p.entry0_id, p.entry1_id, False), (p.entry1_id, p.entry0_id, True)):
                    mine, theirs = (score[::-1] if flip else score) if score else (None, None)
                    results[(me, them)] = CrossCell(mine, theirs, None if winner is None else winner == me, p.match_id)
            rows = tuple(
                CrossRow(entrants[me], tuple(None if me == them else results.get((me, them)) for them in order),
                         sum(1 for them in order if (c := results.get((me, them))) is not None and c.won))
                for me in order)
        out.append(GroupTable(name, tuple(entrants[e] for e in order), rows, sit_outs))
    return tuple(out)


def sit_outs_by_round(tables: tuple[GroupTable, ...]) -> dict[int, tuple[tuple[str, Entrant], ...]]:
    """Round number -> (group, entrant) of everyone sitting that round out, group by group."""
    out: dict[int, list] = {}
    for table in tables:
        for number, sitting in table.sit_outs.items():
            out.setdefault(number, []).extend((table.name, e) for e in sitting)
    return {number: tuple(found) for number, found in sorted(out.items()) if found}
