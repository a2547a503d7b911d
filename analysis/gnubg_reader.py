"""One game of gnubg's records read beside the engine's replay of it (:mod:`analysis.compute`, its
module docstring (a) to (d)): each roll is one of gnubg's turns, gnubg's play applied to the
engine's position must give the engine's next position, each double, take and pass is gnubg's;
anything else raises :class:`AnalysisMismatch`. Along the way each play and cube decision gets
gnubg's figures, turned into the engine's notation and ids. Entry point: :func:`game_read`.

PURE: no Django."""

from __future__ import annotations

from typing import NamedTuple

from engine.actions import Beaver, Double, Drop, Move, Resign, Roll, Take
from engine.board import BAR, Position
from engine.formats.mat_check import MatGameCheck
from engine.game import DOUBLED, TO_ROLL
from engine.ids import MatchId, match_id, position_id
from engine.match import MatchGame, MatchRules
from engine.notation import format_steps

from . import gnubg_adapter as adapter
from . import gnubg_sgf
from .gnubg_adapter import AnalysisUnavailable, Cube
from .verdict import Decision, GameAnalysis, SideStats

# A no-double is a "close" cube decision when doubling is within this much of the optimal
# (eval.c isCloseCubedecision).
CLOSE = 0.16


class AnalysisMismatch(AnalysisUnavailable):
    """gnubg read a game of the match differently from the engine (analysis.compute's docstring, (a))."""

    code = "analysis_mismatch"




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
    """One game read from gnubg's records beside the engine's replay (analysis.compute's docstring, (a)-(d))."""

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


def game_read(game: MatchGame | MatGameCheck, theirs: gnubg_sgf.Game, rules: MatchRules) -> GameAnalysis:
    """The analysis of ``game`` from gnubg's records of it (``theirs``); raises
    :class:`AnalysisMismatch` where gnubg reads it differently from the engine."""
    return _Reader(game, theirs, rules).read()
