"""The words people read about an analysis: its status, why it failed, gnubg's rating words.

gnubg's own English words (``analysis.verdict.RATING_WORDS`` and ``LUCK_WORDS``) are written out
here as literals so that they are marked for translation (a test checks that they are the same)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

#: The shipped gnubg's rating of a side's play by its error per decision, 0..5 (``gnubg.error_rating``).
RATING_TEXTS = (
    pgettext_lazy("gnubg rating", "Beginner"), pgettext_lazy("gnubg rating", "Intermediate"),
    pgettext_lazy("gnubg rating", "Advanced"), pgettext_lazy("gnubg rating", "Master"),
    pgettext_lazy("gnubg rating", "Grandmaster"), pgettext_lazy("gnubg rating", "Super Grandmaster"),
)
#: gnubg's rating of a side's luck per turn, 0..4 (``gnubg.luck_rating``).
LUCK_TEXTS = (
    pgettext_lazy("gnubg luck", "Go to bed"), pgettext_lazy("gnubg luck", "Bad dice, man!"),
    pgettext_lazy("gnubg luck", "None"), pgettext_lazy("gnubg luck", "Good dice, man!"),
    pgettext_lazy("gnubg luck", "Go to Las Vegas"),
)

#: Why a run failed, by its code (MatchAnalysis.failure_code), as a person reads it.
FAILURES = {
    "analysis_unavailable": _("GNU Backgammon is not installed where the analysis ran; a director can ask for it "
                              "again once it is."),
    "analysis_unwritable": _("A game of this match started from a set-up or kept a condoned play, which GNU "
                             "Backgammon's match files cannot hold, so it cannot be analysed."),
    "analysis_mismatch": _("GNU Backgammon read one of the match's games differently from the recorded game, so "
                           "its verdict is not shown; a director can report the match."),
    "engine_error": _("The match's games could not be replayed for the analysis."),
    "games_gone": _("The match no longer has recorded games to analyse."),
    "time_limit": _("The analysis took longer than its time limit and was stopped; try a smaller depth."),
    "gave_up": _("The analysis could not be completed (the service was unavailable); a director can ask for it "
                 "again."),
    "error": _("The analysis stopped on an unexpected error; a director can ask for it again."),
    "worker_lost": _("The analysis stopped several times before it finished (the computer analysing it stopped); "
                     "a director can ask for it again."),
}


def rating_text(rating: int | None) -> str:
    """gnubg's rating word for ``rating`` (0..5) in the reader's language; empty when unknown."""
    return str(RATING_TEXTS[rating]) if isinstance(rating, int) and 0 <= rating < len(RATING_TEXTS) else ""


def luck_text(rating: int | None) -> str:
    """gnubg's luck word for ``rating`` (0..4) in the reader's language; empty when unknown."""
    return str(LUCK_TEXTS[rating]) if isinstance(rating, int) and 0 <= rating < len(LUCK_TEXTS) else ""


def failure_text(code: str) -> str:
    """Why a run failed, in the reader's language ("" for no failure)."""
    if not code:
        return ""
    return str(FAILURES.get(code, FAILURES["error"]))
