"""GNU Backgammon's verdict on a recorded match: every checker play and cube decision, judged.

PURE: no Django. The engine replays the games (it owns the rules: legal plays, the cube, the
Crawford game); gnubg, through :mod:`analysis.gnubg_adapter` only, evaluates positions. Entry
points: :func:`analyse_match`, :func:`decisions_total`, and :class:`MatchAnalysis` with its JSON
form (:meth:`MatchAnalysis.to_json` / :meth:`MatchAnalysis.from_json`; (e) below).

Equities are gnubg's normalised cubeful equities (EMG: "equivalent to money game", +1.0 = winning
the current cube's value once), from the point of view of the side making the decision, at the
match score with the Crawford state (gnubg's match equity table converts them at match play).

How each verdict is computed (and where it departs from gnubg's own ``analyse match``):

(a) **Checker play.** ``find_best_moves`` at the chosen depth, cubeful, with the cube, score and
    Crawford state of the moment and gnubg's analysis settings (pruning nets, the analysis move
    filter MOVEFILTER_LARGE), lists every play best first, one per distinct resulting position.
    The played play is found in that list by its resulting position (the engine applies gnubg's
    move tuples). Loss = equity of the best - equity of the played; 0.0 exactly when the played
    play is the best, or as good. gnubg's move filters evaluate only the best plays at the full
    depth; as gnubg's analysis rescores the played move deeper, a played play the filters left
    at 0-ply is evaluated at the full depth: minus the opponent's cube-optimal equity, averaged
    over his 21 replies one ply shallower (gnubg's n-ply evaluation). The binding cuts a move
    tuple at its first checker borne off, so in a bear-off several entries may read alike
    (``(6,)`` for ``6/off 5/off`` and ``6/off 6/1``): those plays are ranked by that deeper
    evaluation and given gnubg's equities in that order. Forced plays (one resulting position)
    are listed, ``forced`` and loss 0.

(b) **Cube decisions.** The binding has no cube-hint call and ``evaluate`` returns cubeless
    equity only, so the cube equities are built the way gnubg's n-ply cube decision is (eval.c
    ``GeneralCubeDecisionE``): for each of the 21 rolls, the 0-ply best play evaluated one ply
    shallower, averaged over the 36 rolls, under two cube states: *no double* (the cube as it
    is) and *double/take* (twice the face, owned by the taker; at money play scaled by 2, at
    match play converted through the match winning chance with gnubg's MET). *Double/pass* is
    +1.0 by the normalisation (the doubler wins the cube's value). Optimal = max(no double,
    min(take, pass)). Departures: each cube state picks its own play per roll (gnubg shares one),
    and at 0-ply the cube decision is a 1-ply one (no static cubeful evaluation is exposed).
    The doubler's decision ("double" kind) is judged where the cube was available to him
    (centred or his, not the Crawford game, a cube cap not passed, and at match play only while
    his score plus the cube is short of the length: gnubg's ``GetDPEq``). As in gnubg's
    statistics, a *no double* is listed only when it was close (double within 0.16 of no
    double, gnubg's ``isCloseCubedecision``) or a missed double; every double, take and pass is
    listed. The taker's decision ("take" kind; a beaver counts as a take) is judged from his
    side: take = -(double/take), pass = -1.0.

(c) **Luck** (gnubg's ``LuckNormal``/``LuckFirst``, 0-ply cubeful): the best play's equity for
    the roll made minus its average over all 36 rolls; for a game's opening roll, the average
    over the 30 non-double rolls of either side (the other side's rolls counted with their sign
    turned). Every roll counts, unplayable ones included. A roll that cannot be played (a
    dance) is valued one ply deeper than gnubg's static evaluation (not exposed).

(d) **Figures.** Per side: ``equity_lost`` = the sum of losses (EMG); ``unforced`` = listed
    decisions with a real choice (plays with more than one resulting position, and every listed
    cube decision: gnubg's unforced moves + close cube decisions); error rate = 1000 x lost /
    unforced (millipoints per decision), PR = 500 x lost / unforced (the eXtreme Gammon and
    Galaxy convention, EMG). Marks use gnubg's default thresholds (gnubg.c ``arSkillLevel``):
    doubtful above 0.03, error above 0.06, blunder above 0.12 equity lost. The rating word is
    gnubg 1.08's table (analysis.c ``arThrsRating``) of the equity lost per unforced decision; the
    luck rating gnubg's ``getLuckRating`` of the luck per roll.

(e) **JSON** (stored, exported and served by the API): ``{"version", "plies", "engine",
    "sides": [SideStats, SideStats], "games": [{"number", "score": [s0, s1], "crawford",
    "sides": [SideStats, SideStats], "decisions": [Decision...]}]}``, with the fields of
    :class:`SideStats` (decisions, unforced, equity_lost, error_rate, pr, doubtful, errors,
    blunders, luck, rolls, rating, luck_rating) and :class:`Decision` (index: the action judged
    in the game's log; move, side, kind "play" | "double" | "take", dice, played, best,
    equity_played, equity_best, loss, mark "" | "doubtful" | "error" | "blunder", forced, luck,
    position_id, match_id), in log order.

Checked against gnubg's own ``analyse match`` of ``gnubg_3pt_test_match01.mat`` (run through
``gnubg.command``; tests/analysis/test_against_gnubg.py): at 0-ply and 2-ply every checker-play
loss agrees to the 3 decimals gnubg prints, the unforced and close-cube counts agree, and at
2-ply each side's total equity lost agrees within 0.01 (the cube approximations of (b)).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import NamedTuple

from engine.actions import Action, Beaver, Double, Drop, Move, Roll, Take
from engine.board import BAR, OFF, Position
from engine.errors import CubeError
from engine.game import DOUBLED, OPENING, TO_ROLL, GameReplay, GameRules, check_double
from engine.ids import MatchId, match_id, position_id
from engine.match import MatchGame, MatchRules, Penalty, PenaltyAt, replay_match
from engine.moves import Play, legal_plays

from . import gnubg_adapter as adapter
from .gnubg_adapter import AnalysisUnavailable, Cube

VERSION = 1

# gnubg's default analysis thresholds (gnubg.c arSkillLevel = {0.12 very bad, 0.06 bad, 0.03
# doubtful}, as in GNU Backgammon 1.07+ and the installed build; 0.04/0.08/0.16 were older defaults).
DOUBTFUL, ERROR, BLUNDER = 0.03, 0.06, 0.12
# A no-double is a "close" cube decision when doubling is within this much of not doubling
# (gnubg's isCloseCubedecision); it reproduces gnubg's count of close cube decisions.
CLOSE = 0.16
# gnubg 1.08 analysis.c arThrsRating: a rating i is given while the error per decision is below
# RATING_THRESHOLDS[i], the highest such i winning.
RATING_THRESHOLDS = (1e38, 0.035, 0.026, 0.018, 0.012, 0.008, 0.005, 0.002)
RATING_WORDS = ("Awful!", "Beginner", "Casual player", "Intermediate", "Advanced", "Expert", "World class",
                "Supernatural")
# gnubg's getLuckRating: Luck(10 x luck per roll) against arLuckLevel (0.6 very, 0.3 plain).
LUCK_WORDS = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")
_LUCK_VERY, _LUCK_PLAIN = 0.6, 0.3

ProgressCallback = Callable[[int, int], None]


# --- the result --------------------------------------------------------------------------------


@dataclass
class Decision:
    """One judged decision (each field: the module docstring, (a) to (e))."""

    index: int
    move: int
    side: int
    kind: str
    dice: list[int] | None
    played: str
    best: str
    equity_played: float
    equity_best: float
    loss: float
    mark: str
    forced: bool
    luck: float | None
    position_id: str
    match_id: str


@dataclass
class SideStats:
    """One side's figures over a game or the whole match (the module docstring, (d) and (e)).

    ``rolls`` counts the rolls whose luck is summed in
    ``luck``. With no unforced decision the rates are 0.0 and ``rating`` is that of no error
    (7, Supernatural): a page should show no rating then."""

    decisions: int = 0
    unforced: int = 0
    equity_lost: float = 0.0
    error_rate: float = 0.0
    pr: float = 0.0
    doubtful: int = 0
    errors: int = 0
    blunders: int = 0
    luck: float = 0.0
    rating: int = 0
    luck_rating: int = 2
    rolls: int = 0

    def add(self, other: SideStats) -> None:
        for name in ("decisions", "unforced", "equity_lost", "doubtful", "errors", "blunders", "luck", "rolls"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def count(self, decision: Decision) -> None:
        self.decisions += 1
        self.unforced += 0 if decision.forced else 1
        self.equity_lost += decision.loss
        if decision.mark == "doubtful":
            self.doubtful += 1
        elif decision.mark == "error":
            self.errors += 1
        elif decision.mark == "blunder":
            self.blunders += 1

    def finish(self) -> SideStats:
        """Fill the derived figures (rates, ratings) from the sums; returns self."""
        per = self.equity_lost / self.unforced if self.unforced else 0.0
        self.error_rate = 1000.0 * per
        self.pr = 500.0 * per
        self.rating = rating(per)
        self.luck_rating = luck_rating(self.luck / self.rolls if self.rolls else 0.0)
        return self


@dataclass
class GameAnalysis:
    number: int
    score: list[int]
    crawford: bool
    sides: list[SideStats]
    decisions: list[Decision]


@dataclass
class MatchAnalysis:
    """The analysis of a whole match (or money session); JSON: the module docstring, (e)."""

    plies: int
    engine: str
    sides: list[SideStats]
    games: list[GameAnalysis]
    version: int = VERSION

    def to_json(self) -> dict:
        """The JSON-ready dict (plain lists, ints, floats, strings); changes nothing."""
        return {
            "version": self.version, "plies": self.plies, "engine": self.engine,
            "sides": [asdict(side) for side in self.sides],
            "games": [
                {"number": game.number, "score": list(game.score), "crawford": game.crawford,
                 "sides": [asdict(side) for side in game.sides],
                 "decisions": [asdict(decision) for decision in game.decisions]}
                for game in self.games
            ],
        }

    @classmethod
    def from_json(cls, data: dict) -> MatchAnalysis:
        """Rebuild from :meth:`to_json`'s dict; raises KeyError/TypeError on a malformed one."""

        def side(item: dict) -> SideStats:
            known = {name: item[name] for name in SideStats.__dataclass_fields__ if name in item}
            return SideStats(**known)

        return cls(
            plies=data["plies"], engine=data["engine"], version=data.get("version", VERSION),
            sides=[side(item) for item in data["sides"]],
            games=[
                GameAnalysis(number=game["number"], score=list(game["score"]), crawford=game["crawford"],
                             sides=[side(item) for item in game["sides"]],
                             decisions=[Decision(**item) for item in game["decisions"]])
                for game in data["games"]
            ],
        )


