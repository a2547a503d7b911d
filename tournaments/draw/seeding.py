"""Seeding: the order of the entrants, seed 1 first, and how it was made.

Three ways (RULES.md §8), each recorded on the :class:`Seeding` so it can be published:

- by rating (:func:`seed_by_rating`): highest first; equal ratings keep the order given (the
  entry order);
- by the organiser's list (:func:`seed_by_list`);
- at random from a recorded seed (:func:`seed_randomly`): the entrants are first put in an order
  that depends only on their ids, then shuffled with ``random.Random(seed)``, so the same entrants
  and seed give the same order whatever order they signed up in.

Later changes keep the existing seeds: :func:`add_late` puts a late entrant last,
:func:`checked_in` drops the entrants who did not check in and closes the gaps.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from .errors import DrawError
from .values import Entrant, canonical_order, check_entrants


@dataclass(frozen=True)
class Seeding:
    """Entrants in seed order (``order[0]`` is seed 1); ``method`` is ``rating``, ``list`` or
    ``random``; ``seed`` is the random seed the order came from (None unless random)."""

    order: tuple[Entrant, ...]
    method: str = "list"
    seed: int | str | None = None

    def __post_init__(self):
        object.__setattr__(self, "order", check_entrants(self.order))

    def __len__(self) -> int:
        return len(self.order)

    def __iter__(self) -> Iterator[Entrant]:
        return iter(self.order)

    def seed_of(self, entrant: Entrant) -> int:
        """The 1-based seed of ``entrant``; ``DrawError`` ``unknown_entrant`` if not entered."""
        try:
            return self.order.index(entrant) + 1
        except ValueError:
            raise DrawError(f"{entrant!r} is not entered", code="unknown_entrant", entrant=entrant) from None


def seed_by_list(entrants: Iterable[Entrant]) -> Seeding:
    """The organiser's order, as given."""
    return Seeding(tuple(entrants), "list")


def seed_by_rating(ratings: Mapping[Entrant, float] | Iterable[tuple[Entrant, float]]) -> Seeding:
    """Highest rating first; ties keep the order given (a dict's insertion order: entry order)."""
    pairs = list(ratings.items() if isinstance(ratings, Mapping) else ratings)
    for entrant, rating in pairs:
        if not isinstance(rating, int | float) or isinstance(rating, bool):
            raise DrawError(f"{entrant!r} has no usable rating ({rating!r})", code="bad_rating", entrant=entrant)
    check_entrants(entrant for entrant, _ in pairs)
    ordered = sorted(range(len(pairs)), key=lambda i: (-pairs[i][1], i))
    return Seeding(tuple(pairs[i][0] for i in ordered), "rating")


def seed_randomly(entrants: Iterable[Entrant], seed: int | str) -> Seeding:
    """A random order drawn from ``seed`` (an int or str, recorded on the result).

    Deterministic: the same set of entrants and the same seed always give the same order.
    """
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise DrawError(f"{seed!r} is not a usable random seed", code="bad_seed", seed=repr(seed))
    order = canonical_order(check_entrants(entrants))
    random.Random(seed).shuffle(order)
    return Seeding(tuple(order), "random", seed)


def add_late(seeding: Seeding, entrant: Entrant) -> Seeding:
    """The seeding with ``entrant`` added as the last seed (a late entry); the others keep theirs."""
    return Seeding((*seeding.order, entrant), seeding.method, seeding.seed)


def checked_in(seeding: Seeding, present: Iterable[Entrant]) -> Seeding:
    """Only the entrants in ``present``, in their seed order (those not checked in drop out)."""
    keep = set(present)
    unknown = keep.difference(seeding.order)
    if unknown:
        raise DrawError("checked in but not entered", code="unknown_entrant", entrant=sorted(map(repr, unknown))[0])
    return Seeding(tuple(e for e in seeding.order if e in keep), seeding.method, seeding.seed)


def as_order(entrants: Seeding | Iterable[Entrant]) -> tuple[Entrant, ...]:
    """Entrants in seed order, from a Seeding or any iterable (checked)."""
    if isinstance(entrants, Seeding):
        return entrants.order
    return check_entrants(entrants)
