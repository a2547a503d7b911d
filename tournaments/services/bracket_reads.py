"""An elimination event's bracket read from its rows: the whole bracket and where it stands after the
confirmed results and walkovers (:func:`bracket_state`), and a confirmation's narrow view of it
(the rows around one result, and what the full rebuild would write there)."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace

from django.db.models import Count, IntegerField, Subquery

from matches.models import Match
from tournaments import formats
from tournaments.draw import (
    BYE,
    Bracket,
    BracketState,
)
from tournaments.draw.bracket import (
    BYE_STATUS,
    NOT_NEEDED,
    PLAYED,
    READY,
    WAITING,
    LoserOf,
    MatchState,
    Seeded,
    WinnerOf,
    settle,
    stored_entries,
)
from tournaments.draw.elimination import bracket_size
from tournaments.draw.routes import Routes
from tournaments.models import Entry, Pairing, Tournament

from .state import Loaded, build_bracket, confirmed_results


@dataclass(frozen=True)
class BracketView:
    bracket: Bracket
    state: BracketState
    walkovers: frozenset[str]


def bracket_state(loaded: Loaded) -> BracketView:
    """The bracket and where it stands after the confirmed results and the walkovers they lead
    to (``tournaments.draw.bracket.settle``: a ready pairing without a match where an entrant has
    withdrawn). Raises ``DrawError`` (``not_in_match``, ``match_not_ready``) when a confirmed
    result no longer fits its match: a correction of a match it depends on."""
    bracket = build_bracket(loaded.tournament, loaded.order)
    found, walkovers = settle(bracket, confirmed_results(loaded), withdrawn=loaded.withdrawn,
                              matched=matched_keys(loaded))
    return BracketView(bracket, found, walkovers)


def matched_keys(loaded: Loaded) -> frozenset[str]:
    """The pairings whose match exists (a ready pairing without one can be a walkover)."""
    return frozenset(p.key for p in loaded.pairings if p.match_id is not None)


def stored_rows(loaded: Loaded) -> dict[str, tuple[int | None, int | None]]:
    """Each pairing's stored entries, by key."""
    return {p.key: (p.entry0_id, p.entry1_id) for p in loaded.pairings}


#: What a bracket pairing row stores (``tournaments.draw.bracket.stored_entries``).
expected_entries = stored_entries


# --- a confirmation's narrow view of a bracket ---------------------------------------------------
#
# A confirmation changes only the pairings its result feeds. Instead of :func:`load` and
# :func:`bracket_state` (every entry and pairing of the event, the whole bracket advanced), it
# reads the confirmed pairing and the pairings around it as plain values (:func:`bracket_rows`)
# and works out, from the bracket's shape (:class:`tournaments.draw.routes.Routes`), what the full
# rebuild would write there (:func:`bracket_plan`). It relies on what every sync leaves behind:
# each stored pairing holds what :func:`expected_entries` gives for it, so a pairing the result
# does not feed can be read off its row (its entries, its match's result, a walkover) without
# looking further up the bracket.

#: The columns of a bracket pairing a confirmation reads (:class:`BracketRow`).
ROW_FIELDS = (
    "pk", "key", "flight", "round_number", "length", "entry0_id", "entry1_id", "match_id", "match__status",
    "match__winner", "match__side0_id", "match__side1_id", "entry0__side_id", "entry1__side_id", "entry0__status",
    "entry1__status",
)


@dataclass(frozen=True)
class BracketRow:
    """A stored bracket pairing as plain values: its entries, its match (if any) and the entry
    that won it once CONFIRMED (as :func:`winner_entry` reads it), and which of its entries
    have withdrawn."""

    pk: int
    key: str
    flight: str
    round_number: int
    length: int
    entry0: int | None
    entry1: int | None
    match_id: int | None
    winner: int | None
    withdrawn: frozenset[int]

    @classmethod
    def of(cls, values: dict) -> BracketRow:
        winner = None
        if values["match__status"] == Match.Status.CONFIRMED and values["match__winner"] is not None:
            side = values["match__side0_id"] if values["match__winner"] == 0 else values["match__side1_id"]
            for entry, entry_side in ((values["entry0_id"], values["entry0__side_id"]),
                                      (values["entry1_id"], values["entry1__side_id"])):
                if entry is not None and entry_side == side:
                    winner = entry
                    break
        withdrawn = frozenset(
            entry for entry, status in ((values["entry0_id"], values["entry0__status"]),
                                        (values["entry1_id"], values["entry1__status"]))
            if entry is not None and status == Entry.Status.WITHDRAWN
        )
        return cls(values["pk"], values["key"], values["flight"], values["round_number"], values["length"],
                   values["entry0_id"], values["entry1_id"], values["match_id"], winner,
                   withdrawn)