def rating(error_per_decision: float) -> int:
    """gnubg 1.08's rating (index into :data:`RATING_WORDS`) of an error per decision.

    Computed here rather than by ``gnubg.error_rating``: the PyPI binding's build uses its own
    six-level table (Beginner .. Super Grandmaster), not GNU Backgammon 1.08's eight levels.
    """
    for level in range(len(RATING_THRESHOLDS) - 1, -1, -1):
        if error_per_decision < RATING_THRESHOLDS[level]:
            return level
    return 0


def luck_rating(luck_per_roll: float) -> int:
    """gnubg's ``getLuckRating`` (index into :data:`LUCK_WORDS`) of a luck per roll (EMG)."""
    scaled = 10.0 * luck_per_roll
    if scaled > _LUCK_VERY:
        return 4
    if scaled > _LUCK_PLAIN:
        return 3
    if scaled < -_LUCK_VERY:
        return 0
    if scaled < -_LUCK_PLAIN:
        return 1
    return 2


def mark(loss: float) -> str:
    """gnubg's skill mark for an equity loss (strictly above each threshold)."""
    if loss > BLUNDER:
        return "blunder"
    if loss > ERROR:
        return "error"
    if loss > DOUBTFUL:
        return "doubtful"
    return ""


# --- what gets examined ------------------------------------------------------------------------


