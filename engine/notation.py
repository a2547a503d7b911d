"""Plays written down (RULES.md §3): steps of one checker joined (``24/13``, ``24/18*/13``),
repeated moves grouped (``13/7(2)``) and hits marked with ``*``; 25 is the bar, 0 is off.

:func:`parse_play` reads a written play into its hops; :func:`format_steps` writes a play's steps.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from functools import lru_cache

from .board import BAR, OFF, Position
from .errors import NotationError

_REPEAT = re.compile(r"^(.*?)\((\d)\)$")


@dataclass(frozen=True, slots=True)
class Hop:
    """One written sub-move ``from/to``: possibly several dice of one checker (``24/13``)."""

    start: int
    end: int
    marked_hit: bool = False
    # The hop as written, for what remains of a joined move after its first die.
    written: Hop | None = field(default=None, compare=False)


# Every way a point may be written in a play, with its hit mark: a dict lookup per part keeps
# reading a match file cheap.
_PARTS: dict[str, tuple[int, bool]] = {}
for _value in range(26):
    for _text in {str(_value), f"{_value:02d}"}:
        _PARTS[_text] = (_value, False)
        _PARTS[_text + "*"] = (_value, True)
for _text, _value in (("bar", BAR), ("off", OFF)):
    _PARTS[_text] = (_value, False)
    _PARTS[_text + "*"] = (_value, True)


@lru_cache(maxsize=1024)
def _hop(start: int, end: int, mark: bool) -> Hop:
    return Hop(start, end, mark)


@lru_cache(maxsize=4096)
def parse_play(text: str) -> tuple[Hop, ...]:
    """Read a written play (``24/18 13/8``, ``bar/22*``, ``6/off``, ``13/7(2)``, ``24/18*/13``).

    Returns the hops in the order written. Raises :class:`NotationError` naming the token that
    cannot be read. Hit marks are kept only as hints; hits are always recomputed.
    """
    hops: list[Hop] = []
    for token in text.replace(",", " ").lower().split():
        body, repeat = token, 1
        if token.endswith(")"):
            match = _REPEAT.match(token)
            if not match:
                raise NotationError(f"'{token}': a repeat is written (2), (3) or (4)", code="bad_notation")
            body, repeat = match.group(1), int(match.group(2))
            if not 1 <= repeat <= 4:
                raise NotationError(f"'{token}': a move repeats 1 to 4 times", code="bad_notation")
        parts = body.split("/")
        if len(parts) < 2:
            raise NotationError(f"'{token}' is not a move: expected from/to, as in 13/8", code="bad_notation")
        points = []
        for part in parts:
            found = _PARTS.get(part)
            if found is None:
                if part.isdigit():
                    message = f"'{token}': {int(part)} is not a point (1..24, 25 or bar, 0 or off)"
                else:
                    message = f"'{token}': '{part}' is not a point"
                raise NotationError(message, code="bad_notation")
            points.append(found)
        chain = []
        for (start, _), (end, mark) in itertools.pairwise(points):
            if end >= start:
                raise NotationError(f"'{token}': checkers move from higher to lower points", code="bad_notation")
            chain.append(_hop(start, end, mark))
        hops.extend(chain * repeat)
    return tuple(hops)


def point_name(point: int) -> str:
    """A point as a play writes it: ``bar``, ``off`` or its number."""
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def format_steps(before: Position, steps) -> str:
    """Write ``steps`` played from ``before`` the way GNU Backgammon does.

    A checker's consecutive steps are joined (``24/13``; ``24/18*/13`` when it hit on the way),
    identical moves are grouped (``13/7(2)``), hits are marked, the highest starting point first.
    """
    opp = list(before.opponent)
    chains: list[list] = []  # each chain: [points..., hit flags...] as (points, hits)
    for s, t in steps:
        hit = t > 0 and opp[25 - t] == 1
        if hit:
            opp[25 - t] = 0
        for chain in chains:
            if chain[0][-1] == s and s != BAR:
                chain[0].append(t)
                chain[1].append(hit)
                break
        else:
            chains.append([[s, t], [False, hit]])
    words = []
    for points, hits in chains:
        parts = [point_name(points[0])]
        for point, hit in zip(points[1:-1], hits[1:-1], strict=True):
            if hit:
                parts.append(point_name(point) + "*")
        parts.append(point_name(points[-1]) + ("*" if hits[-1] else ""))
        words.append(((points[0], points[-1]), "/".join(parts)))
    words.sort(key=lambda item: (-item[0][0], -item[0][1]))
    grouped: list[list] = []
    for _, word in words:
        if grouped and grouped[-1][0] == word:
            grouped[-1][1] += 1
        else:
            grouped.append([word, 1])
    return " ".join(word if count == 1 else f"{word}({count})" for word, count in grouped)

