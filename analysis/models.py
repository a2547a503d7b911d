"""One analysis per match: its state (queued, running, done, failed), progress, the result JSON of
``analysis.compute`` (its module docstring, (e); ``analysis.verdict.MatchAnalysis.to_json``) and each side's
summary in columns of their own, so that a player's PR over time and an event's ranking are sums
over rows rather than reads of every result."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from matches.models import Match

#: The side columns of a done analysis (``pr0``, ``pr1``...): each side's whole-match figures.
SIDE_FIELDS = ("decisions", "unforced", "equity_lost", "error_rate", "pr", "errors", "blunders")


class MatchAnalysis(models.Model):
    """GNU Backgammon's analysis of one match's games, one row per match.

    A request (``analysis.services.match_analysis_request``) writes the row queued, or puts an
    existing one back to queued with the next ``generation`` (its result cleared): the task carries
    the generation it was sent for, and a run of an older one changes nothing (a second run
    replaces the first). ``attempt`` counts the runs a generation took (a retry, a redelivery):
    only the latest may write its progress and result. ``games_hash`` is the fingerprint of the
    games (and rules) a run analysed: a run that finds the match changed under it starts again.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for an analysis worker")
        RUNNING = "running", _("Being analysed")
        DONE = "done", _("Analysed")
        FAILED = "failed", _("The analysis failed")

    match = models.OneToOneField(Match, primary_key=True, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    plies = models.PositiveSmallIntegerField(help_text="gnubg's depth: 0, 1 or 2 plies")
    generation = models.PositiveIntegerField(default=1, help_text="one more at each request: a run of an older one "
                                                                  "changes nothing")
    attempt = models.PositiveIntegerField(default=0, help_text="runs of this generation so far")
    lowered_from = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the depth asked for, when a run stopped at the time limit was run again "
                                         "one ply lower (``plies`` is then the depth run)")
    games_hash = models.CharField(max_length=64, blank=True, default="",
                                  help_text="the fingerprint of the games and rules analysed")
    done = models.PositiveIntegerField(default=0, help_text="decisions analysed so far")
    total = models.PositiveIntegerField(default=0, help_text="decisions to analyse")
    result = models.JSONField(null=True, blank=True, help_text="analysis.compute's MatchAnalysis.to_json(), once done")
    engine = models.CharField(max_length=64, blank=True, default="", help_text="gnubg's version, once done")
    failure_code = models.CharField(max_length=32, blank=True, default="")
    failure = models.TextField(blank=True, default="", help_text="what went wrong, in English (the code is worded "
                                                                 "in the reader's language)")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    queued_for = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        db_index=False,  # the index below (its rows only) answers every lookup by it
        help_text="the player whose own match-file import queued this analysis by itself (counted against "
                  "CRAWFORD_ANALYSIS_UPLOADS_PER_DAY, and run behind the others); empty for any other request")
    requested_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    progressed_at = models.DateTimeField(null=True, blank=True)
    analysed_at = models.DateTimeField(null=True, blank=True, db_index=True)

    # Each side's whole match, once done (SIDE_FIELDS): what the aggregates sum.
    decisions0 = models.PositiveIntegerField(null=True, blank=True)
    decisions1 = models.PositiveIntegerField(null=True, blank=True)
    unforced0 = models.PositiveIntegerField(null=True, blank=True)
    unforced1 = models.PositiveIntegerField(null=True, blank=True)
    equity_lost0 = models.FloatField(null=True, blank=True, help_text="normalised equity (EMG)")
    equity_lost1 = models.FloatField(null=True, blank=True, help_text="normalised equity (EMG)")
    error_rate0 = models.FloatField(null=True, blank=True, help_text="millipoints per unforced decision")
    error_rate1 = models.FloatField(null=True, blank=True, help_text="millipoints per unforced decision")
    pr0 = models.FloatField(null=True, blank=True)
    pr1 = models.FloatField(null=True, blank=True)
    errors0 = models.PositiveIntegerField(null=True, blank=True)
    errors1 = models.PositiveIntegerField(null=True, blank=True)
    blunders0 = models.PositiveIntegerField(null=True, blank=True)
    blunders1 = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "match analyses"
        indexes = [
            # How many analyses a player's uploads queued in the last day: a range of this index.
            models.Index(fields=["queued_for", "requested_at"], condition=Q(queued_for__isnull=False),
                         name="analysis_queued_for"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=("queued", "running", "done", "failed")),
                                   name="analysis_status_is_known"),
            models.CheckConstraint(condition=Q(plies__lte=2), name="analysis_plies_0_to_2"),
            models.CheckConstraint(condition=Q(done__lte=F("total")), name="analysis_done_at_most_total"),
            models.CheckConstraint(condition=Q(generation__gte=1), name="analysis_generation_from_1"),
            # A result, its time and its summaries exactly when done.
            models.CheckConstraint(
                condition=(Q(status="done", result__isnull=False, analysed_at__isnull=False, pr0__isnull=False,
                             pr1__isnull=False, unforced0__isnull=False, unforced1__isnull=False,
                             equity_lost0__gte=0, equity_lost1__gte=0)
                           | (~Q(status="done") & Q(result__isnull=True, pr0__isnull=True, pr1__isnull=True))),
                name="analysis_result_exactly_when_done"),
            models.CheckConstraint(condition=~Q(status="failed") | ~Q(failure_code=""),
                                   name="analysis_failure_has_a_reason"),
        ]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.status})"

    @property
    def percent(self) -> int:
        """How far the run is, 0..100 (100 once done)."""
        if self.status == self.Status.DONE:
            return 100
        return 0 if not self.total else min(100, self.done * 100 // self.total)

    def side(self, side: int) -> dict:
        """Side ``side``'s summary columns (``{"pr": ..., "blunders": ...}``), None before done."""
        return {name: getattr(self, f"{name}{side}") for name in SIDE_FIELDS}
