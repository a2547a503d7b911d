"""One game, action by action: the cube, the plays, resignations and how the game ends.

:class:`Game` is a state machine that checks each action of a game log against the rules
(RULES.md §2-§5) and keeps the state before every action, so that any moment can be drawn and a
dispute can point at one. :func:`replay_game` runs a whole log and returns a :class:`GameReplay`.

Phases: the opening roll; then, turn by turn, the side on roll may double (cube centred or
his), resign or roll; after the roll he plays (or resigns); a double is taken, dropped or, in
money play with beavers, beavered (and the beaver raccooned); a resignation is accepted or
declined. A roll that cannot be played needs no move: the turn passes when the other side acts.

Money-play options (Jacoby, beavers and raccoons, automatic doubles) are refused in match play.
A raccoon keeps the cube with the side that beavered; the doubler may also drop a beaver (losing
the value before it) and the beaverer may drop a raccoon, as clubs play it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .actions import (
    BACKGAMMON,
    GAMMON,
    LEVEL_NAMES,
    SINGLE,
    Accept,
    Action,
    Beaver,
    Decline,
    Double,
    Drop,
    Move,
    OpeningTie,
    Raccoon,
    Resign,
    Roll,
    Setup,
    Take,
)
from .board import BAR, CHECKERS, OFF, Position
from .errors import CubeError, EngineError, GameLogError, IdError, IllegalPlay, PositionError
from .ids import position_from_id, position_id
from .moves import Play, legal_plays
from .notation import parse_play
from .validation import validate_play

OPENING, TO_ROLL, TO_PLAY, DOUBLED, BEAVERED, RACCOONED, RESIGNED, OVER = (
    "opening", "to_roll", "to_play", "doubled", "beavered", "raccooned", "resigned", "over",
)

# How a game ended, as the API and the .mat checker report it.
ENDINGS = ("single", "gammon", "backgammon", "drop", "resign")


@dataclass(frozen=True, slots=True)
class GameRules:
    """The rules one game is played under (a setting of the match or session).

    ``match_length`` 0 means money play. ``crawford_game`` forbids every double in this game.
    ``cube_cap`` is the highest face the cube may reach (None: no limit).
    ``automatic_doubles`` is how many opening ties may turn the cube (money play only).
    ``responsible_moves``: an illegal play marked *condoned* in the log stands as played.
    """

    match_length: int = 0
    crawford_game: bool = False
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    automatic_doubles: int = 0
    cube_cap: int | None = None
    responsible_moves: bool = False

    def __post_init__(self) -> None:
        money_only = {"jacoby": self.jacoby, "beavers": self.beavers, "raccoons": self.raccoons,
                      "automatic_doubles": self.automatic_doubles}
        if self.match_length < 0:
            raise EngineError("match length must be 0 (money) or more", code="bad_rules")
        if self.match_length:
            used = [name for name, on in money_only.items() if on]
            if used:
                raise EngineError(f"{', '.join(used)}: money play only, not in a match", code="money_only")
            if self.crawford_game and self.match_length == 1:
                raise EngineError("a 1-point match has no Crawford game", code="bad_rules")
        elif self.crawford_game:
            raise EngineError("the Crawford game belongs to match play", code="bad_rules")
        if self.raccoons and not self.beavers:
            raise EngineError("raccoons are allowed only where beavers are", code="bad_rules")
        if self.automatic_doubles < 0:
            raise EngineError("automatic doubles limit must be 0 or more", code="bad_rules")
        if self.cube_cap is not None and (self.cube_cap < 1 or self.cube_cap & (self.cube_cap - 1)):
            raise EngineError("the cube cap must be a power of two", code="bad_rules")


class Frame(NamedTuple):
    """The state of a game at one moment (before an action, or after the last).

    (A named tuple rather than a dataclass: one is made per action replayed, and a tuple costs
    a fifth as much to build.)

    ``dice`` are the dice rolled and not yet played; ``to_act`` is the side expected to act
    (None before the opening roll); ``move`` the numbered turn line, as in a .mat file.
    """

    position: Position
    cube: int
    owner: int | None
    phase: str
    dice: tuple[int, int] | None
    to_act: int | None
    move: int
    offered_level: int = 0


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended: ``points`` = cube x multiplier, with Jacoby applied where it is on."""

    winner: int
    points: int
    cube: int
    ending: str  # one of ENDINGS
    level: int   # 1 single, 2 gammon, 3 backgammon (for a drop: 1)

    @property
    def loser(self) -> int:
        return 1 - self.winner


