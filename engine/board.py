"""Positions: where every checker stands, and whose turn it is.

A side's board is a tuple of 26 counts in that side's own numbering: index 0 holds the checkers
it has borne off, 1..24 its points, 25 its bar. A side's point ``p`` is the opponent's point
``25 - p``. A :class:`Position` holds both sides' boards and the side on roll; it is immutable
and hashable, so positions can be compared, stored and used as keys.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import PositionError

CHECKERS = 15
OFF = 0
BAR = 25
HOME = range(1, 7)

_START_POINTS = {24: 2, 13: 5, 8: 3, 6: 5}


def side_board(points: dict[int, int] | None = None, *, bar: int = 0, off: int | None = None) -> tuple[int, ...]:
    """One side's 26-entry board from ``{point: checkers}``; ``off`` defaults to the remainder.

    Raises :class:`PositionError` when a point is out of 1..24 or the count is not 15.
    """
    cells = [0] * 26
    for point, count in (points or {}).items():
        if not 1 <= point <= 24:
            raise PositionError(f"point {point} is not on the board (1..24)", code="bad_point")
        if count < 0:
            raise PositionError(f"negative checker count on point {point}", code="bad_count")
        cells[point] += count
    cells[BAR] = bar
    on_board = sum(cells)
    cells[OFF] = CHECKERS - on_board if off is None else off
    if cells[OFF] < 0 or sum(cells) != CHECKERS:
        total = on_board + max(cells[OFF], 0)
        raise PositionError(f"a side must have {CHECKERS} checkers, not {total}", code="bad_count")
    return tuple(cells)


START_BOARD = side_board(_START_POINTS)


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides' checkers and the side on roll (``turn``, 0 or 1).

    ``boards[s]`` is side ``s``'s board in its own numbering (see the module docstring). Build
    positions with :meth:`start`, :meth:`from_sides` (validated) or from an id (engine.ids);
    the plain constructor trusts its input, which the move generator relies on for speed.
    """

    boards: tuple[tuple[int, ...], tuple[int, ...]]
    turn: int = 0

    @classmethod
    def start(cls, turn: int = 0) -> Position:
        """The starting position of RULES.md §1, ``turn`` on roll."""
        return cls((START_BOARD, START_BOARD), turn)

    @classmethod
    def from_sides(cls, side0: tuple[int, ...], side1: tuple[int, ...], turn: int = 0) -> Position:
        """A validated position; raises :class:`PositionError` if it cannot occur in a game."""
        position = cls((tuple(side0), tuple(side1)), turn)
        position.validate()
        return position

    def validate(self) -> None:
        """Raise :class:`PositionError` unless both sides have 15 checkers, never sharing a point."""
        if self.turn not in (0, 1):
            raise PositionError(f"side on roll must be 0 or 1, not {self.turn!r}", code="bad_turn")
        for side, board in enumerate(self.boards):
            if len(board) != 26 or any(c < 0 for c in board):
                raise PositionError(f"side {side}'s board must have 26 non-negative counts", code="bad_count")
            if sum(board) != CHECKERS:
                raise PositionError(f"side {side} has {sum(board)} checkers, not {CHECKERS}", code="bad_count")
        mine, theirs = self.boards
        for point in range(1, 25):
            if mine[point] and theirs[25 - point]:
                raise PositionError(f"both sides have checkers on side 0's point {point}", code="shared_point")

    # --- views -----------------------------------------------------------------------------

    @property
    def mover(self) -> tuple[int, ...]:
        """The board of the side on roll."""
        return self.boards[self.turn]

    @property
    def opponent(self) -> tuple[int, ...]:
        """The board of the side not on roll."""
        return self.boards[1 - self.turn]

    def off(self, side: int) -> int:
        return self.boards[side][OFF]

    def bar(self, side: int) -> int:
        return self.boards[side][BAR]

    def pips(self, side: int) -> int:
        """Pip count of ``side``: each checker counts its point, a checker on the bar 25."""
        board = self.boards[side]
        return sum(point * board[point] for point in range(1, 26))

    def all_home(self, side: int) -> bool:
        """True when none of ``side``'s checkers is outside its home board or on the bar."""
        return not any(self.boards[side][7:])

    def is_over(self) -> bool:
        return self.boards[0][OFF] == CHECKERS or self.boards[1][OFF] == CHECKERS

    def with_turn(self, turn: int) -> Position:
        return Position(self.boards, turn)

    def passed(self) -> Position:
        """The same checkers with the other side on roll."""
        return Position(self.boards, 1 - self.turn)

    def swapped(self) -> Position:
        """The same game seen with the sides' labels exchanged (side 0 becomes side 1)."""
        return Position((self.boards[1], self.boards[0]), 1 - self.turn)

    def to_gnubg(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """GNU Backgammon's board: (side not on roll, side on roll), each 25 ints (1..24, bar)."""
        return (self.opponent[1:], self.mover[1:])

    @classmethod
    def from_gnubg(cls, board, turn: int = 0) -> Position:
        """Inverse of :meth:`to_gnubg`: ``board[1]`` belongs to ``turn``; validated."""
        theirs, mine = (tuple(b) for b in board)
        if len(theirs) != 25 or len(mine) != 25:
            raise PositionError("a gnubg board is two sequences of 25 counts", code="bad_count")
        mover = (CHECKERS - sum(mine), *mine)
        other = (CHECKERS - sum(theirs), *theirs)
        boards = (mover, other) if turn == 0 else (other, mover)
        return cls.from_sides(*boards, turn=turn)

    def __str__(self) -> str:
        def describe(side: int) -> str:
            board = self.boards[side]
            parts = [f"{p}:{board[p]}" for p in range(24, 0, -1) if board[p]]
            if board[BAR]:
                parts.insert(0, f"bar:{board[BAR]}")
            if board[OFF]:
                parts.append(f"off:{board[OFF]}")
            return " ".join(parts)

        return f"side 0 [{describe(0)}] side 1 [{describe(1)}] side {self.turn} on roll"
