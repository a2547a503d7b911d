"""Double elimination (RULES.md §8): out at the second loss.

- ``winners``: the single-elimination bracket of the entrants (byes to the top seeds);
- ``losers``: fed by the losers of every winners' round, the final included, with the drop map
  of :mod:`tournaments.draw.consolation` (reduce rounds between the entries);
- ``final``: the winners' champion (top) against the losers' champion (bottom). With
  ``reset=True`` (the default, "true" double elimination) a second match ``final-2-1`` is
  played only if the losers' champion wins the first, since only then has each lost once;
  otherwise it is not needed.

Placings rank the final first (winner 1, loser 2), then the losers' bracket (its final's loser
3, the losers of its round before 4, then shared places); every winners' loser drops, so that
flight places nobody.
"""

from __future__ import annotations

from collections.abc import Iterable

from .bracket import Bracket, BracketMatch, Flight, WinnerOf
from .consolation import fed_flight
from .elimination import single_elimination
from .errors import DrawError
from .lengths import Schedule, bracket_lengths
from .seeding import Seeding, as_order
from .values import Entrant


def double_elimination(
    entrants: Seeding | Iterable[Entrant],
    *,
    lengths: Schedule,
    losers_lengths: Schedule | None = None,
    final_lengths: Schedule | None = None,
    reset: bool = True,
) -> Bracket:
    """The double-elimination draw of ``entrants`` in seed order.

    ``lengths`` is the winners' schedule (counted back from its final), ``losers_lengths`` the
    losers' (default: ``lengths``), ``final_lengths`` the grand final's (default: the winners'
    final length; with a reset, a two-number schedule gives the first match and the decider).
    Raises ``DrawError``: ``too_few_entrants`` (fewer than 3), ``bad_length``, and the errors of
    :func:`~tournaments.draw.elimination.single_elimination`.
    """
    order = as_order(entrants)
    if len(order) < 3:
        raise DrawError("double elimination needs at least 3 entrants", code="too_few_entrants", count=len(order))
    winners = single_elimination(entrants, lengths=lengths, flight="winners")
    flight = winners.flights[0]
    losers, losers_flight, losers_champion = fed_flight(
        winners, "losers", "winners", tuple(range(1, flight.rounds + 1)),
        lengths if losers_lengths is None else losers_lengths,
    )
    final_rounds = 2 if reset else 1
    schedule = bracket_lengths(flight.lengths[-1] if final_lengths is None else final_lengths, final_rounds)
    top = WinnerOf(f"winners-{flight.rounds}-1")
    final = [BracketMatch("final-1-1", "final", 1, 1, top, losers_champion, schedule[0])]
    if reset:
        final.append(BracketMatch("final-2-1", "final", 2, 1, top, losers_champion, schedule[1], decider_of="final-1-1"))
    return Bracket(
        winners.seeding, winners.size,
        (flight, losers_flight, Flight("final", final_rounds, schedule, None, ())),
        winners.matches + losers + tuple(final),
        ("final", "losers", "winners"), winners.random_seed,
    )
