"""Position and match identifiers: GNU Backgammon Position ID and Match ID, eXtreme Gammon XGID.

RULES.md §6 "Position and match identifiers" defines the three formats; this module writes and
reads them exactly, so that an id pasted from GNU Backgammon or eXtreme Gammon names the same
moment here, and an id written here opens the same position there.

Sides. Position IDs and Match IDs use our side numbers directly: a Match ID's "player 0" is our
side 0. An XGID has no side numbers, only a *bottom* player (upper-case checkers, turn ``1``,
cube owner ``1``, the first score) and a *top* player (lower-case, ``-1``, ``-1``, the second
score). This module maps **side 0 to the bottom player and side 1 to the top player**, in both
directions, and the XGID's 24 points are side 0's own numbering.

(GNU Backgammon's own XGID import maps the bottom player to *its* player 1; that only matters
when comparing its Match IDs with ours, see tests/engine/test_ids.py.)

Every decoding error is an :class:`~engine.errors.IdError` whose ``code`` says what is wrong
(``bad_length``, ``bad_character``, ``too_many_checkers`` ...) and whose ``details['kind']`` says
which kind of id was being read (``position_id``, ``match_id`` or ``xgid``).
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

from .board import BAR, CHECKERS, OFF, Position
from .errors import IdError

__all__ = [
    "GAME_DROP",
    "GAME_NONE",
    "GAME_OVER",
    "GAME_PLAYING",
    "GAME_RESIGNED",
    "MatchId",
    "Xgid",
    "match_id",
    "match_id_decode",
    "position_from_id",
    "position_id",
    "xgid",
    "xgid_decode",
]

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_SEXTET = {char: value for value, char in enumerate(_ALPHABET)}

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
_POSITION_BITS = 80
# 12 base64 characters carry 72 bits; gnubg uses 67 of them (see MatchId.jacoby).
_MATCH_BITS = 72
_MAX_LOG_CUBE = 15
_MAX_FIELD = 0x7FFF

GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROP = range(5)


def _fail(kind: str, code: str, message: str) -> IdError:
    return IdError(message, code=code, kind=kind)


def _sextets(text: str, length: int, kind: str, label: str) -> int:
    """The characters of a base64 id as one big-endian integer of ``6 * length`` bits."""
    if not isinstance(text, str):
        raise _fail(kind, "bad_type", f"a {label} is a string, not {type(text).__name__}")
    if len(text) != length:
        raise _fail(kind, "bad_length", f"a {label} has {length} characters, not {len(text)}: {text!r}")
    value = 0
    for index, char in enumerate(text):
        sextet = _SEXTET.get(char)
        if sextet is None:
            raise _fail(
                kind, "bad_character", f"{char!r} at position {index + 1} of {text!r} is not a base64 character"
            )
        value = value << 6 | sextet
    return value


def _log2_cube(value: int, kind: str, what: str = "cube value") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or value & (value - 1):
        raise _fail(kind, "bad_cube", f"the {what} must be a power of two, not {value!r}")
    log = value.bit_length() - 1
    if log > _MAX_LOG_CUBE:
        raise _fail(kind, "bad_cube", f"the {what} {value} is above {1 << _MAX_LOG_CUBE}")
    return log


# --- Position ID ----------------------------------------------------------------------------


def position_id(position: Position) -> str:
    """Return the 14-character GNU Backgammon Position ID of ``position``.

    The id is written from the side on roll's point of view but names neither side, so
    :func:`position_from_id` must be told ``position.turn`` to rebuild this exact position.

    Raises :class:`~engine.errors.PositionError` if ``position`` is not a valid position.
    """
    position.validate()
    bits = 0
    index = 0
    # The side NOT on roll comes first (RULES.md §6: gnubg's manual says otherwise, gnubg does this).
    for board in (position.opponent, position.mover):
        for point in range(1, BAR + 1):
            count = board[point]
            bits |= ((1 << count) - 1) << index
            index += count + 1
    return base64.b64encode(bits.to_bytes(_POSITION_BITS // 8, "little")).decode("ascii")[:POSITION_ID_LENGTH]


def position_from_id(text: str, turn: int = 0) -> Position:
    """Return the :class:`Position` named by a GNU Backgammon Position ID, ``turn`` on roll.

    Checkers not on the board or the bar are borne off.

    Raises :class:`~engine.errors.IdError` with code ``bad_type``, ``bad_length``,
    ``bad_character``, ``too_many_checkers`` (more than 15 for a side, or the bits run out),
    ``leftover_bits`` (set bits after both sides' checkers, including the padding of the last
    character), ``shared_point`` (both sides on one point) or ``bad_turn``.
    """
    kind = "position_id"
    if turn not in (0, 1) or isinstance(turn, bool):
        raise _fail(kind, "bad_turn", f"the side on roll must be 0 or 1, not {turn!r}")
    value = _sextets(text, POSITION_ID_LENGTH, kind, "Position ID")
    # 14 characters hold 84 bits; the 80 of the id are followed by 4 padding bits that must be 0.
    if value & 0xF:
        raise _fail(kind, "leftover_bits", f"the last character of {text!r} has padding bits set")
    bits = int.from_bytes((value >> 4).to_bytes(_POSITION_BITS // 8, "big"), "little")

    index = 0
    boards = []
    for label in ("the side not on roll", "the side on roll"):
        cells = [0] * 26
        for point in range(1, BAR + 1):
            while bits >> index & 1:
                cells[point] += 1
                index += 1
                if index >= _POSITION_BITS:
                    raise _fail(kind, "too_many_checkers", f"{text!r} runs out of bits: too many checkers")
            index += 1
        on_board = sum(cells)
        if on_board > CHECKERS:
            raise _fail(kind, "too_many_checkers", f"{text!r} gives {label} {on_board} checkers, more than {CHECKERS}")
        cells[OFF] = CHECKERS - on_board
        boards.append(tuple(cells))
    if bits >> index:
        raise _fail(kind, "leftover_bits", f"{text!r} has bits set after both sides' checkers")

    theirs, mine = boards
    for point in range(1, 25):
        if mine[point] and theirs[25 - point]:
            raise _fail(
                kind,
                "shared_point",
                f"{text!r} puts both sides on one point (point {point} of the side on roll)",
            )
    return Position((mine, theirs) if turn == 0 else (theirs, mine), turn)


# --- Match ID -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchId:
    """Everything a GNU Backgammon Match ID says about the moment, with readable names.

    - ``cube_value``: the cube's face, 1, 2, 4 ... 32768; ``cube_owner``: ``None`` (centred), 0 or 1.
    - ``turn``: the side on roll (gnubg's ``fMove``); ``to_act``: the side who must act now
      (gnubg's ``fTurn``), the opponent of ``turn`` while a double or resignation is pending.
    - ``crawford``: this is the Crawford game. ``game_state``: ``GAME_NONE`` .. ``GAME_DROP``
      (gnubg's numbering, 0..4).
    - ``double_offered``; ``resigned``: 0, or the level offered (1 single, 2 gammon, 3 backgammon).
    - ``dice``: ``(0, 0)`` before the roll, else both dice, higher first (normalised on
      construction, as gnubg writes them).
    - ``match_length``: 0 for money; ``score``: (side 0, side 1).
    - ``jacoby``: the money-game Jacoby rule. gnubg stores it in a 67th bit that RULES.md's 66
      do not list (bit 66, set when Jacoby is *off*: such ids end in ``E`` rather than ``A``); it
      is kept so that ids round-trip. gnubg writes Jacoby off for every match.

    Construction validates every field and raises :class:`~engine.errors.IdError` on a bad one.
    """

    cube_value: int = 1
    cube_owner: int | None = None
    turn: int = 0
    crawford: bool = False
    game_state: int = GAME_PLAYING
    to_act: int = 0
    double_offered: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        kind = "match_id"
        _log2_cube(self.cube_value, kind)
        if self.cube_owner not in (None, 0, 1) or isinstance(self.cube_owner, bool):
            raise _fail(kind, "bad_cube_owner", f"the cube owner must be None, 0 or 1, not {self.cube_owner!r}")
        for name in ("turn", "to_act"):
            if getattr(self, name) not in (0, 1):
                raise _fail(kind, "bad_turn", f"{name} must be 0 or 1, not {getattr(self, name)!r}")
        if not GAME_NONE <= self.game_state <= GAME_DROP:
            raise _fail(kind, "bad_game_state", f"the game state must be 0..4, not {self.game_state!r}")
        if not 0 <= self.resigned <= 3:
            raise _fail(kind, "bad_resignation", f"the resignation level must be 0..3, not {self.resigned!r}")
        dice = tuple(self.dice)
        if len(dice) != 2 or not (dice == (0, 0) or all(1 <= die <= 6 for die in dice)):
            raise _fail(kind, "bad_dice", f"the dice must be (0, 0) or two numbers 1..6, not {self.dice!r}")
        object.__setattr__(self, "dice", (max(dice), min(dice)))
        if not 0 <= self.match_length <= _MAX_FIELD:
            raise _fail(
                kind, "bad_match_length", f"the match length must be 0..{_MAX_FIELD}, not {self.match_length!r}"
            )
        score = tuple(self.score)
        top = self.match_length or _MAX_FIELD
        if len(score) != 2 or not all(0 <= points <= top for points in score):
            raise _fail(kind, "bad_score", f"the score must be two numbers 0..{top}, not {self.score!r}")
        object.__setattr__(self, "score", score)
        if self.crawford and not self.match_length:
            raise _fail(kind, "crawford_in_money", "a money game has no Crawford game")
        for name in ("crawford", "double_offered", "jacoby"):
            object.__setattr__(self, name, bool(getattr(self, name)))


# (offset, width) of each Match ID field, least-significant bit first.
_MATCH_LAYOUT = {
    "log_cube": (0, 4),
    "cube_owner": (4, 2),
    "turn": (6, 1),
    "crawford": (7, 1),
    "game_state": (8, 3),
    "to_act": (11, 1),
    "double_offered": (12, 1),
    "resigned": (13, 2),
    "die1": (15, 3),
    "die2": (18, 3),
    "match_length": (21, 15),
    "score0": (36, 15),
    "score1": (51, 15),
    "no_jacoby": (66, 1),
}
_CENTRED = 3


def match_id(m: MatchId) -> str:
    """Return the 12-character GNU Backgammon Match ID of ``m``.

    Raises nothing for a constructed :class:`MatchId` (construction validated it).
    """
    fields = {
        "log_cube": m.cube_value.bit_length() - 1,
        "cube_owner": _CENTRED if m.cube_owner is None else m.cube_owner,
        "turn": m.turn,
        "crawford": int(m.crawford),
        "game_state": m.game_state,
        "to_act": m.to_act,
        "double_offered": int(m.double_offered),
        "resigned": m.resigned,
        "die1": m.dice[0],
        "die2": m.dice[1],
        "match_length": m.match_length,
        "score0": m.score[0],
        "score1": m.score[1],
        "no_jacoby": int(not m.jacoby),
    }
    bits = 0
    for name, (offset, _width) in _MATCH_LAYOUT.items():
        bits |= fields[name] << offset
    return base64.b64encode(bits.to_bytes(_MATCH_BITS // 8, "little")).decode("ascii")


def match_id_decode(text: str) -> MatchId:
    """Return the :class:`MatchId` named by a GNU Backgammon Match ID.

    Dice written lower die first (gnubg never writes them so) are accepted and normalised.

    Raises :class:`~engine.errors.IdError` with code ``bad_type``, ``bad_length``,
    ``bad_character``, ``leftover_bits`` (bits 67..71 set), ``bad_cube_owner`` (owner bits 2),
    ``bad_game_state``, ``bad_dice``, ``bad_score`` or ``crawford_in_money``.
    """
    kind = "match_id"
    value = _sextets(text, MATCH_ID_LENGTH, kind, "Match ID")
    bits = int.from_bytes(value.to_bytes(_MATCH_BITS // 8, "big"), "little")
    fields = {name: bits >> offset & ((1 << width) - 1) for name, (offset, width) in _MATCH_LAYOUT.items()}
    if bits >> 67:
        raise _fail(kind, "leftover_bits", f"{text!r} has bits set after the 67 gnubg uses")
    if fields["cube_owner"] == 2:
        raise _fail(kind, "bad_cube_owner", f"{text!r} has cube owner 2 (0, 1 or 3 = centred)")
    owner = fields["cube_owner"]
    return MatchId(
        cube_value=1 << fields["log_cube"],
        cube_owner=None if owner == _CENTRED else owner,
        turn=fields["turn"],
        crawford=bool(fields["crawford"]),
        game_state=fields["game_state"],
        to_act=fields["to_act"],
        double_offered=bool(fields["double_offered"]),
        resigned=fields["resigned"],
        dice=(fields["die1"], fields["die2"]),
        match_length=fields["match_length"],
        score=(fields["score0"], fields["score1"]),
        jacoby=not fields["no_jacoby"],
    )


# --- XGID -----------------------------------------------------------------------------------

XGID_PREFIX = "XGID="
_DEFAULT_MAX_CUBE = 1024
# The dice field when no dice are showing because of a cube action.
_CUBE_ACTIONS = {"D": 0, "B": 1, "R": 2}
_CUBE_ACTION_TEXT = {beavers: text for text, beavers in _CUBE_ACTIONS.items()}
# Canonical integers only, so that decoding then encoding gives back the same text.
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]{0,5})")


@dataclass(frozen=True, slots=True)
class Xgid:
    """Everything an eXtreme Gammon XGID says about the moment (side 0 = XG's bottom player).

    - ``position``: the checkers and the side on roll (``turn``); while a double is pending the
      side on roll is the doubler.
    - ``cube_value``: the cube's face (1, 2, 4 ...); while a double is pending, the value before it.
      ``cube_owner``: ``None`` (centred), 0 or 1.
    - ``dice``: ``(0, 0)`` when not rolled, else the two dice as written.
    - ``double_offered``: the side on roll has doubled (``D`` in the dice field); ``beavers``: 1 if
      the opponent then beavered (``B``), 2 if the doubler raccooned too (``R``); money only.
    - ``score``: (side 0, side 1), each below ``match_length`` in a match; ``match_length``: 0
      for money.
    - ``crawford``: the Crawford game (match only; the cube is then 1 and centred).
      ``jacoby``, ``beaver_rule``: the money-game rules in force (the XGID field that holds
      ``crawford`` in a match: bit 1 Jacoby, bit 2 beavers).
    - ``max_cube``: the cube's face limit (XG writes its log2, usually 10 = 1024).

    Construction validates every field and raises :class:`~engine.errors.IdError` on a bad one.
    """

    position: Position
    cube_value: int = 1
    cube_owner: int | None = None
    dice: tuple[int, int] = (0, 0)
    double_offered: bool = False
    beavers: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beaver_rule: bool = False
    match_length: int = 0
    max_cube: int = _DEFAULT_MAX_CUBE

    def __post_init__(self) -> None:
        kind = "xgid"
        if not isinstance(self.position, Position):
            raise _fail(kind, "bad_position", f"the position must be a Position, not {type(self.position).__name__}")
        self.position.validate()
        _log2_cube(self.cube_value, kind)
        _log2_cube(self.max_cube, kind, "maximum cube")
        if self.cube_owner not in (None, 0, 1) or isinstance(self.cube_owner, bool):
            raise _fail(kind, "bad_cube_owner", f"the cube owner must be None, 0 or 1, not {self.cube_owner!r}")
        dice = tuple(self.dice)
        if len(dice) != 2 or not (dice == (0, 0) or all(1 <= die <= 6 for die in dice)):
            raise _fail(kind, "bad_dice", f"the dice must be (0, 0) or two numbers 1..6, not {self.dice!r}")
        object.__setattr__(self, "dice", dice)
        if not isinstance(self.match_length, int) or not 0 <= self.match_length <= _MAX_FIELD:
            raise _fail(
                kind, "bad_match_length", f"the match length must be 0..{_MAX_FIELD}, not {self.match_length!r}"
            )
        score = tuple(self.score)
        if len(score) != 2 or not all(isinstance(points, int) and 0 <= points <= _MAX_FIELD for points in score):
            raise _fail(kind, "bad_score", f"the score must be two numbers 0..{_MAX_FIELD}, not {self.score!r}")
        if self.match_length and max(score) >= self.match_length:
            raise _fail(kind, "bad_score", f"score {score} is not below the match length {self.match_length}")
        object.__setattr__(self, "score", score)
        if self.match_length:
            if self.jacoby or self.beaver_rule:
                raise _fail(kind, "bad_rules", "the Jacoby and beaver rules are for money games only")
            # The Crawford game is the one where exactly one side needs a single point.
            if self.crawford and sum(points == self.match_length - 1 for points in score) != 1:
                raise _fail(
                    kind, "bad_rules", f"score {score} in a {self.match_length}-point match is no Crawford game"
                )
            # A new game starts with the cube at 1 in the middle, and nobody may turn it in this one.
            if self.crawford and (self.cube_value != 1 or self.cube_owner is not None):
                raise _fail(kind, "bad_cube", "the cube stays at 1, centred, during the Crawford game")
        elif self.crawford:
            raise _fail(kind, "bad_rules", "a money game has no Crawford game")
        if self.beavers not in (0, 1, 2):
            raise _fail(kind, "bad_dice", f"beavers must be 0, 1 (beaver) or 2 (raccoon), not {self.beavers!r}")
        if self.double_offered or self.beavers:
            self._check_cube_action(kind, dice)
        for name in ("double_offered", "crawford", "jacoby", "beaver_rule"):
            object.__setattr__(self, name, bool(getattr(self, name)))

    def _check_cube_action(self, kind: str, dice: tuple[int, int]) -> None:
        if not self.double_offered:
            raise _fail(kind, "bad_dice", "a beaver or raccoon needs a double offered")
        if dice != (0, 0):
            raise _fail(kind, "bad_dice", "a double is offered before the roll, so the dice are (0, 0)")
        if self.beavers and self.match_length:
            raise _fail(kind, "bad_dice", "beavers and raccoons are for money games only")
        if self.crawford:
            raise _fail(kind, "bad_cube", "nobody doubles in the Crawford game")
        if not self.beavers and self.cube_owner not in (None, self.position.turn):
            raise _fail(kind, "bad_cube_owner", "the doubler must own the cube or it must be centred")

    @property
    def turn(self) -> int:
        """The side on roll (the doubler while a double is pending)."""
        return self.position.turn

    def text(self) -> str:
        """Return this moment as an XGID string (``XGID=`` and ten fields); raises nothing."""
        bottom, top = self.position.boards
        cells = [_checkers(top[BAR], "a")]
        for point in range(1, 25):
            if bottom[point]:
                cells.append(_checkers(bottom[point], "A"))
            else:
                cells.append(_checkers(top[25 - point], "a"))
        cells.append(_checkers(bottom[BAR], "A"))

        if self.double_offered:
            dice_text = _CUBE_ACTION_TEXT[self.beavers]
        else:
            dice_text = f"{self.dice[0]}{self.dice[1]}"
        if self.match_length:
            rules = int(self.crawford)
        else:
            rules = int(self.jacoby) | int(self.beaver_rule) << 1
        fields = [
            "".join(cells),
            self.cube_value.bit_length() - 1,
            _xgid_owner(self.cube_owner),
            1 if self.position.turn == 0 else -1,
            dice_text,
            self.score[0],
            self.score[1],
            rules,
            self.match_length,
            self.max_cube.bit_length() - 1,
        ]
        return XGID_PREFIX + ":".join(str(field) for field in fields)


def _xgid_owner(owner: int | None) -> int:
    return 0 if owner is None else 1 - 2 * owner


def xgid(x: Xgid) -> str:
    """Return the XGID string of ``x`` (side 0 written as XG's bottom player; see :class:`Xgid`
    for what each field means), as :func:`match_id` does for a :class:`MatchId`.

    ``xgid(xgid_decode(s)) == s`` for every string :func:`xgid_decode` accepts. An :class:`Xgid`
    is checked when it is made: ``Xgid(position, cube_value=6)`` raises
    :class:`~engine.errors.IdError` (and :class:`~engine.errors.PositionError` for a position that
    is not valid).
    """
    return x.text()


def _checkers(count: int, first: str) -> str:
    return chr(ord(first) + count - 1) if count else "-"


def xgid_decode(text: str) -> Xgid:
    """Return the :class:`Xgid` named by an XGID string (``XGID=`` prefix required).

    ``xgid_decode(s).text() == s`` for every string this accepts.

    Raises :class:`~engine.errors.IdError` with code ``bad_type``, ``bad_format`` (no prefix,
    not 10 fields, a non-canonical number), ``bad_length`` (position not 26 characters),
    ``bad_character``, ``too_many_checkers``, ``bad_cube``, ``bad_cube_owner``, ``bad_turn``,
    ``bad_dice``, ``bad_score``, ``bad_rules`` or ``bad_match_length``.
    """
    kind = "xgid"
    if not isinstance(text, str):
        raise _fail(kind, "bad_type", f"an XGID is a string, not {type(text).__name__}")
    if not text.startswith(XGID_PREFIX):
        raise _fail(kind, "bad_format", f"an XGID starts with {XGID_PREFIX!r}: {text!r}")
    fields = text[len(XGID_PREFIX) :].split(":")
    if len(fields) != 10:
        raise _fail(kind, "bad_format", f"an XGID has 10 fields separated by ':', not {len(fields)}: {text!r}")
    board, cube, owner, turn, dice_text, score0, score1, rules, length, max_cube = fields

    def number(value: str, name: str) -> int:
        if not _INTEGER.fullmatch(value) or value == "-0":
            raise _fail(kind, "bad_format", f"the {name} field of an XGID is a whole number, not {value!r}")
        return int(value)

    log_cube = number(cube, "cube")
    owner_value = number(owner, "cube owner")
    turn_value = number(turn, "turn")
    score = (number(score0, "first score"), number(score1, "second score"))
    rules_value = number(rules, "rules")
    match_length = number(length, "match length")
    log_max = number(max_cube, "maximum cube")

    for log, name in ((log_cube, "cube"), (log_max, "maximum cube")):
        if not 0 <= log <= _MAX_LOG_CUBE:
            raise _fail(kind, "bad_cube", f"the {name} field is a log2 in 0..{_MAX_LOG_CUBE}, not {log}")
    if owner_value not in (-1, 0, 1):
        raise _fail(kind, "bad_cube_owner", f"the cube owner is 1, 0 or -1, not {owner_value}")
    if turn_value not in (-1, 1):
        raise _fail(kind, "bad_turn", f"the turn is 1 (bottom) or -1 (top), not {turn_value}")
    side_on_roll = 0 if turn_value == 1 else 1

    double_offered = dice_text in _CUBE_ACTIONS
    if double_offered:
        dice, beavers = (0, 0), _CUBE_ACTIONS[dice_text]
    elif re.fullmatch(r"00|[1-6][1-6]", dice_text):
        dice, beavers = (int(dice_text[0]), int(dice_text[1])), 0
    else:
        raise _fail(kind, "bad_dice", f"the dice field is 00, two dice 1..6, D, B or R, not {dice_text!r}")

    if match_length:
        if rules_value not in (0, 1):
            raise _fail(kind, "bad_rules", f"in a match the Crawford field is 0 or 1, not {rules_value}")
        crawford, jacoby, beaver_rule = bool(rules_value), False, False
    else:
        if not 0 <= rules_value <= 3:
            raise _fail(kind, "bad_rules", f"in a money game the rules field is 0..3, not {rules_value}")
        crawford, jacoby, beaver_rule = False, bool(rules_value & 1), bool(rules_value & 2)

    return Xgid(
        _xgid_position(board, side_on_roll),
        cube_value=1 << log_cube,
        cube_owner=None if owner_value == 0 else (0 if owner_value == 1 else 1),
        dice=dice,
        double_offered=double_offered,
        beavers=beavers,
        score=score,
        crawford=crawford,
        jacoby=jacoby,
        beaver_rule=beaver_rule,
        match_length=match_length,
        max_cube=1 << log_max,
    )


def _xgid_position(board: str, turn: int) -> Position:
    kind = "xgid"
    if len(board) != 26:
        raise _fail(kind, "bad_length", f"an XGID's board has 26 characters, not {len(board)}: {board!r}")
    bottom = [0] * 26
    top = [0] * 26
    for index, char in enumerate(board):
        if char == "-":
            continue
        if "A" <= char <= "O" and index != 0:
            point = BAR if index == 25 else index
            bottom[point] = ord(char) - ord("A") + 1
        elif "a" <= char <= "o" and index != 25:
            point = BAR if index == 0 else 25 - index
            top[point] = ord(char) - ord("a") + 1
        else:
            where = {0: "the top player's bar", 25: "the bottom player's bar"}.get(index, f"point {index}")
            raise _fail(kind, "bad_character", f"{char!r} cannot stand on {where} in XGID board {board!r}")
    for cells, who in ((bottom, "bottom"), (top, "top")):
        on_board = sum(cells)
        if on_board > CHECKERS:
            raise _fail(kind, "too_many_checkers", f"the {who} player has {on_board} checkers, more than {CHECKERS}")
        cells[OFF] = CHECKERS - on_board
    # One character per point, so the sides cannot share a point: the position is valid.
    return Position((tuple(bottom), tuple(top)), turn)
