"""ABT-style modified Swiss: when a Swiss stops and its playoffs begin.

The American Backgammon Tour's events are often a *modified Swiss*: Swiss rounds, each followed
by a look at who can still finish in the money, and single-elimination playoffs among those
players once they are no more than the paid places. We could not read the ABT's own regulations
here; this module implements that rule as follows, in our own words:

- a player *can still cash* when fewer than ``paid`` players already have more wins than he can
  reach (his wins plus every remaining round won). A player level with him at the end might be
  split either way by the tie-breaks, so a tie still counts as a chance;
- a player *can still win* when nobody already has more wins than he can reach;
- *cash only*: the players who can still cash but no longer win (they play on for a place, not
  for the title: the organiser may, for instance, offer them a split);
- the Swiss *moves to playoffs* as soon as the players who can still cash are no more than the
  paid places (or no round remains): those players, in the order of the Swiss table, are the
  playoff's seeds; everyone else's place is his place in the table;
- the playoff is a single-elimination bracket with byes to the top seeds
  (:func:`~tournaments.draw.elimination.single_elimination`). With three players it is the
  USBGF's standard playoff for a three-way tie on the ABT (its "contingent bye", announced for
  every ABT tournament in June 2018, in the ABT Policy and Formula document; here in our own
  words): one player gets a *contingent* bye into the final (:func:`contingent_bye_first`), the
  other two play, and the winner meets him. If he wins the final he is first, the player he beat
  second and the other third; if he loses it, the bye is taken back: the winner is first, the
  player the winner beat in the first match second, and he is third
  (:func:`contingent_bye_places`).

Pure: the table (:class:`~tournaments.draw.standings.Standing` lines, best first, as
:func:`~tournaments.draw.swiss_history.swiss_standings` gives them) and two numbers in, a value out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .elimination import single_elimination
from .errors import DrawError
from .lengths import Schedule
from .standings import Standing
from .values import Entrant


@dataclass(frozen=True)
class Contention:
    """Who can still do what with ``remaining`` rounds left and ``paid`` places paid."""

    remaining: int
    paid: int
    can_win: tuple[Entrant, ...]
    can_cash: tuple[Entrant, ...]
    cash_only: tuple[Entrant, ...]
    out_of_the_money: tuple[Entrant, ...]
    to_playoffs: bool


def contention(table: Sequence[Standing], *, remaining: int, paid: int) -> Contention:
    """Who can still win and who can still cash in ``table`` (best first) with ``remaining``
    Swiss rounds to play and ``paid`` places in the money; whether it is time for the playoffs.
    Every list is in the order of the table. Raises ``DrawError`` ``bad_contention`` for a
    negative ``remaining`` or a ``paid`` below 1."""
    for name, value, least in (("remaining", remaining, 0), ("paid", paid, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise DrawError(f"{name} must be a whole number of at least {least}", code="bad_contention",
                            field=name)
    scores = sorted((line.score for line in table), reverse=True)

    def ahead_of(best: float) -> int:
        """How many players already have more than ``best``."""
        count = 0
        for score in scores:
            if score <= best:
                break
            count += 1
        return count

    can_win, can_cash, out = [], [], []
    for line in table:
        best = line.score + remaining
        above = ahead_of(best)
        if above == 0:
            can_win.append(line.entrant)
        if above < paid:
            can_cash.append(line.entrant)
        else:
            out.append(line.entrant)
    winners = set(can_win)
    return Contention(
        remaining, paid, tuple(can_win), tuple(can_cash), tuple(e for e in can_cash if e not in winners), tuple(out),
        to_playoffs=len(can_cash) <= paid or remaining == 0,
    )


def playoff(state: Contention, *, lengths: Schedule, flight: str = "playoff"):
    """The playoff bracket of the players who can still cash, seeded in the order of the table
    (``state`` must say ``to_playoffs``). With one such player there is nothing to play: None.
    Raises ``DrawError`` ``not_time_for_playoffs`` otherwise, and the bracket's own errors."""
    if not state.to_playoffs:
        raise DrawError(
            f"{len(state.can_cash)} players can still cash for {state.paid} paid places: the Swiss goes on",
            code="not_time_for_playoffs", contenders=len(state.can_cash),
        )
    if len(state.can_cash) < 2:
        return None
    return playoff_bracket(state.can_cash, lengths=lengths, flight=flight)


def playoff_bracket(seeds: Sequence[Entrant], *, lengths: Schedule, flight: str = "playoff"):
    """The playoff bracket of ``seeds`` (best first, at least two), as :func:`playoff` draws it:
    the same seeds and lengths give the same bracket, which is how a stored playoff is rebuilt.
    Raises the bracket's ``DrawError``."""
    return single_elimination(tuple(seeds), lengths=lengths, flight=flight)


def contingent_bye_first(seeds: Sequence[Entrant], byes: Mapping[Entrant, int]) -> tuple[Entrant, ...]:
    """The three playoff seeds (best first, as the table has them) ordered for the USBGF's
    three-player playoff: first the player who gets the contingent bye, then the other two in
    table order. The USBGF draws him at random among the players with the fewest byes in the
    event; we take the best placed of those (a departure: the playoff then follows from the
    table alone, reproducible without a new random seed). Any other number of seeds is returned
    as it is. ``byes``: each player's byes so far (none when missing)."""
    order = tuple(seeds)
    if len(order) != 3:
        return order
    fewest = min(byes.get(e, 0) for e in order)
    first = next(e for e in order if byes.get(e, 0) == fewest)
    return (first, *(e for e in order if e != first))


def contingent_bye_places(seeds: Sequence[Entrant], first_match: tuple[Entrant, Entrant] | None,
                          final_winner: Entrant | None) -> tuple[tuple[int, Entrant], ...]:
    """The places of a three-player playoff under the USBGF's contingent bye (see the module
    docstring): ``seeds`` with the bye's player first (:func:`contingent_bye_first`),
    ``first_match`` the other two's match as (winner, loser) once played, ``final_winner`` once
    the final is played. Nobody is placed before the final: until then the first match's loser
    may still be second. Returns (place, entrant), first place first."""
    if first_match is None or final_winner is None:
        return ()
    bye = seeds[0]
    winner, loser = first_match
    if final_winner == bye:
        return ((1, bye), (2, winner), (3, loser))
    return ((1, winner), (2, loser), (3, bye))
