"""GNU Backgammon's verdict on a recorded match: every checker play and cube decision, judged.

PURE: no Django. The engine replays the games (it owns the rules: legal plays, the cube, the
Crawford game, every position); gnubg, through :mod:`analysis.gnubg_adapter` only, runs its own
analysis (``analyse game``, each game from an empty evaluation cache) on the match the engine
writes as .mat, and :mod:`analysis.gnubg_sgf` reads back what gnubg saved. Entry points:
:func:`analyse_match`, :func:`decisions_total`, and :class:`MatchAnalysis` with its JSON form
(:meth:`MatchAnalysis.to_json` / :meth:`MatchAnalysis.from_json`; (e) below).

Every figure is gnubg's: its cubeful equities at the depth asked (EMG, "equivalent to money
game": +1.0 = winning the cube's value once), its ranking of the plays with its own move
filters, its cube figures, its luck. What this module adds is the engine's word on each of them:

(a) **The same game, decision by decision.** gnubg's records are walked beside the engine's
    actions: each roll is one of gnubg's turns (same side, same dice), and gnubg's play applied
    to the engine's position must give the engine's next position; each double, take and pass
    is gnubg's. Anything else raises :class:`AnalysisMismatch`: a verdict is never shown on
    a position the engine does not hold.

(b) **Checker play.** gnubg's ranked plays (best first, full plays: a bear-off names every
    checker) give the best play and the played one, each named in the engine's notation; loss =
    equity of the best - equity of the played (gnubg's ``rChequerSkill``), marked with gnubg's
    thresholds (gnubg.c ``arSkillLevel``: doubtful above 0.03, bad above 0.06, very bad above
    0.12). A play with one legal result is forced.

(c) **Cube decisions** (eval.c ``FindCubeDecision``): gnubg's no-double and double/take figures
    (match winning chances at match play, turned into EMG with gnubg's match equity table),
    double/pass +1.0; optimal = double/take or double/pass, whichever is lower, when both beat
    no double and the cube may be turned (``GetDPEq``), else no double. A no-double is listed
    when it was close (doubling within 0.16 of optimal: ``isCloseCubedecision``); every double,
    take and pass is. The taker's decision is seen from his side: take = -(double/take), pass =
    -1.0.

(d) **Figures** (analysis.c ``updateStatcontext``, ``getMWCFromError``): per side, the checker
    error over unforced plays (more than one legal result, dances and forced plays excluded),
    the cube error over the close or actual cube decisions (missed doubles, wrong doubles, wrong
    takes, wrong passes), ``equity_lost`` their sum; error rate = 1000 x lost / (unforced plays
    + close cube decisions), PR = half of it (the eXtreme Gammon and Galaxy convention); the
    rating word is the shipped gnubg's (``gnubg.error_rating``: Beginner .. Super Grandmaster)
    of the lost per decision; luck the sum of gnubg's luck per roll, its word gnubg's
    ``getLuckRating`` of luck per turn (10 x luck / turns against 0.6 and 0.3).

(e) **JSON** (stored, exported and served by the API): ``{"version", "plies", "engine",
    "settings", "sides": [SideStats, SideStats], "games": [{"number", "score": [s0, s1],
    "crawford", "sides": [SideStats, SideStats], "decisions": [Decision...]}]}``, with the fields
    of :class:`SideStats` and :class:`Decision` (index: the action judged in the game's log;
    move, side, kind "play" | "double" | "take", dice, played, best, equity_played,
    equity_best, loss, mark "" | "doubtful" | "error" | "blunder", forced, luck, position_id,
    match_id), in log order. ``settings`` says how gnubg evaluated: the depth by gnubg's name,
    pruning, cubeful, noise, as gnubg reported them.

Checked against gnubg's own ``analyse match`` of every real file (tests/analysis/
test_against_gnubg.py): per side, the PR within 0.01 and the counts equal; per decision, the
played and best plays and the loss within 0.001 of gnubg's own export.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import NamedTuple

from engine.actions import Action, Beaver, Double, Drop, Move, Resign, Roll, Take
from engine.board import BAR, Position
from engine.errors import CubeError, MatchError
from engine.formats.mat_check import MatGameCheck, match_from_actions
from engine.formats.mat_write import write_mat
from engine.game import DOUBLED, TO_ROLL, GameRules, check_double
from engine.ids import MatchId, match_id, position_id
from engine.match import MatchGame, MatchRules, Penalty, PenaltyAt, replay_match
from engine.notation import format_steps

from . import gnubg_adapter as adapter
from . import gnubg_sgf
from .gnubg_adapter import AnalysisUnavailable, Cube

VERSION = 2

# gnubg's default analysis thresholds (gnubg.c arSkillLevel: 0.12 very bad, 0.06 bad, 0.03
# doubtful), strictly above each.
DOUBTFUL, ERROR, BLUNDER = 0.03, 0.06, 0.12
# A no-double is a "close" cube decision when doubling is within this much of the optimal
# (eval.c isCloseCubedecision).
CLOSE = 0.16
# The shipped gnubg's rating (``gnubg.error_rating``) of the equity lost per decision: rating i
# while the error is below RATING_THRESHOLDS[i], the highest such i winning.
RATING_THRESHOLDS = (1e38, 0.032, 0.020, 0.013, 0.008, 0.005)
RATING_WORDS = ("Beginner", "Intermediate", "Advanced", "Master", "Grandmaster", "Super Grandmaster")
# gnubg's getLuckRating: Luck(10 x luck per turn) against arLuckLevel (0.6 very, 0.3 plain); a
# roll's own luck word is Luck(luck) against the same levels.
LUCK_WORDS = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")
_LUCK_VERY, _LUCK_PLAIN = 0.6, 0.3

ProgressCallback = Callable[[int, int], None]


class AnalysisMismatch(AnalysisUnavailable):
    """gnubg read a game of the match differently from the engine (module docstring, (a))."""

    code = "analysis_mismatch"


class AnalysisNotWritable(AnalysisUnavailable):
    """The match holds what a .mat file cannot (a game from a set-up, a condoned play), so gnubg
    cannot be given it."""

    code = "analysis_unwritable"


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
    """One side's figures over a game or the whole match, as gnubg's statistics count them.

    ``plays`` counts the side's turns (dances included: gnubg's total moves, over which the
    luck word is taken); ``unforced_plays`` the plays with a choice; ``cube_decisions`` the
    close or actual cube decisions; ``unforced`` both (the decisions PR divides by);
    ``doubtful``, ``errors`` and ``blunders`` the checker plays gnubg marks doubtful, bad and very
    bad; ``checker_lost``, ``cube_lost`` and ``equity_lost`` the errors (EMG); ``luck`` and
    ``rolls`` the luck summed over the rolls gnubg rated. With no unforced decision the rates are
    0.0 and ``rating`` is that of no error (Super Grandmaster): a page should show no rating then.
    """

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
    plays: int = 0
    unforced_plays: int = 0
    cube_decisions: int = 0
    checker_lost: float = 0.0
    cube_lost: float = 0.0

    _SUMMED = ("decisions", "unforced", "equity_lost", "doubtful", "errors", "blunders", "luck", "rolls", "plays",
               "unforced_plays", "cube_decisions", "checker_lost", "cube_lost")

    def add(self, other: SideStats) -> None:
        for name in self._SUMMED:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def finish(self) -> SideStats:
        """Fill the derived figures (rates, ratings) from the sums; returns self."""
        self.unforced = self.unforced_plays + self.cube_decisions
        self.equity_lost = self.checker_lost + self.cube_lost
        per = self.equity_lost / self.unforced if self.unforced else 0.0
        self.error_rate = 1000.0 * per
        self.pr = 500.0 * per
        self.rating = rating(per)
        self.luck_rating = luck_rating(self.luck / self.plays if self.plays else 0.0)
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
    settings: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """The JSON-ready dict (plain lists, ints, floats, strings); changes nothing."""
        return {
            "version": self.version, "plies": self.plies, "engine": self.engine, "settings": dict(self.settings),
            "sides": [_side_json(side) for side in self.sides],
            "games": [
                {"number": game.number, "score": list(game.score), "crawford": game.crawford,
                 "sides": [_side_json(side) for side in game.sides],
                 "decisions": [asdict(decision) for decision in game.decisions]}
                for game in self.games
            ],
        }

    @classmethod
    def from_json(cls, data: dict) -> MatchAnalysis:
        """Rebuild from :meth:`to_json`'s dict; raises KeyError/TypeError on a malformed one.

        An analysis stored before gnubg's own figures were read (version 1) keeps its figures;
        its rating is given again on the shipped gnubg's scale, from its own error rate."""
        version = data.get("version", VERSION)

        def side(item: dict) -> SideStats:
            known = {name: item[name] for name in SideStats.__dataclass_fields__ if name in item}
            stats = SideStats(**known)
            if version < 2:
                stats.rating = rating(stats.error_rate / 1000.0)
            return stats

        return cls(
            plies=data["plies"], engine=data["engine"], version=version, settings=dict(data.get("settings") or {}),
            sides=[side(item) for item in data["sides"]],
            games=[
                GameAnalysis(number=game["number"], score=list(game["score"]), crawford=game["crawford"],
                             sides=[side(item) for item in game["sides"]],
                             decisions=[Decision(**item) for item in game["decisions"]])
                for game in data["games"]
            ],
        )


