"""Game logs attached to a result: read (JSON actions or a .mat file), replayed by the engine,
and checked against the score they claim. Pure checks: nothing here writes to the database."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from engine.actions import action_to_dict, actions_from_json
from engine.errors import EngineError, GameLogError, MatLimitError
from engine.formats.mat import MatFile, check_mat, read_mat
from engine.match import MatchReplay, MatchRules, replay_match
from engine.scores import claim_agrees_with_full

from .. import errors


@dataclass(frozen=True)
class CheckedLog:
    """Game logs that replay under a match's rules, as JSON-ready action lists."""

    games: list[list[dict]]
    replay: MatchReplay

    @property
    def final_score(self) -> tuple[int, int]:
        return self.replay.final_score


def _count(games) -> int:
    return sum(len(game) for game in games if isinstance(game, list))


def log_from_json(games: object, rules: MatchRules, *, start: tuple[int, int] = (0, 0)) -> CheckedLog:
    """Replay JSON game logs (a list of games, each a list of actions) from the score ``start``
    (``Match.start``: the penalty points a ruling credited, else 0-0).

    Raises DomainError (``log_too_large``) past the action limit, and the engine's GameLogError
    (naming game, move, side and rule) for a log that breaks a rule.
    """
    if not isinstance(games, list) or not all(isinstance(game, list) for game in games):
        raise GameLogError("games must be a list of games, each a list of actions", code="bad_action")
    total = _count(games)
    if total > settings.MAX_LOG_ACTIONS:
        raise errors.log_too_large(total, settings.MAX_LOG_ACTIONS)
    parsed = []
    for number, game in enumerate(games, start=1):
        try:
            parsed.append(actions_from_json(game))
        except GameLogError as error:
            error.details["game"] = number
            error.message = f"game {number}, {error.message}"
            raise
    replay = replay_match(rules, parsed, start=start)
    return CheckedLog([[action_to_dict(a) for a in game] for game in parsed], replay)


def mat_read(name: str, data: bytes) -> MatFile:
    """Read the .mat file ``name`` within the limits of the settings (MAX_UPLOAD_BYTES,
    MAX_LOG_GAMES, MAX_LOG_ACTIONS), stopping as soon as one is passed: nothing is replayed
    before the file is known to be within them.

    Raises DomainError ``upload_too_large`` (before decoding) or ``log_too_large`` (naming the
    line and game where the limit was passed), and the engine's MatParseError for a file that
    does not read.
    """
    try:
        return read_mat(data, max_bytes=settings.MAX_UPLOAD_BYTES, max_games=settings.MAX_LOG_GAMES,
                        max_actions=settings.MAX_LOG_ACTIONS)
    except MatLimitError as error:
        where, limit = error.details, error.details["limit"]
        if error.code == "mat_too_large":
            raise errors.upload_too_large(name, where["size"], limit) from None
        if error.code == "too_many_games":
            raise errors.log_too_many_games(name, limit, line=where["line"], game=where["game"]) from None
        raise errors.log_too_many_actions(name, limit, line=where["line"], game=where["game"]) from None


def log_from_mat(name: str, data: bytes, rules: MatchRules, *, start: tuple[int, int] = (0, 0)) -> CheckedLog:
    """Read (:func:`mat_read`, within the limits) and check a .mat file for a match with
    ``rules``; its length must be the match's. Its games are replayed from the score ``start``,
    as :func:`log_from_json` does.

    Raises DomainError for a file over a limit or a length mismatch, and the engine's errors
    (with the file's line number) for anything the engine rejects.
    """
    try:
        check = check_mat(mat_read(name, data))
    except EngineError as error:
        error.details.setdefault("file", name)
        raise
    if check.length != rules.length:
        raise errors.log_disagrees(f"{name} is a {check.length}-point match, this match is to {rules.length}",
                                   file=name)
    games = [list(game.replay.actions) for game in check.games]
    if sum(len(g) for g in games) > settings.MAX_LOG_ACTIONS:
        raise errors.log_too_large(sum(len(g) for g in games), settings.MAX_LOG_ACTIONS)
    replay = replay_match(rules, games, start=start)
    return CheckedLog([[action_to_dict(a) for a in game] for game in games], replay)


def log_agrees_with_score(log: CheckedLog, score: tuple[int, int]) -> None:
    """Raise DomainError (``log_disagrees``) unless the replayed games produce ``score``, as it
    is or capped at the match length (``engine.scores.claim_agrees_with_full``)."""
    if not claim_agrees_with_full(log.replay.rules.length, score, log.final_score):
        found = log.final_score
        raise errors.log_disagrees(
            f"the game logs give {found[0]}-{found[1]}, not the claimed {score[0]}-{score[1]}",
            game=len(log.replay.games) or None,
        )
