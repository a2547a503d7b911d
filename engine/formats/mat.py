"""The .mat (Jellyfish match) text format: reading a file (:mod:`engine.formats.mat_check` checks
it against the engine, :mod:`engine.formats.mat_write` writes one).

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
    * ``Wins``/``Losses`` are claims, checked by :func:`~engine.formats.mat_check.check_mat`, not actions. The side of a
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
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import NamedTuple

from ..actions import (
    Action,
    Beaver,
    Double,
    Drop,
    Move,
    Raccoon,
    Roll,
    Take,
)
from ..errors import MatLimitError, MatParseError, NotationError
from ..notation import parse_play

__all__ = [
    "RIGHT_COLUMN_OFFSET",
    "Claim",
    "MatFile",
    "MatGame",
    "read_mat",
    "score_line",
]


# An entry starting more than this many characters from the line start is in the right column.
# Left-column entries start right after "NN) " (offset 5 to 7); right-column ones at 33 or more.
RIGHT_COLUMN_OFFSET = 15

_LINE_END = re.compile(r"\r\n|\r|\n")
_TAG = re.compile(r'^[;#]\s*\[\s*([^\]"]*?)\s*"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*([0-9]{1,9})\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*game\s+([0-9]{1,9})\s*$", re.IGNORECASE)
# The score line "name : score   name : score" is read in two steps (:func:`score_line`), not by
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


def score_line(line: str) -> tuple[str, int, str, int] | None:
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
    saying what was expected at that line. Nothing is replayed here: see :func:`~engine.formats.mat_check.check_mat`.

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
            found = score_line(line)
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
