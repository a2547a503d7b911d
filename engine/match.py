"""Matches to N points and money sessions: the score after each game and the Crawford rule.

A match is won by the first side whose score reaches the match length; points won beyond it do
not matter. With the Crawford rule (always on in tournaments) the game right after a side first
stands one point short of the length is the Crawford game: no doubling in it. The games after it
are post-Crawford. A money session (length 0) has no end and no Crawford game; its options are
Jacoby, beavers (and raccoons), automatic doubles and a cube cap.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .actions import Action
from .errors import MatchError
from .game import GameReplay, GameResult, GameRules, replay_game


@dataclass(frozen=True, slots=True)
class MatchRules:
    """The settings of a match (``length`` > 0) or a money session (``length`` 0)."""

    length: int
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    automatic_doubles: int = 0
    cube_cap: int | None = None
    responsible_moves: bool = False

    def __post_init__(self) -> None:
        # The per-game checks (money-only options, cube cap) live in GameRules: build one now
        # so that bad settings fail when the match is set up, not at its first game.
        self.game_rules(crawford_game=False)

    @property
    def is_money(self) -> bool:
        return self.length == 0

    def game_rules(self, *, crawford_game: bool) -> GameRules:
        """The rules of one game of this match."""
        return GameRules(
            match_length=self.length, crawford_game=crawford_game, jacoby=self.jacoby, beavers=self.beavers,
            raccoons=self.raccoons, automatic_doubles=self.automatic_doubles, cube_cap=self.cube_cap,
            responsible_moves=self.responsible_moves,
        )


@dataclass(frozen=True, slots=True)
class MatchState:
    """The score before the next game, and whether the Crawford game has been played."""

    rules: MatchRules
    score: tuple[int, int] = (0, 0)
    games: int = 0
    crawford_played: bool = False

    @property
    def winner(self) -> int | None:
        """The side that has won the match, or None (always None in a money session)."""
        if self.rules.is_money:
            return None
        for side in (0, 1):
            if self.score[side] >= self.rules.length:
                return side
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def next_is_crawford(self) -> bool:
        """True when the next game is the Crawford game."""
        return is_crawford_game(self.rules, self.score, self.crawford_played)

    @property
    def next_is_post_crawford(self) -> bool:
        return self.crawford_played and not self.is_over

    def next_game_rules(self) -> GameRules:
        return self.rules.game_rules(crawford_game=self.next_is_crawford)

    def after(self, result: GameResult) -> MatchState:
        """The state after a game with ``result``; raises MatchError if the match was over."""
        if self.is_over:
            raise MatchError(f"the match was over at {self.score[0]}-{self.score[1]}: no game {self.games + 1}",
                             code="match_over", game=self.games + 1)
        score = list(self.score)
        score[result.winner] += result.points
        return replace(self, score=(score[0], score[1]), games=self.games + 1,
                       crawford_played=self.crawford_played or self.next_is_crawford)

    def points_needed(self, side: int) -> int | None:
        """Points ``side`` still needs to win the match (None in a money session)."""
        return None if self.rules.is_money else max(self.rules.length - self.score[side], 0)


def is_crawford_game(rules: MatchRules, score: tuple[int, int], crawford_played: bool) -> bool:
    """Is the game played at ``score`` the Crawford game?

    It is the first game in which exactly one side stands one point short of the match length
    (so a 1-point match has none), and only with the Crawford rule on.
    """
    if not rules.crawford or rules.is_money or rules.length < 2 or crawford_played:
        return False
    short = rules.length - 1
    return (score[0] == short) != (score[1] == short) and max(score) < rules.length


def crawford_flags(rules: MatchRules, scores: list[tuple[int, int]]) -> list[bool]:
    """For the scores before each game of a match, which game is the Crawford game."""
    flags, played = [], False
    for score in scores:
        flag = is_crawford_game(rules, score, played)
        played = played or flag
        flags.append(flag)
    return flags


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One checked game of a match: the score before it, its Crawford flag and its replay."""

    number: int
    score: tuple[int, int]
    crawford: bool
    replay: GameReplay

    @property
    def result(self) -> GameResult:
        return self.replay.result


@dataclass(frozen=True, slots=True)
class MatchReplay:
    rules: MatchRules
    games: tuple[MatchGame, ...]
    final: MatchState

    @property
    def final_score(self) -> tuple[int, int]:
        return self.final.score

    @property
    def winner(self) -> int | None:
        return self.final.winner


def replay_match(rules: MatchRules, games: list[list[Action]], *, start: tuple[int, int] = (0, 0)) -> MatchReplay:
    """Replay every game of a match in order, each under its own rules (Crawford included).

    ``start`` is the score before the first game: (0, 0), or the penalty points a director gave
    (RULES.md §9); the Crawford game is found from the real scores, so a side put one point short
    by penalty points plays the Crawford game next. Raises :class:`GameLogError` for a game that
    breaks a rule (its details name the game and move) and :class:`MatchError` for a game played
    after the match was over, or (code ``bad_start``) for a starting score that is negative, at or
    beyond the match length, or not (0, 0) in a money session.
    """
    state = MatchState(rules, score=_checked_start(rules, start))
    checked = []
    for number, actions in enumerate(games, start=1):
        if state.is_over:
            raise MatchError(f"game {number}: the match was already won at {state.score[0]}-{state.score[1]}",
                             code="match_over", game=number)
        crawford = state.next_is_crawford
        replay = replay_game(actions, state.next_game_rules(), number=number)
        checked.append(MatchGame(number, state.score, crawford, replay))
        state = state.after(replay.result)
    return MatchReplay(rules, tuple(checked), state)


def _checked_start(rules: MatchRules, start: tuple[int, int]) -> tuple[int, int]:
    """``start`` as a tuple; a match that is already won, or a money session with a score before
    its first game, is no match to replay."""
    score = tuple(start)
    if len(score) != 2 or not all(isinstance(points, int) and not isinstance(points, bool) for points in score):
        raise MatchError(f"the starting score must be two whole numbers, not {start!r}", code="bad_start")
    if min(score) < 0:
        raise MatchError(f"the starting score {score[0]}-{score[1]} is negative", code="bad_start")
    if rules.is_money and score != (0, 0):
        raise MatchError("a money session starts at 0-0 (penalty points belong to matches)", code="bad_start")
    if not rules.is_money and max(score) >= rules.length:
        raise MatchError(f"the starting score {score[0]}-{score[1]} already wins a {rules.length}-point match",
                         code="bad_start")
    return score[0], score[1]
