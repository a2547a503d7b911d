"""What every part of the chouette shares: a player's id, and the two checks its modules all make
on a value (a whole number, a player id)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeAlias

from ..errors import ChouetteError

Player: TypeAlias = Hashable
"""A player's id: any hashable value (a user id, a name). In JSON: a string or an integer."""


def is_int(value: object) -> bool:
    """Is ``value`` a whole number? (``True`` and ``False`` are ints to Python, not to a record.)"""
    return isinstance(value, int) and not isinstance(value, bool)


def check_player(player: object, what: str) -> None:
    """Raise :class:`~engine.errors.ChouetteError` ``bad_player`` unless ``player`` can be a player's
    id; ``what`` names his role in the message (``"Box"``, ``"cube owner"``...)."""
    # None is the usual accident (an unfilled form field); unhashable ids could not key the ledger.
    if player is None or not isinstance(player, Hashable):
        raise ChouetteError(f"{what} {player!r} is not a player id", code="bad_player")


__all__ = [
    "Player",
    "check_player",
    "is_int",
]
