"""The lazy Swiss candidate walk and the head-to-head indexed by player give exactly what the code
before them gave: ``pair_round`` and ``standings`` are compared with frozen copies of the old
functions (kept below, as they were at commit e9de49a) on random events, every option included.

The copies are the specification of the answers, not of the speed: do not update them to follow
a change of the rules; a change of the rules changes the tests of tests/tournaments/draw instead.
One did: entrants still level after a later tie-break split their group are now ranked again from
the first, so the games among the smaller group decide (test_standings.py). An order where another
tie-break follows head-to-head may therefore rank differently from the copy; for those orders the
copy still gives the order up to head-to-head, which the new table only refines, and entrants who
still share a place must have a level mini-table (:func:`_ranks_as_before`).
The default pairing is the fairest one (``method="fair"``, tested in
test_fair_swiss.py); the greedy pairing these copies specify is ``method="top_down"``, so the
comparisons here ask for it by name.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DRAW, SWISS, NoPairing, Result, SwissOptions, SwissRound, pair_round, standings
from tournaments.draw.errors import DrawError
from tournaments.draw.lengths import Schedule, round_length
from tournaments.draw.matching import Matcher
from tournaments.draw.seeding import Seeding, as_order
from tournaments.draw.standings import TIEBREAKS, Standing, records
from tournaments.draw.swiss import _diagnose
from tournaments.draw.swiss_history import SwissPairing, check_history
from tournaments.draw.values import Entrant, Pairing

# --- the frozen copies (tournaments/draw/swiss.py and standings.py before the change) -------------------


def top_down(entrants, history, *, withdrawn=(), **options):
    """The top-down pairing of today's ``pair_round``, asked with the old function's keywords."""
    return pair_round(entrants, history, options=SwissOptions(method="top_down", **options), withdrawn=withdrawn)


def old_pair_round(
    entrants: Seeding | Iterable[Entrant],
    history: Iterable[SwissRound] = (),
    *,
    lengths: Schedule,
    clubs: Mapping[Entrant, Hashable] | None = None,
    forbidden: Iterable[tuple[Entrant, Entrant]] = (),
    max_losses: int | None = None,
    withdrawn: Iterable[Entrant] = (),
    allow_rematches: bool = False,
) -> SwissPairing | NoPairing:
    """The pairings of the round after ``history`` (see the module docstring for the rules).

    ``entrants`` in seed order (everyone ever entered; late entrants last); ``withdrawn`` are
    not paired again; ``clubs`` maps entrants to a club (entrants absent from it, or mapped to
    None, have no club); ``forbidden`` lists pairs the organiser forbids; ``max_losses`` makes it
    an elimination Swiss; ``lengths`` the match length schedule counted from round 1;
    ``allow_rematches`` lets a round that cannot be paired without a rematch be paired with
    them (the end of an elimination Swiss, a small club night), each player meeting a former
    opponent only when nobody else fits him (the organiser's choice; off by default).

    Deterministic: the same inputs always give the same pairing. Returns a
    :class:`SwissPairing`, or a :class:`NoPairing` saying why. Raises ``DrawError`` only for
    wrong input: ``unknown_entrant``, ``bad_history``, ``round_not_complete``, ``bad_length``,
    ``bad_max_losses``.
    """
    order = as_order(entrants)
    rounds = check_history(order, history)
    number = (max((p.number for p in rounds), default=0)) + 1
    length = round_length(lengths, number)
    if max_losses is not None and (not isinstance(max_losses, int) or isinstance(max_losses, bool) or max_losses < 1):
        raise DrawError(f"{max_losses!r} is not a number of losses", code="bad_max_losses", max_losses=repr(max_losses))
    known = set(order)
    out = set(withdrawn)
    clubs = dict(clubs or {})
    declared = [tuple(pair) for pair in forbidden]
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
    answer = old_pair(number, ranked, score, byes, restricted, group, None, length)
    if answer is None:
        if not allow_rematches:
            return _diagnose(number, ranked, restricted, rematch, group)
        answer = old_pair(number, ranked, score, byes, organiser, group, rematch, length)
        if answer is None:
            return _diagnose(number, ranked, organiser, None, group)
    return answer


def old_pair(
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
    pairings = []
    alive = matcher.alive
    while alive:
        p = alive[0]
        g = 1
        while g < len(alive) and score[alive[g]] == score[p]:
            g += 1
        half = g // 2  # the fold: the top of a score group meets the top of its bottom half
        candidates = (*alive[half:g], *alive[half - 1 : 0 : -1], *alive[g:]) if g > 1 else tuple(alive[1:])
        if avoid is not None:
            candidates = tuple(q for q in candidates if q not in avoid[p]) + tuple(q for q in candidates if q in avoid[p])
        for q in candidates:
            if matcher.fix(p, q):
                break
        else:  # cannot happen: the rest was perfectly matchable, so p's partner there fits
            raise AssertionError("Swiss pairing lost its perfect matching")
        pairings.append(Pairing(f"swiss-{number}-{len(pairings) + 1}", "swiss", number, ranked[p], ranked[q], length))
    return SwissPairing(number, tuple(pairings), bye)


def old_standings(
    entrants: Seeding | Iterable[Entrant],
    results: Iterable[Result],
    byes: Iterable[Entrant] = (),
    *,
    tiebreaks: Sequence[str] = SWISS,
) -> tuple[Standing, ...]:
    """The table, best first, ordered by ``tiebreaks`` (names from :data:`TIEBREAKS`).

    ``entrants`` in seed order (a withdrawn entrant stays in: his games count for his opponents'
    Buchholz). Raises ``DrawError``: ``bad_tiebreak``, ``unknown_entrant``.
    """
    for name in tiebreaks:
        if name not in TIEBREAKS:
            raise DrawError(f"no tie-break {name!r}; known: {', '.join(TIEBREAKS)}", code="bad_tiebreak", tiebreak=name)
    order = as_order(entrants)
    results = [r for r in results if r.winner is not None]
    table = records(order, results, byes)
    buchholz, median = {}, {}
    for entrant, record in table.items():
        scores = sorted(table[o].score for o in record.opponents)
        buchholz[entrant] = sum(scores)
        median[entrant] = sum(scores[1:-1]) if len(scores) >= 3 else sum(scores)

    def head_to_head(block: list[Entrant]) -> dict[Entrant, float]:
        members = set(block)
        score = dict.fromkeys(block, 0.0)
        for r in results:
            if r.top in members and r.bottom in members:
                if r.winner is DRAW:
                    score[r.top] += 0.5
                    score[r.bottom] += 0.5
                else:
                    score[r.winner] += 1
        return score

    def key_of(name: str, block: list[Entrant]):
        if name == "head_to_head":
            return head_to_head(block).__getitem__
        if name == "wins":
            return lambda e: table[e].score
        if name == "buchholz":
            return buchholz.__getitem__
        if name == "median_buchholz":
            return median.__getitem__
        if name == "points_difference":
            return lambda e: table[e].points_for - table[e].points_against
        return lambda e: table[e].points_for

    def rank(block: list[Entrant], criteria: Sequence[str]) -> list[list[Entrant]]:
        if len(block) <= 1 or not criteria:
            return [block]
        key = key_of(criteria[0], block)
        ordered = sorted(block, key=lambda e: -key(e))  # stable: seed order among equals
        out, start = [], 0
        for i in range(1, len(ordered) + 1):
            if i == len(ordered) or key(ordered[i]) != key(ordered[start]):
                tied = ordered[start:i]
                # head-to-head that split the block is applied again to each smaller tied group
                again = criteria[0] == "head_to_head" and len(tied) < len(block)
                out.extend(rank(tied, criteria if again else criteria[1:]))
                start = i
        return out

    lines, place = [], 1
    for tied in rank(list(order), tuple(tiebreaks)):
        for entrant in tied:
            lines.append(Standing(place, entrant, table[entrant], buchholz[entrant], median[entrant], len(tied) > 1))
        place += len(tied)
    return tuple(lines)


# --- random events ----------------------------------------------------------------------------------


def _event(seed: int, n: int, rounds: int, *, clubs: int, forbidden: int, max_losses: int | None, withdrawn: int,
           allow_rematches: bool, draws: bool = False):
    """A Swiss event of ``n`` players played for up to ``rounds`` rounds from ``seed`` (each round
    paired by the old pairing, results drawn at random), and the options every round was paired with;
    at every round, the new pairing must have given the same answer."""
    rng = random.Random(seed)
    entrants = rng.sample(range(1, 10 * n + 1), n)  # ids that do not follow the seed order
    options = {
        "clubs": {e: rng.randrange(clubs) for e in entrants if rng.random() < 0.8} if clubs else None,
        "forbidden": [tuple(rng.sample(entrants, 2)) for _ in range(forbidden)] if n >= 2 else [],
        "max_losses": max_losses,
        "withdrawn": rng.sample(entrants, min(withdrawn, n)),
        "allow_rematches": allow_rematches,
    }
    history: list[SwissRound] = []
    for _ in range(rounds):
        old = old_pair_round(entrants, history, lengths=[3, 5, 7], **options)
        new = top_down(entrants, history, lengths=[3, 5, 7], **options)
        assert new == old
        if not old.ok:
            break
        results = []
        for p in old.pairings:
            # team-style draws and points exercise every tie-break of the standings
            winner = DRAW if draws and rng.random() < 0.1 else rng.choice((p.top, p.bottom))
            results.append(Result(p.top, p.bottom, winner, rng.randrange(8), rng.randrange(8)))
        history.append(SwissRound(old.round, tuple(results), old.bye))
    return entrants, history, options


def _unchanged(order: Sequence[str]) -> bool:
    """Whether the old rule still gives this order's answers: nothing but head-to-head after it."""
    if "head_to_head" not in order:
        return True
    return all(name == "head_to_head" for name in order[order.index("head_to_head"):])


def _lines(table) -> list[tuple]:
    """A table's lines as the copy made them (it knows nothing of which tie-break separated them)."""
    return [(s.place, s.entrant, s.record, s.buchholz, s.median_buchholz, s.shared) for s in table]


def _ranks_as_before(entrants, results, byes, order: Sequence[str]) -> None:
    """The table as the copy ranks it, or, for an order the change concerns (see the module
    docstring), ranked as the copy up to head-to-head with every shared place level among its
    entrants' own games."""
    new = standings(entrants, results, byes, tiebreaks=order)
    if _unchanged(order):
        assert _lines(new) == _lines(old_standings(entrants, results, byes, tiebreaks=order))
        return
    prefix = tuple(order[:order.index("head_to_head") + 1])
    coarse = {s.entrant: s.place for s in old_standings(entrants, results, byes, tiebreaks=prefix)}
    places = [coarse[s.entrant] for s in new]
    assert places == sorted(places)
    shared: dict[int, set] = {}
    for line in new:
        shared.setdefault(line.place, set()).add(line.entrant)
    for tied in shared.values():
        among = dict.fromkeys(tied, 0.0)
        for r in results:
            if r.winner is not None and r.top in tied and r.bottom in tied:
                for entrant in (r.top, r.bottom):
                    among[entrant] += 0.5 if r.winner is DRAW else float(r.winner == entrant)
        assert len(set(among.values())) == 1, (tied, among)


def _same_standings(entrants, history) -> None:
    results = [r for h in history for r in h.results]
    byes = [h.bye for h in history if h.bye is not None]
    for order in (SWISS, ("wins", "head_to_head", "points_difference"), ("wins", "points_for", "head_to_head"),
                  ("head_to_head",), TIEBREAKS):
        _ranks_as_before(entrants, results, byes, order)


events = st.builds(
    _event,
    seed=st.integers(0, 2**32),
    n=st.integers(1, 26),
    rounds=st.integers(1, 9),
    clubs=st.sampled_from([0, 0, 2, 3, 6]),
    forbidden=st.integers(0, 6),
    max_losses=st.sampled_from([None, None, 1, 2, 3]),
    withdrawn=st.sampled_from([0, 0, 1, 3]),
    allow_rematches=st.booleans(),
)


@settings(max_examples=250, deadline=None)
@given(events)
def test_every_round_of_a_random_swiss_is_paired_as_before_and_its_table_ranked_as_before(event):
    entrants, history, options = event
    answer = top_down(entrants, history, lengths=5, **options)
    assert answer == old_pair_round(entrants, history, lengths=5, **options)
    _same_standings(entrants, history)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 30), st.integers(1, 8))