@dataclass(frozen=True, slots=True)
class CondonedPlay:
    """An illegal play that stands under the responsible-moves policy."""

    action_index: int
    move: int
    side: int
    play: str
    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class StoodPlay(CondonedPlay):
    """An illegal play that stands under the legal-moves policy because it was noticed only
    after the opponent rolled or doubled (RULES.md §9, illegal move): kept apart from a
    :class:`CondonedPlay` (the opponent's choice under responsible moves)."""


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A checked game: its result, the frame before every action (and one after the last),
    the play made by every move action (None for other actions), the condoned plays, the plays
    that stood, and the real starting position's Position ID when the game started from a wrong
    set-up (``setup``; None: the standard start)."""

    actions: tuple[Action, ...]
    frames: tuple[Frame, ...]
    plays: tuple[Play | None, ...]
    result: GameResult | None
    condoned: tuple[CondonedPlay, ...] = ()
    stood: tuple[StoodPlay, ...] = ()
    setup: str | None = None

    @property
    def final(self) -> Frame:
        return self.frames[-1]


def check_double(
    rules: GameRules, cube: int, owner: int | None, side: int, *, on_roll: int | None, rolled: bool = False
) -> int:
    """The cube's new face if ``side`` may double now; raises :class:`CubeError` saying why not.

    A side may double only in the Crawford-free games, on its own turn before rolling, when the
    cube is centred or its own, and not past the cube cap (RULES.md §5).
    """
    if rules.crawford_game:
        raise CubeError("no doubling in the Crawford game", code="crawford")
    if side != on_roll:
        raise CubeError("a side doubles only on its own turn", code="not_your_turn")
    if rolled:
        raise CubeError("a double is offered before rolling, not after", code="after_roll")
    if owner is not None and owner != side:
        raise CubeError(f"the cube is owned by side {owner}", code="not_owner")
    value = cube * 2
    if rules.cube_cap is not None and value > rules.cube_cap:
        raise CubeError(f"the cube may not pass {rules.cube_cap}", code="cube_cap")
    return value


def game_level(position: Position, winner: int) -> int:
    """Single, gammon or backgammon (1, 2, 3) for ``winner`` in a finished ``position``."""
    loser = position.boards[1 - winner]
    if loser[OFF]:
        return SINGLE
    # The winner's home board is the loser's points 19..24.
    if loser[BAR] or any(loser[19:25]):
        return BACKGAMMON
    return GAMMON


def _apply_as_played(position: Position, play: str) -> Position:
    """Move the written checkers regardless of dice (a condoned play); the board must still be
    one that can exist. Raises IllegalPlay when even that is impossible."""
    me, opp = list(position.mover), list(position.opponent)
    for hop in parse_play(play):
        if not me[hop.start]:
            raise IllegalPlay(f"{play}: no checker on {hop.start} to move", code="no_checker")
        if hop.end and opp[25 - hop.end] > 1:
            raise IllegalPlay(f"{play}: {hop.end} is held by the opponent", code="blocked")
        me[hop.start] -= 1
        me[hop.end] += 1
        if hop.end and opp[25 - hop.end] == 1:
            opp[25 - hop.end] = 0
            opp[BAR] += 1
    boards = (tuple(me), tuple(opp)) if position.turn == 0 else (tuple(opp), tuple(me))
    return Position(boards, 1 - position.turn)


class Game:
    """A game being replayed. :meth:`apply` checks one action and moves the state on.

    Every error is a :class:`GameLogError` whose details name the game, the move (numbered turn
    line), the side, the action as written and the rule broken (``rule``: a stable code).
    """

    def __init__(self, rules: GameRules | None = None, *, number: int = 1, cube: int = 1):
        self.rules = rules or GameRules()
        self.number = number
        self.position = Position.start(0)
        self.cube = cube
        self.owner: int | None = None
        self.phase = OPENING
        self.dice: tuple[int, int] | None = None
        self.to_act: int | None = None
        self.move = 1
        self.last_side: int | None = None
        self.cube_turned = False
        self.automatic = 0
        self.offer: tuple[int, int, str] | None = None  # (resigner, level, phase resigned from)
        self.result: GameResult | None = None
        self.actions: list[Action] = []
        self.frames: list[Frame] = []
        self.plays: list[Play | None] = []
        self.condoned: list[CondonedPlay] = []
        self.stood: list[StoodPlay] = []
        self.setup: str | None = None

    # --- reading the state ----------------------------------------------------------------

    def frame(self) -> Frame:
        return Frame(self.position, self.cube, self.owner, self.phase, self.dice, self.to_act, self.move,
                     self.offer[1] if self.offer else 0)

    def replay(self) -> GameReplay:
        return GameReplay(tuple(self.actions), (*self.frames, self.frame()), tuple(self.plays), self.result,
                          tuple(self.condoned), tuple(self.stood), self.setup)

    # --- errors ---------------------------------------------------------------------------

    def _error(self, action: Action, rule: str, message: str, *, side: int | None = None,
               described: str | None = None) -> GameLogError:
        side = action.side if side is None else side
        described = described or action.describe()
        where = "" if side is None else f", side {side}"
        text = f"game {self.number}, move {self.move}{where}: {described}: {message} [rule: {rule}]"
        details = {"game": self.number, "move": self.move, "side": side, "action": described, "rule": rule}
        if action.line is not None:
            details["line"] = action.line
        return GameLogError(text, **details)

    def _expect_side(self, action: Action, side: int | None) -> None:
        if action.side != side:
            raise self._error(action, "out_of_turn", f"it is side {side}'s turn to act, not side {action.side}'s")

    # --- the state machine ----------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Check ``action`` against the current state and apply it; raises GameLogError."""
        if self.phase == OVER:
            raise self._error(action, "game_over", "the game is already over")
        # A roll that could not be played leaves nothing to write: the turn passes by itself.
        if self.phase == TO_PLAY and action.side != self.to_act and not isinstance(action, (Resign, Move)):
            self._pass_unplayable(action)
        if action.side is not None and self.last_side == 1 and action.side == 0:
            self.move += 1
        self.frames.append(self.frame())
        self.actions.append(action)
        self.plays.append(None)
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise self._error(action, "bad_action", "unknown action")
        handler(self, action)
        if action.side is not None:
            self.last_side = action.side

    def _pass_unplayable(self, action: Action) -> None:
        if legal_plays(self.position, self.dice):
            roll = f"{self.dice[0]}{self.dice[1]}"
            raise self._error(action, "dice_not_all_used", f"no play recorded although the {roll} can be played",
                              side=self.to_act, described=f"roll {roll}")
        self.position = self.position.passed()
        self._next_turn()

    def _next_turn(self) -> None:
        self.phase = TO_ROLL
        self.dice = None
        self.to_act = self.position.turn

    def _opening_tie(self, action: OpeningTie) -> None:
        if self.phase != OPENING:
            raise self._error(action, "not_opening", "an opening tie can only happen before the first roll")
        if self.automatic < self.rules.automatic_doubles and not self._over_cap(self.cube * 2):
            self.automatic += 1
            self.cube *= 2
            # RULES.md §2: an automatic double "turns the centred cube up", and §5's Jacoby rule
            # counts gammons once the cube has been turned (the chouette engine reads it the same way).
            self.cube_turned = True

    def _roll(self, action: Roll) -> None:
        d1, d2 = action.dice
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise self._error(action, "bad_dice", "dice show 1 to 6")
        if self.phase == OPENING:
            if d1 == d2:
                message = "the opening roll is never a double: equal dice are rolled again"
                raise self._error(action, "opening_double", message)
            self.position = self.position.with_turn(action.side)
        elif self.phase == TO_ROLL:
            self._expect_side(action, self.to_act)
        else:
            raise self._unexpected(action)
        self.phase = TO_PLAY
        self.dice = (d1, d2)
        self.to_act = action.side

    def _move(self, action: Move) -> None:
        if self.phase != TO_PLAY:
            raise self._unexpected(action)
        self._expect_side(action, self.to_act)
        try:
            play = validate_play(self.position, self.dice, action.play)
            self.position = play.position
            self.plays[-1] = play
        except IllegalPlay as illegal:
            if action.stood:
                self._stand(action, illegal)
            elif not action.condoned:
                raise self._error(action, illegal.code, illegal.message) from None
            elif not self.rules.responsible_moves:
                raise self._error(action, illegal.code,
                                  f"{illegal.message}; condoning needs the responsible-moves policy") from None
            else:
                try:
                    self.position = _apply_as_played(self.position, action.play)
                except IllegalPlay as impossible:
                    message = f"cannot stand even condoned: {impossible.message}"
                    raise self._error(action, impossible.code, message) from None
                self.condoned.append(CondonedPlay(len(self.actions), self.move, action.side, action.play,
                                                  illegal.code, illegal.message))
        mover = action.side
        if self.position.boards[mover][OFF] == CHECKERS:
            level = game_level(self.position, mover)
            self._end(mover, level, ("single", "gammon", "backgammon")[level - 1])
        else:
            self._next_turn()

    def _stand(self, action: Move, illegal: IllegalPlay) -> None:
        """RULES.md §9, illegal move, legal-moves policy: a play noticed only after the opponent
        rolled or doubled stands as played. Under responsible moves the opponent's rolling on is
        condoning it, and the log says so (``condoned``), so ``stood`` is refused there."""
        if self.rules.responsible_moves:
            raise self._error(action, "stood_needs_legal_moves",
                              f"{illegal.message}; under the responsible-moves policy a play that stands is "
                              "condoned, not stood") from None
        try:
            self.position = _apply_as_played(self.position, action.play)
        except IllegalPlay as impossible:
            raise self._error(action, impossible.code, f"cannot stand: {impossible.message}") from None
        self.stood.append(StoodPlay(len(self.actions), self.move, action.side, action.play,
                                    illegal.code, illegal.message))

    def _setup(self, action: Setup) -> None:
        """RULES.md §9, wrong setup: corrected when noticed early; a game that went on from a wrong
        set-up stands and is recorded from the position it really started from."""
        if self.phase != OPENING or len(self.actions) > 1:
            raise self._error(action, "setup_not_first", "a set-up can only be the first action of a game")
        try:
            position = position_from_id(action.position, 0)
            position.validate()
        except (IdError, PositionError) as bad:
            raise self._error(action, "bad_setup", f"not a starting position: {bad.message}") from None
        if position.is_over():
            raise self._error(action, "bad_setup", "a side has borne off every checker: no game starts there")
        if position_id(position) == position_id(Position.start(0)):
            raise self._error(action, "setup_is_standard",
                              "the set-up is the standard starting position: leave it out of the log")
        self.position = position
        self.setup = position_id(position)
        # The moment before the set-up is the board the game really started from, not the standard one.
        self.frames[-1] = self.frame()

    def _over_cap(self, value: int) -> bool:
        return self.rules.cube_cap is not None and value > self.rules.cube_cap

    def _double(self, action: Double) -> None:
        if self.phase not in (TO_ROLL, TO_PLAY):
            raise self._unexpected(action)
        try:
            check_double(self.rules, self.cube, self.owner, action.side, on_roll=self.to_act,
                         rolled=self.phase == TO_PLAY)
        except CubeError as refused:
            raise self._error(action, refused.code, refused.message) from None
        self._check_value(action, self.cube * 2)
        self.phase = DOUBLED
        self.to_act = 1 - action.side

    def _check_value(self, action, value: int) -> None:
        if self._over_cap(value):
            raise self._error(action, "cube_cap", f"the cube may not pass {self.rules.cube_cap}")
        if action.value is not None and action.value != value:
            raise self._error(action, "wrong_cube_value", f"the cube would show {value}, not {action.value}")

    def _take(self, action: Take) -> None:
        if self.phase != DOUBLED:
            raise self._unexpected(action)
        self._expect_side(action, self.to_act)
        self.cube *= 2
        self.owner = action.side
        self.cube_turned = True
        self._next_turn()

    def _drop(self, action: Drop) -> None:
        if self.phase == DOUBLED:
            self._expect_side(action, self.to_act)
            self._end(1 - action.side, SINGLE, "drop")
        elif self.phase in (BEAVERED, RACCOONED):
            self._expect_side(action, self.to_act)
            # The cube already shows the beaver (or raccoon): the drop loses the value before it.
            self.cube //= 2
            self._end(1 - action.side, SINGLE, "drop")
        else:
            raise self._unexpected(action)

    def _beaver(self, action: Beaver) -> None:
        if self.phase != DOUBLED:
            raise self._unexpected(action)
        self._expect_side(action, self.to_act)
        if not self.rules.beavers:
            raise self._error(action, "no_beavers", "beavers are not allowed under these rules")
        self._check_value(action, self.cube * 4)
        self.cube *= 4
        self.owner = action.side
        self.cube_turned = True
        self.phase = BEAVERED
        self.to_act = 1 - action.side

    def _raccoon(self, action: Raccoon) -> None:
        if self.phase != BEAVERED:
            raise self._unexpected(action)
        self._expect_side(action, self.to_act)
        if not self.rules.raccoons:
            raise self._error(action, "no_raccoons", "raccoons are not allowed under these rules")
        self._check_value(action, self.cube * 2)
        self.cube *= 2
        self.phase = RACCOONED
        self.to_act = 1 - action.side

    def _resign(self, action: Resign) -> None:
        phase = self.phase
        if phase in (BEAVERED, RACCOONED):
            phase = self._settle_cube_exchange()
        if phase not in (TO_ROLL, TO_PLAY):
            raise self._unexpected(action)
        if action.level not in LEVEL_NAMES:
            raise self._error(action, "bad_level", "resign a single (1), gammon (2) or backgammon (3)")
        self.offer = (action.side, action.level, phase)
        self.phase = RESIGNED
        self.to_act = 1 - action.side

    def _accept(self, action: Accept) -> None:
        if self.phase != RESIGNED:
            raise self._unexpected(action)
        self._expect_side(action, self.to_act)
        resigner, level, _ = self.offer
        self._end(1 - resigner, level, "resign")

    def _decline(self, action: Decline) -> None:
        if self.phase != RESIGNED:
            raise self._unexpected(action)
        self._expect_side(action, self.to_act)
        _, _, phase = self.offer
        self.offer = None
        self.phase = phase
        self.to_act = self.position.turn

    def _settle_cube_exchange(self) -> str:
        """After a beaver (or raccoon) the doubler simply plays on: back to his roll."""
        self._next_turn()
        return self.phase

    def _end(self, winner: int, level: int, ending: str) -> None:
        multiplier = level
        if self.rules.jacoby and not self.cube_turned:
            multiplier = SINGLE
        self.result = GameResult(winner, self.cube * multiplier, self.cube, ending, level)
        self.phase = OVER
        self.dice = None
        self.to_act = None

    def _unexpected(self, action: Action) -> GameLogError:
        expected = {
            OPENING: "the opening roll", TO_ROLL: f"side {self.to_act} to double or roll",
            TO_PLAY: f"side {self.to_act} to play the {self.dice[0]}{self.dice[1]}" if self.dice else "a play",
            DOUBLED: f"side {self.to_act} to take or drop", BEAVERED: f"side {self.to_act} to play on, raccoon or drop",
            RACCOONED: f"side {self.to_act} to play on or drop", RESIGNED: f"side {self.to_act} to accept or decline",
        }[self.phase]
        return self._error(action, "unexpected_action", f"expected {expected}")



