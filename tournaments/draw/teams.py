"""Team matches (RULES.md §7): N boards, won by the team that wins the majority of boards.

A team is an entrant like any other (an opaque id), so every format above can pair teams; a
team match is reduced to one :class:`~tournaments.draw.values.Result` whose points are the
board points (boards won), which is what the :data:`~tournaments.draw.standings.TEAM` table
ranks by after team-match wins. Who plays which board, and locking the order, is the service's.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import DrawError
from .values import DRAW, Entrant, Result


def team_match(top: Entrant, bottom: Entrant, boards: Sequence[Entrant | None]) -> Result:
    """The result of a team match from the winner (a team id) of each board, None for a board
    not finished yet.

    The winner is the team with more than half the boards as soon as it has them (a 3-board
    match is won 2-0 with a board still going), DRAW when every board is done and the count is
    level (possible only with an even number of boards), else None (undecided). Points are the
    boards won so far. Raises ``DrawError`` ``bad_result`` (no boards) or ``not_in_match`` (a
    board won by a third team).
    """
    if not boards:
        raise DrawError("a team match has at least one board", code="bad_result")
    won = {top: 0, bottom: 0}
    for board in boards:
        if board is None:
            continue
        if board not in won:
            raise DrawError(f"{board!r} is not in this team match", code="not_in_match", winner=board)
        won[board] += 1
    majority = len(boards) // 2 + 1
    if won[top] >= majority:
        winner = top
    elif won[bottom] >= majority:
        winner = bottom
    elif all(board is not None for board in boards):
        winner = DRAW
    else:
        winner = None
    return Result(top, bottom, winner, won[top], won[bottom])