class _Step(NamedTuple):
    """One decision to examine: the action's index, its kind and the side deciding."""

    index: int
    kind: str  # "play", "cube" (the roller's no-double / double), "take"
    side: int


def _cube_available(game: MatchGame, rules: MatchRules, game_rules: GameRules, cube: int, owner: int | None,
                    side: int) -> bool:
    """May ``side`` (on roll, before rolling) double, and does doubling mean anything (GetDPEq)?"""
    try:
        check_double(game_rules, cube, owner, side, on_roll=side)
    except CubeError:
        return False
    # At match play a side whose score plus the cube already reaches the length gains nothing.
    return rules.is_money or game.score[side] + cube < rules.length


def _steps(game: MatchGame, rules: MatchRules) -> Iterator[_Step]:
    """Every decision of ``game`` that the analysis examines, in log order (no gnubg needed)."""
    replay = game.replay
    game_rules = rules.game_rules(crawford_game=game.crawford)
    for index, action in enumerate(replay.actions):
        frame = replay.frames[index]
        if isinstance(action, Move):
            if replay.plays[index] is not None:  # an illegal play that stood is not judged
                yield _Step(index, "play", action.side)
        elif isinstance(action, (Roll, Double)) and frame.phase == TO_ROLL:
            if isinstance(action, Double) or _cube_available(game, rules, game_rules, frame.cube, frame.owner,
                                                             action.side):
                yield _Step(index, "cube", action.side)
        elif isinstance(action, (Take, Drop, Beaver)) and frame.phase == DOUBLED:
            yield _Step(index, "take", action.side)