def _side_json(side: SideStats) -> dict:
    return asdict(side)


def rating(error_per_decision: float) -> int:
    """The shipped gnubg's rating (index into :data:`RATING_WORDS`) of an error per decision
    (``gnubg.error_rating``; a test holds the two equal)."""
    for level in range(len(RATING_THRESHOLDS) - 1, -1, -1):
        if error_per_decision < RATING_THRESHOLDS[level]:
            return level
    return 0


def luck_word(luck: float) -> int:
    """gnubg's ``Luck`` (index into :data:`LUCK_WORDS`) of a luck figure (EMG)."""
    if luck > _LUCK_VERY:
        return 4
    if luck > _LUCK_PLAIN:
        return 3
    if luck < -_LUCK_VERY:
        return 0
    if luck < -_LUCK_PLAIN:
        return 1
    return 2


def luck_rating(luck_per_turn: float) -> int:
    """gnubg's ``getLuckRating`` (index into :data:`LUCK_WORDS`) of a luck per turn (EMG)."""
    return luck_word(10.0 * luck_per_turn)


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


def _cube_available(game: MatchGame | MatGameCheck, rules: MatchRules, game_rules: GameRules, cube: int, owner: int | None,
                    side: int) -> bool:
    """May ``side`` (on roll, before rolling) double, and does doubling mean anything (GetDPEq)?"""
    try:
        check_double(game_rules, cube, owner, side, on_roll=side)
    except CubeError:
        return False
    # At match play a side whose score plus the cube already reaches the length gains nothing.
    return rules.is_money or game.score[side] + cube < rules.length


