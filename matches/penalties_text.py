"""Penalty points given mid-match, as sentences for people (the match page and the API)."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from audit.describe import ltr
from core.text import isolate

from .models import Match, MatchPenalty


def _score(score: tuple[int, int]) -> str:
    """A score kept left to right in a right-to-left sentence (audit.describe.ltr)."""
    return ltr(f"{score[0]}-{score[1]}")


def penalty_text(match: Match, penalty: MatchPenalty) -> str:
    """"Bob is given 1 penalty point (slow play) at 3-3: the score is 4-3; the next game is the
    Crawford game." in the active language."""
    values = {"side": match.sides[penalty.side].name, "opponent": match.sides[1 - penalty.side].name,
              "points": penalty.points, "reason": MatchPenalty.Reason(penalty.reason).label,
              "before": _score(penalty.score_before), "after": _score(penalty.score_after)}
    text = ngettext("%(side)s is given %(points)s penalty point (%(reason)s) at %(before)s: the score is %(after)s",
                    "%(side)s is given %(points)s penalty points (%(reason)s) at %(before)s: the score is %(after)s",
                    penalty.points) % values
    return text + crawford_text(match, penalty) + "."


def crawford_text(match: Match, penalty: MatchPenalty) -> str:
    """What the penalty means for the next game, led by a semicolon, or ""."""
    if penalty.ended_match:
        return gettext("; %(opponent)s wins the match") % {"opponent": isolate(match.sides[1 - penalty.side].name)}
    if penalty.crawford_next:
        return gettext("; the next game is the Crawford game")
    return ""