def decisions_total(rules: MatchRules, games: list[list[Action]], *, start: tuple[int, int] = (0, 0),
                    penalties: Sequence[Penalty | PenaltyAt] = ()) -> int:
    """How many decisions :func:`analyse_match` examines (the ``total`` of its progress calls).

    Replays the match with the engine only (no gnubg). Counts every legal checker play, every turn
    on which the cube was available to the side on roll (doubled or not), and every answer to a
    double; the analysis lists fewer (a no-double that was not close is examined, not listed).
    Raises the engine's errors (GameLogError, MatchError) for a log that breaks the rules.
    """
    replay = replay_match(rules, games, start=start, penalties=penalties)
    return sum(1 for game in replay.games for _ in _steps(game, rules))


# --- gnubg, position by position ----------------------------------------------------------------


def _key(position: Position, side: int) -> tuple:
    """A resulting position as (mover's board, opponent's board), ``side`` the mover."""
    return position.boards[side], position.boards[1 - side]


def _hop(me: list, opp: list, start: int, end: int) -> None:
    me[start] -= 1
    me[end] += 1
    if end > 0 and opp[25 - end] == 1:
        opp[25 - end] = 0
        opp[BAR] += 1


def _continuations(me: list, opp: list, dice: list[int]) -> set:
    """Every position reachable by playing some of ``dice`` (any order), as keys."""
    found = {(tuple(me), tuple(opp))}
    for die in set(dice):
        rest = list(dice)
        rest.remove(die)
        for start in ((BAR,) if me[BAR] else range(24, 0, -1)):
            if not me[start]:
                continue
            end = start - die
            if end > 0 and opp[25 - end] > 1:
                continue
            if end <= 0 and (any(me[7:26]) or (end < 0 and any(me[start + 1:7]))):
                continue
            mine, theirs = list(me), list(opp)
            _hop(mine, theirs, start, max(end, 0))
            found |= _continuations(mine, theirs, rest)
    return found


def _entry_keys(position: Position, dice: tuple[int, int], move: tuple[int, ...]) -> tuple[bool, set]:
    """(complete, candidate keys) of one gnubg move tuple played from ``position``."""
    flat = list(move)
    cut = len(flat) % 2 == 1
    if cut:
        flat.append(OFF)
    me, opp = list(position.mover), list(position.opponent)
    used = []
    for start, end in zip(flat[::2], flat[1::2], strict=True):
        _hop(me, opp, start, end)
        used.append(start - end)
    if not cut:
        return True, {(tuple(me), tuple(opp))}
    all_dice = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    candidates: set = set()
    # The die that bore the last checker off may be larger than its distance: try each reading.
    for die in set(all_dice):
        rest = list(all_dice)
        if all(d in rest and (rest.remove(d) or True) for d in [*used[:-1], die]) and die >= used[-1]:
            candidates |= _continuations(me, opp, rest)
    return False, candidates


