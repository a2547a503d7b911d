"""The .mat (Jellyfish match) text format: read a file, check it against the engine, write one.

There is no formal specification (RULES.md §6). This module reads what GNU Backgammon, eXtreme
Gammon, Backgammon Galaxy and Backgammon Studio write, and writes what GNU Backgammon imports.

What :func:`read_mat` accepts
    * Text (``str``) or ``bytes``: UTF-8 with or without a byte-order mark, else latin-1. Line
      ends CRLF, CR or LF; tabs are expanded (8 columns) before columns are measured.
    * Blank lines anywhere. Lines starting with ``;`` or ``#`` are comments; those of the form
      ``; [Key "value"]`` are tags (the last one wins when a key repeats).
    * One match length line `` N point match`` (N = 0: a money session) before the games.
    * Per game a `` Game k` line (k = 1, 2, 3... in order), then the score line
      ``name : score   name : score`` giving both scores before the game. The left player is
      side 0. Names may hold spaces, accents, digits and colons; the line is split on the two
      ``: <digits>`` score pieces.
    * Numbered turn lines ``  3) 52: 13/8 13/11      61: 13/7 8/7``. The text after ``N)`` is cut
      into entries, each starting at a dice token ``dd:`` or a keyword: ``Doubles => N``,
      ``Takes``, ``Drops``, ``Beavers => N``, ``Raccoons => N``, ``Wins N point(s)`` (optionally
      `` and the match``), ``Losses N point(s)`` (keywords in any letter case). The first entry
      belongs to the left column (side 0) when it starts at most 15 characters from the line
      start, else to the right column (side 1); every later entry is in the right column. A
      column holds at most one turn entry, followed by any ``Wins``/``Losses`` claims. A repeated
      ``N)`` inside the line (a Galaxy quirk: ``24) 43: ...   24)  Losses 2 point ... Wins 2
      point and the match``) is skipped when it repeats the line's own number.
    * Unnumbered lines holding entries (``      Wins 2 point``): columns as above.
    * ``dd: <play>`` is a roll and a play; the play is kept as written (``13/7(2)``, ``24/13``,
      ``bar/22*``, ``6/off``, ``2/0``, ``25/22``) once :func:`engine.notation.parse_play` can read
      it. ``dd:`` alone (or ``dd: Cannot Move``, as Studio writes) is a roll without a play: the
      engine passes the turn when no play exists,
      and a roll followed by the game's end is a roll then a resignation. ``dd: ???`` or
      ``dd: ????`` (XG, Studio) is a roll then a resignation: the resign marker.
    * ``Wins``/``Losses`` are claims, checked by :func:`check_mat`, not actions. The side of a
      ``Losses`` line is the opposite of the game's ``Wins`` side when there is one: Galaxy
      writes ``Losses`` in whichever column comes next (real files show it in the winner's
      column, and at the very start of a line), so its column says nothing. Without a ``Wins``
      line, the ``Losses`` column names the loser.

What it rejects, with :class:`~engine.errors.MatParseError` and ``details["line"]``
    An empty file; lines other than comments before the length line; a second length line; no
    game; games out of order; a game without its score line; a numbered line before the first
    game; an entry that is neither a roll nor a cube action nor a claim (dice outside 1..6,
    ``5x:``, junk); a play that cannot be read; two turn entries in one column of a line; an
    action after the game's ``Wins``/``Losses`` line or after a resign marker; two ``Wins`` (or
    ``Losses``) lines in one game; a repeated ``N)`` with another number; a player name holding a
    control character. Messages quote the file with its control characters written out (``\x00``).
    Past a limit the caller gives (bytes, games, actions), :class:`~engine.errors.MatLimitError`
    as soon as reading passes it.

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

What :func:`write_mat` writes
    GNU Backgammon's layout: tags, `` N point match``, `` Game k``, the score line (``%-31s``
    for the left player and score), numbered lines ``%3d) `` with the left column padded to 28
    characters, ``Doubles => N``, ``Takes``, ``Drops`` and ``Wins N point(s)`` (``and the match``
    in the deciding game) on a line of its own. Plays are the engine's own steps written one die
    at a time, highest start first, hits marked, repeats grouped (``24/18* 18/13``,
    ``13/7(2)``): GNU Backgammon cannot expand a joined move that hits on the way (``24/18*/13``)
    or bears off with a higher die (``7/off`` for 53) and abandons the whole import at the first
    move it cannot read. Lines of 15 characters or less without a colon (`` 17)  Drops``) are
    padded to 16: GNU Backgammon reads the right column of such a line from the previous line
    still in its buffer.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..actions import (
    BACKGAMMON,
    GAMMON,
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
    Take,
)
from ..board import BAR, OFF
from ..errors import GameLogError, MatchError, MatLimitError, MatParseError, NotationError
from ..game import Game, GameReplay
from ..match import MatchRules, MatchState, Penalty, PenaltyAt, replay_match
from ..moves import Play
from ..notation import parse_play

__all__ = [
    "RIGHT_COLUMN_OFFSET",
    "Claim",
    "MatCheck",
    "MatFile",
    "MatGame",
    "MatGameCheck",
    "check_mat",
    "match_from_actions",
    "read_mat",
    "resign_level",
    "write_mat",
]

# An entry starting more than this many characters from the line start is in the right column.
# Left-column entries start right after "NN) " (offset 5 to 7); right-column ones at 33 or more.
RIGHT_COLUMN_OFFSET = 15

_LINE_END = re.compile(r"\r\n|\r|\n")
_TAG = re.compile(r'^[;#]\s*\[\s*([^\]"]*?)\s*"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*([0-9]{1,9})\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*game\s+([0-9]{1,9})\s*$", re.IGNORECASE)
# The score line "name : score   name : score" is read in two steps (:func:`_score_line`), not by
# one pattern such as ^\s*(\S.*?)\s*:\s*([0-9]{1,9})\s+(\S.*?)\s*:\s*([0-9]{1,9})\s*$: that
# pattern backtracks over every pair of colons, and a 100 kB line that almost matches took a minute.
_SCORE_END = re.compile(r":\s*([0-9]{1,9})\s*$")
_SCORE_MIDDLE = re.compile(r":\s*([0-9]{1,9})\s+(?=\S)")
_NUMBERED = re.compile(r"^\s*([0-9]{1,9})\)(.*)$")
_REPEATED_NUMBER = re.compile(r"(?<!\S)([0-9]{1,9})\)(?!\S)")
_ENTRY_START = re.compile(
    r"(?<!\S)(?:\S\S:|(?:doubles|takes|drops|beavers|raccoons|wins|losses)(?![a-z]))", re.IGNORECASE
)
_ROLL = re.compile(r"([1-6])([1-6]):(.*)", re.DOTALL)
_RESIGN_MARKER = re.compile(r"\?{3,4}")
_CANNOT_MOVE = re.compile(r"(?:cannot|can't)\s+move", re.IGNORECASE)
_CUBE = re.compile(r"(doubles|beavers|raccoons)(?:\s*=>\s*([0-9]{1,9}))?", re.IGNORECASE)
_TAKE = re.compile(r"takes", re.IGNORECASE)
_DROP = re.compile(r"drops", re.IGNORECASE)
_WINS = re.compile(r"wins\s+([0-9]{1,9})\s+points?(\s+and\s+the\s+match)?", re.IGNORECASE)
_LOSSES = re.compile(r"losses\s+([0-9]{1,9})\s+points?", re.IGNORECASE)

_EXPECTED_ENTRY = 'expected a roll such as "52:" or a cube action'
# Characters a message shows escaped (\x00, \ud800): control characters are invisible or break a
# line, and NUL or a lone surrogate cannot even be stored in PostgreSQL's text.
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
# What a player's name may not hold (C1 characters may: a latin-1 reading of a cp1252 name shows them).
_NOT_IN_NAME = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


# --- the file as read ---------------------------------------------------------------------


class Claim(NamedTuple):
    """A ``Wins N point(s)`` or ``Losses N point(s)`` line: who, how many points, the line."""

    side: int
    points: int
    and_match: bool
    line: int


@dataclass(frozen=True)
class MatGame:
    """One game as written: its score line, its actions (each with ``line``) and its claims.

    ``players`` are the names of the score line (left = side 0); ``score`` the scores it states
    before the game; ``wins``/``losses`` the claims (None when absent); ``resign_marker`` is
    ``(side, line)`` of a ``dd: ???`` roll, the roller having resigned.
    """

    number: int
    line: int
    players: tuple[str, str]
    score: tuple[int, int]
    score_line: int
    actions: tuple[Action, ...]
    wins: Claim | None = None
    losses: Claim | None = None
    resign_marker: tuple[int, int] | None = None


@dataclass(frozen=True)
class MatFile:
    """A read .mat file: its tags, its match length (0 = money session) and its games."""

    tags: dict[str, str]
    length: int
    games: tuple[MatGame, ...]
    length_line: int = 0


def _parse_error(line: int, message: str) -> MatParseError:
    return MatParseError(f"line {line}: {_escape(message)}", line=line)


def _in_game(error: MatParseError, game: int) -> MatParseError:
    """``error`` (raised at a line of game ``game``) led by the game: ``game 3, line 57: ...``,
    with ``details["game"]``. A person finds a game in an exporter's program first, then the line."""
    line = error.details.get("line")
    prefix = f"line {line}: "
    if "game" in error.details or not error.message.startswith(prefix):
        return error
    return MatParseError(f"game {game}, {prefix}{error.message[len(prefix):]}", line=line, game=game)