def confirmed_row(tournament: Tournament, match_id: int) -> tuple[BracketRow, int] | None:
    """The pairing whose match is ``match_id`` (None: a match outside the draw) and the number of
    entrants in the draw, in one query."""
    drawn = (Entry.objects.filter(tournament=tournament, seed__isnull=False).order_by()
             .values("tournament").annotate(n=Count("pk")).values("n"))
    values = (Pairing.objects.filter(tournament=tournament, match_id=match_id).order_by()
              .annotate(drawn=Subquery(drawn, output_field=IntegerField())).values(*ROW_FIELDS, "drawn").first())
    if values is None:
        return None
    return BracketRow.of(values), values["drawn"] or 0


def bracket_rows(tournament: Tournament, keys) -> dict[str, BracketRow]:
    """The event's pairings under ``keys`` as :class:`BracketRow` values, in one query."""
    rows = Pairing.objects.filter(tournament=tournament, key__in=sorted(keys)).order_by().values(*ROW_FIELDS)
    return {values["key"]: BracketRow.of(values) for values in rows}


@lru_cache(maxsize=32)
def _routes(event_format: formats.EventFormat, size: int, consolation_rounds: int, last_chance: bool,
            flights: tuple = ()) -> Routes:
    # flights: (shifted, playoff, open last chance, paid places per flight)
    shifted, playoff, last_chance_open, paid = flights or (False, False, False, ())
    rules = SimpleNamespace(kind=event_format.kind, format=event_format.format, lengths={},
                            consolation_rounds=consolation_rounds, last_chance=last_chance,
                            consolation_shifted=shifted, playoff_second=playoff, last_chance_open=last_chance_open,
                            payouts={flight: {"percentages": [0] * count} for flight, count in paid})
    return Routes(event_format.build_bracket(rules, range(1, size + 1)))


def bracket_routes(tournament: Tournament, entrants: int) -> Routes:
    """The routes of the event's bracket for ``entrants`` drawn. The shape depends only on the
    bracket's size and flights (lengths are on the stored pairings), so it is built once per
    process for each size and set of flights (about 15 ms for 1,024 entrants with consolation
    flights, then free) instead of for every confirmation. Raises ``DrawError``."""
    paid = tuple(sorted((flight, len(rule["percentages"])) for flight, rule in (tournament.payouts or {}).items()))
    flights = (bool(tournament.consolation_shifted), bool(tournament.playoff_second),
               bool(tournament.last_chance_open), paid if tournament.last_chance_open else ())
    return _routes(formats.format_of(tournament), bracket_size(max(entrants, 2)), tournament.consolation_rounds,
                   bool(tournament.last_chance), flights)


class NeedRows(Exception):
    """:func:`bracket_plan` needs the stored pairings ``keys`` it was not given."""

    def __init__(self, keys):
        super().__init__(keys)
        self.keys = frozenset(keys)


class Unplannable(Exception):
    """The change reaches a pairing that must be reset (its match made for other entrants, or a
    confirmed result that no longer fits): only the full sync (:func:`bracket_state`) decides."""


@dataclass(frozen=True)
class BracketPlan:
    """What a confirmation writes: the pairings whose entries change (key -> (entry0, entry1)) and
    the pairings that became ready to play without a match yet, each in bracket order."""

    entries: dict[str, tuple[int | None, int | None]]
    ready: tuple[str, ...]


def _walkover_winner(top, bottom, withdrawn) -> int | None:
    """As :func:`bracket_state`: the side that did not withdraw goes through (both: the top)."""
    if top in withdrawn:
        return bottom if bottom not in withdrawn else top
    if bottom in withdrawn:
        return top
    return None


