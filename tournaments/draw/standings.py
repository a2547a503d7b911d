"""Standings with tie-breaks, one generic table for every format (RULES.md §7, §8).

The table is made from results (:class:`~tournaments.draw.values.Result`) and byes. Each
entrant's *record*: wins (a bye counts as a win), losses, draws (team matches only), byes,
opponents, points scored and conceded. The *score* is wins + draws / 2.

Tie-breaks are named and applied in order; entrants still equal after the last one share a place
(and are listed in seed order). When a tie-break separates some of a tied group but leaves others
level, the ones still level are ranked again from the first tie-break, among themselves only: the
tie-breaks that read the games among the tied (``head_to_head``, ``direct_encounter``) then read
the games of the smaller group. So in a round robin three players level on wins whose games went
round in a circle are split by points difference, and if two of them are still level on it, the
game between those two decides (FIDE's direct encounter is applied the same way to the players it
has not yet split). Each line says which tie-break put it ahead of the next one
(:attr:`Standing.separated_by`), for a page to explain the order:

``wins``
    the score.
``buchholz``
    the sum of the opponents' scores (a bye has no opponent and adds nothing).
``median_buchholz``
    the Buchholz without the best and the worst opponent's score (with three opponents or more).
``head_to_head``
    the score in the games played *among the entrants still tied at that point*: two tied
    players are split by their game; three or more by their mini-table, applied again to any
    smaller group it leaves level. No games between them: still tied. (Each entrant's games are
    indexed once per table, so a tied group reads only its members' games.)
``fide_buchholz`` (after FIDE's handbook, C.02 and its successor C.07, the rule of the
    "virtual opponent", described here in our own words, without its section numbers)
    the Buchholz with unplayed rounds (a bye, a round missed after a withdrawal or before a late
    entry) counted fairly. For the player's *own* unplayed round, he is given a virtual opponent
    whose score is what the player had before that round, plus the points the player did *not*
    get for it (0 for a bye, 1 for a round missed), plus half a point for every round after it.
    When a real *opponent* had unplayed rounds, his score counts each of them as a draw (half a
    point) whatever it gave him: a bye does not inflate his opponents' Buchholz, a withdrawal
    does not sink it. Needs the rounds of the unplayed games (``unplayed``, which
    :func:`tournaments.draw.swiss_history.swiss_standings` gives); with no unplayed round at all it is
    the plain Buchholz.
``direct_encounter`` (FIDE's strict form, described in our own words)
    the score in the games among the tied entrants, *only when every two of them have met*;
    otherwise it leaves them tied (``head_to_head`` uses whatever games they played).
``points_difference``
    match points won minus match points lost (a 5-point match won 5-3 is +2).
``points_for``
    points scored: in team tables, the board points (boards won).

The orders of RULES.md: :data:`SWISS` (wins, Buchholz, median-Buchholz, head-to-head),
:data:`ROUND_ROBIN` (wins, head-to-head, points difference), :data:`TEAM` (team-match wins,
board points, head-to-head).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import DrawError
from .seeding import Seeding, as_order
from .values import DRAW, Entrant, Result

SWISS = ("wins", "buchholz", "median_buchholz", "head_to_head")
ROUND_ROBIN = ("wins", "head_to_head", "points_difference")
TEAM = ("wins", "points_for", "head_to_head")
TIEBREAKS = ("wins", "buchholz", "median_buchholz", "head_to_head", "points_difference", "points_for")
#: FIDE's tie-breaks, beside :data:`TIEBREAKS`: options an event may choose.
FIDE_TIEBREAKS = ("fide_buchholz", "direct_encounter")
#: The Swiss order with FIDE's Buchholz and the strict direct encounter.
SWISS_FIDE = ("wins", "fide_buchholz", "median_buchholz", "direct_encounter")


@dataclass(frozen=True)
class Record:
    """What an entrant has done so far (byes are counted in ``wins`` too)."""

    entrant: Entrant
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    opponents: tuple[Entrant, ...] = ()
    points_for: int = 0
    points_against: int = 0

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2

    @property
    def played(self) -> int:
        return self.wins - self.byes + self.losses + self.draws


@dataclass(frozen=True)
class Standing:
    """One line of a table: ``place`` is shared by entrants equal on every tie-break."""

    place: int
    entrant: Entrant
    record: Record
    buchholz: float
    median_buchholz: float
    shared: bool = False
    #: The tie-break (a name of :data:`TIEBREAKS` or :data:`FIDE_TIEBREAKS`) that put this entrant
    #: ahead of the next line; None when the next line shares his place, or for the last line.
    separated_by: str | None = None

    @property
    def score(self) -> float:
        return self.record.score

    @property
    def points_difference(self) -> int:
        return self.record.points_for - self.record.points_against


def records(
    entrants: Seeding | Iterable[Entrant], results: Iterable[Result], byes: Iterable[Entrant] = ()
) -> dict[Entrant, Record]:
    """Each entrant's record from the decided results and the byes (undecided results are
    skipped). Raises ``DrawError`` ``unknown_entrant`` for a result or bye naming a stranger."""
    order = as_order(entrants)
    acc = {e: [0, 0, 0, 0, [], 0, 0] for e in order}

    def row(entrant):
        try:
            return acc[entrant]
        except KeyError:
            raise DrawError(f"{entrant!r} is not an entrant", code="unknown_entrant", entrant=entrant) from None

    for result in results:
        top, bottom = row(result.top), row(result.bottom)
        if result.winner is None:
            continue
        for mine, entrant in ((top, result.top), (bottom, result.bottom)):
            mine[4].append(result.opponent(entrant))
            scored, conceded = result.points_of(entrant)
            mine[5] += scored
            mine[6] += conceded
        if result.winner is DRAW:
            top[2] += 1
            bottom[2] += 1
        else:
            row(result.winner)[0] += 1
            row(result.loser)[1] += 1
    for entrant in byes:
        mine = row(entrant)
        mine[0] += 1
        mine[3] += 1
    return {e: Record(e, w, lost, d, b, tuple(o), pf, pa) for e, (w, lost, d, b, o, pf, pa) in acc.items()}


def standings(
    entrants: Seeding | Iterable[Entrant],
    results: Iterable[Result],
    byes: Iterable[Entrant] = (),
    *,
    tiebreaks: Sequence[str] = SWISS,
    unplayed: Mapping[Entrant, Sequence[tuple[float, float, int]]] | None = None,
) -> tuple[Standing, ...]:
    """The table, best first, ordered by ``tiebreaks`` (names from :data:`TIEBREAKS` and
    :data:`FIDE_TIEBREAKS`).

    ``entrants`` in seed order (a withdrawn entrant stays in: his games count for his opponents'
    Buchholz). ``unplayed`` (for ``fide_buchholz``) lists each entrant's unplayed rounds as
    (his score before it, the points it gave him, the rounds played after it). Raises
    ``DrawError``: ``bad_tiebreak`` (also ``fide_buchholz`` with byes but no ``unplayed``),
    ``unknown_entrant``.
    """
    known = TIEBREAKS + FIDE_TIEBREAKS
    for name in tiebreaks:
        if name not in known:
            raise DrawError(f"no tie-break {name!r}; known: {', '.join(known)}", code="bad_tiebreak", tiebreak=name)
    order = as_order(entrants)
    results = [r for r in results if r.winner is not None]
    byes = list(byes)
    table = records(order, results, byes)
    buchholz, median = {}, {}
    for entrant, record in table.items():
        scores = sorted(table[o].score for o in record.opponents)
        buchholz[entrant] = sum(scores)
        median[entrant] = sum(scores[1:-1]) if len(scores) >= 3 else sum(scores)

    fide: dict[Entrant, float] = {}
    if "fide_buchholz" in tiebreaks:
        if unplayed is None:
            if byes:
                raise DrawError("fide_buchholz needs the rounds of the byes (swiss_standings gives them)",
                                code="bad_tiebreak", tiebreak="fide_buchholz")
            unplayed = {}
        adjusted = {e: table[e].score + sum(0.5 - got for _, got, _ in unplayed.get(e, ())) for e in order}
        for entrant, record in table.items():
            virtual = sum(before + (1 - got) + 0.5 * after for before, got, after in unplayed.get(entrant, ()))
            fide[entrant] = sum(adjusted[o] for o in record.opponents) + virtual

    # Each entrant's games as (opponent, points won: 1, 0.5 or 0), indexed once: a tied group's
    # mini-table reads only its members' games instead of every result.
    games: dict[Entrant, list[tuple[Entrant, float]]] = {}
    if "head_to_head" in tiebreaks or "direct_encounter" in tiebreaks:
        games = {e: [] for e in order}
        for r in results:
            if r.winner is DRAW:
                top = bottom = 0.5
            else:
                top, bottom = (1, 0) if r.winner == r.top else (0, 1)
            games[r.top].append((r.bottom, top))
            games[r.bottom].append((r.top, bottom))

    def head_to_head(block: list[Entrant]) -> dict[Entrant, float]:
        members = set(block)
        score = dict.fromkeys(block, 0.0)
        for entrant in block:
            for opponent, won in games[entrant]:
                if won and opponent in members:
                    score[entrant] += won
        return score

    def all_met(block: list[Entrant]) -> bool:
        members = set(block)
        return all(len(members & {o for o, _ in games[e]}) == len(block) - 1 for e in block)

    def key_of(name: str, block: list[Entrant]):
        if name == "head_to_head":
            return head_to_head(block).__getitem__
        if name == "direct_encounter":
            return head_to_head(block).__getitem__ if all_met(block) else (lambda e: 0)
        if name == "fide_buchholz":
            return fide.__getitem__
        if name == "wins":
            return lambda e: table[e].score
        if name == "buchholz":
            return buchholz.__getitem__
        if name == "median_buchholz":
            return median.__getitem__
        if name == "points_difference":
            return lambda e: table[e].points_for - table[e].points_against
        return lambda e: table[e].points_for

    def rank(block: list[Entrant], criteria: Sequence[str]) -> list[tuple[list[Entrant], str | None]]:
        """``block`` as its tied groups, best first, each with the tie-break that put it ahead of
        the next group (None for the last one: the caller knows what separated the block)."""
        if len(block) <= 1 or not criteria:
            return [(block, None)]
        key = key_of(criteria[0], block)
        ordered = sorted(block, key=lambda e: -key(e))  # stable: seed order among equals
        groups, start = [], 0
        for i in range(1, len(ordered) + 1):
            if i == len(ordered) or key(ordered[i]) != key(ordered[start]):
                groups.append(ordered[start:i])
                start = i
        if len(groups) == 1:
            return rank(block, criteria[1:])
        out = []
        for number, tied in enumerate(groups, start=1):
            # Those still level are ranked again from the first tie-break, among themselves: the
            # games among them now decide between them even when a later tie-break made the split.
            inner = rank(tied, tiebreaks)
            if number < len(groups):
                inner[-1] = (inner[-1][0], criteria[0])
            out.extend(inner)
        return out

    lines, place = [], 1
    for tied, separated_by in rank(list(order), tuple(tiebreaks)):
        for index, entrant in enumerate(tied, start=1):
            lines.append(Standing(place, entrant, table[entrant], buchholz[entrant], median[entrant], len(tied) > 1,
                                  separated_by if index == len(tied) else None))
        place += len(tied)
    return tuple(lines)