def test_tables_with_draws_points_and_undecided_results_rank_as_before(seed, n, rounds):
    entrants, history, _ = _event(seed, n, rounds, clubs=0, forbidden=0, max_losses=None, withdrawn=0,
                                  allow_rematches=True, draws=True)
    _same_standings(entrants, history)


@st.composite
def tables(draw):
    """Any results at all, not only a Swiss's: pairs meeting several times, draws, undecided games,
    points, byes, and a tie-break order drawn from every name."""
    n = draw(st.integers(1, 12))
    entrants = [f"e{i}" for i in range(n)]
    results = []
    if n >= 2:
        for _ in range(draw(st.integers(0, 40))):
            top, bottom = draw(st.lists(st.sampled_from(entrants), min_size=2, max_size=2, unique=True))
            winner = draw(st.sampled_from([top, bottom, DRAW, None]))
            results.append(Result(top, bottom, winner, draw(st.integers(0, 9)), draw(st.integers(0, 9))))
    byes = draw(st.lists(st.sampled_from(entrants), max_size=4))
    order = draw(st.lists(st.sampled_from(TIEBREAKS), max_size=6))
    return entrants, results, byes, tuple(order)


@settings(max_examples=400, deadline=None)
@given(tables())
def test_any_table_with_any_tie_break_order_ranks_as_before(table):
    entrants, results, byes, order = table
    _ranks_as_before(entrants, results, byes, order)


def test_big_seeded_events_pair_and_rank_as_before():
    for seed, n, clubs in ((1, 301, 0), (2, 240, 12), (3, 128, 0)):
        entrants, history, _ = _event(seed, n, 9, clubs=clubs, forbidden=5, max_losses=None, withdrawn=2,
                                      allow_rematches=False)
        assert len(history) == 9
        _same_standings(entrants, history)
    # the end of an elimination Swiss with rematches allowed: the avoided partners come last
    entrants, history, options = _event(4, 64, 12, clubs=0, forbidden=0, max_losses=3, withdrawn=0,
                                        allow_rematches=True)
    assert top_down(entrants, history, lengths=5, **options) == old_pair_round(entrants, history, lengths=5, **options)
