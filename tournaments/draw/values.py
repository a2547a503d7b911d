"""Value types shared by every format: entrants, the bye and draw markers, results, pairings.

An *entrant* is whatever id the caller uses (an int primary key, a string, a tuple for a
consultation pair): the draw only hashes and compares ids, it never looks inside them. The markers
:data:`BYE` and :data:`DRAW` are singletons that can never be mistaken for an entrant.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from .errors import DrawError

Entrant = Hashable


class _Marker:
    """A named singleton (``BYE``, ``DRAW``); compared by identity, never equal to an entrant."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self):  # pickling keeps the singleton
        return self.name


#: The empty side of a match: the other side goes through without playing.
BYE: Any = _Marker("BYE")
#: The winner of a drawn contest (only team matches with an even number of boards can draw).
DRAW: Any = _Marker("DRAW")


@dataclass(frozen=True)
class Result:
    """A finished (or, with ``winner=None``, unfinished) contest between two entrants.

    ``winner`` is ``top``, ``bottom``, :data:`DRAW` or ``None`` (not decided yet; the standings
    skip it, the Swiss pairing refuses a round that has one). ``top_points`` and ``bottom_points``
    are what each side scored: match points (a 5-point match won 5-3) for the round-robin points
    difference, boards won for team tables; 0 when unknown.
    """

    top: Entrant
    bottom: Entrant
    winner: Entrant | None
    top_points: int = 0
    bottom_points: int = 0

    def __post_init__(self):
        if self.top == self.bottom:
            raise DrawError(f"{self.top!r} cannot play himself", code="bad_result", entrant=self.top)
        if self.winner is not None and self.winner is not DRAW and self.winner not in (self.top, self.bottom):
            raise DrawError(
                f"{self.winner!r} did not play {self.top!r} v {self.bottom!r}", code="not_in_match", winner=self.winner
            )
        if self.top_points < 0 or self.bottom_points < 0:
            raise DrawError("points cannot be negative", code="bad_result")

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def loser(self) -> Entrant | None:
        """The other side of a decided, not drawn, result; else None."""
        if self.winner is None or self.winner is DRAW:
            return None
        return self.bottom if self.winner == self.top else self.top

    def opponent(self, entrant: Entrant) -> Entrant:
        return self.bottom if entrant == self.top else self.top

    def points_of(self, entrant: Entrant) -> tuple[int, int]:
        """(points scored, points conceded) by ``entrant``."""
        if entrant == self.top:
            return self.top_points, self.bottom_points
        return self.bottom_points, self.top_points


@dataclass(frozen=True)
class Pairing:
    """One match to play: ``id`` is stable (``main-2-3``, ``A-1-2``, ``swiss-4-12``) and is what
    results are reported against; ``length`` is the match length in points."""

    id: str
    flight: str
    round: int
    top: Entrant
    bottom: Entrant
    length: int


def check_entrants(entrants: Iterable[Entrant]) -> tuple[Entrant, ...]:
    """The entrants as a tuple, after checking each is a usable id and none appears twice.

    Raises ``DrawError`` ``bad_entrant`` (None, a marker, an unhashable value) or
    ``duplicate_entrant``.
    """
    out = tuple(entrants)
    seen: set = set()
    for entrant in out:
        if entrant is None or isinstance(entrant, (_Marker, bool)):
            raise DrawError(f"{entrant!r} is not an entrant id", code="bad_entrant", entrant=repr(entrant))
        try:
            hash(entrant)
        except TypeError:
            raise DrawError(f"{entrant!r} is not hashable", code="bad_entrant", entrant=repr(entrant)) from None
        if entrant in seen:
            raise DrawError(f"{entrant!r} is entered twice", code="duplicate_entrant", entrant=entrant)
        seen.add(entrant)
    return out


def canonical_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """The entrants in an order that depends only on the set of ids, not on how they were listed
    (so a random draw from a seed does not depend on the order of sign-up)."""
    items = list(entrants)
    try:
        return sorted(items, key=lambda e: (type(e).__name__, e))
    except TypeError:  # ids of one type that do not compare (mixed tuples...): their repr does
        return sorted(items, key=lambda e: (type(e).__name__, repr(e)))
