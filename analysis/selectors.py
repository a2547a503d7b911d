"""Reads of analyses shared by the API, the pages and the export, each in a fixed number of
queries whatever the number of rows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta

from django.conf import settings
from django.db.models import Count, Min, Q, QuerySet

from matches.models import Match, Player

from .models import MatchAnalysis

#: The joins a match's analysis is shown with: the sides' players' names.
SIDE_PLAYERS = ("side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b")


def match_with_analysis(match_id: int) -> Match:
    """The match, its sides' players and its analysis (``match.analysis``, or a missing one: see
    :func:`analysis_of`), in one query. Raises Match.DoesNotExist."""
    return Match.objects.select_related(*SIDE_PLAYERS, "analysis").get(pk=match_id)


def analysis_of(match: Match) -> MatchAnalysis | None:
    """The analysis read with ``match`` (:func:`match_with_analysis`), or None."""
    try:
        return match.analysis
    except MatchAnalysis.DoesNotExist:
        return None


@dataclass(frozen=True)
class PrPoint:
    """One analysed match of a player: when it was played, his side's PR and error rate, the depth."""

    match_id: int
    on: date
    side: int
    opponent: str
    pr: float
    error_rate: float
    unforced: int
    blunders: int
    plies: int


def _on(match: Match, analysis: MatchAnalysis) -> date:
    if match.played_on:
        return match.played_on
    return (match.confirmed_at or analysis.analysed_at).date()


def player_pr_points(*, player_id: int) -> list[PrPoint]:
    """Every done analysis of a match ``player_id`` played (alone or in a pair) where his side had
    an unforced decision (without one a PR says nothing), oldest first (by the day played, else
    confirmed): his PR over time. One query."""
    rows = (MatchAnalysis.objects.filter(status=MatchAnalysis.Status.DONE)
            .filter(Q(match__side0__player_a_id=player_id) | Q(match__side0__player_b_id=player_id)
                    | Q(match__side1__player_a_id=player_id) | Q(match__side1__player_b_id=player_id))
            .select_related(*(f"match__{path}" for path in SIDE_PLAYERS))
            .defer("result"))
    points = []
    for row in rows:
        match = row.match
        side = 0 if player_id in (match.side0.player_a_id, match.side0.player_b_id) else 1
        if not getattr(row, f"unforced{side}"):
            continue
        points.append(PrPoint(match.pk, _on(match, row), side, match.sides[1 - side].name, getattr(row, f"pr{side}"),
                              getattr(row, f"error_rate{side}"), getattr(row, f"unforced{side}"),
                              getattr(row, f"blunders{side}"), row.plies))
    points.sort(key=lambda p: (p.on, p.match_id))
    return points


@dataclass(frozen=True)
class RankedPlayer:
    """A player's analysed matches in a set of matches (an event's): PR and error rate over all
    of them (equity lost summed over unforced decisions summed, not an average of PRs)."""

    rank: int
    player_id: int
    name: str
    matches: int
    unforced: int
    equity_lost: float
    pr: float
    error_rate: float
    errors: int
    blunders: int


def analysis_ranking(*, matches: QuerySet[Match]) -> list[RankedPlayer]:
    """The players of ``matches`` whose analyses are done, best PR first (ties: more matches,
    then name), each with his number of analysed matches. A pair's figures count for both its
    players; a player without any unforced decision in them is left out (no PR to rank). Two
    queries."""
    rows = MatchAnalysis.objects.filter(status=MatchAnalysis.Status.DONE, match__in=matches).values_list(
        "match__side0__player_a_id", "match__side0__player_b_id", "match__side1__player_a_id",
        "match__side1__player_b_id", "unforced0", "unforced1", "equity_lost0", "equity_lost1", "errors0", "errors1",
        "blunders0", "blunders1")
    totals: dict[int, list] = defaultdict(lambda: [0, 0, 0.0, 0, 0])  # matches, unforced, lost, errors, blunders
    for a0, b0, a1, b1, u0, u1, e0, e1, er0, er1, bl0, bl1 in rows:
        for players, unforced, lost, errors, blunders in (((a0, b0), u0, e0, er0, bl0), ((a1, b1), u1, e1, er1, bl1)):
            for player_id in players:
                if player_id is None:
                    continue
                total = totals[player_id]
                total[0] += 1
                total[1] += unforced
                total[2] += lost
                total[3] += errors
                total[4] += blunders
    names = dict(Player.objects.filter(pk__in=list(totals)).values_list("pk", "display_name")) if totals else {}
    ranked = []
    for player_id, (count, unforced, lost, errors, blunders) in totals.items():
        if not unforced:
            continue
        pr = 500 * lost / unforced if unforced else 0.0
        rate = 1000 * lost / unforced if unforced else 0.0
        ranked.append((pr, -count, names.get(player_id, ""), player_id, count, unforced, lost, rate, errors, blunders))
    ranked.sort()
    return [RankedPlayer(rank, player_id, name, count, unforced, round(lost, 6), round(pr, 2), round(rate, 2),
                         errors, blunders)
            for rank, (pr, _minus, name, player_id, count, unforced, lost, rate, errors, blunders)
            in enumerate(ranked, start=1)]


def analysis_health(now) -> tuple[dict, list[str]]:
    """The analyses' section of ``/health/`` (core.health): how many are queued and running, the age
    in seconds of the oldest queued, and how many have run without progress for
    ``ANALYSIS_STUCK_SECONDS`` (their worker died or hangs); degraded ("stuck") while any has."""
    stuck_before = now - timedelta(seconds=settings.ANALYSIS_STUCK_SECONDS)
    counts = MatchAnalysis.objects.aggregate(
        queued=Count("pk", filter=Q(status=MatchAnalysis.Status.QUEUED)),
        running=Count("pk", filter=Q(status=MatchAnalysis.Status.RUNNING)),
        stuck=Count("pk", filter=Q(status=MatchAnalysis.Status.RUNNING, progressed_at__lt=stuck_before)),
        oldest_queued=Min("requested_at", filter=Q(status=MatchAnalysis.Status.QUEUED)),
    )
    oldest = counts.pop("oldest_queued")
    counts["oldest_queued_seconds"] = None if oldest is None else round((now - oldest).total_seconds(), 1)
    return counts, ["stuck"] if counts["stuck"] else []