def _escape(text: str) -> str:
    return _UNPRINTABLE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                            else f"\\u{ord(m.group()):04x}", text)


def _show(text: str, limit: int = 60) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _score_line(line: str) -> tuple[str, int, str, int] | None:
    """The two names and scores of a score line, or None. Names may hold spaces and colons: the
    first name ends at the first ``: <digits> `` with a name after it, the second before the
    last ``: <digits>``. Linear in the line's length."""
    end = _SCORE_END.search(line)
    if end is None:
        return None
    head = line[: end.start()]
    start = len(head) - len(head.lstrip())
    colon = head.find(":", start + 1)
    while colon != -1:
        middle = _SCORE_MIDDLE.match(head, colon)
        if middle is not None:
            first, second = head[start:colon].rstrip(), head[middle.end():].rstrip()
            return first, int(middle.group(1)), second, int(end.group(1))
        colon = head.find(":", colon + 1)
    return None


def _decode(data: str | bytes | bytearray) -> str:
    if isinstance(data, (bytes, bytearray)):
        raw = bytes(data)
        if raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8):]
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("latin-1")
    if not isinstance(data, str):
        raise MatParseError(f"a .mat file is text or bytes, not {type(data).__name__}", line=1)
    return data[1:] if data.startswith("\ufeff") else data


