"""More flights directors use: the playoff for 2nd, a last chance open to
everyone who has not cashed, and re-entry (buy-back) into the main while its first round is open.
Pure, like the rest of the draw; the shifted progressive consolation is in :mod:`.consolation`
and the paid places in :mod:`.payouts`.

- **Playoff for 2nd** (:func:`add_playoff`): the main final's loser meets the consolation's
  winner in one match (flight ``playoff``, match ``playoff-1-1``); its winner is 2nd, its loser
  3rd, and the main flight's other places follow (the semi-final losers 4-5). The consolation's
  winner keeps his consolation place too (:mod:`.payouts` pays it): the playoff is for the
  main's places only. Some events want it, most do not: an event setting.
- **Last chance open to everyone who has not cashed** (:func:`add_open_last_chance`): a player
  has *cashed* when the place he finishes in is paid (the payout settings: each flight pays its
  first ``paid[flight]`` places). Every match whose loser would finish in an unpaid place and
  does not drop to another flight feeds the last chance instead, so every player who goes out
  without cashing gets one more knockout. Its first round pairs the drops in the order they
  become known (main round r with consolation round r - 1), early drops meeting each other, the
  bracket filled up with byes to a power of two, the byes going to the latest drops (who would
  otherwise wait longest); then a plain knockout. Its players are placed by it, after the other
  flights.
- **Re-entry (buy-back)** (:func:`reentry`): a player who lost his main round-1 match may enter
  the main again, once, as a new entrant taking the next seed, which stands in the first unused
  bye (the late-entry slot). Refused (``DrawError`` ``reentry_refused`` with a ``reason``) when
  he did not lose in main round 1, has already re-entered, the main's first round is over (no
  round-1 match is left to play), the bracket is full, or the player who had that bye has
  already played on.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from .bracket import Bracket, BracketMatch, Flight, LoserOf, Seeded, WinnerOf, advance
from .elimination import seed_positions
from .errors import DrawError
from .lengths import Schedule, bracket_lengths, check_schedule
from .routes import Routes
from .values import BYE, Entrant

PLAYOFF = "playoff"
LAST_CHANCE = "last_chance"


def add_playoff(bracket: Bracket, *, lengths: Schedule, source: str = "main", challenger: str = "consolation") -> Bracket:
    """``bracket`` with the playoff for 2nd: the loser of ``source``'s final against the winner of
    ``challenger``'s final, one match of ``lengths`` (one length, or a one-round schedule).

    Raises ``DrawError``: ``flight_exists``; ``unknown_flight`` (no consolation to challenge);
    ``bad_length``."""
    if any(f.name == PLAYOFF for f in bracket.flights):
        raise DrawError("the bracket already has a playoff", code="flight_exists", flight=PLAYOFF)
    main, fed = bracket.flight(source), bracket.flight(challenger)
    check_schedule(lengths)
    schedule = bracket_lengths(lengths, 1)
    (final,) = bracket.round_matches(source, main.rounds)
    (other,) = bracket.round_matches(challenger, fed.rounds)
    match = BracketMatch(f"{PLAYOFF}-1-1", PLAYOFF, 1, 1, LoserOf(final.id), WinnerOf(other.id), schedule[0])
    flight = Flight(PLAYOFF, 1, schedule, source, (main.rounds,), ranks_within=source)
    return Bracket(bracket.seeding, bracket.size, (*bracket.flights, flight), (*bracket.matches, match),
                   (*bracket.placing_order, PLAYOFF), bracket.random_seed)


def _time(bracket: Bracket, m: BracketMatch) -> int:
    """When a match's loser is known, in main rounds: main round r at r; a fed flight's round r
    alongside its source's round r + 1 (a consolation round is played with the next main one)."""
    flight = bracket.flight(m.flight)
    return m.round if flight.source is None else m.round + 1