def _match_entries(position: Position, dice: tuple[int, int], entries, legal: set) -> tuple[list, bool]:
    """The key of each gnubg entry (None where unknown) and whether every key is certain."""
    keys: list = [None] * len(entries)
    open_sets: dict[int, set] = {}
    for i, (move, _) in enumerate(entries):
        complete, candidates = _entry_keys(position, dice, move)
        if complete:
            keys[i] = next(iter(candidates))
        else:
            open_sets[i] = candidates & legal
    taken = {key for key in keys if key is not None}
    certain = True
    changed = True
    while open_sets and changed:
        changed = False
        for i, candidates in list(open_sets.items()):
            left = candidates - taken
            if len(left) == 1:
                keys[i] = next(iter(left))
                taken.add(keys[i])
                del open_sets[i]
                changed = True
    if open_sets:
        certain = False
    return keys, certain


def _cube_of(rules: MatchRules, game: MatchGame, cube: int, owner: int | None, on_roll: int) -> Cube:
    # The Jacoby rule matters only while the cube has not been turned (RULES.md §5).
    return Cube(cube, owner, on_roll, rules.length, tuple(game.score) if not rules.is_money else (0, 0),
                game.crawford, jacoby=rules.jacoby and cube == 1, beavers=rules.beavers)


_ROLLS = tuple((d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1))


def _can_double(cube: Cube, cap: int | None) -> bool:
    """May the side on roll double, and does it mean anything (gnubg's ``GetDPEq``)?

    Not in the Crawford game, not when the opponent owns the cube, not past a cube cap; at match
    play not when the side's score plus the cube already reaches the length (nothing to gain)."""
    if cube.crawford or (cube.owner is not None and cube.owner != cube.on_roll):
        return False
    if cap is not None and cube.value * 2 > cap:
        return False
    return not cube.length or cube.score[cube.on_roll] + cube.value < cube.length


def _opponent_view(equity: float, mine: Cube, theirs: Cube) -> float:
    """An equity of the side on roll of ``theirs`` seen by the other side (EMG of ``mine``)."""
    if mine.length:
        return adapter.mwc2eq(1.0 - adapter.eq2mwc(equity, theirs), mine)
    return -equity * theirs.value / mine.value


