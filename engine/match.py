"""Matches to N points and money sessions: the score after each game and the Crawford rule.

A match is won by the first side whose score reaches the match length; points won beyond it do
not matter. With the Crawford rule (always on in tournaments) the game right after a side first
stands one point short of the length is the Crawford game: no doubling in it. The games after it
are post-Crawford. A money session (length 0) has no end and no Crawford game; its options are
Jacoby, beavers (and raccoons), automatic doubles and a cube cap.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    # Penalty points given against each side between games (RULES.md §9), and the side whose
    # total passed half the match length (it lost the match: the opponent is its winner).
    penalised: tuple[int, int] = (0, 0)
    lost_on_penalties: int | None = None

    @property
    def winner(self) -> int | None:
        """The side that has won the match, or None (always None in a money session)."""
        if self.rules.is_money:
            return None
        if self.lost_on_penalties is not None:
            return 1 - self.lost_on_penalties
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

    def penalty_given(self, penalty: Penalty) -> MatchState:
        """The state after ``penalty`` between two games (RULES.md §9): its points go to the
        penalised side's opponent's score, so the Crawford game follows from the score as it then
        stands (a penalty that puts the opponent one point short makes the next game the Crawford
        game, unless it has been played; one that takes him to the length wins him the match, as
        any score reaching the length does, RULES.md §5); a side whose penalties come to more
        than half the match length loses the match to the opponent.

        Raises MatchError: ``penalty_money`` (a money session has no penalty points),
        ``penalty_after_match`` (the match was already won), ``bad_penalty`` (figures)."""
        penalty.check()
        if self.rules.is_money:
            raise MatchError("a money session has no penalty points", code="penalty_money",
                             game=penalty.before_game)
        if self.is_over:
            raise MatchError(f"the match was already won at {self.score[0]}-{self.score[1]}: no penalty points "
                             f"after it", code="penalty_after_match", game=penalty.before_game)
        score, penalised = list(self.score), list(self.penalised)
        score[1 - penalty.side] += penalty.points
        penalised[penalty.side] += penalty.points
        lost = penalty.side if 2 * penalised[penalty.side] > self.rules.length else None
        return replace(self, score=(score[0], score[1]), penalised=(penalised[0], penalised[1]),
                       lost_on_penalties=lost)

    def points_needed(self, side: int) -> int | None:
        """Points ``side`` still needs to win the match (None in a money session)."""
        return None if self.rules.is_money else max(self.rules.length - self.score[side], 0)


# Why a director gives penalty points (RULES.md §9): late arrival or overrun, slow play, other.
PENALTY_REASONS = ("late", "slow_play", "other")


@dataclass(frozen=True, slots=True)
class Penalty:
    """Penalty points given against ``side`` between two games: before game ``before_game``
    (1-based; ``games + 1`` is after the last game recorded). The points go to the opponent."""

    before_game: int
    side: int
    points: int
    reason: str = "late"

    def check(self) -> None:
        """Raise MatchError (``bad_penalty``, ``field`` naming it) for figures that make no sense."""
        for name, value, least in (("before_game", self.before_game, 1), ("points", self.points, 1)):
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise MatchError(f"{name} must be a whole number of at least {least}, not {value!r}",
                                 code="bad_penalty", field=name)
        if self.side not in (0, 1) or isinstance(self.side, bool):
            raise MatchError(f"the penalised side must be 0 or 1, not {self.side!r}", code="bad_penalty",
                             field="side")
        if self.reason not in PENALTY_REASONS:
            raise MatchError(f"the reason must be one of {', '.join(PENALTY_REASONS)}, not {self.reason!r}",
                             code="bad_penalty", field="reason")


@dataclass(frozen=True, slots=True)
class PenaltyAt:
    """Penalty points given against ``side`` when the score stood at ``score`` between two games,
    the game not named: what a director records mid-match, with no game log at hand. The replay
    places it before the first game played at that score (:func:`replay_match`)."""

    score: tuple[int, int]
    side: int
    points: int
    reason: str = "late"


@dataclass(frozen=True, slots=True)
class GivenPenalty:
    """A penalty as the replay applied it: the score before and after it, and whether the next
    game is the Crawford game (it may have made it so) and whether it ended the match."""

    penalty: Penalty
    score_before: tuple[int, int]
    score_after: tuple[int, int]
    next_is_crawford: bool
    winner: int | None


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
    penalties: tuple[GivenPenalty, ...] = ()
    # A partial replay's penalties recorded at a score its games never reached (replay_match).
    unplaced: tuple[PenaltyAt, ...] = ()

    @property
    def final_score(self) -> tuple[int, int]:
        return self.final.score

    @property
    def winner(self) -> int | None:
        return self.final.winner


def replay_match(rules: MatchRules, games: list[list[Action]], *, start: tuple[int, int] = (0, 0),
                 penalties: Sequence[Penalty | PenaltyAt] = (), partial: bool = False) -> MatchReplay:
    """Replay every game of a match in order, each under its own rules (Crawford included).

    ``start`` is the score before the first game: (0, 0), or the penalty points a director gave
    (RULES.md §9); the Crawford game is found from the real scores, so a side put one point short
    by penalty points plays the Crawford game next. Raises :class:`GameLogError` for a game that
    breaks a rule (its details name the game and move) and :class:`MatchError` for a game played
    after the match was over, or (code ``bad_start``) for a starting score that is negative, at or
    beyond the match length, or not (0, 0) in a money session.

    ``penalties`` are penalty points given between games (RULES.md §9; :meth:`MatchState.penalty_given`),
    each before the game it names (``len(games) + 1``: after the last one), in the order given
    for the same game. A match-level list rather than an action in a game log: a penalty is no
    part of either game (a game log is one game, as a .mat file and a game's board show it).
    ``start`` stays the score before anything (the starting penalty points a ruling credited);
    the penalties' total against a side counts only ``penalties``. Raises MatchError
    ``penalty_no_such_game`` for a penalty before a game past ``len(games) + 1``, and those of
    :meth:`MatchState.penalty_given`.

    A :class:`PenaltyAt` (a penalty recorded at a score, in the order given) is placed before the
    first game at which the score is its ``score`` (after the penalties before it); one the games
    never reach is refused (MatchError ``penalty_not_reached``).

    ``partial``: ``games`` are only the first games of the match (a ruling replays the games
    before the one it rules on): a penalty before a later game, or at a score these games do not
    reach, is left out (``MatchReplay.unplaced`` keeps those recorded at a score) instead of refused.
    """
    state = MatchState(rules, score=checked_start(rules, start))
    at_scores = [p for p in penalties if isinstance(p, PenaltyAt)]
    penalties = [p for p in penalties if not isinstance(p, PenaltyAt)]
    pending = sorted(penalties, key=lambda p: p.before_game if isinstance(p.before_game, int) else 0)
    for penalty in pending:
        penalty.check()
    if partial:
        pending = [p for p in pending if p.before_game <= len(games) + 1]
    for penalty in pending:
        if penalty.before_game > len(games) + 1:
            raise MatchError(f"a penalty before game {penalty.before_game}: the match has {len(games)} game(s)",
                             code="penalty_no_such_game", game=penalty.before_game)
    given: list[GivenPenalty] = []
    checked = []
    for number in range(1, len(games) + 2):
        while pending and pending[0].before_game == number:
            penalty = pending.pop(0)
            before = state.score
            state = state.penalty_given(penalty)
            given.append(GivenPenalty(penalty, before, state.score, state.next_is_crawford, state.winner))
        while at_scores and tuple(at_scores[0].score) == state.score and not state.is_over:
            found = at_scores.pop(0)
            penalty = Penalty(number, found.side, found.points, found.reason)
            before = state.score
            state = state.penalty_given(penalty)
            given.append(GivenPenalty(penalty, before, state.score, state.next_is_crawford, state.winner))
        if number > len(games):
            break
        actions = games[number - 1]
        if state.is_over:
            raise MatchError(f"game {number}: the match was already won at {state.score[0]}-{state.score[1]}",
                             code="match_over", game=number)
        crawford = state.next_is_crawford
        replay = replay_game(actions, state.next_game_rules(), number=number)
        checked.append(MatchGame(number, state.score, crawford, replay))
        state = state.after(replay.result)
    if at_scores and partial:
        return MatchReplay(rules, tuple(checked), state, tuple(given), tuple(at_scores))
    if at_scores:
        missed = at_scores[0]
        raise MatchError(f"penalty points were given at {missed.score[0]}-{missed.score[1]}, a score the games never "
                         "reach", code="penalty_not_reached")
    return MatchReplay(rules, tuple(checked), state, tuple(given))


def checked_start(rules: MatchRules, start: tuple[int, int]) -> tuple[int, int]:
    """``start`` as a tuple, the score a match is replayed from; a match that is already won, or a
    money session with a score before its first game, is no match to replay. Raises MatchError
    ``bad_start`` for a score that is not two whole numbers, a negative one, a money session's
    score other than 0-0, or one that already wins the match. Shared with ``engine.scores``."""
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
