"""Brackets as values: matches whose two sides are fed by seeds, byes, or earlier matches, and
the pure function that works out where a bracket stands from its confirmed results.

Every elimination format (single elimination, consolation and last-chance flights, double
elimination) is built from the same pieces:

- a *slot* says who fills one side of a match: :class:`Seeded` (an entrant placed by the draw),
  :data:`~tournaments.draw.values.BYE`, :class:`WinnerOf` or :class:`LoserOf` an earlier match;
- a :class:`BracketMatch` has an id (``<flight>-<round>-<number>``), two slots and a length;
- a :class:`Flight` is a named bracket of rounds (``main``, ``consolation``, ``last_chance``,
  ``winners``/``losers``/``final``), with its own length schedule;
- a :class:`Bracket` is the flights and their matches, always listed so that a match comes after
  every match that feeds it.

Byes resolve without results: a match with a bye on one side sends the other side through; its
loser is a bye (nobody drops to the consolation from it); a match of two byes sends a bye on.
:func:`advance` takes the confirmed results (``{match id: winner}``) and returns a
:class:`BracketState`: each match's players, status, winner and loser, the next pairings (every
match whose two players are known and that has no result yet), and the placings decided so far.
Unconfirmed results are simply not passed in: only confirmed results advance a bracket.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from .errors import DrawError
from .values import BYE, Entrant, Pairing


@dataclass(frozen=True)
class Seeded:
    """A side filled by the draw: seed number ``seed`` (1-based), who is ``entrant``."""

    seed: int
    entrant: Entrant


@dataclass(frozen=True)
class WinnerOf:
    """A side filled by the winner of match ``match``."""

    match: str


@dataclass(frozen=True)
class LoserOf:
    """A side filled by the loser of match ``match`` (a drop to another flight)."""

    match: str


@dataclass(frozen=True)
class BracketMatch:
    """One match of a bracket. ``decider_of`` names the grand final this match follows: it is
    played only if that final's top side (the undefeated player) lost it."""

    id: str
    flight: str
    round: int
    number: int
    top: Seeded | WinnerOf | LoserOf | object  # object: BYE
    bottom: Seeded | WinnerOf | LoserOf | object
    length: int
    decider_of: str | None = None


@dataclass(frozen=True)
class Flight:
    """A bracket within the event. ``source`` is the flight whose losers feed it (None for a flight
    of seeded entrants) and ``fed_rounds`` the rounds of ``source`` whose losers drop in;
    ``shifted``: a shifted progressive consolation (``add_consolation``); ``ranks_within``: the
    flight whose places this one decides, right after that flight's winner (the playoff for 2nd
    ranks within ``main``: its winner is 2nd, its loser 3rd; :mod:`.playoff`)."""

    name: str
    rounds: int
    lengths: tuple[int, ...]
    source: str | None = None
    fed_rounds: tuple[int, ...] = ()
    shifted: bool = False
    ranks_within: str | None = None


@dataclass(frozen=True)
class Drop:
    """One line of a drop map: the loser of ``source`` plays ``target`` on the ``side`` side."""

    source: str
    target: str
    side: str


@dataclass(frozen=True)
class Bracket:
    """The whole draw of an elimination event: ``seeding`` (entrants in seed order), the
    ``size`` of the main bracket (a power of two), the flights and their matches, and the order in
    which the flights rank their finishers for the final placings."""

    seeding: tuple[Entrant, ...]
    size: int
    flights: tuple[Flight, ...]
    matches: tuple[BracketMatch, ...]
    placing_order: tuple[str, ...]
    random_seed: int | str | None = None

    @cached_property
    def by_id(self) -> dict[str, BracketMatch]:
        return {m.id: m for m in self.matches}

    def match(self, match_id: str) -> BracketMatch:
        try:
            return self.by_id[match_id]
        except KeyError:
            raise DrawError(f"no match {match_id!r} in this bracket", code="unknown_match", match=match_id) from None

    def flight(self, name: str) -> Flight:
        for flight in self.flights:
            if flight.name == name:
                return flight
        raise DrawError(f"no flight {name!r} in this bracket", code="unknown_flight", flight=name)

    def round_matches(self, flight: str, round_number: int) -> tuple[BracketMatch, ...]:
        return tuple(m for m in self.matches if m.flight == flight and m.round == round_number)

    def drop_map(self, flight: str) -> tuple[Drop, ...]:
        """Where the losers of other flights enter ``flight``: one :class:`Drop` per slot fed by a
        loser, in the order of the source matches."""
        self.flight(flight)
        drops = []
        for m in self.matches:
            if m.flight != flight:
                continue
            for side, slot in (("top", m.top), ("bottom", m.bottom)):
                if isinstance(slot, LoserOf):
                    drops.append(Drop(slot.match, m.id, side))
        order = {m.id: i for i, m in enumerate(self.matches)}
        return tuple(sorted(drops, key=lambda d: order[d.source]))

    def dependents(self, match_id: str) -> tuple[str, ...]:
        """Every match whose players depend, directly or not, on the result of ``match_id``, in
        bracket order: what a corrected result resets."""
        self.match(match_id)
        found = {match_id}
        for m in self.matches:  # matches come after the matches that feed them
            feeds = [s.match for s in (m.top, m.bottom) if isinstance(s, WinnerOf | LoserOf)]
            if m.decider_of:
                feeds.append(m.decider_of)
            if any(f in found for f in feeds):
                found.add(m.id)
        found.discard(match_id)
        return tuple(m.id for m in self.matches if m.id in found)

    @cached_property
    def _structure(self) -> _Structure:
        return _Structure.of(self)


