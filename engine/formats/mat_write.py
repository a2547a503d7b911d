"""A match written as a .mat file, for GNU Backgammon to import.

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

import re
from collections.abc import Mapping

from ..actions import (
    Accept,
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
from ..errors import MatchError
from ..match import MatchState
from ..moves import Play
from .mat import score_line
from .mat_check import MatCheck, MatGameCheck

__all__ = [
    "write_mat",
]


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
    probe = score_line(f" {match.players[0]} : 0   {match.players[1]} : 0")
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
