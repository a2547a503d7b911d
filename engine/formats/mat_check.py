"""A .mat file checked against the engine, and a match as the engine played it (the form
:func:`~engine.formats.mat_write.write_mat` writes).

What :func:`check_mat` checks (RULES.md §5-§6; the engine's computation is the truth)
    Every game is replayed under the match's rules with its Crawford flag taken from the scores
    the games really produced. A game that ends with neither the last checker borne off nor a
    drop was resigned: the level comes from the claimed N and the cube (single if N <= cube,
    gammon if N <= 2 x cube, else backgammon, as GNU Backgammon reads ``Wins 4016 point``).
    Score lines must follow from the games before them; the claimed winner must be the engine's;
    the claimed points must be the real points, except that the deciding game's claim may be
    capped at what the winner needed, and a resignation claimed above a backgammon (the
    ``Wins 4016 point`` exporter bug) is read as a backgammon in the deciding game; ``and the
    match`` only in the deciding game; ``Losses`` must agree with ``Wins``. A game other than the
    last must end. Errors: :class:`~engine.errors.MatchError` (``details["line"]``) and the
    engine's :class:`~engine.errors.GameLogError` with the .mat line added to message and details.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..actions import (
    BACKGAMMON,
    GAMMON,
    SINGLE,
    Accept,
    Action,
    Move,
    Resign,
    Roll,
)
from ..errors import GameLogError, MatchError
from ..game import Game, GameReplay
from ..match import MatchRules, MatchState, Penalty, PenaltyAt, replay_match
from .mat import Claim, MatFile

__all__ = [
    "MatCheck",
    "MatGameCheck",
    "check_mat",
    "match_from_actions",
    "resign_level",
]


@dataclass(frozen=True)
class MatGameCheck:
    """One replayed game: the score before it, its Crawford flag, and how it really ended.

    ``winner``, ``points``, ``ending`` (one of :data:`engine.game.ENDINGS`) and ``level`` are None
    for an unfinished last game; ``cube`` is the cube's face at the end. ``line`` is the
    `` Game k`` line in the file (None for a match built from actions).
    """

    number: int
    score: tuple[int, int]
    crawford: bool
    winner: int | None
    points: int | None
    cube: int
    ending: str | None
    level: int | None
    replay: GameReplay
    line: int | None = None


@dataclass(frozen=True)
class MatCheck:
    """A whole checked match: its rules, players, games, final score and winner.

    ``winner`` is 0 or 1, or None while the match is unfinished and always in a money session.
    """

    rules: MatchRules
    players: tuple[str, str]
    games: tuple[MatGameCheck, ...]
    final_score: tuple[int, int]
    winner: int | None
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def length(self) -> int:
        return self.rules.length

    @property
    def crawford(self) -> bool:
        return self.rules.crawford


class _GameInput(NamedTuple):
    number: int
    actions: Sequence[Action]
    line: int | None = None
    players: tuple[str, str] | None = None
    score: tuple[int, int] | None = None
    score_line: int | None = None
    wins: Claim | None = None
    losses: Claim | None = None
    marker: tuple[int, int] | None = None


def resign_level(points: int, cube: int) -> int:
    """The resignation level (1 single, 2 gammon, 3 backgammon) a claim of ``points`` means with
    the cube on ``cube``: single if points <= cube, gammon if points <= 2 x cube, else backgammon
    (as GNU Backgammon reads ``Wins 4016 point``). Raises nothing."""
    if points <= cube:
        return SINGLE
    if points <= 2 * cube:
        return GAMMON
    return BACKGAMMON


def _match_error(line: int | None, message: str, code: str, **details) -> MatchError:
    """A MatchError at ``line`` of the file; a game's error (``details["game"]``, its message led by
    ``game N: ``) reads ``game N, line L: ...``."""
    if line is None:
        return MatchError(message, code=code, **details)
    game = details.get("game")
    lead = f"game {game}: "
    if game is not None and message.startswith(lead):
        return MatchError(f"game {game}, line {line}: {message[len(lead):]}", code=code, line=line, **details)
    return MatchError(f"line {line}: {message}", code=code, line=line, **details)


def _apply(game: Game, action: Action) -> None:
    try:
        game.apply(action)
    except GameLogError as error:
        details = dict(error.details)
        if details.get("rule") == "dice_not_all_used" and not isinstance(action, Move):
            # The turn passed without a play: point at the roll, not at the next action.
            rolls = [a for a in game.actions if isinstance(a, Roll) and a.side == details.get("side")]
            if rolls and rolls[-1].line is not None:
                details["line"] = rolls[-1].line
        line, message = details.get("line"), error.message
        if line is not None:
            # "game 3, move 11, side 0: ..." becomes "game 3, line 76: move 11, side 0: ...".
            lead = f"game {details.get('game')}, "
            if details.get("game") is not None and message.startswith(lead):
                message = f"{lead}line {line}: {message[len(lead):]}"
            else:
                message = f"line {line}: {message}"
        raise GameLogError(message, code=error.code, **details) from None


def _side_name(players: tuple[str, str], side: int) -> str:
    return f"{players[side]} (side {side})"


def _check_claims(item: _GameInput, game: Game, state: MatchState, players: tuple[str, str]) -> None:
    result = game.result
    wins, losses = item.wins, item.losses
    if wins is not None and losses is not None:
        if losses.side == wins.side:
            raise _match_error(losses.line, f"game {item.number}: the Losses line and the Wins line (line "
                                            f"{wins.line}) name the same side", "claim_mismatch", game=item.number)
        if losses.points != wins.points:
            raise _match_error(losses.line, f"game {item.number}: Losses {losses.points} disagrees with Wins "
                                            f"{wins.points} at line {wins.line}", "claim_mismatch", game=item.number)
    claim = wins or (Claim(1 - losses.side, losses.points, False, losses.line) if losses else None)
    if item.marker is not None:
        side, line = item.marker
        if result.ending != "resign" or result.loser != side:
            raise _match_error(line, f"game {item.number}: the resign marker says {_side_name(players, side)} "
                                     f"resigned, but the game ends with {_side_name(players, result.winner)} "
                                     f"winning by {result.ending}", "claim_mismatch", game=item.number)
    if claim is None:
        return
    if claim.side != result.winner:
        raise _match_error(claim.line, f"game {item.number}: the file gives the game to "
                                       f"{_side_name(players, claim.side)}, but the engine gives it to "
                                       f"{_side_name(players, result.winner)} ({result.ending}, "
                                       f"{result.points} points)", "wrong_winner", game=item.number)
    after = state.after(result)
    deciding = after.is_over
    needed = state.points_needed(result.winner)
    accepted = claim.points == result.points
    if not accepted and result.ending == "resign":
        accepted = claim.points == result.cube * result.level
    if not accepted and deciding:
        # Exporters cap the deciding game's claim at what the winner needed.
        accepted = claim.points == min(result.points, needed)
        # 'Wins 4016 point': a resignation above a backgammon is read as a backgammon.
        accepted = accepted or (result.ending == "resign" and claim.points > BACKGAMMON * result.cube)
    if not accepted:
        capped = f" (or {min(result.points, needed)}, the points needed, in this deciding game)" if deciding else ""
        raise _match_error(claim.line, f"game {item.number}: the file claims {claim.points} points, but "
                                       f"{_side_name(players, result.winner)} really won {result.points}"
                                       f"{capped}: {result.ending} with the cube on {result.cube}",
                           "wrong_points", game=item.number)
    if wins is not None and wins.and_match and not deciding:
        raise _match_error(wins.line, f"game {item.number}: 'and the match', but the match goes on at "
                                      f"{after.score[0]}-{after.score[1]}", "wrong_points", game=item.number)


def _replay(rules: MatchRules, players: tuple[str, str], items: Sequence[_GameInput],
            tags: Mapping[str, str], *, start: tuple[int, int] = (0, 0),
            penalties: Sequence[Penalty] = ()) -> MatCheck:
    state = MatchState(rules, score=tuple(start))
    checked: list[MatGameCheck] = []
    for index, item in enumerate(items):
        for penalty in penalties:
            if penalty.before_game == item.number:
                state = state.penalty_given(penalty)
        if state.is_over:
            raise _match_error(item.line, f"game {item.number}: the match was already won at "
                                          f"{state.score[0]}-{state.score[1]}", "match_over", game=item.number)
        if item.players is not None and item.players != players:
            raise _match_error(item.score_line, f"game {item.number}: the players are {item.players[0]!r} and "
                                                f"{item.players[1]!r}, not {players[0]!r} and {players[1]!r} as in "
                                                f"game 1", "players_differ", game=item.number)
        if item.score is not None and item.score != state.score:
            expected, found = state.score, item.score
            raise _match_error(item.score_line, f"game {item.number}: the score before this game is "
                                                f"{expected[0]}-{expected[1]} from the games before it, but the "
                                                f"file says {found[0]}-{found[1]}", "wrong_score",
                               game=item.number, expected=list(expected), found=list(found))
        crawford = state.next_is_crawford
        game = Game(state.next_game_rules(), number=item.number)
        for action in item.actions:
            _apply(game, action)
        claim = item.wins or item.losses
        if game.result is None and claim is not None:
            winner = claim.side if item.wins else 1 - claim.side
            level = resign_level(claim.points, game.cube)
            _apply(game, Resign(1 - winner, level=level, line=claim.line))
            _apply(game, Accept(winner, line=claim.line))
        result = game.result
        if result is None:
            if item.marker is not None:
                raise _match_error(item.marker[1], f"game {item.number}: a resign marker without a Wins line to "
                                                   f"say what was resigned", "unfinished", game=item.number)
            if index != len(items) - 1:
                raise _match_error(item.line, f"game {item.number} never ends: no last checker borne off, no "
                                              f"drop and no Wins line", "unfinished", game=item.number)
        else:
            _check_claims(item, game, state, players)
        ended = (result.winner, result.points, result.ending, result.level) if result else (None,) * 4
        checked.append(MatGameCheck(item.number, state.score, crawford, ended[0], ended[1], game.cube, ended[2],
                                    ended[3], game.replay(), item.line))
        if result is not None:
            state = state.after(result)
    return MatCheck(rules, players, tuple(checked), state.score, state.winner, dict(tags))


def _on_off(value: str, name: str) -> bool:
    word = value.strip().lower()
    if word in ("on", "yes", "true", "1"):
        return True
    if word in ("off", "no", "false", "0"):
        return False
    raise MatchError(f'the {name} tag must be "On" or "Off", not {value!r}', code="bad_tag", tag=name)


def _rules_for(mat: MatFile, crawford: bool | None) -> MatchRules:
    if mat.length == 0:
        jacoby = _on_off(mat.tags["Jacoby"], "Jacoby") if "Jacoby" in mat.tags else False
        return MatchRules(0, crawford=False, jacoby=jacoby, beavers=True, raccoons=True)
    if crawford is None:
        crawford = _on_off(mat.tags["Crawford"], "Crawford") if "Crawford" in mat.tags else True
    return MatchRules(mat.length, crawford=crawford)


def check_mat(mat: MatFile, *, crawford: bool | None = None) -> MatCheck:
    """Replay every game of ``mat`` with the engine and check the file's claims against it.

    ``crawford`` overrides the file's ``Crawford`` tag (On/Off; absent: on). A money session
    (length 0) allows beavers and raccoons and takes Jacoby from its ``Jacoby`` tag (default off).
    Returns a :class:`MatCheck`. Raises :class:`~engine.errors.MatchError` (``details["line"]``:
    the score line, ``Wins``/``Losses`` line or game line at fault) when a score line does not
    follow, a claim disagrees with the engine, a game other than the last never ends, the
    players change, or a game follows the end of the match; raises
    :class:`~engine.errors.GameLogError` (message and details naming line, game, move and side)
    for an action the rules forbid.
    """
    if not mat.games:
        raise MatchError("the file has no games", code="no_games")
    rules = _rules_for(mat, crawford)
    items = [
        _GameInput(g.number, g.actions, g.line, g.players, g.score, g.score_line, g.wins, g.losses, g.resign_marker)
        for g in mat.games
    ]
    return _replay(rules, mat.games[0].players, items, mat.tags)


def match_from_actions(
    players: tuple[str, str], rules: MatchRules, games: Iterable[Sequence[Action]], *,
    tags: Mapping[str, str] | None = None, start: tuple[int, int] = (0, 0),
    penalties: Sequence[Penalty | PenaltyAt] = (),
) -> MatCheck:
    """Replay a match given as action lists (one per game; resignations as Resign + Accept).

    ``start`` and ``penalties`` are the penalty points a director gave before the first game and
    between games, as :func:`~engine.match.replay_match` takes them: the .mat format has no word
    for a penalty, so each game's score line says the score as it really stood (penalties
    included), which is what GNU Backgammon and XG read; the Crawford game follows from it.

    Returns a :class:`MatCheck` ready for :func:`write_mat`. Every game but the last must end.
    Raises :class:`~engine.errors.GameLogError` for an illegal action and
    :class:`~engine.errors.MatchError` for an unfinished game or a game after the match's end
    (and those of ``replay_match`` for penalties it cannot place).
    """
    games = [tuple(actions) for actions in games]
    placed: tuple[Penalty, ...] = ()
    if penalties:
        placed = tuple(given.penalty for given in replay_match(rules, [list(g) for g in games], start=start,
                                                               penalties=penalties).penalties)
    items = [_GameInput(number, actions) for number, actions in enumerate(games, start=1)]
    return _replay(rules, (players[0], players[1]), items, tags or {}, start=start, penalties=placed)