class _GameBuilder:
    def __init__(self, number: int, line: int):
        self.number = number
        self.line = line
        self.players: tuple[str, str] | None = None
        self.score: tuple[int, int] = (0, 0)
        self.score_line = 0
        self.actions: list[Action] = []
        self.wins: Claim | None = None
        self.losses: Claim | None = None
        self.marker: tuple[int, int] | None = None
        self.ended_at: int | None = None  # line of the first claim

    def add(self, side: int, text: str, line: int) -> None:
        match = _WINS.fullmatch(text)
        if match:
            if self.wins is not None:
                raise _parse_error(line, f"a second Wins line in game {self.number} (the first is at line "
                                         f"{self.wins.line})")
            self.wins = Claim(side, int(match.group(1)), bool(match.group(2)), line)
            self.ended_at = self.ended_at or line
            return
        match = _LOSSES.fullmatch(text)
        if match:
            if self.losses is not None:
                raise _parse_error(line, f"a second Losses line in game {self.number} (the first is at line "
                                         f"{self.losses.line})")
            self.losses = Claim(side, int(match.group(1)), False, line)
            self.ended_at = self.ended_at or line
            return
        if self.ended_at is not None:
            raise _parse_error(line, f'game {self.number} ended at line {self.ended_at}: expected " Game '
                                     f'{self.number + 1}", found "{_show(text)}"')
        if self.marker is not None:
            raise _parse_error(line, f"side {self.marker[0]} resigned at line {self.marker[1]} (\"???\"): "
                                     f'only the Wins line may follow, found "{_show(text)}"')
        self.actions.extend(self._actions(side, text, line))

    def _actions(self, side: int, text: str, line: int) -> list[Action]:
        match = _ROLL.fullmatch(text)
        if match:
            roll = Roll(side, dice=(int(match.group(1)), int(match.group(2))), line=line)
            play = match.group(3).strip()
            if not play or _CANNOT_MOVE.fullmatch(play):
                return [roll]
            if _RESIGN_MARKER.fullmatch(play):
                self.marker = (side, line)
                return [roll]
            try:
                parse_play(play)
            except NotationError as error:
                raise _parse_error(line, f'cannot read the play "{_show(play)}": {error.message}') from None
            return [roll, Move(side, play=play, line=line)]
        match = _CUBE.fullmatch(text)
        if match:
            cls = {"doubles": Double, "beavers": Beaver, "raccoons": Raccoon}[match.group(1).lower()]
            value = int(match.group(2)) if match.group(2) else None
            return [cls(side, value=value, line=line)]
        if _TAKE.fullmatch(text):
            return [Take(side, line=line)]
        if _DROP.fullmatch(text):
            return [Drop(side, line=line)]
        raise _parse_error(line, f'{_EXPECTED_ENTRY}, found "{_show(text)}"')

    def build(self) -> MatGame:
        losses = self.losses
        if losses is not None and self.wins is not None:
            # The Losses line names the loser; its column does not (see the module docstring).
            losses = losses._replace(side=1 - self.wins.side)
        return MatGame(self.number, self.line, self.players, self.score, self.score_line, tuple(self.actions),
                       self.wins, losses, self.marker)


