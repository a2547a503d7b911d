"""A match's analysis as the API and the export give it (built from rows already read: no query)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from matches.models import Match

from . import gnubg_adapter
from .models import MatchAnalysis
from .texts import failure_text


def status_text(analysis: MatchAnalysis | None) -> str:
    """The analysis's state as a sentence, in the reader's language."""
    if analysis is None:
        return _("Not analysed")
    if analysis.status == MatchAnalysis.Status.RUNNING and analysis.total:
        return _("Being analysed: %(done)s of %(total)s decisions") % {"done": analysis.done, "total": analysis.total}
    return str(analysis.get_status_display())


def match_analysis_answer(match: Match, analysis: MatchAnalysis | None) -> dict:
    """What ``GET /api/v1/matches/{id}/analysis/`` answers (analysis.api.serializers.MatchAnalysisSerializer):
    the state and progress, and once done each side's summary (with the sides' names) and each
    game's decisions, from the stored result JSON."""
    result = analysis.result if analysis is not None and analysis.status == MatchAnalysis.Status.DONE else None
    sides = []
    if result:
        sides = [{**stats, "side": index, "name": match.sides[index].name}
                 for index, stats in enumerate(result.get("sides", []))]
    return {
        "match": match.pk,
        "status": "none" if analysis is None else analysis.status,
        "status_text": status_text(analysis),
        "available": gnubg_adapter.available(),
        "plies": None if analysis is None else analysis.plies,
        "lowered_from": None if analysis is None else analysis.lowered_from,
        "progress": {"done": 0 if analysis is None else analysis.done, "total": 0 if analysis is None else analysis.total,
                     "percent": 0 if analysis is None else analysis.percent},
        "requested_at": None if analysis is None else analysis.requested_at,
        "analysed_at": None if analysis is None else analysis.analysed_at,
        "engine": "" if analysis is None else analysis.engine,
        "settings": (result or {}).get("settings") or None,
        "failure": None if analysis is None or not analysis.failure_code else {
            "code": analysis.failure_code, "detail": failure_text(analysis.failure_code)},
        "sides": sides,
        "games": (result or {}).get("games", []),
    }


def match_analysis_export(match: Match, analysis: MatchAnalysis) -> dict:
    """The analysis as a file: the analysis's JSON (``version``, ``plies``, ``engine``, ``sides``,
    ``games``) with the match beside it (its id, the sides' names, its length and final score)."""
    score = None if match.score0 is None else [match.score0, match.score1]
    full = None if match.full_score0 is None else [match.full_score0, match.full_score1]
    return {
        **(analysis.result or {}),
        "match": {"id": match.pk, "players": [match.side0.name, match.side1.name], "length": match.length,
                  "crawford": match.crawford, "score": score, "full_score": full,
                  "played_on": match.played_on.isoformat() if match.played_on else None},
        "analysed_at": analysis.analysed_at.isoformat() if analysis.analysed_at else None,
    }
