"""A director's rulings (RULES.md §9), the engine's part: penalty points, the remedy for an
illegal play, and the changes a ruling makes to a match's game logs.

Everything here is pure: values in, values out. The rulings services store what comes back and
write the audit log; nothing here knows a model.

Game logs are the engine's action lists, one list per game, as :func:`engine.match.replay_match`
takes them. Every operation on them returns a :class:`RuledMatch`: the new list of games (new
lists; the caller's are never changed) and the :class:`~engine.match.MatchReplay` of the whole
match replayed from its start, so that a ruling is only ever recorded with logs that replay.
Every operation takes the match's starting score (``start``) and the penalty points given between
its games (``penalties``, as :func:`~engine.match.replay_match` takes them): the match is replayed
with them, each kept between the same two games (:func:`penalties_placed`), so that a ruling on a
match with a penalty keeps it in the score and the Crawford game where it follows from it
(RULES.md §9).

Locations: games are numbered from 1 (as in the engine's errors and a .mat file); an action is
named by its **1-based** index in its game's log, as the engine's own ``action_index`` is (a
:class:`~engine.game.CondonedPlay`, a ``bad_action`` error), and by ``move``, the numbered turn
line of a .mat file. Refusals are the engine's own errors with a stable ``code`` and the location
in ``details`` (``game``, ``move``, ``side``, ``action``, ``action_index``, and ``rule`` where an
engine rule is the cause): :class:`~engine.errors.GameLogError` for anything inside a game's log,
:class:`~engine.errors.MatchError` for the match as a whole, :class:`~engine.errors.EngineError`
(code ``bad_penalty`` or ``bad_award``) for figures that make no sense.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .actions import Action, Beaver, Double, Drop, Move, Raccoon, Take
from .errors import EngineError, GameLogError, IllegalPlay, MatchError
from .game import TO_PLAY, Game
from .match import MatchReplay, MatchRules, MatchState, Penalty, PenaltyAt, replay_match
from .validation import validate_play

# The two remedies for an illegal play (see illegal_play_remedy).
CORRECT, STANDS = "correct", "stands"

# RULES.md §9: late arrival or overrun costs one penalty point per 5 minutes.
MINUTES_PER_POINT = 5


#: Penalty points given between games (engine.match): each ruling replays the match with them.
Penalties = Sequence[Penalty | PenaltyAt]


class RuledMatch(NamedTuple):
    """A match's game logs after a ruling, and their replay from the start (score, Crawford
    flags, winner: None while the match is unfinished). Unpacks as ``games, replay``."""

    games: list[list[Action]]
    replay: MatchReplay


# --- penalty points and awards -----------------------------------------------------------------


def _whole(name: str, value: object, least: int, code: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise EngineError(f"{name} must be a whole number of at least {least}, not {value!r}", code=code, field=name)
    return value


def late_arrival_points(minutes_late: int, minutes_per_point: int = MINUTES_PER_POINT) -> int:
    """The penalty points for arriving ``minutes_late`` (or overrunning by that much): one per
    full ``minutes_per_point`` minutes (RULES.md §9: 1 per 5), so 4 minutes cost nothing and 10
    cost 2. The points go to the opponent's score, e.g. as the ``start`` of :func:`replay_match`.

    Raises :class:`EngineError` (code ``bad_penalty``, ``field`` naming the argument) for
    negative minutes or fewer than one minute per point.
    """
    _whole("minutes_late", minutes_late, 0, "bad_penalty")
    _whole("minutes_per_point", minutes_per_point, 1, "bad_penalty")
    return minutes_late // minutes_per_point


def penalty_loses_match(length: int, penalty_points: int) -> bool:
    """Does a side given ``penalty_points`` in a ``length``-point match lose it outright?

    RULES.md §9: more than half the match length does (3 of a 5-point match, 4 of a 7; exactly
    half, 2 of a 4-point match, does not). Raises :class:`EngineError` (code ``bad_penalty``)
    for a length below 1 (a money session has no match to lose) or negative penalty points.
    """
    _whole("length", length, 1, "bad_penalty")
    _whole("penalty_points", penalty_points, 0, "bad_penalty")
    return 2 * penalty_points > length


def match_ended_by_award(length: int, winner: int, *, score: tuple[int, int] | None = None) -> tuple[int, int]:
    """The final score recorded when a director awards a ``length``-point match to ``winner``
    (side 0 or 1): a no-show, a disqualification, a flag fall, too many penalty points.

    The winner is given the match length, as if he had just won; the loser keeps what he had:
    his points in ``score`` (the score as it stood, penalty points included) when it is known,
    else 0. Raises :class:`EngineError` (code ``bad_award``) for a length below 1, a winner that
    is no side, a malformed score, or a score at which the loser had already won the match.
    """
    _whole("length", length, 1, "bad_award")
    if winner not in (0, 1) or isinstance(winner, bool):
        raise EngineError(f"the winner must be side 0 or 1, not {winner!r}", code="bad_award", field="winner")
    loser = 1 - winner
    kept = 0
    if score is not None:
        if not isinstance(score, (tuple, list)) or len(score) != 2:
            raise EngineError(f"the score must be two whole numbers, not {score!r}", code="bad_award", field="score")
        for points in score:
            _whole("score", points, 0, "bad_award")
        kept = score[loser]
        if kept >= length:
            raise EngineError(f"side {loser} had already won the match at {score[0]}-{score[1]}: it cannot be "
                              f"awarded to side {winner}", code="bad_award", field="score")
    final = [0, 0]
    final[winner], final[loser] = length, kept
    return final[0], final[1]


# --- illegal plays -------------------------------------------------------------------------------


def illegal_play_remedy(*, responsible_moves: bool, noticed_before_next_roll: bool, opponent_demands_replay: bool) -> str:
    """What becomes of an illegal play (RULES.md §9): :data:`CORRECT` (the roll is played again,
    legally: :func:`play_corrected`) or :data:`STANDS` (it is kept as played: :func:`play_condoned`).

    - legal-moves policy: corrected when noticed before the opponent rolls or doubles, whatever
      the opponent wants; it stands once he has.
    - responsible-moves policy: the opponent chooses, before he rolls or doubles: he condones it
      (it stands) or demands the roll be replayed (it is corrected). Rolling or doubling is taken
      as condoning it (the federations' reading), so once he has, it stands: his demand is then
      too late.
    """
    if not noticed_before_next_roll:
        return STANDS
    if responsible_moves:
        return CORRECT if opponent_demands_replay else STANDS
    return CORRECT


def play_corrected(
    rules: MatchRules, games: Sequence[Sequence[Action]], game_number: int, action_index: int, play: str, *,
    start: tuple[int, int] = (0, 0), penalties: Penalties = (),
) -> RuledMatch:
    """Replace the illegal play of the move action ``action_index`` (1-based) of game
    ``game_number`` (1-based) by ``play``, a legal play of the same roll; the rest of the match is
    replayed as recorded. The original log need not replay: a log stopped by an illegal play is
    what this mends. The corrected move is not marked condoned.

    Raises :class:`MatchError` (``no_such_game``, ``match_over`` when the match was won before
    that game) and :class:`GameLogError`: ``no_such_action``, ``not_a_move``,
    ``nothing_to_correct`` (the recorded play was legal), ``correction_illegal`` (``rule`` names
    the rule ``play`` breaks), or the engine's own error, with ``action_index``, at the first
    action that no longer replays (earlier games and this game's earlier actions included, and
    a move action that is out of turn or out of place).
    """
    penalties = penalties_placed(rules, games, penalties, start=start)
    recorded, game = _before_move(rules, games, game_number, action_index, start, penalties)
    if _is_legal(game, recorded.play):
        raise _refusal(games[game_number - 1], game_number, action_index, "nothing_to_correct",
                       f"{recorded.play.strip() or 'no move'} is a legal play of the {_roll(game)}: "
                       "there is nothing to correct")
    corrected = Move(recorded.side, play=play, line=recorded.line)
    try:
        validate_play(game.position, game.dice, play)
    except IllegalPlay as illegal:
        raise _refusal(games[game_number - 1], game_number, action_index, "correction_illegal",
                       f"the correction must be a legal play of the {_roll(game)}: {illegal.message}",
                       rule=illegal.code) from None
    return _ruled(rules, _replaced(games, game_number, action_index, corrected), start, penalties)


def play_condoned(
    rules: MatchRules, games: Sequence[Sequence[Action]], game_number: int, action_index: int, *,
    start: tuple[int, int] = (0, 0), penalties: Penalties = (),
) -> RuledMatch:
    """Mark the illegal play of the move action ``action_index`` (1-based) of game
    ``game_number`` (1-based) as condoned: it stands as played and the game goes on from the
    board it made (the engine's condoned mechanism, :class:`~engine.game.CondonedPlay`).

    Only under the responsible-moves policy. The engine accepts a condoned play only under that
    policy (engine/game.py; a player cannot condone his own play under legal moves), and every
    later reading of the stored log (the game's moments, the .mat file) replays it under the
    match's own rules: a play condoned here under legal moves would make the stored log fail
    there. So under legal moves an illegal play that stands cannot be kept in a game log; the
    director records the result without that game's log instead.

    Raises :class:`MatchError` (``no_such_game``, ``match_over``) and :class:`GameLogError`:
    ``no_such_action``, ``not_a_move``, ``condoning_not_allowed`` (legal-moves policy),
    ``nothing_to_condone`` (the play was legal), ``already_condoned``, ``cannot_condone`` (the
    play leads to a board that cannot exist; ``rule`` says why), or the engine's own error, with
    ``action_index``, at the first action that does not replay.
    """
    recorded = _target_move(games, game_number, action_index)
    if not rules.responsible_moves:
        raise _refusal(games[game_number - 1], game_number, action_index, "condoning_not_allowed",
                       "only the responsible-moves policy lets an illegal play stand in a game log; under legal "
                       "moves the result is recorded without this game's log")
    penalties = penalties_placed(rules, games, penalties, start=start)
    _, game = _before_move(rules, games, game_number, action_index, start, penalties)
    if _is_legal(game, recorded.play):
        raise _refusal(games[game_number - 1], game_number, action_index, "nothing_to_condone",
                       f"{recorded.play.strip() or 'no move'} is a legal play of the {_roll(game)}: "
                       "there is nothing to condone")
    if recorded.condoned:
        raise _refusal(games[game_number - 1], game_number, action_index, "already_condoned",
                       "the play is already condoned")
    condoned = Move(recorded.side, play=recorded.play, condoned=True, line=recorded.line)
    try:
        game.apply(condoned)
    except GameLogError as impossible:
        raise _relabelled(impossible, "cannot_condone", action_index) from None
    return _ruled(rules, _replaced(games, game_number, action_index, condoned), start, penalties)


def play_stood(
    rules: MatchRules, games: Sequence[Sequence[Action]], game_number: int, action_index: int, *,
    start: tuple[int, int] = (0, 0), penalties: Penalties = (),
) -> RuledMatch:
    """Mark the illegal play of the move action ``action_index`` (1-based) of game ``game_number``
    (1-based) as *stood*: under the legal-moves policy an illegal play noticed only after the
    opponent rolled or doubled stands (RULES.md §9, illegal move), so the game keeps its verified
    log, the play replayed as played (:class:`~engine.game.StoodPlay`, kept apart from a
    condoned play, the responsible-moves remedy: :func:`play_condoned`).

    Raises :class:`MatchError` (``no_such_game``, ``match_over``) and :class:`GameLogError`:
    ``no_such_action``, ``not_a_move``, ``stood_not_allowed`` (responsible-moves policy: the play
    is condoned there), ``nothing_to_stand`` (the play was legal), ``already_stood``,
    ``cannot_stand`` (the play leads to a board that cannot exist), or the engine's own error,
    with ``action_index``, at the first action that does not replay.
    """
    recorded = _target_move(games, game_number, action_index)
    if rules.responsible_moves:
        raise _refusal(games[game_number - 1], game_number, action_index, "stood_not_allowed",
                       "under the responsible-moves policy an illegal play that stands is condoned")
    penalties = penalties_placed(rules, games, penalties, start=start)
    _, game = _before_move(rules, games, game_number, action_index, start, penalties)
    if _is_legal(game, recorded.play):
        raise _refusal(games[game_number - 1], game_number, action_index, "nothing_to_stand",
                       f"{recorded.play.strip() or 'no move'} is a legal play of the {_roll(game)}: "
                       "there is nothing to let stand")
    if recorded.stood:
        raise _refusal(games[game_number - 1], game_number, action_index, "already_stood",
                       "the play already stands")
    stood = Move(recorded.side, play=recorded.play, stood=True, line=recorded.line)
    try:
        game.apply(stood)
    except GameLogError as impossible:
        raise _relabelled(impossible, "cannot_stand", action_index) from None
    return _ruled(rules, _replaced(games, game_number, action_index, stood), start, penalties)


# --- games voided -------------------------------------------------------------------------------


def game_voided(
    rules: MatchRules, games: Sequence[Sequence[Action]], game_number: int, *, start: tuple[int, int] = (0, 0),
    penalties: Penalties = (),
) -> RuledMatch:
    """Remove game ``game_number`` (1-based) from the match; the later games move up one and
    their scores, Crawford flags and values are recomputed by the replay. The match may be left
    unfinished (``replay.winner`` is None): the players then play on, which is no error.

    Raises :class:`MatchError` (``no_such_game``) and the engine's errors when the games no
    longer replay, e.g. a later game that becomes the Crawford game but holds a double. Such an
    error names the game by its number after the void (the one it will have) and adds
    ``recorded_game``, its number as recorded, also said in the message.
    """
    _check_game_number(games, game_number)
    remaining = [list(game) for number, game in enumerate(games, start=1) if number != game_number]
    # A penalty stays between the games it was given between: one before a later game moves up
    # with it, one before the voided game now comes before the game after it.
    moved_up = [Penalty(p.before_game - 1, p.side, p.points, p.reason)
                if isinstance(p, Penalty) and p.before_game > game_number else p
                for p in penalties_placed(rules, games, penalties, start=start)]
    try:
        return _ruled(rules, remaining, start, moved_up)
    except (GameLogError, MatchError) as error:
        moved = error.details.get("game")
        if isinstance(moved, int) and moved >= game_number:
            error.details["recorded_game"] = moved + 1
            error.message = f"after voiding game {game_number}: {error.message} (game {moved + 1} as recorded)"
        raise


def crawford_double_voided(
    rules: MatchRules, games: Sequence[Sequence[Action]], game_number: int, as_played: Sequence[Action], *,
    start: tuple[int, int] = (0, 0), penalties: Penalties = (),
) -> RuledMatch:
    """Void the double(s) of a Crawford game (RULES.md §5 and §9: the score is corrected as if
    the double never happened) and put the game, scored at cube 1, in place of game
    ``game_number`` (1-based), or append it when ``game_number`` is ``len(games) + 1``.

    ``as_played`` is the game's log as the players played it, double included: each double is
    removed with its answer (a take, or a beaver and any raccoon of it, which match play does not
    allow either); the play between and after is kept. The later games are replayed with the
    corrected scores.

    Raises :class:`MatchError`: ``no_such_game``, ``match_over``, ``not_crawford_game`` (by the
    replay of the earlier games from ``start``, the game is not the Crawford game); and
    :class:`GameLogError`: ``no_double``, ``double_unanswered``, ``crawford_double_dropped``
    (a dropped double, beaver or raccoon ended the game: without it there is no finished game to
    score, so the game must be replayed), or the engine's own error with ``action_index`` (in the
    game without its doubles) when the games do not replay.
    """
    _check_game_number(games, game_number, appending=True)
    penalties = penalties_placed(rules, games, penalties, start=start)
    state = _state_before(rules, games, game_number, start, penalties)
    if not state.next_is_crawford:
        a, b = state.score
        raise MatchError(f"game {game_number}, played at {a}-{b}, is not the Crawford game: its doubles stand",
                         code="not_crawford_game", game=game_number)
    cleaned = _without_doubles(as_played, game_number)
    ruled = [list(game) for game in games]
    if game_number <= len(ruled):
        ruled[game_number - 1] = cleaned
    else:
        ruled.append(cleaned)
    return _ruled(rules, ruled, start, penalties)


def _without_doubles(actions: Sequence[Action], number: int) -> list[Action]:
    """``actions`` without any double and its answer; the game must not have ended on one."""
    kept: list[Action] = []
    found = False
    index = 0
    while index < len(actions):
        action = actions[index]
        if not isinstance(action, Double):
            kept.append(action)
            index += 1
            continue
        found = True
        at = index + 1  # 1-based, for the refusals
        responder, exchange, index = 1 - action.side, 0, index + 1
        while True:
            answer = actions[index] if index < len(actions) else None
            answered = answer is not None and answer.side == responder
            if answered and isinstance(answer, Drop):
                what = ("the double", "its beaver", "its raccoon")[exchange]
                raise _refusal(actions, number, at, "crawford_double_dropped",
                               f"{what} was dropped (action {index + 1}) and ended the Crawford game: with the "
                               "double voided there is no finished game to score, so the game must be replayed")
            if answered and exchange == 0 and isinstance(answer, Take):
                index += 1
                break
            if answered and exchange < 2 and isinstance(answer, (Beaver, Raccoon)[exchange]):
                exchange, responder, index = exchange + 1, 1 - responder, index + 1
                continue
            if exchange == 0:
                raise _refusal(actions, number, at, "double_unanswered",
                               "the double has no take or drop after it: the log cannot say what the game was")
            break  # after a beaver (or raccoon) the doubler simply plays on
    if not found:
        raise GameLogError(f"game {number}: the game as played holds no double: there is nothing to void",
                           code="no_double", game=number)
    return kept


# --- helpers ------------------------------------------------------------------------------------


def penalties_placed(
    rules: MatchRules, games: Sequence[Sequence[Action]], penalties: Penalties, *, start: tuple[int, int] = (0, 0),
) -> tuple[Penalty | PenaltyAt, ...]:
    """``penalties`` (in their order) with each :class:`~engine.match.PenaltyAt` (recorded at a
    score) turned into the :class:`~engine.match.Penalty` before the game of ``games`` it came
    before, so that a ruling that changes the games keeps every penalty between the same two
    games (RULES.md §9) rather than at a score the new games may never reach.

    Placed as far as ``games`` replay: past the first game that does not (a game with the illegal
    play a ruling mends), a penalty recorded at a score is kept as it is, and the ruled replay
    places it by its score. Raises the engine's MatchError for penalties that do not fit the
    games that replay (``penalty_after_match``, ``penalty_no_such_game``, ``bad_penalty``).
    """
    if not any(isinstance(p, PenaltyAt) for p in penalties):
        return tuple(penalties)
    count = len(games)
    while True:
        try:
            replay = replay_match(rules, [list(game) for game in games[:count]], start=start, penalties=penalties,
                                  partial=True)
            break
        except GameLogError as error:
            failing = error.details.get("game")
            if not isinstance(failing, int) or not 1 <= failing <= count:
                raise
            count = failing - 1
    later = [p for p in penalties if isinstance(p, Penalty) and p.before_game > count + 1]
    return (*(given.penalty for given in replay.penalties), *later, *replay.unplaced)


def _ruled(rules: MatchRules, games: list[list[Action]], start: tuple[int, int], penalties: Penalties = ()) -> RuledMatch:
    return RuledMatch(games, _replay(rules, games, start, penalties))


def _replay(
    rules: MatchRules, games: Sequence[Sequence[Action]], start: tuple[int, int], penalties: Penalties = (), *,
    partial: bool = False,
) -> MatchReplay:
    """:func:`replay_match`, its GameLogError completed with the failing action's ``action_index``."""
    try:
        return replay_match(rules, [list(game) for game in games], start=start, penalties=penalties, partial=partial)
    except GameLogError as error:
        number = error.details.get("game")
        if isinstance(number, int) and 1 <= number <= len(games):
            index = _failing_index(_state_before(rules, games, number, start, penalties), games[number - 1], number)
            if index is not None:
                error.details["action_index"] = index
        raise


def _failing_index(state: MatchState, actions: Sequence[Action], number: int) -> int | None:
    """The 1-based index of the action of game ``number`` the engine refuses: the last one for a
    log that ends too early, None for an empty log."""
    game = Game(state.next_game_rules(), number=number)
    for index, action in enumerate(actions, start=1):
        try:
            game.apply(action)
        except GameLogError:
            return index
    return len(actions) or None


def _state_before(
    rules: MatchRules, games: Sequence[Sequence[Action]], number: int, start: tuple[int, int],
    penalties: Penalties = (),
) -> MatchState:
    """The match before game ``number``, the earlier games replayed with the penalties given
    before it; refused if already won."""
    state = _replay(rules, games[: number - 1], start, penalties, partial=True).final
    if state.is_over:
        raise MatchError(f"game {number}: the match was already won at {state.score[0]}-{state.score[1]}",
                         code="match_over", game=number)
    return state


def _check_game_number(games: Sequence[Sequence[Action]], number: int, *, appending: bool = False) -> None:
    last = len(games) + (1 if appending else 0)
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= last:
        raise MatchError(f"there is no game {number}: the match has {len(games)} game(s)", code="no_such_game",
                         game=number)


def _target_move(games: Sequence[Sequence[Action]], number: int, index: int) -> Move:
    _check_game_number(games, number)
    actions = games[number - 1]
    if not isinstance(index, int) or isinstance(index, bool) or not 1 <= index <= len(actions):
        raise GameLogError(f"game {number}: there is no action {index}: the game has {len(actions)} action(s)",
                           code="no_such_action", game=number, action_index=index)
    action = actions[index - 1]
    if not isinstance(action, Move):
        raise _refusal(actions, number, index, "not_a_move", "a ruling on a play needs a move action")
    return action


def _before_move(
    rules: MatchRules, games: Sequence[Sequence[Action]], number: int, index: int, start: tuple[int, int],
    penalties: Penalties = (),
) -> tuple[Move, Game]:
    """The recorded move and the game replayed up to it, the move's roll waiting to be played by
    the move's side; the engine's error (with ``action_index``) for anything in the way."""
    recorded = _target_move(games, number, index)
    game = Game(_state_before(rules, games, number, start, penalties).next_game_rules(), number=number)
    _apply(game, games[number - 1][: index - 1], 1)
    if game.phase != TO_PLAY or game.to_act != recorded.side:
        # Out of turn, or no roll waiting: the engine refuses the move and says why.
        _apply(game, [recorded], index)
    return recorded, game


def _apply(game: Game, actions: Sequence[Action], first: int) -> None:
    """Apply ``actions``, the first being action ``first`` (1-based) of its game; the engine's
    error gets the ``action_index`` of the action it refuses."""
    for at, action in enumerate(actions, start=first):
        try:
            game.apply(action)
        except GameLogError as error:
            error.details["action_index"] = at
            raise


def _is_legal(game: Game, play: str) -> bool:
    try:
        validate_play(game.position, game.dice, play)
    except IllegalPlay:
        return False
    return True


def _roll(game: Game) -> str:
    return f"{game.dice[0]}{game.dice[1]}"


def _move_number(actions: Sequence[Action], index: int) -> int:
    """The numbered turn line of action ``index`` (1-based), counted as the engine counts it: a
    new line each time side 0 acts after side 1."""
    move, last = 1, None
    for action in actions[:index]:
        if action.side is not None:
            if last == 1 and action.side == 0:
                move += 1
            last = action.side
    return move


def _refusal(
    actions: Sequence[Action], number: int, index: int, code: str, message: str, *, rule: str | None = None
) -> GameLogError:
    """A GameLogError at action ``index`` (1-based) of game ``number``, worded as the engine words
    its own: ``game 2, move 5, side 1: play 13/8: ...``."""
    action = actions[index - 1]
    move = _move_number(actions, index)
    where = "" if action.side is None else f", side {action.side}"
    details = {"game": number, "move": move, "side": action.side, "action": action.describe(), "action_index": index}
    if rule is not None:
        details["rule"] = rule
    if action.line is not None:
        details["line"] = action.line
    return GameLogError(f"game {number}, move {move}{where}: {action.describe()}: {message}", code=code, **details)


def _relabelled(error: GameLogError, code: str, index: int) -> GameLogError:
    return GameLogError(error.message, code=code, **{**error.details, "action_index": index})


def _replaced(games: Sequence[Sequence[Action]], number: int, index: int, action: Action) -> list[list[Action]]:
    ruled = [list(game) for game in games]
    ruled[number - 1][index - 1] = action
    return ruled


# --- a match played to the wrong length ----------------------------------------------------------

# The director's choices for a match played to the wrong length (see wrong_length_choices).
RESULT_STANDS, CONTINUE_TO_LENGTH, WON_AT_LENGTH = "result_stands", "continue_to_length", "won_at_length"


class WrongLength(NamedTuple):
    """What a director may do with a match played to the wrong length: ``choices`` (the first is
    the rule's own answer) and, for :data:`CONTINUE_TO_LENGTH`, the match as it goes on (``state``:
    the score as it stands, at the right length, the Crawford game following from it) or, for
    :data:`WON_AT_LENGTH`, ``winner``."""

    choices: tuple[str, ...]
    state: MatchState | None
    winner: int | None


def wrong_length_choices(
    rules: MatchRules, played_length: int, score: tuple[int, int], *, finished: bool, crawford_played: bool = False,
) -> WrongLength:
    """A match whose event set ``rules.length`` was played to ``played_length``; ``score`` is the
    score as it stands (the final score when ``finished``: the match was completed and its result
    given before anyone noticed).

    RULES.md has no section on a wrong length; this is the rule as the federations' tournament
    rules usually give it, in my own words (the published texts cannot be read here): found
    after the match is over, the result stands; found while it is being played, the match goes
    on to the right length from the score as it stands, and a side that already has the right
    length (a match set too long) has won. Only one of these fits each case, so ``choices``
    holds one answer; :data:`RESULT_STANDS` is also offered beside the others when the players
    finished a longer match than was set (the director may let it stand rather than cut it
    short: the winner has the right length all the same).

    Raises :class:`EngineError` (``bad_wrong_length``) for a length below 1, the two lengths equal, or
    a score that is not two whole numbers of 0 or more.
    """
    _whole("played_length", played_length, 1, "bad_wrong_length")
    if rules.is_money:
        raise EngineError("a money session has no length to get wrong", code="bad_wrong_length", field="length")
    if played_length == rules.length:
        raise EngineError(f"the match was played to its own length ({rules.length})", code="bad_wrong_length",
                          field="played_length")
    if not isinstance(score, (tuple, list)) or len(score) != 2:
        raise EngineError(f"the score must be two whole numbers, not {score!r}", code="bad_wrong_length", field="score")
    for points in score:
        _whole("score", points, 0, "bad_wrong_length")
    score = (score[0], score[1])
    reached = [side for side in (0, 1) if score[side] >= rules.length]
    if finished:
        if played_length > rules.length and len(reached) == 1:
            return WrongLength((RESULT_STANDS, WON_AT_LENGTH), None, reached[0])
        return WrongLength((RESULT_STANDS,), None, None)
    if len(reached) == 1:
        return WrongLength((WON_AT_LENGTH,), None, reached[0])
    if reached:
        raise EngineError(f"both sides have {rules.length} or more at {score[0]}-{score[1]}: the match was "
                          "over before now", code="bad_wrong_length", field="score")
    state = MatchState(rules, score=score, crawford_played=crawford_played)
    return WrongLength((CONTINUE_TO_LENGTH,), state, None)
