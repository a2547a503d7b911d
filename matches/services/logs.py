"""Game logs attached to a result: read (JSON actions or a .mat file), replayed by the engine,
and checked against the score they claim. Pure checks: nothing here writes to the database.

A .mat file names its players in its own order (its left player is the file's side 0): its sides
are matched to the match's by name (accents and case aside), else by the reporter's word
(:class:`FileSides`), and the games are turned round when the file has the match's sides the
other way round."""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _

from core.engine_messages import name_sides
from core.errors import DomainError
from engine.actions import Action, action_to_dict, actions_from_json
from engine.errors import EngineError, GameLogError, MatLimitError
from engine.formats.mat import MatFile, read_mat
from engine.formats.mat_check import check_mat
from engine.match import MatchReplay, MatchRules, replay_match
from engine.scores import claim_agrees_with_full

from .. import errors
from ..models import Game, Match, Player, Report


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


def log_from_json(games: object, rules: MatchRules, *, start: tuple[int, int] = (0, 0),
                  penalties=(), partial: bool = False) -> CheckedLog:
    """Replay JSON game logs (a list of games, each a list of actions) from the score ``start``
    (``Match.start``: the penalty points a ruling credited, else 0-0), with the penalty points
    given mid-match between its games (``penalties``: ``Match.penalties_at()``; ``partial``: the
    games of a match still in play, which need not reach every penalty yet: ``replay_match``).

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
            error.message = _("game %(number)s, %(error)s") % {"number": number, "error": error.message}
            raise
    replay = replay_match(rules, parsed, start=start, penalties=penalties, partial=partial)
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


def fold(name: str) -> str:
    """``name`` as names are compared: compatibility-decomposed (NFKD), its accents (combining
    marks) dropped, case-folded, its spaces collapsed: "Ștefan" and " stefan" fold alike."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.casefold().split())


@dataclass(frozen=True)
class FileSides:
    """What tells a .mat file's players apart for a match: the names each side of the match goes
    by (folded: :func:`fold`), the sides' names as pages show them, the side of whoever sends the
    file (``side``; None for the organiser, who answers for side 0), and which player of the file
    that side is (``file_side``: 0 the file's left player, 1 its right; None: found by name)."""

    aliases: tuple[frozenset[str], frozenset[str]]
    names: tuple[str, str]
    side: int | None = None
    file_side: int | None = None

    @property
    def anchor(self) -> int:
        return 0 if self.side is None else self.side


def file_sides(match: Match, *, side: int | None, file_side: int | None = None) -> FileSides:
    """The :class:`FileSides` of ``match`` for a file sent by side ``side`` (None: the organiser).
    A side goes by its name and by each of its players' display names and usernames. Reads the
    sides' players in one query; changes nothing, raises nothing."""
    ids = [(s.player_a_id, s.player_b_id) for s in match.sides]
    rows = {pk: (display, username) for pk, display, username in Player.objects.filter(
        pk__in=[pk for pair in ids for pk in pair if pk is not None]).values_list("pk", "display_name", "user__username")}
    aliases, names = [], []
    for pair in ids:
        players = [rows[pk] for pk in pair if pk in rows]
        name = " & ".join(display for display, _username in players)
        folded = {fold(name)} | {fold(display) for display, _username in players}
        folded |= {fold(username) for _display, username in players if username}
        aliases.append(frozenset(folded - {""}))
        names.append(name)
    return FileSides((aliases[0], aliases[1]), (names[0], names[1]), side, file_side)


def _needs_file_side(players: tuple[str, str], sides: FileSides) -> DomainError:
    if sides.side is None:
        message = _("The file's players are %(first)s and %(second)s, and neither name tells which of them is "
                    "%(name)s: say which player of the file is %(name)s.")
    else:
        message = _("The file's players are %(first)s and %(second)s, and neither name is yours: say which player "
                    "of the file is you.")
    return DomainError(message % {"first": players[0], "second": players[1], "name": sides.names[sides.anchor]},
                       code="file_side_unknown", field="file_side")


def mat_reversed(players: tuple[str, str], sides: FileSides) -> bool:
    """Whether the file whose players (left, right) are ``players`` has the match's sides the other
    way round (its left player is the match's side 1). The reporter's word (``file_side``) decides
    when given; else the names: each file player whose name is one side's alone says where he
    sits, and they must agree. Raises DomainError ``file_side_unknown`` (on the field
    ``file_side``) when neither tells."""
    if sides.file_side is not None:
        return sides.file_side != sides.anchor
    found = set()
    for file_index, name in enumerate(players):
        folded = fold(name)
        matching = [index for index in (0, 1) if folded in sides.aliases[index]]
        if len(matching) == 1:
            found.add(file_index != matching[0])
    if len(found) != 1:
        raise _needs_file_side(players, sides)
    return found.pop()


