"""Paid places: a flight's prize pool shared by percentage among its places.

Pure (no Django). An event pays per flight: each flight that pays has a *pool* (an amount in
the event's currency, given in minor units: cents) and *percentages*, one per place of that
flight, best first (``[50, 30, 10, 10]``: the winner 50 %, the runner-up 30 %, the two losing
semi-finalists 10 % each). The rules, as directors write them on an entry form:

- the percentages are positive, sum to exactly 100 and never increase from one place to the
  next (a worse place never gets more than a better one): :func:`check_percentages`;
- a flight's places are its own, counted from its winner (place 1 of the consolation is its
  winner, whatever its place across the event); the placings of :mod:`.bracket` give them;
- *ties split*: players who share places (the four quarter-final losers share 5-8) share the
  percentages of those places equally: with ``[40, 20, 10, 10, 5, 5, 5, 5]`` each of 5-8 gets
  5 %, and with ``[50, 30, 12, 8]`` each of 3-4 gets 10 %. A shared place beyond the paid ones
  shares what falls inside them (places 3-4 with only 3 paid: each gets half of place 3's);
- amounts are whole minor units: a tie's amount (its places' percentages of the pool) is rounded
  down to a unit, shared equally, and the units its players cannot share (fewer than the players)
  go one each to the players of the tie in seed order; so the amounts never exceed the pool and
  fall short of it by less than one unit per tie (a pool whose percentages give whole units is
  paid exactly);
- *cashed*: a player has cashed when his placing gets an amount above nothing (:func:`cashed`).

Raises :class:`~.errors.DrawError` ``bad_payouts`` with ``field`` naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from .bracket import BracketState, WinnerOf
from .errors import DrawError
from .values import BYE, Entrant

HUNDRED = Decimal(100)


def check_percentages(percentages: Sequence, *, field: str = "percentages") -> tuple[Decimal, ...]:
    """``percentages`` as Decimals, checked: a non-empty list of positive numbers (at most two
    decimals) summing to 100, non-increasing. Raises ``DrawError`` ``bad_payouts`` naming the
    first wrong one (``field[2]``) or the list (``field``)."""
    if not isinstance(percentages, list | tuple) or not percentages:
        raise DrawError("the paid places are a list of percentages, best place first", code="bad_payouts", field=field)
    out = []
    for i, value in enumerate(percentages):
        where = f"{field}[{i}]"
        if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
            raise DrawError(f"{value!r} is not a percentage", code="bad_payouts", field=where, reason="not_number")
        try:
            number = Decimal(str(value))
        except InvalidOperation:
            raise DrawError(f"{value!r} is not a percentage", code="bad_payouts", field=where,
                            reason="not_number") from None
        if not number.is_finite() or number <= 0 or number.as_tuple().exponent < -2:
            raise DrawError(f"{value!r} is not a positive percentage with at most two decimals", code="bad_payouts",
                            field=where, reason="not_positive")
        if out and number > out[-1]:
            raise DrawError(f"place {i + 1} would be paid more than place {i}", code="bad_payouts", field=where,
                            reason="increasing")
        out.append(number)
    total = sum(out, Decimal(0))
    if total != HUNDRED:
        raise DrawError(f"the percentages add up to {total}, not 100", code="bad_payouts", field=field,
                        reason="sum", total=str(total))
    return tuple(out)


@dataclass(frozen=True)
class Payout:
    """What one placing is paid: ``entrant`` placed ``place``..``last_place`` of ``flight`` (the
    flight's own places), ``percent`` of the flight's pool (his share of a tie) and ``amount`` in
    minor units."""

    entrant: Entrant
    flight: str
    place: int
    last_place: int
    percent: Decimal
    amount: int

    @property
    def label(self) -> str:
        return str(self.place) if self.place == self.last_place else f"{self.place}-{self.last_place}"


def flight_places(state: BracketState) -> tuple[tuple[str, int, int, Entrant], ...]:
    """Every placing decided so far as ``(flight, place, last_place)`` counted within the flight
    that pays it, with its entrant. A flight ranking within another (the playoff for 2nd) is paid
    by that one (its places are the main's 2 and 3); a flight whose winner plays on in such a
    playoff still has him as its place 1 (the consolation's winner keeps his consolation place),
    its other places after him."""
    bracket = state.bracket
    structure = bracket._structure
    host = {f.name: f.ranks_within or f.name for f in bracket.flights}
    inner = {f.name for f in bracket.flights if f.ranks_within}
    challengers = {}
    for m in bracket.matches:
        if m.flight in inner:
            for slot in (m.top, m.bottom):
                if isinstance(slot, WinnerOf):
                    challengers[bracket.by_id[slot.match].flight] = slot.match
    out = []
    for placing in state.placings():
        flight = host[placing.flight]
        shift = 1 if flight in challengers else 0
        offset = structure.offsets[flight]
        out.append((flight, placing.place - offset + shift, placing.last_place - offset + shift, placing.entrant))
    for flight, final in challengers.items():
        won = state.by_id[final]
        if won.winner is not None and won.winner is not BYE:
            out.append((flight, 1, 1, won.winner))
    return tuple(out)


def split(pool: int, percentages: Sequence[Decimal], first: int, last: int, players: int) -> list[int]:
    """The amounts (minor units) of ``players`` sharing places ``first``..``last`` (1-based) of a
    flight paying ``percentages`` of ``pool``: the percentages of those places that are paid,
    summed, shared equally, rounded down, the leftover units one each to the first players."""
    paid = sum((percentages[p - 1] for p in range(first, last + 1) if p <= len(percentages)), Decimal(0))
    if not paid or players < 1:
        return [0] * max(players, 0)
    whole = int(Decimal(pool) * paid / HUNDRED)  # the tie's amount, rounded down to a unit
    each, left = divmod(whole, players)
    return [each + (1 if i < left else 0) for i in range(players)]


def payouts(state: BracketState, rules: Mapping[str, tuple[int, Sequence]]) -> tuple[Payout, ...]:
    """The amounts of the placings decided so far in ``state``: ``rules`` maps a flight to its
    ``(pool, percentages)`` (flights not named pay nothing; percentages as checked by
    :func:`check_percentages`). Placings of a flight that pays get a :class:`Payout` (amount 0
    beyond its paid places), best first; a tie's share is split (see the module docstring) and
    its leftover units go by seed order once the whole tie is placed (until then each placed
    player shows the rounded-down share: the places are the bracket's, so shares never change)."""
    checked = {flight: (int(pool), check_percentages(list(p), field=f"{flight}.percentages"))
               for flight, (pool, p) in rules.items()}
    seed = {e: i for i, e in enumerate(state.bracket.seeding)}
    ties: dict[tuple[str, int, int], list[Entrant]] = {}
    for flight, first, last, entrant in flight_places(state):
        if flight in checked:
            ties.setdefault((flight, first, last), []).append(entrant)
    out = []
    for (flight, first, last), tied in ties.items():
        pool, percentages = checked[flight]
        tied.sort(key=lambda e: seed.get(e, 0))
        amounts = split(pool, percentages, first, last, last - first + 1)
        if len(tied) < len(amounts):  # the tie is not all placed yet: its leftover units wait
            amounts = [min(amounts)] * len(tied)
        paid = sum((percentages[p - 1] for p in range(first, last + 1) if p <= len(percentages)), Decimal(0))
        share = paid / (last - first + 1)
        for entrant, amount in zip(tied, amounts, strict=False):
            out.append(Payout(entrant, flight, first, last, share.quantize(Decimal("0.01")), amount))
    order = {name: i for i, name in enumerate(state.bracket.placing_order)}
    return tuple(sorted(out, key=lambda p: (order[p.flight], p.place, seed.get(p.entrant, 0))))


def cashed(paid: Iterable[Payout]) -> frozenset[Entrant]:
    """The entrants who have cashed: paid more than nothing in some flight."""
    return frozenset(p.entrant for p in paid if p.amount > 0)


def paid_places(percentages: Sequence) -> int:
    """How many places of a flight are paid."""
    return len(percentages)
