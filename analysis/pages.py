"""What the analysis shows on the pages of matches, connected to ``matches.hooks`` by
``analysis.receivers`` (matches never imports analysis):

- a section of the match page (:func:`match_section`): each side's PR, error rate, errors and
  blunders, luck and gnubg's rating word, the depth; while queued or running the progress, followed
  live (static/js/live.js polls ``analysis:live``); for its director the button that asks for it;
  the link to the JSON export;
- marks on the board stepper (:func:`match_marks`): each blunder and error at the action it judges,
  with the play and gnubg's best and the equity lost, the blunders the stepper's stops;
- a section of the player page (:func:`player_section`): his PR over time, as a chart drawn on the
  server (``matches.charts``) and a table.

The match's analysis row is read once per page (:func:`page_analysis`): the marks and the section
share it.
"""

from __future__ import annotations

from datetime import datetime, time

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from matches import hooks
from matches.charts import rating_chart_svg
from matches.models import Match
from matches.services.reporting import user_runs_match

from . import gnubg_adapter
from .hooks import plies_for
from .models import MatchAnalysis
from .selectors import PrPoint, analysis_of, player_pr_points
from .texts import failure_text, luck_text, rating_text

#: The newest analysed matches the player page's table lists (the chart draws them all).
PR_TABLE_ROWS = 20
#: Depths a director may choose (0-ply: quick; 2-ply: gnubg's usual "world class" analysis).
DEPTHS = (0, 1, 2)


def _ltr(text: str) -> str:
    """Move notation isolated left to right inside a sentence of any direction (as ``|ltr``)."""
    return format_html('<bdi dir="ltr">{}</bdi>', text)


def page_analysis(match: Match) -> MatchAnalysis | None:
    """The match's analysis, read at most once per match object (one query, cached on it as
    ``match.analysis``; no query when it was read with the match), or None."""
    descriptor = type(match).analysis
    if not descriptor.is_cached(match):
        descriptor.related.set_cached_value(match, MatchAnalysis.objects.filter(pk=match.pk).first())
    return analysis_of(match)


def number(value: float | None, places: int) -> str:
    """``value`` with ``places`` decimals in the reader's language ("" for none)."""
    # number_format cuts the decimals off; rounded first, 3.136 reads 3.14.
    return "" if value is None else formats.number_format(round(value, places), places)


def depth_text(plies: int) -> str:
    """The depth of an analysis as people read it: "0-ply" or "2-ply"."""
    return _("%(plies)s-ply") % {"plies": plies}


#: The cube actions of the analysis's notation (analysis.gnubg_reader: "no double", "double", "take", "drop").
def cube_action_text(action: str) -> str:
    """A play (move notation, isolated left to right) or a cube action (in the reader's language),
    as safe HTML."""
    words = {"no double": pgettext("cube action", "no double"), "double": pgettext("cube action", "double"),
             # Translators: a cube action in GNU Backgammon's verdict: take = accept the double (KO 테이크, AR قبول,
             # RO acceptare); drop = refuse it and lose the game at the cube's value (KO 패스, never 드롭; RO respingere).
             "take": pgettext("cube action", "take"), "drop": pgettext("cube action", "drop")}
    return conditional_escape(words[action]) if action in words else _ltr(action)


def mark_text(decision: dict) -> str:
    """A blunder or an error as a sentence, safe HTML (the plays isolated left to right): "Blunder:
    played 13/7 6/5, best 24/18 13/11, equity lost 0.215" (the loss in normalised equity)."""
    values = {"played": cube_action_text(decision["played"]), "best": cube_action_text(decision["best"]),
              "loss": _ltr(number(decision["loss"], 3))}
    if decision["mark"] == "blunder":
        sentence = _("Blunder: played %(played)s, best %(best)s, equity lost %(loss)s")
    else:
        sentence = _("Error: played %(played)s, best %(best)s, equity lost %(loss)s")
    return mark_safe(conditional_escape(sentence) % values)


def match_marks(match: Match) -> list[hooks.MoveMark]:
    """The blunders and errors of the match's done analysis, at the actions they judge (game
    number, index in its log), in log order; the blunders are the stepper's stops. At most one
    query (:func:`page_analysis`)."""
    analysis = page_analysis(match)
    if analysis is None or analysis.status != MatchAnalysis.Status.DONE or not analysis.result:
        return []
    marks = []
    for game in analysis.result.get("games", []):
        for decision in game.get("decisions", []):
            if decision.get("mark") in ("blunder", "error"):
                marks.append(hooks.MoveMark(game=game["number"], index=decision["index"], kind=decision["mark"],
                                            text=mark_text(decision), stop=decision["mark"] == "blunder"))
    return marks