def _steps(game: MatchGame | MatGameCheck, rules: MatchRules) -> Iterator[_Step]:
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


# --- gnubg's records beside the engine's actions ---------------------------------------------------


def _cube_of(rules: MatchRules, game: MatchGame | MatGameCheck, cube: int, owner: int | None, on_roll: int) -> Cube:
    # The Jacoby rule matters only while the cube has not been turned (RULES.md §5).
    return Cube(cube, owner, on_roll, rules.length, tuple(game.score) if not rules.is_money else (0, 0),
                game.crawford, jacoby=rules.jacoby and cube == 1, beavers=rules.beavers)


def _may_double(cube: Cube) -> bool:
    """eval.c ``GetDPEq``: may the side on roll turn the cube, and does it mean anything?"""
    if cube.owner is not None and cube.owner != cube.on_roll:
        return False
    if not cube.length:
        return True
    me = cube.score[cube.on_roll]
    post_crawford = not cube.crawford and cube.length - 1 in cube.score
    return not cube.crawford and me + cube.value < cube.length and not (post_crawford and me == cube.length - 1)


class _CubeFigures(NamedTuple):
    """gnubg's cube figures for the side that may double, EMG: eval.c ``FindCubeDecision``."""

    no_double: float
    take: float
    drop: float
    optimal: float

    @property
    def close(self) -> bool:
        return self.optimal - min(self.take, 1.0) < CLOSE


