"""Single elimination: the main flight, with byes to fill the bracket (RULES.md §8).

- The bracket size is the next power of two at or above the number of entrants; the missing
  entrants are byes, and they go to the top seeds (seed 1 meets the bye where seed ``size``
  would stand).
- Standard seeding positions: round 1 of a 16-bracket is 1 v 16, 8 v 9, 4 v 13, 5 v 12,
  2 v 15, 7 v 10, 3 v 14, 6 v 11, so seeds 1 and 2 are in different halves and can only meet in
  the final, seeds 1..4 in different quarters, and so on (:func:`seed_positions`).
- Match lengths come from a schedule counted back from the final (``[5, 5, 7, 9]``: 9-point
  final, 7-point semi-finals, 5 before; see :mod:`tournaments.draw.lengths`).

Match ids are ``<flight>-<round>-<number>`` (``main-1-1`` is the top match of round 1).
"""

from __future__ import annotations

from collections.abc import Iterable

from .bracket import Bracket, BracketMatch, Flight, Seeded, WinnerOf
from .errors import DrawError
from .lengths import Schedule, bracket_lengths
from .seeding import Seeding, as_order
from .values import BYE, Entrant


def bracket_size(entrants: int) -> int:
    """The smallest power of two that holds ``entrants`` (at least 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def seed_positions(size: int) -> tuple[int, ...]:
    """The seed standing at each line of a ``size`` bracket, top to bottom; round 1 pairs lines
    1-2, 3-4... Built by doubling: each seed ``s`` of the half-size bracket is followed by its
    mirror ``2 * half + 1 - s``, which keeps the top seeds as far apart as possible."""
    if size < 2 or size & (size - 1):
        raise DrawError(f"a bracket size must be a power of two, not {size}", code="bad_size", size=size)
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [x for s in order for x in (s, mirror - s)]
    return tuple(order)


def single_elimination(
    entrants: Seeding | Iterable[Entrant], *, lengths: Schedule, flight: str = "main"
) -> Bracket:
    """The single-elimination draw of ``entrants`` in seed order (a :class:`Seeding` or a list,
    seed 1 first), with byes to the top seeds and match lengths from ``lengths``.

    Raises ``DrawError``: ``too_few_entrants`` (fewer than 2), ``duplicate_entrant``,
    ``bad_entrant``, ``bad_length``.
    """
    order = as_order(entrants)
    if len(order) < 2:
        raise DrawError("an elimination bracket needs at least 2 entrants", code="too_few_entrants", count=len(order))
    size = bracket_size(len(order))
    rounds = size.bit_length() - 1
    schedule = bracket_lengths(lengths, rounds)
    positions = seed_positions(size)

    def slot(seed: int):
        return Seeded(seed, order[seed - 1]) if seed <= len(order) else BYE

    matches = []
    for number in range(1, size // 2 + 1):
        top, bottom = positions[2 * number - 2], positions[2 * number - 1]
        matches.append(BracketMatch(f"{flight}-1-{number}", flight, 1, number, slot(top), slot(bottom), schedule[0]))
    for round_number in range(2, rounds + 1):
        for number in range(1, (size >> round_number) + 1):
            top = WinnerOf(f"{flight}-{round_number - 1}-{2 * number - 1}")
            bottom = WinnerOf(f"{flight}-{round_number - 1}-{2 * number}")
            matches.append(
                BracketMatch(f"{flight}-{round_number}-{number}", flight, round_number, number, top, bottom,
                             schedule[round_number - 1])
            )
    seed = entrants.seed if isinstance(entrants, Seeding) else None
    return Bracket(order, size, (Flight(flight, rounds, schedule),), tuple(matches), (flight,), seed)