def _play_on(game: Game, action: Action) -> None:
    """In BEAVERED/RACCOONED the doubler's roll or double means the cube exchange is over."""
    if game.phase in (BEAVERED, RACCOONED) and action.side == game.position.turn:
        game._settle_cube_exchange()


def _roll_or_play_on(game: Game, action: Roll) -> None:
    _play_on(game, action)
    game._roll(action)


def _double_or_play_on(game: Game, action: Double) -> None:
    _play_on(game, action)
    game._double(action)


_HANDLERS = {
    Setup: Game._setup,
    OpeningTie: Game._opening_tie,
    Roll: _roll_or_play_on,
    Move: Game._move,
    Double: _double_or_play_on,
    Take: Game._take,
    Drop: Game._drop,
    Beaver: Game._beaver,
    Raccoon: Game._raccoon,
    Resign: Game._resign,
    Accept: Game._accept,
    Decline: Game._decline,
}


def replay_game(
    actions, rules: GameRules | None = None, *, number: int = 1, finished: bool = True
) -> GameReplay:
    """Replay a game log, checking every action; return the replay with its frames and result.

    With ``finished`` (the default) a log that stops before the game is over is an error
    (rule ``unfinished``). Raises :class:`GameLogError` at the first action that breaks a rule.
    """
    game = Game(rules, number=number)
    for action in actions:
        game.apply(action)
    if finished and game.result is None:
        if not game.actions:
            raise game._error(Roll(None), "unfinished", "the log has no actions", described="(empty log)")
        raise game._error(game.actions[-1], "unfinished", "the log ends before the game is over")
    return game.replay()

