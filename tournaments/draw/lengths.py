"""Match lengths per round, from the schedule the organiser publishes (RULES.md §8).

A schedule is one length (``3``: every round) or a list of lengths. Two readings, one per kind of
event:

- brackets count from the **final** back: ``[5, 5, 7, 9]`` means a 9-point final, 7-point
  semi-finals, and 5 points for every round before (a longer bracket repeats the first number,
  a shorter one uses the tail: a 4-player bracket plays 7 then 9);
- Swiss and round robin count from the **first round**: ``[5, 5, 7]`` means rounds 1 and 2 at 5
  points and every later round at 7 (the last number repeats).
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import DrawError

Schedule = int | Sequence[int]


def check_schedule(schedule: Schedule) -> tuple[int, ...]:
    """The schedule as a non-empty tuple of positive ints; ``DrawError`` ``bad_length`` otherwise."""
    try:
        lengths = (schedule,) if isinstance(schedule, int) else tuple(schedule)
    except TypeError:
        lengths = ()
    if not lengths or any(not isinstance(n, int) or isinstance(n, bool) or n < 1 for n in lengths):
        raise DrawError(f"{schedule!r} is not a match length schedule", code="bad_length", schedule=repr(schedule))
    return lengths


def bracket_lengths(schedule: Schedule, rounds: int) -> tuple[int, ...]:
    """The length of each of ``rounds`` bracket rounds, the schedule aligned on the final."""
    lengths = check_schedule(schedule)
    if rounds <= len(lengths):
        return lengths[len(lengths) - rounds :]
    return (lengths[0],) * (rounds - len(lengths)) + lengths


def round_length(schedule: Schedule, round_number: int) -> int:
    """The length of round ``round_number`` (1-based) of a Swiss or round robin."""
    lengths = check_schedule(schedule)
    return lengths[min(round_number, len(lengths)) - 1]