# --- where a bracket stands -------------------------------------------------------------------

WAITING = "waiting"  # a player is not known yet
READY = "ready"  # both players known, no result: to be played
PLAYED = "played"  # a confirmed result
BYE_STATUS = "bye"  # one side (or both) is a bye: nothing to play
NOT_NEEDED = "not_needed"  # a decider after the undefeated player won the grand final


@dataclass(frozen=True)
class MatchState:
    """A match with its players (an entrant, BYE, or None while unknown), status and outcome."""

    match: BracketMatch
    top: object
    bottom: object
    status: str
    winner: object = None
    loser: object = None

    @property
    def pairing(self) -> Pairing | None:
        if self.status != READY:
            return None
        m = self.match
        return Pairing(m.id, m.flight, m.round, self.top, self.bottom, m.length)


@dataclass(frozen=True)
class Placing:
    """A final place: ``place`` to ``last_place`` (equal when unshared; ``5``..``8`` for the four
    losers of a quarter-final), in ``flight``, decided in ``round`` of it."""

    place: int
    last_place: int
    entrant: Entrant
    flight: str
    round: int

    @property
    def label(self) -> str:
        return str(self.place) if self.place == self.last_place else f"{self.place}-{self.last_place}"


@dataclass(frozen=True)
class BracketState:
    """Where a bracket stands after a set of confirmed results (see :func:`advance`)."""

    bracket: Bracket
    matches: tuple[MatchState, ...]

    @cached_property
    def by_id(self) -> dict[str, MatchState]:
        return {s.match.id: s for s in self.matches}

    def get(self, match_id: str) -> MatchState:
        self.bracket.match(match_id)
        return self.by_id[match_id]

    def ready(self) -> tuple[Pairing, ...]:
        """The next pairings: every match with both players known and no result, in bracket order."""
        return tuple(s.pairing for s in self.matches if s.status == READY)

    @property
    def finished(self) -> bool:
        return all(s.status in (PLAYED, BYE_STATUS, NOT_NEEDED) for s in self.matches)

    def champion(self, flight: str | None = None) -> Entrant | None:
        """The winner of ``flight`` (default: the event's, the first flight of the placing
        order), or None while undecided (or when every winner of that flight moves on)."""
        name = flight or self.bracket.placing_order[0]
        self.bracket.flight(name)
        for entrant, where, _, won in self._finishers():
            if won and where == name:
                return entrant
        return None

    def _finishers(self):
        """``(entrant, flight, round, won)`` for every player whose last match is decided: the
        winner of a flight (``won``) or a loser not fed to another flight, with the round that
        placed him (a grand final followed by a decider places at the decider's round)."""
        structure = self.bracket._structure
        for state in self.matches:
            m = state.match
            placed_round = m.round
            if m.id in structure.has_decider:
                decider = self.by_id[structure.has_decider[m.id]]
                if decider.status != NOT_NEEDED:
                    continue  # the decider places both players (or will)
                placed_round = decider.match.round
            if state.status == PLAYED and m.id not in structure.loser_fed:
                yield state.loser, m.flight, placed_round, False
            if state.status in (PLAYED, BYE_STATUS) and state.winner is not BYE and m.id not in structure.winner_fed:
                yield state.winner, m.flight, placed_round, True

    def placings(self) -> tuple[Placing, ...]:
        """The final places decided so far, best first (all of them once the bracket is finished).

        A player's place is in the flight where he played his last match. Flights rank in
        ``bracket.placing_order`` (main before consolation before last chance; in double
        elimination the final, then the losers' bracket), and within a flight its winner ranks
        first, then the losers of each round, later rounds first, sharing their places (the
        four quarter-final losers of a 16-player main flight are all 5-8). The numbers come from
        the bracket's shape, so a place decided early never changes later.
        """
        structure = self.bracket._structure
        seed = {e: i for i, e in enumerate(self.bracket.seeding)}
        out = []
        for entrant, flight, round_number, won in self._finishers():
            if won:
                first = last = structure.offsets[flight] + 1
            else:
                first, last = structure.elimination_places(flight, round_number)
            out.append(Placing(first, last, entrant, flight, round_number))
        return tuple(sorted(out, key=lambda p: (p.place, seed.get(p.entrant, 0))))