def _side_rows(match: Match, analysis: MatchAnalysis) -> list[dict]:
    sides = (analysis.result or {}).get("sides") or []
    rows = []
    for index, stats in enumerate(sides[:2]):
        rows.append({
            "name": match.sides[index].name,
            "pr": number(stats.get("pr"), 2),
            "error_rate": number(stats.get("error_rate"), 1),
            "errors": stats.get("errors", 0),
            "blunders": stats.get("blunders", 0),
            "unforced": stats.get("unforced", 0),
            "luck": number(stats.get("luck"), 3),
            # gnubg's neutral luck word ("None") is left out: next to a number it reads as missing.
            "luck_word": luck_text(stats.get("luck_rating")) if stats.get("luck_rating") != 2 else "",
            "rating": rating_text(stats.get("rating")),
        })
    return rows


def live_version(analysis: MatchAnalysis | None) -> str:
    """What the match page's analysis poll compares: moves with each request, state and progress."""
    if analysis is None:
        return "none"
    return f"{analysis.generation}-{analysis.status}-{analysis.done}-{analysis.total}"


def match_section(request, match: Match) -> str:
    """The analysis section of ``match``'s page (see the module), or "" when there is nothing to
    show: no analysis, and nobody here who may ask for one. At most one query besides the page's."""
    analysis = page_analysis(match)
    runs = user_runs_match(match, request.user)
    has_games = bool(match.games.all())  # prefetched with the page's match
    available = gnubg_adapter.available()
    may_request = runs and has_games and available
    if analysis is None and not may_request:
        return ""
    status = None if analysis is None else analysis.status
    done = status == MatchAnalysis.Status.DONE
    progress = ""
    if status == MatchAnalysis.Status.RUNNING and analysis.total:
        progress = _("Analysed %(done)s of %(total)s decisions") % {"done": analysis.done, "total": analysis.total}
    context = {
        "match": match,
        "analysis": analysis,
        "status": status,
        "status_text": "" if analysis is None else analysis.get_status_display(),
        "progress": progress,
        "live": status in (MatchAnalysis.Status.QUEUED, MatchAnalysis.Status.RUNNING),
        "version": live_version(analysis),
        "sides": _side_rows(match, analysis) if done else [],
        "depth": depth_text(analysis.plies) if analysis is not None else "",
        "asked_depth": (depth_text(analysis.lowered_from)
                        if analysis is not None and analysis.lowered_from is not None else ""),
        "failure": failure_text(analysis.failure_code) if status == MatchAnalysis.Status.FAILED else "",
        "may_request": may_request,
        "depths": [(plies, depth_text(plies)) for plies in DEPTHS],
        "default_depth": analysis.plies if analysis is not None else plies_for(match),
    }
    return render_to_string("analysis/_match.html", context, request=request)


def _chart(name: str, points: list[PrPoint]) -> str:
    if len(points) < 2:
        return ""
    values = [point.pr for point in points]
    words = {"name": name, "count": len(points), "first": formats.date_format(points[0].on, "DATE_FORMAT"),
             "last": formats.date_format(points[-1].on, "DATE_FORMAT"), "low": number(min(values), 1),
             "high": number(max(values), 1)}
    desc = ngettext("%(count)s analysed match from %(first)s to %(last)s; the PR went between %(low)s and %(high)s.",
                    "%(count)s analysed matches from %(first)s to %(last)s; the PR went between %(low)s and %(high)s.",
                    len(points)) % words
    ticks = {"day": "DATE_FORMAT", "month": "YEAR_MONTH_FORMAT", "year": "Y"}
    return rating_chart_svg([(datetime.combine(point.on, time(12)), point.pr) for point in points],
                            title=_("PR of %(name)s over time") % words, desc=desc,
                            date_label=lambda moment, unit: formats.date_format(moment, ticks[unit]),
                            value_label=lambda value: number(value, 0 if value == int(value) else 1),
                            chart_id="pr-chart")


def player_section(request, player) -> str:
    """The PR section of a player's page: his PR over time (chart and table of the newest
    matches), the number of his analysed matches and his PR over all of them; "" when none of his
    matches is analysed. One query."""
    points = player_pr_points(player_id=player.pk)
    if not points:
        return ""
    unforced = sum(point.unforced for point in points)
    lost = sum(point.pr * point.unforced / 500 for point in points)
    rows = [{"point": point, "pr": number(point.pr, 2), "error_rate": number(point.error_rate, 1),
             "depth": depth_text(point.plies), "url": reverse("matches:detail", args=[point.match_id])}
            for point in reversed(points[-PR_TABLE_ROWS:])]
    return render_to_string("analysis/_player.html", {
        "player": player, "count": len(points), "shown": len(rows),
        "overall": number(500 * lost / unforced if unforced else 0.0, 2),
        "chart": _chart(player.display_name, points), "rows": rows,
    }, request=request)

