"""FIBS ratings (RULES.md §10): the change of both players' ratings after one match.

For a match of length n between ratings r1 and r2, with D = |r1 - r2|, the underdog wins with
probability P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1). P = P_upset if the favourite won,
1 - P_upset if the underdog won. K = max(1, 5 - experience / 100), experience being the total
length of the matches a player finished before. The winner gains 4 * K_w * sqrt(n) * P and the
loser loses 4 * K_l * sqrt(n) * P. New players start at 1500 with experience 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import EngineError

START_RATING = 1500.0


@dataclass(frozen=True, slots=True)
class RatingChange:
    winner_delta: float
    loser_delta: float


def k_factor(experience: int) -> float:
    """The FIBS K of a player with ``experience`` points of finished matches."""
    return max(1.0, 5.0 - experience / 100.0)


def fibs_change(
    winner_rating: float, loser_rating: float, length: int, *, winner_experience: int = 0, loser_experience: int = 0
) -> RatingChange:
    """How much the winner gains and the loser loses (negative) after a match of ``length``.

    Raises :class:`EngineError` (code ``bad_length``) for a length below 1: money sessions are
    not rated.
    """
    if length < 1:
        raise EngineError("only matches to 1 point or more are rated", code="bad_length")
    difference = abs(winner_rating - loser_rating)
    upset = 1.0 / (10 ** (difference * math.sqrt(length) / 2000.0) + 1.0)
    probability = upset if winner_rating >= loser_rating else 1.0 - upset
    scale = 4.0 * math.sqrt(length) * probability
    return RatingChange(k_factor(winner_experience) * scale, -k_factor(loser_experience) * scale)