class _Evaluator:
    """The evaluations of one analysis, at ``plies``, with small caches per position."""

    def __init__(self, plies: int, cap: int | None = None):
        self.plies = plies
        self.cap = cap
        self._luck: dict = {}
        self._after: dict = {}
        self._stuck: dict = {}

    def _best(self, board, cube: Cube, dice: tuple[int, int], plies: int, *, best_only: bool, stuck: int = 1
              ) -> float:
        """The best play's equity for ``dice``; for a roll that cannot be played, the equity of
        the same board with the opponent on roll (gnubg evaluates it so)."""
        entries = adapter.best_moves(board, cube, dice, plies, best_only=best_only)
        if entries:
            return entries[0][1]
        if stuck <= 0:
            # Both sides stuck in turn (closed out): the cubeless equity is the last word.
            return adapter.cubeless_equity(board, cube)
        key = (board, cube, plies, stuck)
        if key not in self._stuck:  # every dancing roll of a position has the same value
            theirs = cube.turned()
            swapped = (board[1], board[0])
            their_equity = self.optimal(swapped, theirs, plies, stuck=stuck - 1)
            self._stuck[key] = _opponent_view(their_equity, cube, theirs)
        return self._stuck[key]

    # -- cube -----------------------------------------------------------------------------

    def _average_best(self, board, cube: Cube, plies: int, stuck: int = 1) -> float:
        total = 0.0
        for d1, d2 in _ROLLS:
            total += (1 if d1 == d2 else 2) * self._best(board, cube, (d1, d2), plies, best_only=True, stuck=stuck)
        return total / 36.0

    def cube_equities(self, board, cube: Cube, available: bool, depth: int | None = None, stuck: int = 1
                      ) -> tuple[float, float, float]:
        """(no double, double/take, double/drop) for the side on roll, EMG of ``cube``, each the
        average over the 36 rolls of the best play at ``depth`` (by default one ply less than the
        analysis, at least 0). Without a cube available, all three are the no-double equity."""
        if depth is None:
            depth = max(self.plies, 1) - 1
        no_double = self._average_best(board, cube, depth, stuck)
        if not available:
            return no_double, no_double, no_double
        doubled = cube.doubled()
        take = self._average_best(board, doubled, depth, stuck)
        if cube.length:
            take = adapter.mwc2eq(adapter.eq2mwc(take, doubled), cube)
        else:
            take *= 2.0
        return no_double, take, 1.0

    def optimal(self, board, cube: Cube, depth: int, stuck: int = 1) -> float:
        """The side on roll's cubeful equity before rolling, its own cube action taken optimally."""
        no_double, take, drop = self.cube_equities(board, cube, _can_double(cube, self.cap), depth, stuck)
        return max(no_double, min(take, drop))

    def after_play(self, position: Position, cube: Cube) -> float:
        """Cubeful equity, for the side that just played, of ``position`` (opponent on roll) at
        the analysis depth (at least 1 ply: no static cubeful evaluation is exposed): minus the
        opponent's optimal equity, his cube action included, as gnubg's n-ply evaluation."""
        key = (position, cube)
        if key not in self._after:
            theirs = cube.turned()
            their_equity = self.optimal(position.to_gnubg(), theirs, max(self.plies, 1) - 1)
            self._after[key] = _opponent_view(their_equity, cube, theirs)
        return self._after[key]

    # -- luck -----------------------------------------------------------------------------

    def luck(self, position: Position, cube: Cube, dice: tuple[int, int], first: bool) -> float:
        """gnubg's luck of ``dice`` for the side on roll of ``position`` (0-ply cubeful)."""
        board = position.to_gnubg()
        key = (board, cube, first)
        table = self._luck.get(key)
        if table is None:
            table = {}
            if first:
                # LuckFirst: the 15 non-doubles of the side on roll, the 15 of the other side
                # (the starting position looks the same from both sides).
                other = cube.turned()
                total = 0.0
                for d1, d2 in _ROLLS:
                    if d1 == d2:
                        continue
                    mine = self._best(board, cube, (d1, d2), 0, best_only=False)
                    theirs = -self._best(board, other, (d1, d2), 0, best_only=False)
                    table[(d1, d2)] = mine
                    total += mine + theirs
                table["mean"] = total / 30.0
            else:
                total = 0.0
                for d1, d2 in _ROLLS:
                    table[(d1, d2)] = self._best(board, cube, (d1, d2), 0, best_only=False)
                    total += (1 if d1 == d2 else 2) * table[(d1, d2)]
                table["mean"] = total / 36.0
            self._luck[key] = table
        roll = (max(dice), min(dice))
        return table[roll] - table["mean"]

    # -- checker play ---------------------------------------------------------------------

    def _identify(self, position: Position, dice: tuple[int, int], entries, plays: dict, cube: Cube) -> list:
        """The resulting position (key) of each of gnubg's entries.

        Complete move tuples are applied; a tuple cut at its first bear-off is matched to the
        legal plays it can stand for. Where several cut tuples could be several plays (a
        bear-off: ``6/off 5/off`` and ``6/off 6/1`` both read ``(6,)``), the plays are ranked by
        their own evaluation (:meth:`after_play`) and given gnubg's equities in that order.
        """
        keys, _ = _match_entries(position, dice, entries, set(plays))
        missing = [i for i, key in enumerate(keys) if key is None]
        if missing:
            free = set(plays) - {key for key in keys if key is not None}
            value = {key: self.after_play(plays[key].position, cube) for key in free}
            for i in sorted(missing, key=lambda i: -entries[i][1]):
                _, candidates = _entry_keys(position, dice, entries[i][0])
                options = (candidates & free) or free
                if options:
                    keys[i] = max(options, key=value.__getitem__)
                    free.discard(keys[i])
        return keys

    def play(self, position: Position, dice: tuple[int, int], cube: Cube, played: Play
             ) -> tuple[Play, float, float, bool]:
        """(best play, its equity, the played play's equity, forced) for one checker play."""
        side = position.turn
        plays = {_key(play.position, side): play for play in legal_plays(position, dice)}
        played_key = _key(played.position, side)
        forced = len(plays) <= 1
        board = position.to_gnubg()
        entries = adapter.best_moves(board, cube, dice, self.plies)
        if not entries:  # gnubg finds no play where the engine does: should not happen
            equity = self.after_play(played.position, cube)
            return played, equity, equity, forced
        keys = self._identify(position, dice, entries, plays, cube)
        scores = {key: score for key, (_, score) in zip(keys, entries, strict=True) if key is not None}
        best_key = keys[0] if keys[0] is not None else played_key
        if forced:
            equity = scores.get(played_key, entries[0][1])
            return played, equity, equity, True
        played_equity = scores.get(played_key)
        if self.plies and played_key != best_key:
            shallow = adapter.best_moves(board, cube, dice, 0)
            shallow_keys = self._identify(position, dice, shallow, plays, cube)
            shallow_scores = {key: score for key, (_, score) in zip(shallow_keys, shallow, strict=True)}
            if played_equity is None or shallow_scores.get(played_key) == played_equity:
                # The move filters left the played play at 0-ply: evaluate it at the full depth.
                played_equity = self.after_play(played.position, cube)
        if played_equity is None:
            played_equity = self.after_play(played.position, cube)
        return plays.get(best_key, played), scores.get(best_key, played_equity), played_equity, False


