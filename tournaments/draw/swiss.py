"""Swiss and elimination Swiss pairing (RULES.md §8), after lila's split: pure values and a pure
pairing function; loading rounds and saving pairings is the service's.

The rules, in order of strength:

1. hard: nobody meets the same opponent twice; no forbidden pairing (two entrants of the same
   club when ``clubs`` is given, and the pairs the organiser declares in ``forbidden``);
2. hard: with an odd number of players, the bye goes to a player with the fewest byes so far
   (so nobody gets a second bye before everyone has had one), the lowest-ranked such player
   who leaves a valid pairing of the others; a bye counts as a win;
3. preference: equal records meet. Players are ranked by score (wins, byes included), then
   seed; each score group is paired top half against bottom half (1 v 5, 2 v 6, 3 v 7, 4 v 8 in
   a group of eight), and the odd one out floats down to meet the top of the next group.

Two methods (``SwissOptions.method``; an event's ``swiss_pairing`` setting):

``fair`` (the default)
    of all valid pairings, one with the least sum of *squared* score differences, then the
    fewest floaters, then floaters as low in the table as they can be, the floater being the
    lowest of his group meeting the highest of the next; within a score group, the top-down
    fold below. Made by the quick way when it reaches the lower bound, else as a
    maximum-weight perfect matching (pure Python Edmonds blossom, :mod:`.weighted`); see
    :func:`_pair_fair`. 1,000 players: tens of milliseconds (bench/draw.py).
``top_down`` (the earlier pairing, kept for events that started with it)
    greedy from the top board, as follows.

The top-down pairing is made top board first: the best-ranked player still unpaired gets his most
preferred partner *among those that still leave a valid pairing of everyone else*. That check
is one augmenting-path search on a maximum matching kept alongside
(:class:`~tournaments.draw.matching.Matcher`), so the result is valid whenever any valid pairing
exists, and the search is never exponential. His partners are proposed one at a time in order of
preference (nearly always the first fits), never listed in full, and his score group's end is found
by bisection: a round costs about what its matching costs, 5,000 players in a few tens of
milliseconds (bench/draw.py).

When no valid pairing exists the answer is a :class:`NoPairing` with a code, a sentence and the
players left over, never an exception: ``too_few_players`` (fewer than two players left),
``finished`` (elimination Swiss: one player left, the winner), ``no_bye`` (every player who may
take the bye would leave the others unpairable), ``forbidden`` (the club or declared
restrictions make it impossible; without them it would pair), ``rematches`` (every pairing needs
a rematch). Wrong *input* (a round with a result missing, a stranger in the history) is an
error: ``DrawError``.

Elimination Swiss: with ``max_losses=k``, a player is out at his k-th loss and is not paired
again; the others pair as above (a bye is a win, so it never eliminates). Near its end the last
players have often all met: the answer is ``rematches`` unless the organiser allows them
(``allow_rematches=True``).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from itertools import chain

from .errors import DrawError
from .lengths import Schedule, round_length
from .matching import Matcher
from .seeding import Seeding, as_order
from .standings import records
from .swiss_fair import pair_fair, partners_walk
from .swiss_history import NoPairing, SwissPairing, SwissRound, check_history
from .values import Entrant, Pairing

#: The pairing methods: the fairest pairing (the default), and the earlier greedy one.
METHODS = ("fair", "top_down")

#: The codes of a :class:`NoPairing`, and what each means.
NO_PAIRING = {
    "too_few_players": "fewer than two players left to pair",
    "finished": "elimination Swiss: one player left, the winner",
    "no_bye": "every player who may have the bye (the fewest byes so far) would leave the others unpairable",
    "forbidden": "the club or declared restrictions make it impossible (without them it would pair)",
    "rematches": "every pairing needs a rematch",
}


@dataclass(frozen=True)
class SwissOptions:
    """How an event's Swiss rounds are paired (the organiser's choices, the same every round).

    ``lengths``: the match length schedule counted from round 1; ``clubs`` maps entrants to a club
    whose members never meet (entrants absent from it, or mapped to None, have no club);
    ``forbidden`` lists pairs the organiser forbids; ``max_losses`` makes it an elimination Swiss;
    ``allow_rematches`` lets a round that cannot be paired without a rematch be paired with them
    (the end of an elimination Swiss, a small club night), each player meeting a former opponent
    only when nobody else fits him (off by default); ``method`` is ``"fair"`` (the least squared
    score differences, :func:`pair_fair`) or ``"top_down"`` (the earlier greedy pairing from the
    top board). Checked by :func:`pair_round`.
    """

    lengths: Schedule
    clubs: Mapping[Entrant, Hashable] | None = None
    forbidden: Iterable[tuple[Entrant, Entrant]] = ()
    max_losses: int | None = None
    allow_rematches: bool = False
    method: str = "fair"


def pair_round(
    entrants: Seeding | Iterable[Entrant],
    history: Iterable[SwissRound] = (),
    *,
    options: SwissOptions,
    withdrawn: Iterable[Entrant] = (),
) -> SwissPairing | NoPairing:
    """The pairings of the round after ``history`` (see the module docstring for the rules),
    paired as ``options`` say.

    ``entrants`` in seed order (everyone ever entered; late entrants last); ``withdrawn`` are
    not paired again.

    Deterministic: the same inputs always give the same pairing. Returns a
    :class:`SwissPairing`, or a :class:`NoPairing` saying why. Raises ``DrawError`` only for
    wrong input: ``unknown_entrant``, ``bad_history``, ``round_not_complete``, ``bad_length``,
    ``bad_max_losses``, ``bad_method``.
    """
    method, max_losses = options.method, options.max_losses
    if method not in METHODS:
        raise DrawError(f"no pairing method {method!r}; known: {', '.join(METHODS)}", code="bad_method", method=method)
    order = as_order(entrants)
    rounds = check_history(order, history)
    number = (max((p.number for p in rounds), default=0)) + 1
    length = round_length(options.lengths, number)
    if max_losses is not None and (not isinstance(max_losses, int) or isinstance(max_losses, bool) or max_losses < 1):
        raise DrawError(f"{max_losses!r} is not a number of losses", code="bad_max_losses", max_losses=repr(max_losses))
    known = set(order)
    out = set(withdrawn)
    clubs = dict(options.clubs or {})
    declared = [tuple(pair) for pair in options.forbidden]
    for entrant in (*out, *clubs, *(e for pair in declared for e in pair)):
        if entrant not in known:
            raise DrawError(f"{entrant!r} is not an entrant", code="unknown_entrant", entrant=entrant)

    table = records(order, (r for p in rounds for r in p.results), (p.bye for p in rounds if p.bye is not None))
    seed = {e: i for i, e in enumerate(order)}
    active = [e for e in order if e not in out and (max_losses is None or table[e].losses < max_losses)]
    if len(active) < 2:
        if max_losses is not None and rounds and len(active) == 1:
            return NoPairing(number, "finished", f"{active[0]!r} is the last player left: the event is over", tuple(active))
        return NoPairing(number, "too_few_players", f"{len(active)} player(s) left: nobody to pair", tuple(active))

    ranked = sorted(active, key=lambda e: (-table[e].score, seed[e]))
    index = {e: i for i, e in enumerate(ranked)}
    n = len(ranked)
    score = [table[e].score for e in ranked]
    rematch: list[set[int]] = [set() for _ in range(n)]
    for i, e in enumerate(ranked):
        rematch[i].update(index[o] for o in table[e].opponents if o in index)
    organiser: list[set[int]] = [set() for _ in range(n)]
    for a, b in declared:
        if a in index and b in index:
            organiser[index[a]].add(index[b])
            organiser[index[b]].add(index[a])
    restricted = [rematch[i] | organiser[i] for i in range(n)]
    group = [clubs.get(e) for e in ranked]

    byes = [table[e].byes for e in ranked]
    pair = pair_fair if method == "fair" else _pair
    answer = pair(number, ranked, score, byes, restricted, group, None, length)
    if answer is None:
        if not options.allow_rematches:
            return _diagnose(number, ranked, restricted, rematch, group)
        answer = pair(number, ranked, score, byes, organiser, group, rematch, length)
        if answer is None:
            return _diagnose(number, ranked, organiser, None, group)
    return answer


def _pair(
    number: int,
    ranked: list[Entrant],
    score: list[float],
    byes: list[int],
    blocked: list[set[int]],
    group: list,
    avoid: list[set[int]] | None,
    length: int,
) -> SwissPairing | None:
    """The pairing of the players ``ranked`` (indices are ranks) where ``blocked`` pairs and
    same-``group`` pairs never meet; with ``avoid``, each player's avoided partners are tried
    only after all the others. None if no valid pairing exists."""
    n = len(ranked)
    matcher = Matcher(n, blocked, group)
    if matcher.maximise() < n // 2:
        return None
    bye = None
    if n % 2:
        fewest = min(byes)
        for i in range(n - 1, -1, -1):
            if byes[i] == fewest and matcher.remove(i):
                bye = ranked[i]
                break
        else:
            return None
    # Ranks are sorted by score, so a score group is a run of ranks: where p's run ends is known
    # once, and the live part of it is found by bisection instead of a scan per pair.
    group_end = [0] * n
    for i in range(n - 1, -1, -1):
        group_end[i] = group_end[i + 1] if i + 1 < n and score[i + 1] == score[i] else i + 1
    pairings = []
    alive = matcher.alive
    while alive:
        p = alive[0]
        g = bisect_left(alive, group_end[p])
        if avoid is None:
            candidates = partners_walk(alive, g)
        else:
            shunned = avoid[p]
            candidates = chain((q for q in partners_walk(alive, g) if q not in shunned),
                               (q for q in partners_walk(alive, g) if q in shunned))
        for q in candidates:
            if matcher.fix(p, q):
                break
        else:  # cannot happen: the rest was perfectly matchable, so p's partner there fits
            raise AssertionError("Swiss pairing lost its perfect matching")
        pairings.append(Pairing(f"swiss-{number}-{len(pairings) + 1}", "swiss", number, ranked[p], ranked[q], length))
    return SwissPairing(number, tuple(pairings), bye)


def _diagnose(
    number: int, ranked: list[Entrant], blocked: list[set[int]], rematch: list[set[int]] | None, group: list
) -> NoPairing:
    """Why no pairing exists under ``blocked`` and ``group``: the bye rule (the others would
    pair), the club and declared restrictions (without them it would pair: always so when
    rematches are allowed, ``rematch`` None), or rematches."""
    n = len(ranked)
    attempt = Matcher(n, blocked, group)
    if attempt.maximise() >= n // 2:
        return NoPairing(number, "no_bye", NO_PAIRING["no_bye"])
    unpaired = tuple(ranked[v] for v in attempt.free())
    if rematch is None or Matcher(n, rematch, [None] * n).maximise() >= n // 2:
        return NoPairing(
            number, "forbidden",
            "the forbidden pairings (same club, or pairs the organiser declared) leave no valid pairing", unpaired,
        )
    return NoPairing(number, "rematches", "every possible pairing would repeat a game already played", unpaired)