def _turn_line(game: _GameBuilder, line: str, lineno: int) -> None:
    numbered = _NUMBERED.match(line)
    if numbered:
        number, start = int(numbered.group(1)), numbered.start(2)

        def blank(repeat: re.Match) -> str:
            if int(repeat.group(1)) != number:
                raise _parse_error(lineno, f'a second turn number "{repeat.group(0)}" on the line of turn {number}')
            return " " * len(repeat.group(0))

        body = _REPEATED_NUMBER.sub(blank, line[start:])
    else:
        start, body = 0, line
    if not body.strip():
        return  # an empty numbered line (Studio writes one after the last turn)
    starts = [m.start() for m in _ENTRY_START.finditer(body)]
    lead = len(body) - len(body.lstrip())
    if not starts or starts[0] != lead:
        found = body[lead: starts[0] if starts and starts[0] > lead else len(body)]
        if numbered:
            raise _parse_error(lineno, f'{_EXPECTED_ENTRY}, found "{_show(found)}"')
        raise _parse_error(lineno, f'expected a numbered turn line such as "  3) 52: 13/8 13/11", a Wins line or '
                                   f'" Game {game.number + 1}", found "{_show(found)}"')
    ends = [*starts[1:], len(body)]
    turn_in_column: set[int] = set()
    for index, (begin, end) in enumerate(zip(starts, ends, strict=True)):
        text = body[begin:end].strip()
        side = 1 if index > 0 or start + begin > RIGHT_COLUMN_OFFSET else 0
        if not (_WINS.fullmatch(text) or _LOSSES.fullmatch(text)):
            if side in turn_in_column or (side == 1 and index > 1):
                raise _parse_error(lineno, f'one turn per column: unexpected "{_show(text)}"')
            turn_in_column.add(side)
        game.add(side, text, lineno)


