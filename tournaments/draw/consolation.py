"""Consolation and last-chance flights, fed by a drop map (RULES.md §8).

A fed flight takes the losers of some rounds of a *source* flight:

- first-round losers only (``rounds=1``): they are paired in drop order, the loser of source
  match 1 against the loser of match 2, 3 against 4..., then the flight is a plain knockout;
- progressive (``rounds=k``): the losers of source rounds 1..k enter in turn. Each time a new
  group of losers drops in, the flight's survivors are first halved by *reduce* rounds
  (survivors paired 1 v 2, 3 v 4...) until they are as many as the newcomers, then an *entry*
  round pairs survivor ``i`` (top) with newcomer ``order[i]`` (bottom). So in a 2**n main flight
  the losers of main round 1 play consolation round 1, those of main round 2 enter at
  consolation round 2, those of main round ``r`` >= 3 at consolation round ``2r - 2`` (a reduce
  round comes before each of those). If newcomers ever outnumber the survivors (a last-chance
  flight fed by two consolation rounds) they play each other first.

The newcomer order (the *drop map*) keeps a dropped player away from the survivors he may have
beaten, for as long as the bracket allows (:func:`drop_order`: reversed, then each half
reversed, then halves swapped, in a cycle; the first group to meet survivors can never meet
someone it beat). The map
is a value: ``bracket.drop_map(flight)`` lists, for every source match, the match and side its
loser goes to, for publication with the draw.

*Shifted* progressive (``shifted=True``): a newcomer group that is
outnumbered by the survivors does not wait for reduce rounds to halve them first. The entry round
is *mixed*: each newcomer (in drop order) meets a survivor, and the survivors left over meet each
other in the same round, whenever that leaves a power of two (``(survivors + newcomers) / 2``);
otherwise that entry falls back to reduce-then-enter as above. So the losers of main round ``r``
enter sooner, and the flight ends one or two rounds earlier: a 64-player main feeding rounds 1-4
gives a 7-round consolation instead of 8, and feeding rounds 1-5 gives 8 instead of 9.

TourneyGeek's notation (as we read it; we could not check his pages from here, so this is our
own description): a fed flight is written as its rounds in order, separated by dots, the final
not written. A letter is a round in which the losers of that main round join (``A`` main round 1,
``B`` round 2, ``C`` 3, ``D`` 4...), ``|`` a round with no new entrants. Today's progressive
consolation of a 64-player main fed by rounds 1-4 is ``A.B.|.C.|.D.|.`` (8 rounds with its
final); the shifted one is ``A.B.C.D.|.|.`` (7 rounds). :func:`notation` writes any fed flight
this way.

A last-chance flight is a consolation of the consolation:
``add_consolation(b, name="last_chance", source="consolation", rounds=1, lengths=1)``.
Losers of a match with a bye drop nobody: the slot they would fill is a bye.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .bracket import Bracket, BracketMatch, Flight, LoserOf, WinnerOf
from .errors import DrawError
from .lengths import Schedule, bracket_lengths, check_schedule


def drop_order(count: int, entry: int) -> tuple[int, ...]:
    """The order (0-based positions in the source round) in which ``count`` newcomers meet the
    survivors 0, 1, 2... at the ``entry``-th entry round (1 for the first group after the
    opening one). A cycle of three: reversed (entries 1, 4, 7...), each half reversed (2, 5...),
    halves swapped (3, 6...). Each puts a newcomer against survivors from another part of the
    source bracket than the one he came through; the cycle of three left the fewest rematches
    in simulated events of 16 to 128 players (fewer than the usual reverse/swap alternation)."""
    positions = list(range(count))
    if count < 2:
        return tuple(positions)
    half = count // 2
    step = entry % 3
    if step == 1:
        return tuple(reversed(positions))
    if step == 2:
        return tuple(positions[half - 1 :: -1] + positions[: half - 1 : -1])
    return tuple(positions[half:] + positions[:half])


def add_consolation(
    bracket: Bracket, *, lengths: Schedule, rounds: int = 1, source: str = "main", name: str = "consolation",
    shifted: bool = False,
) -> Bracket:
    """``bracket`` with a new flight ``name`` fed by the losers of rounds 1..``rounds`` of
    ``source`` (``rounds=1``: first-round losers only; more: progressive; ``shifted``: entries
    mixed with reduce rounds, see the module docstring), with its own length schedule. The new
    flight ranks after the existing ones for the placings.

    Raises ``DrawError``: ``flight_exists``, ``unknown_flight``, ``bad_drop_map`` (``rounds`` not
    in 1..(source rounds - 1): the source final's loser does not drop; or too few losers to
    make a flight), ``bad_length``.
    """
    if any(f.name == name for f in bracket.flights):
        raise DrawError(f"the bracket already has a flight {name!r}", code="flight_exists", flight=name)
    feeder = bracket.flight(source)
    if not isinstance(rounds, int) or not 1 <= rounds <= feeder.rounds - 1:
        raise DrawError(
            f"the losers of rounds 1..{rounds} of {source} cannot drop: it has {feeder.rounds} rounds, and "
            "the losers of its final do not drop",
            code="bad_drop_map", flight=source, rounds=rounds,
        )
    matches, flight, _ = fed_flight(bracket, name, source, tuple(range(1, rounds + 1)), lengths, shifted=shifted)
    if not matches:
        raise DrawError(f"too few losers of {source} drop to make a flight", code="bad_drop_map", flight=source)
    return Bracket(
        bracket.seeding, bracket.size, (*bracket.flights, flight), bracket.matches + matches,
        (*bracket.placing_order, name), bracket.random_seed,
    )


def fed_flight(
    bracket: Bracket, name: str, source: str, fed_rounds: Sequence[int], lengths: Schedule, *, shifted: bool = False
) -> tuple[tuple[BracketMatch, ...], Flight, object]:
    """The matches and flight of a flight fed by the losers of ``fed_rounds`` of ``source``, and
    the slot of its winner (its final's winner; the lone entrant when nobody has to play)."""
    check_schedule(lengths)
    rounds: list[list[tuple[object, object]]] = []
    survivors: list = []

    def play(pairs: list[tuple[object, object]]) -> list:
        rounds.append(pairs)
        number = len(rounds)
        return [WinnerOf(f"{name}-{number}-{i}") for i in range(1, len(pairs) + 1)]

    def halve(players: list) -> list:
        return play([(players[i], players[i + 1]) for i in range(0, len(players), 2)])

    groups = [bracket.round_matches(source, source_round) for source_round in fed_rounds]
    entries = 0
    for source_round, group in zip(fed_rounds, groups, strict=True):
        newcomers = [LoserOf(m.id) for m in group]
        if not newcomers:
            raise DrawError(f"{source} has no round {source_round}", code="bad_drop_map", flight=source)
        if not survivors:
            survivors = halve(newcomers) if len(newcomers) > 1 else newcomers
            continue
        entries += 1
        newcomers = [newcomers[i] for i in drop_order(len(newcomers), entries)]
        if shifted and _mixes(len(survivors), tuple(len(g) for g in groups[entries:])):
            # A mixed round: survivor i meets newcomer i, the survivors left over meet each other.
            count = len(newcomers)
            rest = survivors[count:]
            survivors = play(list(zip(survivors[:count], newcomers, strict=True))
                             + [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)])
            continue
        while len(survivors) > len(newcomers):
            survivors = halve(survivors)
        while len(newcomers) > len(survivors):
            newcomers = halve(newcomers)
        survivors = play(list(zip(survivors, newcomers, strict=True)))
    while len(survivors) > 1:
        survivors = halve(survivors)
    schedule = bracket_lengths(lengths, len(rounds)) if rounds else ()
    matches = tuple(
        BracketMatch(f"{name}-{r}-{i}", name, r, i, top, bottom, schedule[r - 1])
        for r, pairs in enumerate(rounds, start=1)
        for i, (top, bottom) in enumerate(pairs, start=1)
    )
    return matches, Flight(name, len(rounds), schedule, source, tuple(fed_rounds), shifted), survivors[0]


