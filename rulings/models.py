"""Disputes, the director's rulings and appeals to a committee.

Rulings live in their own app because they act across the others: a ruling changes a match's
result (matches), a bracket or an entry (tournaments). Every change is written to the audit log
(the ``audit`` app).

Invariants the database guards:
- a dispute's moment (move number) belongs to a game number;
- at most one automatic, unresolved dispute per match (a contested report opens one, twice never);
- at most one ruling in force per dispute;
- one appeal per ruling; a user sits once on an appeal's committee and votes once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Dispute(models.Model):
    class Category(models.TextChoices):
        ILLEGAL_MOVE = "illegal_move", _("Illegal move")
        COCKED_DICE = "cocked_dice", _("Cocked dice")
        PREMATURE_ROLL = "premature_roll", _("Premature roll")
        CRAWFORD_DOUBLE = "crawford_double", _("Double in the Crawford game")
        CUBE_OR_SETUP = "cube_or_setup", _("Misplaced cube or wrong setup")
        LATE_ARRIVAL = "late_arrival", _("Late arrival")
        SLOW_PLAY = "slow_play", _("Slow play")
        # Translators: a dispute about the clock: a player's time ran out (KO 시간패, never 플래그 폴).
        FLAG_FALL = "flag_fall", _("Flag fall")  # a dispute about the clock
        SCORE_DISAGREEMENT = "score_disagreement", _("Score disagreement")
        NO_SHOW = "no_show", _("No-show")
        CONDUCT = "conduct", _("Conduct")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("Open, awaiting a ruling")
        RULED = "ruled", _("Ruled")
        APPEALED = "appealed", _("Under appeal")
        DECIDED = "decided", _("Appeal decided")
        SETTLED = "settled", _("Settled without a ruling")

    match = models.ForeignKey("matches.Match", on_delete=models.PROTECT, related_name="disputes")
    game_number = models.PositiveSmallIntegerField(null=True, blank=True, help_text="empty: the whole match")
    move_number = models.PositiveIntegerField(null=True, blank=True, help_text="the disputed action of the game's log")
    position_id = models.CharField(max_length=14, blank=True, help_text="GNU Backgammon Position ID at the moment")
    log = models.JSONField(null=True, blank=True, help_text="the disputed game as played, when it differs from the record")
    category = models.CharField(max_length=24, choices=Category.choices)
    # The opener's own words. An automatic dispute's may be empty: its reason is ``reported_scores``,
    # worded where it is read, in the reader's language (``rulings.wording.dispute_reason``).
    statement = models.TextField(blank=True)
    reported_scores = models.JSONField(
        null=True, blank=True,
        help_text="an automatic dispute's reason: the two reported scores that disagree, or the one contested")
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="disputes_opened")
    side = models.PositiveSmallIntegerField(null=True, blank=True, help_text="the opener's side; empty for the director")
    automatic = models.BooleanField(default=False, help_text="opened by a contested or mismatched report")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(move_number__isnull=True) | Q(game_number__isnull=False),
                                   name="dispute_moment_has_a_game"),
            models.CheckConstraint(condition=Q(side__isnull=True) | Q(side__in=(0, 1)), name="dispute_side_is_a_side"),
            models.UniqueConstraint(fields=["match"], condition=Q(automatic=True, status="open"),
                                    name="dispute_one_automatic_open_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.get_category_display()} in match {self.match_id}"


class Statement(models.Model):
    """A party's (or the director's) statement on a dispute after it was opened: the answer."""

    dispute = models.ForeignKey(Dispute, on_delete=models.CASCADE, related_name="statements")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]


class Ruling(models.Model):
    class Outcome(models.TextChoices):
        STANDS = "stands", _("Result stands")
        SCORE_CORRECTED = "score_corrected", _("Score corrected")
        PLAY_CORRECTED = "play_corrected", _("Illegal play corrected")
        # Translators: the director let an illegal play stand (RO tolerată, never acceptată: to accept is to take a double).
        PLAY_CONDONED = "play_condoned", _("Illegal play condoned")
        GAME_VOIDED = "game_voided", _("Game voided")
        GAME_REPLAYED = "game_replayed", _("Game to be replayed")
        CRAWFORD_DOUBLE_VOIDED = "crawford_double_voided", _("Crawford-game double voided")
        PENALTY_POINTS = "penalty_points", _("Penalty points")
        MATCH_AWARDED = "match_awarded", _("Match awarded")
        WARNING = "warning", _("Warning")
        DISQUALIFICATION = "disqualification", _("Disqualification from the event")
        WRONG_LENGTH = "wrong_length", _("Match played to the wrong length")

    class Status(models.TextChoices):
        IN_FORCE = "in_force", _("In force")
        OVERTURNED = "overturned", _("Overturned on appeal")
        REPLACED = "replaced", _("Replaced on appeal")

    dispute = models.ForeignKey(Dispute, on_delete=models.PROTECT, related_name="rulings")
    director = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rulings_made")
    rule = models.CharField(max_length=200, help_text="the rule applied, e.g. RULES 9: a double in the Crawford game is void")
    reasoning = models.TextField()
    outcome = models.CharField(max_length=24, choices=Outcome.choices)
    params = models.JSONField(default=dict, blank=True, help_text="the outcome's details: score, game, side, points, play")
    changes = models.JSONField(default=dict, blank=True, help_text="what applying it changed: before and after")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_FORCE)
    appeal = models.ForeignKey("Appeal", null=True, blank=True, on_delete=models.PROTECT, related_name="replacements",
                               help_text="the appeal whose committee made this ruling")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["dispute"], condition=Q(status="in_force"), name="ruling_one_in_force_per_dispute"),
        ]

    def __str__(self) -> str:
        return f"{self.get_outcome_display()} (dispute {self.dispute_id})"


class Appeal(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Awaiting the committee")
        DECIDED = "decided", _("Decided")

    class Decision(models.TextChoices):
        UPHOLD = "uphold", _("Ruling upheld")
        OVERTURN = "overturn", _("Ruling overturned")
        REPLACE = "replace", _("Ruling replaced")

    ruling = models.OneToOneField(Ruling, on_delete=models.PROTECT, related_name="appeal_of")
    appellant = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="appeals")
    side = models.PositiveSmallIntegerField()
    grounds = models.TextField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    decision = models.CharField(max_length=16, choices=Decision.choices, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(side__in=(0, 1)), name="appeal_side_is_a_side"),
            models.CheckConstraint(condition=Q(status="open", decision="") | (Q(status="decided") & ~Q(decision="")),
                                   name="appeal_decided_has_decision"),
        ]


class CommitteeMember(models.Model):
    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="committee")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="committee_seats")

    class Meta:
        ordering = ["appeal", "id"]
        constraints = [models.UniqueConstraint(fields=["appeal", "user"], name="committee_member_once_per_appeal")]


class Vote(models.Model):
    """A committee member's vote; a vote to replace carries the replacement ruling."""

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="votes")
    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decision = models.CharField(max_length=16, choices=Appeal.Decision.choices)
    outcome = models.CharField(max_length=24, choices=Ruling.Outcome.choices, blank=True)
    params = models.JSONField(default=dict, blank=True)
    rule = models.CharField(max_length=200, blank=True)
    reasoning = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["appeal", "member"], name="vote_once_per_member"),
            models.CheckConstraint(condition=~Q(decision="replace") | ~Q(outcome=""), name="vote_replace_has_outcome"),
        ]