def _check_size(data: str | bytes | bytearray, max_bytes: int) -> None:
    if isinstance(data, str):
        size = len(data.encode("utf-8", "surrogatepass")) if len(data) * 4 > max_bytes else len(data)
    elif isinstance(data, (bytes, bytearray)):
        size = len(data)
    else:
        return  # _decode names what it is
    if size > max_bytes:
        raise MatLimitError(f"the file is {size} bytes; the limit is {max_bytes} bytes", code="mat_too_large",
                            size=size, limit=max_bytes)


def read_mat(text: str | bytes, *, max_bytes: int | None = None, max_games: int | None = None,
             max_actions: int | None = None) -> MatFile:
    """Read a .mat match file (see the module docstring for what is accepted).

    Returns a :class:`MatFile` whose actions carry their line numbers. Raises
    :class:`~engine.errors.MatParseError` with ``details["line"]`` (1-based) and a message
    saying what was expected at that line. Nothing is replayed here: see :func:`check_mat`.

    The limits (None: none) bound the work an untrusted file can cause, checked as it is read so
    that a huge file stops early: ``max_bytes`` before decoding (a text counts as UTF-8),
    ``max_games`` at the first game line past it, ``max_actions`` (rolls, plays and cube actions
    as written, over all games) at the line that passes it. Raises
    :class:`~engine.errors.MatLimitError` (``mat_too_large`` with ``size``; ``too_many_games`` or
    ``too_many_actions`` with ``line`` and ``game``; each with ``limit``) naming the limit.
    """
    if max_bytes is not None:
        _check_size(text, max_bytes)
    lines = _LINE_END.split(_decode(text))
    actions_before = 0  # the actions of the games before the current one
    tags: dict[str, str] = {}
    length: int | None = None
    length_line = 0
    games: list[MatGame] = []
    current: _GameBuilder | None = None
    wants_score = False
    for lineno, raw in enumerate(lines, start=1):
        line = raw.expandtabs()
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in ";#":
            tag = _TAG.match(stripped)
            # A bracketed value with no name is a comment like any other: nothing to keep.
            if tag and tag.group(1):
                tags[tag.group(1)] = tag.group(2)
            continue
        if length is None:
            found = _LENGTH.match(line)
            if not found:
                raise _parse_error(lineno, f'expected the match length line such as " 7 point match", found '
                                           f'"{_show(stripped)}"')
            length, length_line = int(found.group(1)), lineno
            continue
        found = _GAME.match(line)
        if found:
            if wants_score:
                raise _parse_error(lineno, f"expected the score line of game {current.number}, found "
                                           f'"{_show(stripped)}"')
            if current is not None:
                games.append(current.build())
                actions_before += len(current.actions)
            expected = len(games) + 1
            if int(found.group(1)) != expected:
                raise _parse_error(lineno, f'expected " Game {expected}", found "{_show(stripped)}"')
            if max_games is not None and expected > max_games:
                raise MatLimitError(f"line {lineno}: game {expected} is past the limit of {max_games} games",
                                    code="too_many_games", line=lineno, game=expected, limit=max_games)
            current, wants_score = _GameBuilder(expected, lineno), True
            continue
        if wants_score:
            found = _score_line(line)
            if not found:
                raise _in_game(_parse_error(lineno, f'expected the score line of game {current.number} such as '
                                                    f'" Alice : 0    Bob : 0", found "{_show(stripped)}"'),
                               current.number)
            for name in (found[0], found[2]):
                if _NOT_IN_NAME.search(name):
                    raise _in_game(_parse_error(lineno, f'the player name "{_show(name)}" holds a control character'),
                                   current.number)
            current.players = (found[0], found[2])
            current.score = (found[1], found[3])
            current.score_line, wants_score = lineno, False
            continue
        if _LENGTH.match(line):
            raise _parse_error(lineno, f"a second match length line (the first is at line {length_line})")
        if current is None:
            if _NUMBERED.match(line):
                raise _parse_error(lineno, f'a numbered turn line before the first " Game 1" line: "{_show(stripped)}"')
            raise _parse_error(lineno, f'expected " Game 1", found "{_show(stripped)}"')
        try:
            _turn_line(current, line, lineno)
        except MatParseError as error:
            raise _in_game(error, current.number) from None
        if max_actions is not None and actions_before + len(current.actions) > max_actions:
            raise MatLimitError(f"line {lineno}: game {current.number} passes the limit of {max_actions} actions",
                                code="too_many_actions", line=lineno, game=current.number, limit=max_actions)
    last = max(len(lines) - 1 if len(lines) > 1 and not lines[-1] else len(lines), 1)  # a final line end ends a line
    if length is None:
        raise _parse_error(last, 'no match length line such as " 7 point match" (is this a .mat file?)')
    if wants_score:
        raise _parse_error(last, f"the file ends before the score line of game {current.number} "
                                 f"(line {current.line})")
    if current is None:
        raise _parse_error(last, f'no games: expected " Game 1" after the match length line (line {length_line})')
    games.append(current.build())
    return MatFile(tags, length, tuple(games), length_line)