@dataclass(frozen=True)
class _Structure:
    """What the bracket's shape alone decides about placings (byes resolve without results, so
    it is known before a match is played).

    A match is *contested* when both its slots can hold a real player. Per flight:
    ``champions`` (players who win it without being fed on: 1, or 0 when every winner moves on to
    another flight), ``eliminated[round]`` (contested matches of that round whose loser is not fed
    to another flight), and ``offsets`` (the number of players who finish in the flights ranked
    above). A grand final followed by a decider counts once, at the decider's round.
    """

    offsets: dict[str, int]
    champions: dict[str, int]
    eliminated: dict[str, dict[int, int]]
    loser_fed: frozenset[str]
    winner_fed: frozenset[str]
    has_decider: dict[str, str]
    starts: dict[tuple[str, int], int]

    @classmethod
    def of(cls, bracket: Bracket) -> _Structure:
        real: dict[str, tuple[bool, bool]] = {}

        def is_real(slot) -> bool:
            if isinstance(slot, Seeded):
                return True
            if isinstance(slot, WinnerOf):
                return any(real[slot.match])
            if isinstance(slot, LoserOf):
                return all(real[slot.match])
            return False

        loser_fed, winner_fed = set(), set()
        has_decider = {m.decider_of: m.id for m in bracket.matches if m.decider_of}
        for m in bracket.matches:
            real[m.id] = (is_real(m.top), is_real(m.bottom))
            for slot in (m.top, m.bottom):
                if isinstance(slot, LoserOf):
                    loser_fed.add(slot.match)
                elif isinstance(slot, WinnerOf):
                    winner_fed.add(slot.match)
        champions = {f.name: 0 for f in bracket.flights}
        eliminated: dict[str, dict[int, int]] = {f.name: {} for f in bracket.flights}
        for m in bracket.matches:
            if m.id in has_decider:
                continue
            top, bottom = real[m.id]
            if (top or bottom) and m.id not in winner_fed:
                champions[m.flight] += 1
            if top and bottom and m.id not in loser_fed:
                rounds = eliminated[m.flight]
                rounds[m.round] = rounds.get(m.round, 0) + 1
        # Each flight places its winner, then the flights ranking within it (a playoff), then its
        # losers by round, later rounds first; flights in their placing order.
        starts: dict[tuple[str, int], int] = {}
        offsets, total = {}, 0
        inner = {f.name: [g.name for g in bracket.flights if g.ranks_within == f.name] for f in bracket.flights}

        def place(name: str, total: int, *, nested: bool) -> int:
            offsets[name] = total
            total += champions[name]
            if not nested:
                for other in inner[name]:
                    total = place(other, total, nested=True)
            for r in sorted(eliminated[name], reverse=True):
                starts[(name, r)] = total
                total += eliminated[name][r]
            return total

        for name in bracket.placing_order:
            if bracket.flight(name).ranks_within is None:
                total = place(name, total, nested=False)
        return cls(offsets, champions, eliminated, frozenset(loser_fed), frozenset(winner_fed), has_decider, starts)

    def elimination_places(self, flight: str, round_number: int) -> tuple[int, int]:
        rounds = self.eliminated[flight]
        if (flight, round_number) in self.starts:
            first = self.starts[(flight, round_number)] + 1
        else:  # a round that eliminates nobody by the shape (a walkover's loser): after the later ones
            better = self.champions[flight] + sum(n for r, n in rounds.items() if r > round_number)
            first = self.offsets[flight] + better + 1
        return first, first + rounds.get(round_number, 1) - 1


