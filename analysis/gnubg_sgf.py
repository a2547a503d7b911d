"""GNU Backgammon's own analysis, as its ``save match`` writes it (SGF, ``GM[6]``), read back.

PURE: no Django, no gnubg. gnubg's SGF (its sgf.c, format version 3) holds every figure its
``analyse match`` found, printed with six decimals: one tree per game, one node per record:

- the game's header: ``MI[length:L][game:G][ws:S0][bs:S1]``, ``RU[...]`` (``CrawfordGame`` on
  the Crawford game), ``RE[W+n]`` and the game's statistics ``GS[...]``;
- a turn, ``W[52abcd]`` / ``B[...]`` (W is gnubg's player 0, B player 1): the dice, then the
  play as letter pairs (from, to) in the mover's numbering (``a`` = his 1-point, ``y`` the bar,
  ``z`` off); with ``DA[...]`` the cube decision before the roll, ``A[i][move E ver 3 p1..p5
  score ...]...`` the plays gnubg ranked (best first; ``i`` the played one's rank) and
  ``LU[x]`` the roll's luck;
- ``W[double]``, ``B[take]``, ``B[drop]``: the cube actions, each with the double's ``DA``.

``DA[E ver 3 <plies><C> <det> <noise> <prune> o0 .. o6 t0 .. t6]``: the seven outputs of gnubg's
cube evaluation when no double is made (``o``) and after double/take (``t``); the last of each,
the cubeful figure, is an equity in money play and a match winning chance in match play.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# One of gnubg's ranked plays: its (from, to) pairs in the mover's numbering (24 the bar, -1 off),
# and gnubg's cubeful equity after it at the analysis depth.
RankedPlay = tuple[tuple[int, ...], float]


class Ranked:
    """gnubg's ranked plays of one turn, read as they are asked for: a turn lists a few dozen, the
    analysis reads two (the best and the played)."""

    __slots__ = ("_items", "_raw", "_side")

    def __init__(self, raw: list[str], side: int):
        self._raw, self._side = raw, side
        self._items: dict[int, RankedPlay] = {}

    def __len__(self) -> int:
        return len(self._raw)

    def __getitem__(self, index: int) -> RankedPlay:
        if index < 0:
            index += len(self._raw)
        if index not in self._items:
            self._items[index] = _ranked(self._raw[index], self._side)
        return self._items[index]

    def __iter__(self):
        return (self[index] for index in range(len(self._raw)))

    def __eq__(self, other) -> bool:
        return list(self) == list(other)


class SgfError(ValueError):
    """gnubg's SGF could not be read (a malformed file, not one gnubg wrote)."""


@dataclass
class Record:
    """One record of a game as gnubg kept it."""

    kind: str  # "move", "double", "take", "drop"
    side: int  # gnubg's player: 0 (W) or 1 (B)
    dice: tuple[int, int] | None = None
    move: tuple[int, ...] = ()
    ranked: Ranked | list[RankedPlay] = field(default_factory=list)
    played_rank: int | None = None
    cube_outputs: tuple[tuple[float, ...], tuple[float, ...]] | None = None
    luck: float | None = None
    skill: str = ""  # gnubg's mark of the play (or of the cube action): "", "doubtful", "error", "blunder"
    cube_skill: str = ""  # on a turn, gnubg's mark of the no-double before the roll
    context: dict | None = None  # how gnubg evaluated the best play: depth, cubeful, pruning, noise


@dataclass
class Game:
    """One game of gnubg's file: its header and its records in order."""

    number: int
    score: tuple[int, int]
    length: int
    crawford_game: bool
    records: list[Record]
    stats: dict[str, list[float]]


def _properties(node: str) -> dict[str, list[str]]:
    """The properties of one node's text (after its ``;``): each name with its values, each value
    in brackets with "\\]" and "\\\\" escaped (str.find: a node holds a few dozen values)."""
    props: dict[str, list[str]] = {}
    name = ""
    at = 0
    while (opening := node.find("[", at)) >= 0:
        head = node[at:opening].strip()
        if head:
            if not head.isalpha():
                raise SgfError(f"a property name was expected, not {head[:20]!r}")
            name = head
        elif not name:
            raise SgfError("a value without a property name")
        closing = node.find("]", opening + 1)
        while closing > 0 and _escaped(node, closing):
            closing = node.find("]", closing + 1)
        if closing < 0:
            raise SgfError(f"the value of {name} is not closed")
        value = node[opening + 1:closing]
        if "\\" in value:
            value = re.sub(r"\\(.)", r"\1", value, flags=re.S)
        props.setdefault(name, []).append(value)
        at = closing + 1
    return props


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd number of backslashes."""
    count = 0
    while at - count - 1 >= 0 and text[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _point(letter: str, side: int) -> int:
    """gnubg's point index (0..23, 24 the bar, -1 off) of a move letter written by ``side``."""
    if letter == "y":
        return 24
    if letter == "z":
        return -1
    return ord("x") - ord(letter) if side else ord(letter) - ord("a")


