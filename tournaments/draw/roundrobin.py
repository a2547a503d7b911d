"""Round robin (clubs, groups, leagues; RULES.md §8): everyone meets everyone in the group once,
on a schedule fixed at the draw.

- Groups: the entrants, in seed order, are dealt into ``groups`` groups by the seed snake
  (seeds 1..N to groups A..N, seeds N+1..2N back from the last group to A, and so on), so every
  group gets a fair share of the strong seeds (:func:`snake_groups`).
- Schedule: the circle method. Seat the group's players round a table (adding a bye seat when
  their number is odd); seat 1 stays put, the others move one seat each round; in each round seat
  ``i`` plays seat ``n + 1 - i``. ``n - 1`` rounds (``n`` with a bye), each player once per
  round, every pair exactly once, and with an odd count each player sits out exactly one round.
- Or, with ``order="berger"``, FIDE's Berger tables (the published round-robin
  tables of the FIDE handbook, reproduced by their construction, described in our own words):
  number the players 1..n (n even; with an odd count, n is the bye). Round 1 meets 1 v n,
  2 v n-1, 3 v n-2...; each next round adds n/2 to every number but n (counted round 1..n-1),
  keeping the boards, and the player n changes side on board 1. So n meets 1, then n/2 + 1,
  then 2, n/2 + 2..., and the published tables for 4 to 16 players come out board for board.
- Match ids are ``<group>-<round>-<table>`` (``A-3-2``); lengths come from a schedule counted
  from round 1 (:func:`tournaments.draw.lengths.round_length`).
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import DrawError
from .lengths import Schedule, check_schedule, round_length
from .seeding import Seeding, as_order
from .values import Entrant, Pairing

#: The orders of a round robin's rounds: the circle method, FIDE's Berger tables.
ROUND_ROBIN_ORDERS = ("circle", "berger")


@dataclass(frozen=True)
class RoundRobinRound:
    """One round of a group: its pairings, and who sits out (None with an even count)."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: Entrant | None = None


@dataclass(frozen=True)
class Group:
    """A group: its name (``A``, ``B``...), entrants in seed order, and its fixed schedule."""

    name: str
    entrants: tuple[Entrant, ...]
    rounds: tuple[RoundRobinRound, ...]

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        return tuple(p for r in self.rounds for p in r.pairings)


@dataclass(frozen=True)
class RoundRobin:
    groups: tuple[Group, ...]

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        return tuple(p for g in self.groups for p in g.pairings)

    def group_of(self, entrant: Entrant) -> Group:
        for group in self.groups:
            if entrant in group.entrants:
                return group
        raise DrawError(f"{entrant!r} is not in this round robin", code="unknown_entrant", entrant=entrant)


def group_name(index: int) -> str:
    """``A``..``Z``, then ``AA``, ``AB``... for the 0-based ``index``."""
    letters = string.ascii_uppercase
    return letters[index] if index < 26 else group_name(index // 26 - 1) + letters[index % 26]


def snake_groups(entrants: Seeding | Iterable[Entrant], groups: int) -> tuple[tuple[Entrant, ...], ...]:
    """The entrants dealt into ``groups`` groups by the seed snake (1..N forward, N+1..2N back...).

    Raises ``DrawError`` ``bad_groups`` if a group would have fewer than two entrants.
    """
    order = as_order(entrants)
    if not isinstance(groups, int) or groups < 1 or len(order) < 2 * groups:
        raise DrawError(
            f"{len(order)} entrants cannot make {groups} groups of at least 2", code="bad_groups", groups=groups
        )
    dealt: list[list[Entrant]] = [[] for _ in range(groups)]
    for i, entrant in enumerate(order):
        lap, seat = divmod(i, groups)
        dealt[seat if lap % 2 == 0 else groups - 1 - seat].append(entrant)
    return tuple(tuple(g) for g in dealt)


def circle_schedule(players: tuple[Entrant, ...]) -> tuple[tuple[tuple[tuple[Entrant, Entrant], ...], Entrant | None], ...]:
    """The circle method: per round, the pairs (in table order) and the player sitting out."""
    seats: list = list(players)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    out = []
    for _ in range(n - 1):
        pairs, bye = [], None
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
            else:
                pairs.append((a, b))
        out.append((tuple(pairs), bye))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return tuple(out)


def berger_schedule(players: tuple[Entrant, ...]) -> tuple[tuple[tuple[tuple[Entrant, Entrant], ...], Entrant | None], ...]:
    """FIDE's Berger tables (see the module docstring): per round, the pairs (board order, the
    first-named player first) and the player sitting out."""
    seats: list = list(players)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    if n < 2:
        return ()
    boards = [(1, n)] + [(1 + i, n - i) for i in range(1, n // 2)]
    step = n // 2

    def advance(x: int) -> int:
        return x if x == n else (x - 1 + step) % (n - 1) + 1

    out = []
    for _ in range(n - 1):
        pairs, bye = [], None
        for a, b in boards:
            top, bottom = seats[a - 1], seats[b - 1]
            if top is None or bottom is None:
                bye = bottom if top is None else top
            else:
                pairs.append((top, bottom))
        out.append((tuple(pairs), bye))
        a, b = boards[0]
        head = (n, advance(a)) if b == n else (advance(b), n)
        boards = [head] + [(advance(a), advance(b)) for a, b in boards[1:]]
    return tuple(out)


def round_robin(
    entrants: Seeding | Iterable[Entrant], *, lengths: Schedule, groups: int = 1, order: str = "circle"
) -> RoundRobin:
    """The round-robin draw: ``groups`` groups by the seed snake, each with its fixed schedule
    (``order``: ``"circle"``, the circle method, or ``"berger"``, FIDE's Berger tables).

    Raises ``DrawError``: ``too_few_entrants`` (fewer than 2), ``bad_groups``, ``bad_length``,
    ``duplicate_entrant``, ``bad_entrant``, ``bad_order``.
    """
    if order not in ROUND_ROBIN_ORDERS:
        raise DrawError(f"no round-robin order {order!r}; known: {', '.join(ROUND_ROBIN_ORDERS)}", code="bad_order",
                        order=order)
    make_schedule = berger_schedule if order == "berger" else circle_schedule
    order = as_order(entrants)
    if len(order) < 2:
        raise DrawError("a round robin needs at least 2 entrants", code="too_few_entrants", count=len(order))
    check_schedule(lengths)
    out = []
    for index, members in enumerate(snake_groups(order, groups)):
        name = group_name(index)
        rounds = []
        schedule = make_schedule(members)
        for number, (pairs, bye) in enumerate(schedule, start=1):
            length = round_length(lengths, number)
            pairings = tuple(
                Pairing(f"{name}-{number}-{table}", name, number, top, bottom, length)
                for table, (top, bottom) in enumerate(pairs, start=1)
            )
            rounds.append(RoundRobinRound(number, pairings, bye))
        out.append(Group(name, members, tuple(rounds)))
    return RoundRobin(tuple(out))