def advance(bracket: Bracket, results: Mapping[str, Entrant] | Iterable[tuple[str, Entrant]], *,
            lenient: bool = False) -> BracketState:
    """Where ``bracket`` stands given the confirmed ``results`` (match id -> winner).

    Pure and total: the state is recomputed from the draw and the results every time, so a
    corrected result simply gives the corrected state (the matches it changes are
    ``bracket.dependents(match_id)``). Raises ``DrawError``: ``unknown_match``; ``not_in_match``
    (the winner did not play that match); ``match_not_ready`` (a result for a match whose players
    are not both known yet, a bye, or a decider that is not needed; this is also what a result
    left over from before a correction gets). With ``lenient=True`` a result that does not fit
    its match is left out instead (``unknown_match`` is still raised): the state of what the
    fitting results decide, for a caller that adds results found from it (walkovers) and then
    asks again strictly.
    """
    given = dict(results.items() if isinstance(results, Mapping) else results)
    for match_id in given:
        bracket.match(match_id)
    states: dict[str, MatchState] = {}

    def resolve(slot):
        if isinstance(slot, Seeded):
            return slot.entrant
        if isinstance(slot, WinnerOf):
            return states[slot.match].winner
        if isinstance(slot, LoserOf):
            return states[slot.match].loser
        return BYE

    for m in bracket.matches:
        top, bottom = resolve(m.top), resolve(m.bottom)
        winner = given.get(m.id)
        if m.decider_of is not None:
            final = states[m.decider_of]
            if final.winner is None:
                state = MatchState(m, top, bottom, WAITING)
            elif final.winner == final.top:
                state = MatchState(m, top, bottom, NOT_NEEDED)
            else:
                state = None
            if state is not None:
                if winner is not None and not lenient:
                    raise DrawError(f"{m.id} is not to be played", code="match_not_ready", match=m.id)
                states[m.id] = state
                continue
        if top is None or bottom is None:
            state = MatchState(m, top, bottom, WAITING)
        elif top is BYE or bottom is BYE:
            through = bottom if top is BYE else top
            state = MatchState(m, top, bottom, BYE_STATUS, through, BYE)
        elif winner is None:
            state = MatchState(m, top, bottom, READY)
        elif winner in (top, bottom):
            state = MatchState(m, top, bottom, PLAYED, winner, bottom if winner == top else top)
        elif lenient:
            state = MatchState(m, top, bottom, READY)
        else:
            raise DrawError(f"{winner!r} is not playing {m.id}", code="not_in_match", match=m.id, winner=winner)
        if winner is not None and state.status != PLAYED and not lenient:
            raise DrawError(f"{m.id} cannot have a result now ({state.status})", code="match_not_ready", match=m.id)
        states[m.id] = state
    return BracketState(bracket, tuple(states[m.id] for m in bracket.matches))


def settle(bracket: Bracket, results: Mapping[str, Entrant], *, withdrawn: Collection[Entrant] = frozenset(),
           matched: Collection[str] = frozenset(), lenient: bool = False) -> tuple[BracketState, frozenset[str]]:
    """Where ``bracket`` stands given the confirmed ``results`` and the walkovers they lead to, and
    which matches went through by walkover.

    A *walkover* is a match whose two players are known, that has no match of its own (not in
    ``matched``: a match made for its players is decided by its result, a forfeit included) and
    where a player has withdrawn (in ``withdrawn``): the other goes through (both withdrawn: the
    top side does). A result after a walkover (its winner's next match) fits only once the
    walkover is known, so the walkovers are found from what the fitting results decide, then the
    state is asked again strictly (``lenient``: leave out a result that does not fit instead, as
    :func:`advance` does). Raises ``DrawError`` as :func:`advance` does."""
    walkovers: dict[str, Entrant] = {}
    state = advance(bracket, results, lenient=lenient or bool(withdrawn))
    while withdrawn:
        found = {}
        for pairing in state.ready():
            if pairing.id in matched:
                continue  # a real match: its forfeit is a confirmed result
            if pairing.top in withdrawn:
                found[pairing.id] = pairing.bottom if pairing.bottom not in withdrawn else pairing.top
            elif pairing.bottom in withdrawn:
                found[pairing.id] = pairing.top
        if not found:
            break
        walkovers.update(found)
        state = advance(bracket, {**results, **walkovers}, lenient=True)
    if withdrawn:
        state = advance(bracket, {**results, **walkovers}, lenient=lenient)
    return state, frozenset(walkovers)


def stored_entries(match_state: MatchState) -> tuple[Entrant | None, Entrant | None]:
    """What a match's stored row holds: both players once both are known (to play, played or a
    walkover), the real side of a bye, nothing while a side is still to be decided (so that a
    row with one player always means a bye)."""
    top, bottom = match_state.top, match_state.bottom
    if match_state.status in (READY, PLAYED):
        return top, bottom
    if match_state.status == BYE_STATUS:
        return (None if top is BYE else top), (None if bottom is BYE else bottom)
    return None, None


def is_stale(match_state: MatchState, stored: tuple[Entrant | None, Entrant | None]) -> bool:
    """Whether a match that exists (made for the players ``stored``) no longer fits where the
    bracket stands: it is not to be played any more, or by other players. Such a match is
    removed (and its result, if any, no longer stands)."""
    return match_state.status not in (READY, PLAYED) or tuple(stored) != stored_entries(match_state)


def next_pairings(bracket: Bracket, results: Mapping[str, Entrant]) -> tuple[Pairing, ...]:
    """The matches to play next: ``advance(bracket, results).ready()``."""
    return advance(bracket, results).ready()