def bracket_plan(routes: Routes, entrants: int, rows: dict[str, BracketRow], source: str) -> BracketPlan:
    """What :func:`bracket_state` and ``bracket_sync`` would write after the result of pairing
    ``source`` changed, found by walking from it downstream (every pairing it feeds, and on
    through those that resolve without play: byes, walkovers) and reading every other pairing
    off its row in ``rows``. Pure.

    Raises :class:`NeedRows` for the rows it needs and was not given, :class:`Unplannable` when
    a pairing with a match (or a confirmed result) would have to change: a correction, for the
    full sync to reset or refuse."""
    withdrawn = frozenset().union(*(row.withdrawn for row in rows.values()))
    memo: dict[str, MatchState] = {}
    fresh: dict[str, MatchState] = {}

    def row_of(key: str) -> BracketRow:
        row = rows.get(key)
        if row is None:
            raise NeedRows({key, *routes.sources(key)})
        return row

    def value(slot):
        if isinstance(slot, WinnerOf):
            return current(slot.match).winner
        if isinstance(slot, LoserOf):
            return current(slot.match).loser
        if isinstance(slot, Seeded):  # a first-round pairing is always read off its row
            raise Unplannable(slot)
        return BYE

    def current(key: str) -> MatchState:
        return fresh[key] if key in fresh else stored(key)

    def stored(key: str) -> MatchState:
        """The pairing as its row says it stands (see the section comment)."""
        if key in memo:
            return memo[key]
        m, row = routes.match(key), row_of(key)
        top, bottom = row.entry0, row.entry1
        if top is not None and bottom is not None:
            winner = row.winner
            if winner is None and row.match_id is None:
                winner = _walkover_winner(top, bottom, row.withdrawn)
            if winner is None:
                state = MatchState(m, top, bottom, READY)
            else:
                state = MatchState(m, top, bottom, PLAYED, winner, bottom if winner == top else top)
        elif top is not None or bottom is not None:
            top, bottom = (BYE if top is None else top), (BYE if bottom is None else bottom)
            state = MatchState(m, top, bottom, BYE_STATUS, bottom if top is BYE else top, BYE)
        elif m.decider_of or routes.is_real(m.top, entrants) or routes.is_real(m.bottom, entrants):
            state = MatchState(m, None, None, WAITING)  # a decider not (yet) needed reads the same
        else:  # no real side: a bye goes on, once both sides are known
            top, bottom = value(m.top), value(m.bottom)
            if top is None or bottom is None:
                state = MatchState(m, top, bottom, WAITING)
            else:
                state = MatchState(m, top, bottom, BYE_STATUS, BYE, BYE)
        memo[key] = state
        return state

    def evaluate(key: str) -> MatchState:
        """The pairing from its slots, as :func:`advance` (with the walkovers) would give it."""
        m, row = routes.match(key), row_of(key)
        top, bottom = value(m.top), value(m.bottom)
        result = row.winner
        if m.decider_of is not None:
            final = current(m.decider_of)
            if final.winner is None or final.winner == final.top:
                if result is not None:
                    raise Unplannable(key)
                return MatchState(m, top, bottom, WAITING if final.winner is None else NOT_NEEDED)
        if top is None or bottom is None:
            state = MatchState(m, top, bottom, WAITING)
        elif top is BYE or bottom is BYE:
            state = MatchState(m, top, bottom, BYE_STATUS, bottom if top is BYE else top, BYE)
        elif result is None:
            walkover = _walkover_winner(top, bottom, withdrawn) if row.match_id is None else None
            if walkover is None:
                state = MatchState(m, top, bottom, READY)
            else:
                state = MatchState(m, top, bottom, PLAYED, walkover, bottom if walkover == top else top)
        elif result in (top, bottom):
            state = MatchState(m, top, bottom, PLAYED, result, bottom if result == top else top)
        else:
            raise Unplannable(key)
        if result is not None and state.status != PLAYED:
            raise Unplannable(key)
        return state

    entries: dict[str, tuple[int | None, int | None]] = {}
    ready: list[str] = []
    fresh[source] = stored(source)
    queue = [(routes.index[feed.target], feed.target) for feed in routes.feeds[source]]
    heapq.heapify(queue)
    seen = set()
    while queue:
        _, key = heapq.heappop(queue)
        if key in seen:
            continue
        seen.add(key)
        row, before = row_of(key), stored(key)
        state = evaluate(key)
        expected = expected_entries(state)
        changes = (row.entry0, row.entry1) != expected
        if row.match_id is not None and (changes or state.status not in (READY, PLAYED)):
            raise Unplannable(key)
        if changes:
            entries[key] = expected
        if state.status == READY and row.match_id is None:
            ready.append(key)
        fresh[key] = state
        # What a pairing feeds reads its winner and loser (a decider: its final's top too, which
        # changes with its entries only once it has a winner).
        if (state.winner, state.loser) != (before.winner, before.loser) or (changes and state.winner is not None):
            for feed in routes.feeds[key]:
                heapq.heappush(queue, (routes.index[feed.target], feed.target))
    return BracketPlan(entries, tuple(ready))


def bracket_plan_keys(routes: Routes, entrants: int, source: str) -> set[str]:
    """The pairings :func:`bracket_plan` reads unless a walkover takes the change further: those
    ``source`` feeds and the other pairings that fill them, and on through each fed pairing with a
    side that is a bye (its player goes through without playing)."""
    keys: set[str] = set()
    frontier = [source]
    while frontier:
        onward = []
        for key in frontier:
            for feed in routes.feeds[key]:
                if feed.target in keys:
                    continue
                keys.add(feed.target)
                keys.update(routes.sources(feed.target))
                m = routes.match(feed.target)
                if not (routes.is_real(m.top, entrants) and routes.is_real(m.bottom, entrants)):
                    onward.append(feed.target)
        frontier = onward
    keys.discard(source)
    return keys