# --- checking against the engine ----------------------------------------------------------


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


# --- writing -------------------------------------------------------------------------------


def _not_writable(message: str, **details) -> MatchError:
    return MatchError(message, code="not_writable", **details)


def _point_name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _die_by_die(play: Play) -> str:
    """The engine's steps of ``play``, one sub-move per die, hits marked, the highest start first
    and repeated sub-moves grouped: ``24/18* 18/13``, ``13/7(2)``, ``bar/22 6/off``.

    Not :attr:`Play.notation`'s joined form (``24/18*/13``, ``24/13``): GNU Backgammon expands a
    joined move only when it uses both dice exactly without hitting on the way, and abandons the
    import at the first move it cannot expand.
    """
    # Highest start first is an order in which the steps can be played (a checker reaches a point
    # from higher up before it moves on); the hits are marked in that order.
    opponent = list(play.before.opponent)
    words = []
    for start, end in sorted(play.steps, key=lambda step: (-step[0], -step[1])):
        hit = end != OFF and opponent[25 - end] == 1
        if hit:
            opponent[25 - end] = 0
        words.append(f"{_point_name(start)}/{_point_name(end)}{'*' if hit else ''}")
    grouped: list[list] = []
    for word in words:
        if grouped and grouped[-1][0] == word:
            grouped[-1][1] += 1
        else:
            grouped.append([word, 1])
    return " ".join(word if count == 1 else f"{word}({count})" for word, count in grouped)


def _entries(game: MatGameCheck) -> list[tuple[int, str]]:
    replay = game.replay
    actions, frames = replay.actions, replay.frames
    entries: list[tuple[int, str]] = []
    index = 0
    while index < len(actions):
        action, frame = actions[index], frames[index]
        if isinstance(action, Roll):
            text = f"{action.dice[0]}{action.dice[1]}:"
            following = actions[index + 1] if index + 1 < len(actions) else None
            if isinstance(following, Move) and following.side == action.side:
                play = replay.plays[index + 1]
                if play is None:
                    raise _not_writable(f"game {game.number}: the condoned play {following.play!r} cannot be "
                                        f"written to a .mat file", game=game.number)
                notation = _die_by_die(play)
                if notation:
                    text += " " + notation
                index += 1
            entries.append((action.side, text))
        elif isinstance(action, Double):
            entries.append((action.side, f" Doubles => {frame.cube * 2}"))
        elif isinstance(action, Beaver):
            entries.append((action.side, f" Beavers => {frame.cube * 4}"))
        elif isinstance(action, Raccoon):
            entries.append((action.side, f" Raccoons => {frame.cube * 2}"))
        elif isinstance(action, Take):
            entries.append((action.side, " Takes"))
        elif isinstance(action, Drop):
            entries.append((action.side, " Drops"))
        elif isinstance(action, OpeningTie):
            if frames[index + 1].cube != frame.cube:
                raise _not_writable(f"game {game.number}: an automatic double cannot be written to a .mat file",
                                    game=game.number)
        elif not isinstance(action, (Resign, Accept, Decline)):
            raise _not_writable(f"game {game.number}: {action.describe()} cannot be written", game=game.number)
        index += 1
    return entries