def _cube_figures(outputs: tuple[tuple[float, ...], tuple[float, ...]], cube: Cube) -> _CubeFigures:
    no_double, take, drop = outputs[0][6], outputs[1][6], 1.0
    if cube.length:
        # Match winning chances from gnubg, normalised to EMG at this cube and score.
        no_double, take = adapter.mwc2eq(no_double, cube), adapter.mwc2eq(take, cube)
    optimal = no_double
    if _may_double(cube) and take >= no_double and drop >= no_double:
        optimal = min(take, drop)
    return _CubeFigures(no_double, take, drop, optimal)


def _steps_of(move: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """gnubg's (from, to) pairs as the engine's steps: gnubg's points 0..23 are the engine's
    1..24, its bar 24 the engine's 25 and its off -1 the engine's 0."""
    return tuple((start + 1, max(end + 1, 0)) for start, end in zip(move[::2], move[1::2], strict=True))


def _landing(position: Position, side: int, move: tuple[int, ...]) -> tuple:
    """The key (mover's board, opponent's board) of gnubg's play ``move`` made by ``side`` from
    ``position``; () when a step has no checker to move."""
    me, opp = list(position.boards[side]), list(position.boards[1 - side])
    for start, end in _steps_of(move):
        if start > BAR or not me[start]:
            return ()
        me[start] -= 1
        me[end] += 1
        if end > 0 and opp[25 - end] == 1:
            opp[25 - end] = 0
            opp[BAR] += 1
    return tuple(me), tuple(opp)


def _ids(frame_position: Position, cube: Cube, rules: MatchRules, side: int, *, dice=(0, 0),
         doubled: bool = False) -> tuple[str, str]:
    mid = MatchId(cube_value=cube.value, cube_owner=cube.owner, turn=frame_position.turn, crawford=cube.crawford,
                  to_act=(1 - side) if doubled else side, double_offered=doubled, dice=tuple(dice),
                  match_length=rules.length, score=cube.score, jacoby=rules.jacoby)
    return position_id(frame_position), match_id(mid)


_MARK_COUNTERS = {"doubtful": "doubtful", "error": "errors", "blunder": "blunders"}


class _Reader:
    """One game read from gnubg's records beside the engine's replay (module docstring, (a)-(d))."""

    def __init__(self, game: MatchGame | MatGameCheck, theirs: gnubg_sgf.Game, rules: MatchRules):
        # The .mat's first player (the engine's side 0) is gnubg's player 0, written W.
        self.game, self.rules = game, rules
        self.replay = game.replay
        self.records = theirs.records
        self.next = 0
        self.sides = [SideStats(), SideStats()]
        self.decisions: list[Decision] = []
        self.roll_luck: dict[int, float] = {}
        self.pending: tuple | None = None  # the double's position, cube and figures, for its answer

    def _where(self, index: int) -> str:
        return f"game {self.game.number}, move {self.replay.frames[index].move}"

    def _take(self, kind: str, side: int, index: int) -> gnubg_sgf.Record:
        if self.next >= len(self.records):
            raise AnalysisMismatch(f"{self._where(index)}: GNU Backgammon's game ended before the engine's")
        record = self.records[self.next]
        self.next += 1
        if record.kind != kind or record.side != side:
            raise AnalysisMismatch(f"{self._where(index)}: GNU Backgammon has a {record.kind} by side "
                                   f"{record.side} where the engine has a {kind} by side {side}")
        return record

    def read(self) -> GameAnalysis:
        actions = self.replay.actions
        for index, action in enumerate(actions):
            if isinstance(action, Roll):
                following = actions[index + 1] if index + 1 < len(actions) else None
                self._turn(index, action, following if isinstance(following, Move) else None)
            elif isinstance(action, Double):
                self._double(index, action)
            elif isinstance(action, (Take, Drop, Beaver)):
                self._answer(index, action)
        if self.next != len(self.records):
            raise AnalysisMismatch(f"game {self.game.number}: GNU Backgammon has {len(self.records) - self.next} "
                                   "records after the engine's last action")
        for stats in self.sides:
            stats.finish()
        return GameAnalysis(self.game.number, list(self.game.score), self.game.crawford, self.sides, self.decisions)

    # -- a turn: the cube before the roll, the roll's luck, the play --------------------------------

    def _turn(self, index: int, roll: Roll, move: Move | None) -> None:
        side, frame = roll.side, self.replay.frames[index]
        if move is None and self._unrecorded(index, roll):
            return
        record = self._take("move", side, index)
        if sorted(record.dice or ()) != sorted(roll.dice):
            raise AnalysisMismatch(f"{self._where(index)}: GNU Backgammon rolled {record.dice} where the engine "
                                   f"rolled {roll.dice}")
        stats = self.sides[side]
        stats.plays += 1
        if record.cube_outputs is not None:
            cube = _cube_of(self.rules, self.game, frame.cube, frame.owner, side)
            self._no_double(index, side, frame.position.with_turn(side), cube, record)
        if record.luck is not None:
            stats.luck += record.luck
            stats.rolls += 1
            self.roll_luck[side] = record.luck
        if move is None:
            if record.move:
                raise AnalysisMismatch(f"{self._where(index)}: GNU Backgammon played a roll the engine could not play")
            if len(record.ranked) > 1:  # a roll left unplayed (a resignation followed): gnubg's unforced
                stats.unforced_plays += 1
            return
        self._play(index + 1, side, record)

    def _unrecorded(self, index: int, roll: Roll) -> bool:
        """A roll the side resigned on without playing: gnubg's .mat import keeps no turn for it."""
        actions = self.replay.actions
        if index + 1 < len(actions) and not isinstance(actions[index + 1], Resign):
            return False
        following = self.records[self.next] if self.next < len(self.records) else None
        return following is None or following.kind != "move" or following.side != roll.side or sorted(
            following.dice or ()) != sorted(roll.dice)

    def _play(self, index: int, side: int, record: gnubg_sgf.Record) -> None:
        frame = self.replay.frames[index]
        position = frame.position
        after = self.replay.frames[index + 1].position
        if _landing(position, side, record.move) != (after.boards[side], after.boards[1 - side]):
            raise AnalysisMismatch(f"{self._where(index)}: GNU Backgammon's play does not give the engine's position")
        stats = self.sides[side]
        played = self.replay.plays[index]
        ranked = record.ranked
        rank = record.played_rank if record.played_rank is not None and record.played_rank < len(ranked) else None
        loss = max(ranked[0][1] - ranked[rank][1], 0.0) if ranked and rank is not None else 0.0
        forced = len(ranked) <= 1
        if not forced:
            stats.unforced_plays += 1
            stats.checker_lost += loss
        # gnubg's own mark (it compares its unrounded figures with the thresholds).
        verdict = record.skill if ranked else ""
        if verdict:
            counter = _MARK_COUNTERS[verdict]
            setattr(stats, counter, getattr(stats, counter) + 1)
        if played is None:  # an illegal play that stood: gnubg counts it, the engine does not judge it
            return
        cube = _cube_of(self.rules, self.game, frame.cube, frame.owner, side)
        if not ranked:
            equity_best = equity_played = 0.0
            best = played.notation
        else:
            equity_best = ranked[0][1]
            equity_played = ranked[rank][1] if rank is not None else equity_best
            best = played.notation if rank == 0 else format_steps(position, _steps_of(ranked[0][0]))
        pid, mid = _ids(position, cube, self.rules, side, dice=frame.dice)
        decision = Decision(index, frame.move, side, "play", list(frame.dice), played.notation, best, equity_played,
                            equity_best, loss, verdict, forced, self.roll_luck.get(side), pid, mid)
        self.decisions.append(decision)
        stats.decisions += 1

    # -- the cube ----------------------------------------------------------------------------------

    def _no_double(self, index: int, side: int, position: Position, cube: Cube, record: gnubg_sgf.Record) -> None:
        figures = _cube_figures(record.cube_outputs, cube)
        stats = self.sides[side]
        loss = max(figures.optimal - figures.no_double, 0.0)
        stats.cube_lost += loss
        if not figures.close:
            return
        stats.cube_decisions += 1
        pid, mid = _ids(position, cube, self.rules, side)
        best = "double" if figures.optimal > figures.no_double else "no double"
        decision = Decision(index, self.replay.frames[index].move, side, "double", None, "no double", best,
                            figures.no_double, figures.optimal, loss, record.cube_skill, False, None, pid, mid)
        self.decisions.append(decision)
        stats.decisions += 1

    def _double(self, index: int, action: Double) -> None:
        side, frame = action.side, self.replay.frames[index]
        record = self._take("double", side, index)
        self.pending = None
        if record.cube_outputs is None or frame.phase != TO_ROLL:
            return  # a beaver's or raccoon's redouble: gnubg judges only the double itself
        position = frame.position.with_turn(side)
        cube = _cube_of(self.rules, self.game, frame.cube, frame.owner, side)
        figures = _cube_figures(record.cube_outputs, cube)
        self.pending = (position, cube, figures)
        doubled = min(figures.take, figures.drop)
        loss = max(figures.optimal - doubled, 0.0)
        stats = self.sides[side]
        stats.cube_decisions += 1
        stats.cube_lost += loss
        pid, mid = _ids(position, cube, self.rules, side)
        best = "double" if doubled >= figures.optimal else "no double"
        decision = Decision(index, frame.move, side, "double", None, "double", best, doubled, figures.optimal,
                            loss, record.skill, False, None, pid, mid)
        self.decisions.append(decision)
        stats.decisions += 1

    def _answer(self, index: int, action: Take | Drop | Beaver) -> None:
        side, frame = action.side, self.replay.frames[index]
        kind = "drop" if isinstance(action, Drop) else "take"
        record = self._take(kind, side, index)
        if self.pending is None or record.cube_outputs is None or frame.phase != DOUBLED:
            return
        position, cube, figures = self.pending
        self.pending = None
        take_equity, drop_equity = -figures.take, -figures.drop
        best_equity = max(take_equity, drop_equity)
        equity_played = take_equity if kind == "take" else drop_equity
        loss = max(best_equity - equity_played, 0.0)
        stats = self.sides[side]
        stats.cube_decisions += 1
        stats.cube_lost += loss
        pid, mid = _ids(position, cube, self.rules, position.turn, doubled=True)
        best = "take" if take_equity >= drop_equity else "drop"
        decision = Decision(index, frame.move, side, "take", None, kind, best, equity_played, best_equity, loss,
                            record.skill, False, None, pid, mid)
        self.decisions.append(decision)
        stats.decisions += 1


def _settings(games: list[gnubg_sgf.Game], plies: int) -> dict:
    """How gnubg evaluated, as it reported it with its figures (depth, pruning, noise)."""
    settings = {"depth": adapter.DEPTHS[plies], "plies": plies}
    for game in games:
        for record in game.records:
            if record.context:
                settings.update(record.context)
                return settings
    return settings


def analyse_match(rules: MatchRules, games: list[list[Action]], *, start: tuple[int, int] = (0, 0),
                  penalties: Sequence[Penalty | PenaltyAt] = (), plies: int = 2,
                  progress: ProgressCallback | None = None, processes: int = 1) -> MatchAnalysis:
    """GNU Backgammon's own analysis of every game of a match at ``plies`` (0 fast .. 2 default).

    Changes nothing; returns a :class:`MatchAnalysis`. ``rules``, ``games``, ``start`` and
    ``penalties`` are those of :func:`engine.match.replay_match`. ``progress(done, total)`` is
    called as gnubg finishes each game, ``total`` being :func:`decisions_total` and ``done`` the
    decisions of the games analysed so far, the last call (total, total) (once with (0, 0) for a
    match without decisions). With ``processes`` above 1 the games are analysed by that many
    processes at once (:func:`analysis.gnubg_adapter.analyse_mat`), to the same figures.

    Raises :class:`AnalysisUnavailable` when gnubg is not installed, when called off the
    process's main thread (where gnubg would crash the process); :class:`AnalysisNotWritable`
    when the match cannot be written for gnubg (a game from a set-up, a condoned play) and
    :class:`AnalysisMismatch` when gnubg reads a game differently from the engine; the engine's
    errors (GameLogError, MatchError) for a log that breaks the rules propagate unchanged;
    ValueError for ``plies`` outside 0..3.
    """
    if plies not in adapter.DEPTHS:
        raise ValueError(f"plies must be 0 to 3, not {plies!r}")
    if not adapter.available():
        raise AnalysisUnavailable("GNU Backgammon is not installed: matches cannot be analysed here")
    adapter.start_helpers(processes)
    # The engine's replay of the match, as the .mat file gnubg reads is written from it.
    written = match_from_actions(("Side 0", "Side 1"), rules, games, start=start, penalties=penalties)
    try:
        mat_text = write_mat(written)
    except MatchError as error:
        if error.code != "not_writable":
            raise
        raise AnalysisNotWritable(f"the match cannot be written for GNU Backgammon: {error}") from error
    per_game = [sum(1 for _ in _steps(game, rules)) for game in written.games]
    total = sum(per_game)

    def on_game(number: int) -> None:
        if progress is not None:
            progress(sum(per_game[:number]), total)

    # Each game's size weighs the sharing out among processes: a turn is a decision or two.
    weights = [len(game.replay.actions) for game in written.games]
    theirs = gnubg_sgf.read_sgf(adapter.analyse_mat(mat_text, plies, weights=weights, processes=processes,
                                                    on_game=on_game))
    if progress is not None and total == 0:
        progress(0, 0)
    if len(theirs) != len(written.games):
        raise AnalysisMismatch(f"GNU Backgammon read {len(theirs)} games where the engine has {len(written.games)}")
    analysed = [_Reader(game, their_game, rules).read()
                for game, their_game in zip(written.games, theirs, strict=True)]
    sides = [SideStats(), SideStats()]
    for game in analysed:
        for side in (0, 1):
            sides[side].add(game.sides[side])
    for stats in sides:
        stats.finish()
    return MatchAnalysis(plies=plies, engine=adapter.engine_name(), sides=sides, games=analysed,
                         settings=_settings(theirs, plies))


__all__ = [
    "BLUNDER",
    "DOUBTFUL",
    "ERROR",
    "LUCK_WORDS",
    "RATING_WORDS",
    "AnalysisMismatch",
    "AnalysisNotWritable",
    "AnalysisUnavailable",
    "Decision",
    "GameAnalysis",
    "MatchAnalysis",
    "SideStats",
    "analyse_match",
    "decisions_total",
    "luck_rating",
    "luck_word",
    "mark",
    "rating",
]