def _turned(action: Action) -> Action:
    return action if action.side is None else dataclasses.replace(action, side=1 - action.side)


def log_from_mat(name: str, data: bytes, rules: MatchRules, *, start: tuple[int, int] = (0, 0),
                 sides: FileSides | None = None, penalties=()) -> CheckedLog:
    """Read (:func:`mat_read`, within the limits) and check a .mat file for a match with
    ``rules``; its length must be the match's. Its games are replayed from the score ``start``,
    as :func:`log_from_json` does. With ``sides``, the file's players are matched to the match's
    sides (:func:`mat_reversed`) and, when the file has them the other way round, every action
    changes side (a play is written in its mover's own numbering: it reads the same for either);
    without, the file's left player is side 0.

    Raises DomainError for a file over a limit, a length mismatch or players that cannot be told
    apart (``file_side_unknown``), and the engine's errors (with the file's line and game) for
    anything the engine rejects, naming a side by its player (the file's, or the match's once the
    file is turned to the match's sides), never as "side 0".
    """
    mat = None
    try:
        mat = mat_read(name, data)
        check = check_mat(mat)
    except EngineError as error:
        error.details.setdefault("file", name)
        if mat is not None and mat.games:  # its players as its first game names them (left: side 0)
            error.message = name_sides(error.message, mat.games[0].players)
        raise
    if check.length != rules.length:
        raise errors.log_disagrees(_("%(name)s is a %(file_length)s-point match, this match is to %(length)s") % {
            "name": name, "file_length": check.length, "length": rules.length}, file=name)
    reversed_ = sides is not None and mat_reversed(check.players, sides)
    games = [[_turned(a) for a in game.replay.actions] if reversed_ else list(game.replay.actions)
             for game in check.games]
    if sum(len(g) for g in games) > settings.MAX_LOG_ACTIONS:
        raise errors.log_too_large(sum(len(g) for g in games), settings.MAX_LOG_ACTIONS)
    try:
        replay = replay_match(rules, games, start=start, penalties=penalties)
    except EngineError as error:
        error.message = name_sides(error.message, sides.names if sides is not None else check.players)
        raise
    return CheckedLog([[action_to_dict(a) for a in game] for game in games], replay)


def log_agrees_with_score(log: CheckedLog, score: tuple[int, int]) -> None:
    """Raise DomainError (``log_disagrees``) unless the replayed games produce ``score``, as it
    is or capped at the match length (``engine.scores.claim_agrees_with_full``)."""
    if not claim_agrees_with_full(log.replay.rules.length, score, log.final_score):
        found = log.final_score
        raise errors.log_disagrees(
            _("the game logs give %(found)s, not the claimed %(claimed)s") % {
                "found": f"{found[0]}-{found[1]}", "claimed": f"{score[0]}-{score[1]}"},
            game=len(log.replay.games) or None,
        )


def report_logs(report: Report) -> list | None:
    """The logs of ``report`` while it awaits the other side (pending), else None: what the other
    side reads before confirming. Read with the report by ``selectors.match_get``
    (``pending_games``); a report read without them (deferred) costs one query here."""
    if report.status != Report.Status.PENDING:
        return None
    if hasattr(report, "pending_games"):
        return report.pending_games
    if hasattr(report, "with_games") and not report.with_games:
        return None
    return report.games


def report_games(report: Report) -> list[Game] | None:
    """The games a pending report's logs hold (:func:`report_logs`), replayed under its match's
    rules, as unsaved :class:`~matches.models.Game` rows (``score_after`` added: the score after
    the game, uncapped), for the pages and the API to show what the report says. None without
    logs. Kept on the report (one replay per request); changes nothing in the database. A log that
    no longer replays (the match's rules changed since) gives no games rather than an error."""
    if not hasattr(report, "_games_shown"):
        logs = report_logs(report)
        report._games_shown = _games_of(report.match, logs) if logs else None
    return report._games_shown


def _games_of(match: Match, logs: list) -> list[Game] | None:
    try:
        replay = log_from_json(logs, match.rules(), start=match.start, penalties=match.penalties_at()).replay
    except (EngineError, DomainError):
        return None
    games = []
    for checked in replay.games:
        result = checked.result
        if result is None:
            continue
        game = Game(match=match, number=checked.number, score0=checked.score[0], score1=checked.score[1],
                    crawford=checked.crawford, winner=result.winner, points=result.points, cube=result.cube,
                    ending=result.ending, log=logs[checked.number - 1])
        after = list(checked.score)
        after[result.winner] += result.points
        game.score_after = (after[0], after[1])
        game.level = result.level
        games.append(game)
    return games