def _game_text(game: MatGameCheck, players: tuple[str, str], deciding: bool) -> list[str]:
    left = f"{players[0]} : {game.score[0]}"
    lines = [f" Game {game.number}", f" {left:<31}{'  ' if len(left) >= 30 else ''}{players[1]} : {game.score[1]}"]
    rows: list[list[str | None]] = []
    for side, text in _entries(game):
        if side == 1 and rows and rows[-1][1] is None:
            rows[-1][1] = text
        else:
            rows.append([text, None] if side == 0 else [None, text])
    for number, (left_text, right_text) in enumerate(rows, start=1):
        row = f"{number:3d}) {left_text or ''}"
        if right_text is not None:
            row = row.ljust(33) if len(row) <= 31 else row + "  "
            row += right_text
        # GNU Backgammon reads a line of 15 characters or less without a colon (" 17)  Drops")
        # with the previous line's right column still in its buffer: pad such lines.
        lines.append(row.rstrip().ljust(16))
    if game.winner is not None:
        points = game.cube * game.level if game.ending == "resign" else game.points
        claim = f"Wins {points} point{'s' if points != 1 else ''}{' and the match' if deciding else ''}"
        lines.append((" " * 6 if game.winner == 0 else " " * 34) + claim)
    return lines


def _check_writable(match: MatCheck, tags: Mapping[str, str]) -> None:
    for key, value in tags.items():
        if not key or re.search(r'["\]\r\n]', key) or re.search(r"[\r\n]", value):
            raise _not_writable(f"the tag {key!r}: {value!r} cannot be written")
    for name in match.players:
        if not name.strip() or re.search(r"[\r\n]", name):
            raise _not_writable(f"the player name {name!r} cannot be written")
    probe = _score_line(f" {match.players[0]} : 0   {match.players[1]} : 0")
    if not probe or (probe[0], probe[2]) != tuple(match.players):
        raise _not_writable(f"the player names {match.players!r} would not read back from a score line")


def write_mat(match: MatCheck, *, tags: Mapping[str, str] | None = None) -> str:
    """Write ``match`` (from :func:`check_mat` or :func:`match_from_actions`) as .mat text.

    ``tags`` default to the match's own; the ``Crawford`` tag (matches) or ``Jacoby`` tag (money
    sessions) is always set to the rules used. Plays are written in the engine's notation; a
    resignation as the roll (if any) and ``Wins N`` with N = cube x level. Returns the text
    (LF line ends). Raises :class:`~engine.errors.MatchError` (code ``not_writable``) for what
    the format cannot hold: a condoned play, an automatic double, names or tags with line breaks,
    names that would not read back.
    """
    merged = dict(match.tags if tags is None else tags)
    if match.length:
        merged["Crawford"] = "On" if match.crawford else "Off"
    elif match.rules.jacoby:
        merged["Jacoby"] = "On"
    _check_writable(match, merged)
    out = [f'; [{key} "{value}"]' for key, value in merged.items()]
    if out:
        out.append("")
    out += [f" {match.length} point match", ""]
    state = MatchState(match.rules)
    for game in match.games:
        deciding = False
        if game.winner is not None:
            state = state.after(game.replay.result)
            deciding = state.is_over
        out += _game_text(game, match.players, deciding)
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
