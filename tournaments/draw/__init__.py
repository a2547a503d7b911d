"""The draw: pairing and scoring of Crawford's events, in pure Python (no Django, no ORM, ever).

Everything here is decidable from values alone (STYLE.md §3.2.1, after lila's swiss module):
the services load rows, turn them into these values, ask, and write back what comes out.
Inputs and outputs are frozen dataclasses and tuples; randomness comes only from a seed passed
in; the same inputs always give the same draw. Wrong input raises :class:`DrawError` with a
stable ``code``; an event that cannot go on (no valid Swiss pairing) is a normal answer,
:class:`NoPairing`, saying why.

Vocabulary (RULES.md §7, §8):

entrant
    Whoever is drawn: a player, a consultation pair or a team, known only by an opaque hashable
    id (an int, a str...). The draw hashes and compares ids and never looks inside them.
seed, seeding
    An entrant's number in the seeding order (seed 1 is the favourite). A :class:`Seeding` is
    made by rating, by the organiser's list, or at random from a recorded *random seed*
    (published with the draw: the same entrants and random seed give the same order). A late
    entrant is added as the last seed.
bye
    An empty side (:data:`BYE`): the other side goes through without playing. In a bracket the
    byes fill it up to a power of two and go to the top seeds; in a Swiss a bye counts as a win.
flight
    One bracket of an elimination event: ``main``; ``consolation`` and ``last_chance`` fed by
    the losers of another flight; ``winners``, ``losers`` and ``final`` in double elimination.
    Each flight has its own match-length schedule.
round
    The matches of a flight, Swiss or group played side by side; in a bracket, round r's
    winners meet in round r + 1.
match, pairing
    Two entrants to play one match of a given length (:class:`Pairing`), under a stable id
    (``main-2-3``: flight, round, number) that results are reported against.
drop map
    Where the losers of a flight's rounds enter a fed flight: first-round losers only, or
    progressive (losers of rounds 1..k enter successive rounds); :func:`add_consolation`
    documents it and ``bracket.drop_map(flight)`` lists it.
decider
    The second grand final of a double elimination, played only if the undefeated player lost
    the first.
result, record
    A :class:`Result` is one decided (or undecided) contest; an entrant's record sums his
    results: wins (byes included), losses, draws (team matches only), opponents, points.
score group, float
    Swiss players with the same score; pairing is within a score group, and the odd one out
    *floats* down to the next group.
elimination Swiss
    A Swiss where a player is out at his k-th loss.
Buchholz, median-Buchholz
    Swiss tie-breaks: the sum of one's opponents' scores; the same without the best and the
    worst opponent.
head-to-head
    The tie-break of the games among the entrants still tied.
points difference
    Match points won minus lost (round robin); board points are the boards won (team tables).
placing
    A final place across flights (``5-8``: shared by four players).

Where things are: :mod:`.seeding`; :mod:`.elimination` (single elimination, seeding positions),
:mod:`.consolation` (fed flights, drop maps), :mod:`.double` (double elimination), and
:mod:`.bracket` (bracket values, :func:`advance`, placings); :mod:`.roundrobin` (circle method
or FIDE's Berger tables); :mod:`.swiss`
(with :mod:`.swiss_history`, its rounds as played and the records and standings they give,
:mod:`.swiss_fair`, its fairest pairing, :mod:`.matching`, the blossom matching it stands on, and
:mod:`.weighted`, the weighted blossom of its fairest pairing); :mod:`.abt` (the ABT-style modified Swiss: who can still cash
or win, the move to playoffs); :mod:`.standings` (tables and
tie-breaks) and :mod:`.teams` (team matches); :mod:`.lengths` (match-length schedules);
:mod:`.errors` (:class:`DrawError` and its codes).
"""

from .bracket import (
    Bracket,
    BracketMatch,
    BracketState,
    Drop,
    Flight,
    LoserOf,
    MatchState,
    Placing,
    Seeded,
    WinnerOf,
    advance,
    next_pairings,
)
from .consolation import add_consolation, drop_order
from .double import double_elimination
from .elimination import bracket_size, seed_positions, single_elimination
from .errors import CODES, DrawError
from .lengths import bracket_lengths, round_length
from .roundrobin import Group, RoundRobin, RoundRobinRound, round_robin, snake_groups
from .seeding import Seeding, add_late, checked_in, seed_by_list, seed_by_rating, seed_randomly
from .standings import ROUND_ROBIN, SWISS, TEAM, Record, Standing, records, standings
from .swiss import SwissOptions, pair_round
from .swiss_history import NoPairing, SwissPairing, SwissRound, swiss_records, swiss_standings
from .teams import team_match
from .values import BYE, DRAW, Pairing, Result

__all__ = [
    "BYE",
    "CODES",
    "DRAW",
    "ROUND_ROBIN",
    "SWISS",
    "TEAM",
    "Bracket",
    "BracketMatch",
    "BracketState",
    "DrawError",
    "Drop",
    "Flight",
    "Group",
    "LoserOf",
    "MatchState",
    "NoPairing",
    "Pairing",
    "Placing",
    "Record",
    "Result",
    "RoundRobin",
    "RoundRobinRound",
    "Seeded",
    "Seeding",
    "Standing",
    "SwissOptions",
    "SwissPairing",
    "SwissRound",
    "WinnerOf",
    "add_consolation",
    "add_late",
    "advance",
    "bracket_lengths",
    "bracket_size",
    "checked_in",
    "double_elimination",
    "drop_order",
    "next_pairings",
    "pair_round",
    "records",
    "round_length",
    "round_robin",
    "seed_by_list",
    "seed_by_rating",
    "seed_positions",
    "seed_randomly",
    "single_elimination",
    "snake_groups",
    "standings",
    "swiss_records",
    "swiss_standings",
    "team_match",
]