def _move(letters: str, side: int) -> tuple[int, ...]:
    points = [_point(letter, side) for letter in letters]
    if len(points) % 2:
        raise SgfError(f"the play {letters!r} has an odd number of points")
    return tuple(points)


def _context(value: str) -> dict | None:
    """The evaluation context gnubg wrote after a ranked play's figures (sgf.c, "<plies>[C] 0
    <deterministic> <noise> <prune>"), or None for a rollout."""
    words = value.partition(" ")[2].split()
    if len(words) < 14 or words[0] != "E":
        return None
    return {"evaluated_plies": int(words[9].rstrip("C")), "cubeful": words[9].endswith("C"),
            "noise": float(words[12]), "pruning": words[13] == "1"}


def _skill(props: dict[str, list[str]], bad: str, doubtful: str) -> str:
    if bad in props:
        return "blunder" if props[bad] and props[bad][0] == "2" else "error"
    return "doubtful" if doubtful in props else ""


def _ranked(value: str, side: int) -> RankedPlay:
    letters, _, rest = value.partition(" ")
    words = rest.split()
    # "E ver 3 p1 p2 p3 p4 p5 score plies..." (an evaluation); a rollout ("X ver 3 Score s ...")
    if len(words) >= 9 and words[0] == "E":
        return _move(letters, side), float(words[8])
    if len(words) >= 5 and words[0] == "X":
        return _move(letters, side), float(words[4])
    raise SgfError(f"the ranked play {value!r} carries no evaluation")


def _cube_outputs(value: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
    words = value.split()
    if len(words) < 21 or words[0] != "E":
        raise SgfError(f"the cube analysis {value!r} is not an evaluation")
    figures = [float(word) for word in words[7:21]]
    return tuple(figures[:7]), tuple(figures[7:])


def _header(props: dict[str, list[str]], number: int) -> tuple[int, tuple[int, int], bool]:
    info = {}
    for item in props.get("MI", []):
        key, _, value = item.partition(":")
        info[key] = value
    try:
        length = int(info.get("length", "0"))
        score = (int(info.get("ws", "0")), int(info.get("bs", "0")))
    except ValueError as exc:
        raise SgfError(f"game {number}: the match information {props.get('MI')!r} is not numbers") from exc
    rules = ":".join(props.get("RU", [])).split(":")
    return length, score, "CrawfordGame" in rules


def _stats(values: list[str]) -> dict[str, list[float]]:
    stats: dict[str, list[float]] = {}
    for value in values:
        key, _, numbers = value.partition(":")
        stats[key] = [float(word) for word in numbers.split()]
    return stats


def _record(name: str, values: list[str], props: dict[str, list[str]]) -> Record:
    side = 0 if name == "W" else 1
    value = values[0] if values else ""
    record: Record
    if value in ("double", "take", "drop"):
        record = Record(value, side)
    else:
        if len(value) < 2 or not value[:2].isdigit():
            raise SgfError(f"the turn {name}[{value}] has no dice")
        record = Record("move", side, dice=(int(value[0]), int(value[1])), move=_move(value[2:], side))
        analysis = props.get("A")
        if analysis:
            record.played_rank = int(analysis[0])
            record.ranked = Ranked(analysis[1:], side)
            record.context = _context(analysis[1]) if len(analysis) > 1 else None
        if "LU" in props:
            record.luck = float(props["LU"][0])
    if "DA" in props:
        record.cube_outputs = _cube_outputs(props["DA"][0])
    record.skill = _skill(props, "BM", "DO")
    record.cube_skill = _skill(props, "BC", "DC")
    return record


def read_sgf(text: str) -> list[Game]:
    """Every game of gnubg's saved match, in order; raises :class:`SgfError` when malformed."""
    games: list[Game] = []
    # gnubg starts each game with "(;" and each record on a new line with ";"; no value of its
    # holds a newline followed by ";" (comments escape nothing of the kind, and it writes none).
    for tree in text.split("(;")[1:]:
        nodes = tree.split("\n;")
        props = _properties(nodes[0])
        length, score, crawford_game = _header(props, len(games) + 1)
        game = Game(len(games) + 1, score, length, crawford_game, [], _stats(props.get("GS", [])))
        games.append(game)
        for node in nodes[1:]:
            props = _properties(node)
            for name in ("W", "B"):
                if name in props:
                    game.records.append(_record(name, props[name], props))
    if not games:
        raise SgfError("no game was found")
    return games