def add_open_last_chance(bracket: Bracket, *, lengths: Schedule, paid: Mapping[str, int]) -> Bracket:
    """``bracket`` with a last-chance flight of every player who goes out without cashing (see the
    module docstring): ``paid`` maps a flight to how many of its places are paid (flights not
    named pay none). Raises ``DrawError``: ``flight_exists``; ``bad_drop_map`` (fewer than two
    players could ever drop); ``bad_length``."""
    if any(f.name == LAST_CHANCE for f in bracket.flights):
        raise DrawError("the bracket already has a last-chance flight", code="flight_exists", flight=LAST_CHANCE)
    check_schedule(lengths)
    # Who drops is decided by the bracket's shape alone (as if every line held a player), so the
    # flight is the same for every number of entrants of this size (``routes``).
    structure = _full(bracket)._structure
    ranks = {f.name: f.ranks_within or f.name for f in bracket.flights}
    drops = []
    for m in bracket.matches:
        if m.flight == PLAYOFF or m.id in structure.loser_fed or m.decider_of or m.id in structure.has_decider:
            continue
        host = ranks[m.flight]
        first, _ = structure.elimination_places(m.flight, m.round)
        if first - structure.offsets[host] > paid.get(host, 0) and bracket.flight(m.flight).ranks_within is None:
            drops.append(m)
    drops.sort(key=lambda m: (_time(bracket, m), bracket.placing_order.index(m.flight), m.number))
    routes = Routes(bracket)
    real = [m for m in drops if routes.is_real(LoserOf(m.id), len(bracket.seeding))]
    if len(real) < 2:
        raise DrawError("fewer than two players could go out without cashing", code="bad_drop_map", flight=LAST_CHANCE)
    size = 2
    while size < len(drops):
        size *= 2
    rounds = size.bit_length() - 1
    schedule = bracket_lengths(lengths, rounds)
    # Early drops meet each other; the byes go to the latest (they stand where the last lines would).
    slots: list = [LoserOf(m.id) for m in drops]
    byes = size - len(slots)
    pairs = []
    early = len(slots) - byes
    for i in range(0, early, 2):
        pairs.append((slots[i], slots[i + 1]))
    pairs += [(slot, BYE) for slot in slots[early:]]
    matches = [BracketMatch(f"{LAST_CHANCE}-1-{i}", LAST_CHANCE, 1, i, top, bottom, schedule[0])
               for i, (top, bottom) in enumerate(pairs, start=1)]
    for r in range(2, rounds + 1):
        for i in range(1, (size >> r) + 1):
            top, bottom = (WinnerOf(f"{LAST_CHANCE}-{r - 1}-{2 * i - k}") for k in (1, 0))
            matches.append(BracketMatch(f"{LAST_CHANCE}-{r}-{i}", LAST_CHANCE, r, i, top, bottom, schedule[r - 1]))
    # Fed by several flights' rounds: no single source to name (its drop map lists them).
    flight = Flight(LAST_CHANCE, rounds, schedule)
    return Bracket(bracket.seeding, bracket.size, (*bracket.flights, flight), (*bracket.matches, *matches),
                   (*bracket.placing_order, LAST_CHANCE), bracket.random_seed)


def _full(bracket: Bracket) -> Bracket:
    """``bracket`` with every bye of the draw a player: its shape as if it were full."""
    def fill(slot, key):
        return Seeded(0, ("line", key)) if slot is BYE else slot

    matches = tuple(replace(m, top=fill(m.top, (m.id, 0)), bottom=fill(m.bottom, (m.id, 1))) for m in bracket.matches)
    return replace(bracket, matches=matches)


@dataclass(frozen=True)
class Reentry:
    """A re-entry allowed: ``entrant`` comes back as ``new_entrant``, seed ``seed``, into match
    ``match`` (against the player who had its bye)."""

    entrant: Entrant
    new_entrant: Entrant
    seed: int
    match: str


def reentry(bracket: Bracket, results: Mapping[str, Entrant], entrant: Entrant, *, new_entrant: Entrant,
            reentered: Collection[Entrant] = ()) -> Reentry:
    """Whether ``entrant`` may re-enter the main flight now (buy-back, see the module docstring),
    and where: ``results`` are the confirmed results, ``reentered`` the entrants who already
    re-entered (an original or his re-entry: once each). Raises ``DrawError`` ``reentry_refused``
    with ``reason``: ``not_a_first_round_loser``, ``already_reentered``, ``first_round_closed``,
    ``bracket_full``, ``slot_played_on``."""
    state = advance(bracket, results, lenient=True)
    first = [s for s in state.matches if s.match.flight == "main" and s.match.round == 1]

    def refuse(reason: str, message: str):
        return DrawError(message, code="reentry_refused", reason=reason, entrant=entrant)

    if not any(s.status == "played" and s.loser == entrant for s in first):
        raise refuse("not_a_first_round_loser", f"{entrant!r} did not lose a main round-1 match")
    if entrant in reentered:
        raise refuse("already_reentered", f"{entrant!r} has already re-entered once")
    if not any(s.status == "ready" for s in first):
        raise refuse("first_round_closed", "the main's first round is over: every match of it has a result")
    seed = len(bracket.seeding) + 1
    if seed > bracket.size:
        raise refuse("bracket_full", "the bracket is full: no bye to take")
    line = seed_positions(bracket.size).index(seed)
    match = first[line // 2]
    if not _open_bye(state, match):
        raise refuse("slot_played_on", f"the player who had the bye of {match.match.id} has already played on")
    return Reentry(entrant, new_entrant, seed, match.match.id)


def _open_bye(state, match_state) -> bool:
    """Whether a main round-1 match is a bye whose winner has not played his next match yet."""
    if match_state.status != "bye":
        return False
    for s in state.matches:
        m = s.match
        if m.flight == "main" and m.round == 2 and WinnerOf(match_state.match.id) in (m.top, m.bottom):
            return s.status != "played"
    return True
