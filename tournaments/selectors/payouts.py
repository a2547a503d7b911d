"""Paid places: each paying flight's pool, the share and amount of each paid
place, and the prize winners decided so far. Reads only; a fixed number of queries whatever the
event's size (the event's entries and pairings, as every bracket read)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from tournaments import formats
from tournaments.draw.payouts import check_percentages, payouts, split
from tournaments.models import Tournament

from . import event, standings


@dataclass(frozen=True)
class PaidPlace:
    """Place ``place`` of a flight: its ``percent`` of the pool and its ``amount`` (cents)."""

    place: int
    percent: Decimal
    amount: int


@dataclass(frozen=True)
class Prize:
    """A prize decided: ``entrant`` placed ``label`` of the flight (``3-4`` shared), his share
    ``percent`` and ``amount`` (cents)."""

    label: str
    entrant: event.Entrant
    percent: Decimal
    amount: int


@dataclass(frozen=True)
class FlightPayouts:
    """A paying flight: its ``pool`` (cents), its paid places, and the prizes decided so far."""

    flight: str
    pool: int
    places: tuple[PaidPlace, ...]
    prizes: tuple[Prize, ...]


def tournament_payouts(*, tournament: Tournament) -> tuple[FlightPayouts, ...]:
    """Every paying flight of the event (``Tournament.payouts``), in the flights' order: its paid
    places, and once drawn the prizes decided so far (ties split: :mod:`tournaments.draw.payouts`).
    A bracket pays per flight (the playoff for 2nd from the main's pool); a Swiss or round robin
    pays its placings as ``main``. Empty when the event pays nothing. Two queries once drawn."""
    rules = tournament.payouts or {}
    if not rules:
        return ()
    checked = {flight: (rule.get("pool", 0), check_percentages(rule["percentages"])) for flight, rule in rules.items()}
    prizes: dict[str, list[Prize]] = {flight: [] for flight in checked}
    # A bracket pays each flight's places as its bracket decides them; a table pays its main placings.
    read = formats.format_of(tournament).bracket_read(tournament)
    if read is not None:
        loaded, view = read
        entrants = {e.pk: event.entrant_of(e) for e in loaded.entries}
        for paid in payouts(view.state, checked):
            prizes[paid.flight].append(Prize(paid.label, entrants[paid.entrant], paid.percent, paid.amount))
    elif tournament.drawn_at is not None and "main" in checked:
        pool, percentages = checked["main"]
        rows = standings.tournament_placings(tournament=tournament)
        ties: dict[tuple[int, int], list] = {}
        for row in rows:
            ties.setdefault((row.place, row.last_place), []).append(row)
        for (first, last), tied in ties.items():
            amounts = split(pool, percentages, first, last, last - first + 1)
            share = sum((percentages[p - 1] for p in range(first, last + 1) if p <= len(percentages)),
                        Decimal(0)) / (last - first + 1)
            for row, amount in zip(tied, amounts, strict=False):
                prizes["main"].append(Prize(row.label, row.entrant, share.quantize(Decimal("0.01")), amount))
    order = ("main", "playoff", "consolation", "last_chance")
    out = []
    for flight in sorted(checked, key=lambda f: order.index(f) if f in order else len(order)):
        pool, percentages = checked[flight]
        places = tuple(PaidPlace(i, p, int(Decimal(pool) * p / 100)) for i, p in enumerate(percentages, start=1))
        out.append(FlightPayouts(flight, pool, places, tuple(prizes[flight])))
    return tuple(out)


def prizes_by_entry(found: tuple[FlightPayouts, ...]) -> dict[int, int]:
    """Each entrant's prize money over every flight (cents), for the placings' column."""
    out: dict[int, int] = {}
    for flight in found:
        for prize in flight.prizes:
            out[prize.entrant.entry_id] = out.get(prize.entrant.entry_id, 0) + prize.amount
    return out