def _power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


@cache
def _finishes(survivors: int, groups: tuple[int, ...]) -> bool:
    """Whether a shifted flight with ``survivors`` left and newcomer ``groups`` still to enter
    can be played to one winner (every round pairs everyone: no byes inside a fed flight)."""
    if not groups:
        return _power_of_two(survivors)
    return _mixes(survivors, groups) or _reduces(survivors, groups)


def _mixes(survivors: int, groups: tuple[int, ...]) -> bool:
    """Whether the next group (``groups[0]`` newcomers) can enter in a mixed round and the
    flight still finish."""
    newcomers = groups[0]
    return (survivors > newcomers and (survivors - newcomers) % 2 == 0
            and _finishes((survivors + newcomers) // 2, groups[1:]))


def _reduces(survivors: int, groups: tuple[int, ...]) -> bool:
    """Whether the next group can enter the usual way (survivors halved to as many, newcomers
    halved to as many) and the flight still finish."""
    newcomers = groups[0]
    while survivors > newcomers:
        if survivors % 2:
            return False
        survivors //= 2
    while newcomers > survivors:
        if newcomers % 2:
            return False
        newcomers //= 2
    return survivors == newcomers and _finishes(survivors, groups[1:])


def notation(bracket: Bracket, flight: str) -> str:
    """The fed ``flight`` in TourneyGeek's notation as we read it (module docstring): each round
    but the final, in order, a letter per source round whose losers join in it (``A`` for round
    1), ``|`` when nobody new joins, each followed by a dot. Raises ``DrawError``
    ``unknown_flight``."""
    fed = bracket.flight(flight)
    last = {}
    for m in bracket.matches:
        if m.flight == flight:
            for slot in (m.top, m.bottom):
                if isinstance(slot, LoserOf):
                    last.setdefault(m.round, set()).add(bracket.by_id[slot.match].round)
    out = []
    for r in range(1, fed.rounds):
        joining = sorted(last.get(r, ()))
        out.append("".join(chr(ord("A") + s - 1) for s in joining) if joining else "|")
    return "".join(f"{token}." for token in out)