# --- the analysis --------------------------------------------------------------------------------


def _ids(frame_position: Position, cube: Cube, rules: MatchRules, side: int, *, dice=(0, 0),
         doubled: bool = False) -> tuple[str, str]:
    mid = MatchId(cube_value=cube.value, cube_owner=cube.owner, turn=frame_position.turn, crawford=cube.crawford,
                  to_act=(1 - side) if doubled else side, double_offered=doubled, dice=tuple(dice),
                  match_length=rules.length, score=cube.score, jacoby=rules.jacoby)
    return position_id(frame_position), match_id(mid)


def _analyse_game(game: MatchGame, rules: MatchRules, evaluator: _Evaluator, on_step: Callable[[], None]
                  ) -> GameAnalysis:
    replay: GameReplay = game.replay
    sides = [SideStats(), SideStats()]
    decisions: list[Decision] = []
    steps = {step.index: step for step in _steps(game, rules)}
    roll_luck: dict[int, float] = {}  # side -> luck of its last roll
    pending_cube: tuple | None = None  # the double's equities, for the answer that follows

    for index, action in enumerate(replay.actions):
        frame = replay.frames[index]
        if isinstance(action, Roll):
            side = action.side
            position = frame.position.with_turn(side)
            cube = _cube_of(rules, game, frame.cube, frame.owner, side)
            first = frame.phase == OPENING and position.boards == Position.start(side).boards
            luck = evaluator.luck(position, cube, action.dice, first)
            roll_luck[side] = luck
            sides[side].luck += luck
            sides[side].rolls += 1
        step = steps.get(index)
        if step is None:
            continue
        side = step.side
        if step.kind == "play":
            position = frame.position
            cube = _cube_of(rules, game, frame.cube, frame.owner, side)
            played = replay.plays[index]
            best, equity_best, equity_played, forced = evaluator.play(position, frame.dice, cube, played)
            # A play as good as gnubg's first (an equal equity, or a deeper evaluation that
            # found it better) is a best play: it loses nothing and is named as the best.
            same = forced or _key(best.position, side) == _key(played.position, side)
            if same or equity_played >= equity_best:
                best, equity_played, equity_best = played, max(equity_played, equity_best), max(equity_played,
                                                                                                equity_best)
            loss = max(equity_best - equity_played, 0.0)
            pid, mid = _ids(position, cube, rules, side, dice=frame.dice)
            decision = Decision(index, frame.move, side, "play", list(frame.dice), played.notation,
                                best.notation, equity_played, equity_best, loss, mark(loss), forced,
                                roll_luck.get(side), pid, mid)
        elif step.kind == "cube":
            position = frame.position.with_turn(side)
            cube = _cube_of(rules, game, frame.cube, frame.owner, side)
            no_double, take, drop = evaluator.cube_equities(position.to_gnubg(), cube, True)
            doubled = isinstance(action, Double)
            pending_cube = (position, cube, no_double, take, drop)
            double_equity = min(take, drop)
            best_word = "double" if double_equity > no_double else "no double"
            played_word = "double" if doubled else "no double"
            optimal = max(no_double, double_equity)
            equity_played = double_equity if doubled else no_double
            loss = 0.0 if best_word == played_word else max(optimal - equity_played, 0.0)
            close = double_equity > no_double - CLOSE
            on_step()
            if not doubled and not close and loss == 0.0:
                continue  # gnubg lists only close no-doubles and missed doubles
            pid, mid = _ids(position, cube, rules, side)
            decision = Decision(index, frame.move, side, "double", None, played_word, best_word,
                                optimal if loss == 0.0 else equity_played, optimal, loss, mark(loss), False, None,
                                pid, mid)
            decisions.append(decision)
            sides[side].count(decision)
            continue
        else:  # "take": the answer to the double judged just before
            if pending_cube is None:
                on_step()
                continue
            position, cube, no_double, take, drop = pending_cube
            take_equity, drop_equity = -take, -drop
            best_word = "take" if take_equity >= drop_equity else "drop"
            played_word = "drop" if isinstance(action, Drop) else "take"
            best_equity = max(take_equity, drop_equity)
            equity_played = take_equity if played_word == "take" else drop_equity
            loss = 0.0 if best_word == played_word else max(best_equity - equity_played, 0.0)
            pid, mid = _ids(position, cube, rules, position.turn, doubled=True)
            decision = Decision(index, frame.move, side, "take", None, played_word, best_word,
                                best_equity if loss == 0.0 else equity_played, best_equity, loss, mark(loss),
                                False, None, pid, mid)
        decisions.append(decision)
        sides[side].count(decision)
        on_step()
    for stats in sides:
        stats.finish()
    return GameAnalysis(game.number, list(game.score), game.crawford, sides, decisions)


