"""The actions a game log is made of, and their JSON form.

A game log is a sequence of actions, each by a side (0 or 1; the opening tie belongs to nobody).
``line`` is where the action was read from (a .mat line number), kept only for error messages.

JSON form (what the API accepts and ``python -m engine`` speaks)::

    {"type": "roll", "side": 0, "dice": [6, 1]}
    {"type": "move", "side": 0, "play": "13/7 8/7", "condoned": false}
    {"type": "move", "side": 0, "play": "13/7 13/7", "stood": true}   # illegal, noticed too late
    {"type": "setup", "position": "4HPwATDgc/ABMA"}   # first action only: the real starting position
    {"type": "opening_tie", "die": 3}          # both rolled 3 (automatic doubles)
    {"type": "double", "side": 1, "value": 2}  # value optional: the cube's new face
    {"type": "take" | "drop", "side": 0}
    {"type": "beaver" | "raccoon", "side": 0, "value": 4}
    {"type": "resign", "side": 1, "level": 1 | 2 | 3}   # single, gammon, backgammon
    {"type": "accept" | "decline", "side": 0}
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import GameLogError

SINGLE, GAMMON, BACKGAMMON = 1, 2, 3
LEVEL_NAMES = {SINGLE: "single", GAMMON: "gammon", BACKGAMMON: "backgammon"}


@dataclass(frozen=True, slots=True)
class Action:
    side: int | None
    line: int | None = field(default=None, compare=False, kw_only=True)

    type = "action"

    def describe(self) -> str:
        return self.type


@dataclass(frozen=True, slots=True)
class OpeningTie(Action):
    """Both players rolled ``die`` on the opening roll; with automatic doubles the cube turns."""

    die: int = 0
    type = "opening_tie"

    def describe(self) -> str:
        return f"opening roll {self.die}{self.die}"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    dice: tuple[int, int] = (0, 0)
    type = "roll"

    def describe(self) -> str:
        return f"roll {self.dice[0]}{self.dice[1]}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """A checker play as written (``24/18 13/8``).

    Two marks let an illegal play stand as played, and they are kept apart because the rules
    that allow them differ (RULES.md §9, illegal move): ``condoned`` — under the responsible-moves
    policy the opponent condoned it; ``stood`` — under the legal-moves policy it was noticed only
    after the opponent had rolled or doubled, too late to correct, so it stands.
    """

    play: str = ""
    condoned: bool = False
    stood: bool = False
    type = "move"

    def describe(self) -> str:
        return f"play {self.play.strip() or '(none)'}"


@dataclass(frozen=True, slots=True)
class Setup(Action):
    """The position a game really started from, when the checkers were set up wrongly and the
    game stands (RULES.md §9: a wrong setup is corrected only early in the game). ``position`` is
    a GNU Backgammon Position ID read with side 0 as the side on roll (RULES.md §6); only the
    first action of a game may be one. It belongs to nobody (``side`` None)."""

    position: str = ""
    type = "setup"

    def describe(self) -> str:
        return f"set-up {self.position}"


@dataclass(frozen=True, slots=True)
class Double(Action):
    value: int | None = None
    type = "double"

    def describe(self) -> str:
        return f"double to {self.value}" if self.value else "double"


@dataclass(frozen=True, slots=True)
class Take(Action):
    type = "take"


@dataclass(frozen=True, slots=True)
class Drop(Action):
    type = "drop"


@dataclass(frozen=True, slots=True)
class Beaver(Action):
    value: int | None = None
    type = "beaver"


@dataclass(frozen=True, slots=True)
class Raccoon(Action):
    value: int | None = None
    type = "raccoon"


@dataclass(frozen=True, slots=True)
class Resign(Action):
    level: int = SINGLE
    type = "resign"

    def describe(self) -> str:
        return f"resign a {LEVEL_NAMES.get(self.level, self.level)}"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    type = "accept"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    type = "decline"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (Setup, OpeningTie, Roll, Move, Double, Take, Drop, Beaver, Raccoon, Resign, Accept, Decline)
}


def action_to_dict(action: Action) -> dict:
    """The JSON form of ``action`` (see the module docstring)."""
    data: dict = {"type": action.type}
    if not isinstance(action, (OpeningTie, Setup)):
        data["side"] = action.side
    if isinstance(action, Setup):
        data["position"] = action.position
    elif isinstance(action, OpeningTie):
        data["die"] = action.die
    elif isinstance(action, Roll):
        data["dice"] = list(action.dice)
    elif isinstance(action, Move):
        data["play"] = action.play
        if action.condoned:
            data["condoned"] = True
        if action.stood:
            data["stood"] = True
    elif isinstance(action, (Double, Beaver, Raccoon)):
        if action.value is not None:
            data["value"] = action.value
    elif isinstance(action, Resign):
        data["level"] = action.level
    return data


def _bad(index: int, message: str) -> GameLogError:
    return GameLogError(f"action {index + 1}: {message}", code="bad_action", action_index=index + 1)


def _int_field(data: dict, name: str, index: int, allowed: range) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
        raise _bad(index, f"'{name}' must be an integer in {allowed.start}..{allowed.stop - 1}, not {value!r}")
    return value


def action_from_dict(data: object, index: int = 0) -> Action:
    """Parse one action from its JSON form; raises :class:`GameLogError` (code ``bad_action``)
    naming the action's 1-based position and the field that is wrong. Unknown fields are refused."""
    if not isinstance(data, dict):
        raise _bad(index, f"an action must be an object, not {type(data).__name__}")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise _bad(index, f"unknown action type {kind!r}; expected one of {', '.join(ACTION_TYPES)}")
    allowed = {"type", "side"} | {
        OpeningTie: {"die"}, Setup: {"position"}, Roll: {"dice"}, Move: {"play", "condoned", "stood"},
        Double: {"value"},
        Beaver: {"value"}, Raccoon: {"value"}, Resign: {"level"},
    }.get(cls, set())
    if cls in (OpeningTie, Setup):
        allowed = allowed - {"side"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise _bad(index, f"unknown field(s) {', '.join(unknown)} for a {kind} action")
    if cls is OpeningTie:
        return OpeningTie(None, die=_int_field(data, "die", index, range(1, 7)))
    if cls is Setup:
        position = data.get("position")
        if not isinstance(position, str) or len(position) > 20:
            raise _bad(index, "'position' must be a GNU Backgammon Position ID such as \"4HPwATDgc/ABMA\"")
        return Setup(None, position=position)
    side = _int_field(data, "side", index, range(0, 2))
    if cls is Roll:
        dice = data.get("dice")
        if (
            not isinstance(dice, (list, tuple)) or len(dice) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
        ):
            raise _bad(index, f"'dice' must be two integers 1..6, not {dice!r}")
        return Roll(side, dice=(dice[0], dice[1]))
    if cls is Move:
        play = data.get("play", "")
        condoned = data.get("condoned", False)
        stood = data.get("stood", False)
        if not isinstance(play, str) or len(play) > 200:
            raise _bad(index, "'play' must be a string such as \"24/18 13/8\"")
        if not isinstance(condoned, bool):
            raise _bad(index, "'condoned' must be true or false")
        if not isinstance(stood, bool):
            raise _bad(index, "'stood' must be true or false")
        if condoned and stood:
            raise _bad(index, "a play is either condoned (responsible moves) or stood (legal moves), not both")
        return Move(side, play=play, condoned=condoned, stood=stood)
    if cls in (Double, Beaver, Raccoon):
        value = data.get("value")
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 2):
            raise _bad(index, f"'value' must be the cube's new face (2, 4, 8...), not {value!r}")
        return cls(side, value=value)
    if cls is Resign:
        return Resign(side, level=_int_field(data, "level", index, range(1, 4)))
    return cls(side)


def actions_from_json(items: object) -> list[Action]:
    """Parse a JSON list of actions; raises :class:`GameLogError` at the first bad one."""
    if not isinstance(items, list):
        raise GameLogError("a game log must be a list of actions", code="bad_action")
    return [action_from_dict(item, index) for index, item in enumerate(items)]