def analyse_match(rules: MatchRules, games: list[list[Action]], *, start: tuple[int, int] = (0, 0),
                  penalties: Sequence[Penalty | PenaltyAt] = (), plies: int = 2,
                  progress: ProgressCallback | None = None) -> MatchAnalysis:
    """Analyse every game of a match with GNU Backgammon at ``plies`` (0 fast .. 2 default).

    Changes nothing; returns a :class:`MatchAnalysis`. ``rules``, ``games``, ``start`` and
    ``penalties`` are those of :func:`engine.match.replay_match`. ``progress(done, total)`` is
    called after each examined decision, ``total`` being :func:`decisions_total`, the last call
    (total, total) (once with (0, 0) for a match without decisions).

    Raises :class:`AnalysisUnavailable` when gnubg is not installed, or when called off the
    process's main thread (where gnubg would crash the process); the engine's errors
    (GameLogError, MatchError) propagate unchanged; ValueError for ``plies`` outside 0..3.
    """
    if not 0 <= plies <= 3:
        raise ValueError(f"plies must be 0 to 3, not {plies!r}")
    if not adapter.available():
        raise AnalysisUnavailable("GNU Backgammon is not installed: matches cannot be analysed here")
    replay = replay_match(rules, games, start=start, penalties=penalties)
    total = sum(1 for game in replay.games for _ in _steps(game, rules))
    done = 0

    def on_step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    evaluator = _Evaluator(plies, rules.cube_cap)
    analysed = [_analyse_game(game, rules, evaluator, on_step) for game in replay.games]
    if progress is not None and total == 0:
        progress(0, 0)
    sides = [SideStats(), SideStats()]
    for game in analysed:
        for side in (0, 1):
            sides[side].add(game.sides[side])
    for stats in sides:
        stats.finish()
    return MatchAnalysis(plies=plies, engine=adapter.engine_name(), sides=sides, games=analysed)


__all__ = [
    "BLUNDER",
    "DOUBTFUL",
    "ERROR",
    "LUCK_WORDS",
    "RATING_WORDS",
    "AnalysisUnavailable",
    "Decision",
    "GameAnalysis",
    "MatchAnalysis",
    "SideStats",
    "analyse_match",
    "decisions_total",
    "luck_rating",
    "mark",
    "rating",
]
