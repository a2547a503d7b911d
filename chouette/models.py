"""Chouette tables (RULES.md §7): a session for one sitting at a club, and the ordered steps its
line-up and ledger are always recomputed from.

Invariants the database guards:
- a session's steps are numbered once each, and it has one start;
- a session's settings are sane (raccoons need beavers, a Box partner needs at least three players,
  the stake is not negative, "initial cubes only" needs the take-half rule, a Captain made to beaver
  needs beavers);
- a join or a leave names its player;
- nothing of the ledger is stored to be edited: amounts are derived from the steps by the engine
  (the session keeps the state its steps lead to, ``kept``, only as a checked shortcut of the
  replay; a trigger empties it when a step row is changed or removed).

The tables were the clubs app's before this app was split from it: they keep their names
(``clubs_chouettesession``, ``clubs_chouettestep``) and every row (migrations/0001_initial.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class ChouetteSession(models.Model):
    """A chouette table for one sitting: its settings, and the ordered steps everything else is
    computed from (engine.chouette). The row is the table's lock: every step is written under it."""

    class Status(models.TextChoices):
        OPEN = "open", _("Playing")
        ENDED = "ended", _("Ended")

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="chouettes")
    night = models.ForeignKey("clubs.ClubNight", null=True, blank=True, on_delete=models.SET_NULL, related_name="chouettes")
    name = models.CharField(max_length=80, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    # The table's settings (RULES.md §7), fixed when the session starts.
    single_cube = models.BooleanField(default=False, help_text="one cube for the team instead of one per member")
    jacoby = models.BooleanField(default=True)
    beavers = models.BooleanField(default=False)
    raccoons = models.BooleanField(default=False)
    automatic_doubles = models.PositiveSmallIntegerField(default=0, help_text="limit; 0: none")
    box_partner_from = models.PositiveSmallIntegerField(null=True, blank=True,
                                                        help_text="the Box takes a partner from this many players")
    box_must_take_half = models.BooleanField(default=False)
    lone_taker_must_beaver = models.BooleanField(default=False)
    # The house rules (engine.chouette.settings). Automatic doubles do not count
    # for Jacoby at a new table; the migration keeps tables that existed before counting them.
    three_handed_both_cubes = models.BooleanField(
        default=False, help_text="at a table of three the Box takes both cubes turned at once or passes both")
    box_must_take_captain = models.BooleanField(
        default=False, help_text="the Box takes the Captain's cube when he takes another's with it")
    take_half_initial_only = models.BooleanField(
        default=False, help_text="the take-half rule applies to initial cubes only")
    captain_alone_must_beaver = models.BooleanField(default=False, help_text="a Captain who takes alone beavers")
    box_partner_next_in_line = models.BooleanField(
        default=False, help_text="the Box partner is the next in line and captains when the Box loses")
    jacoby_counts_automatic = models.BooleanField(
        default=False, help_text="an automatic double turns the cube for Jacoby")
    stake = models.DecimalField(max_digits=9, decimal_places=2, default=1, help_text="money per point")
    currency = models.CharField(max_length=3, default="EUR")
    # Moves on with every step written: the table page polls it to know when to refresh.
    version = models.PositiveIntegerField(default=0)
    # Where the steps lead (engine.chouette.SessionState) and what it was computed from, written by
    # the services with every step, so that the next step is folded into it instead of replaying
    # them all; trusted only while it matches (chouette.services.state.session_standing). A database trigger
    # empties it when a step row is updated or deleted (migrations/0002_kept_state.py).
    kept = models.JSONField(null=True, blank=True, editable=False,
                            help_text="the state after the last step, and what it was computed from")

    class Meta:
        db_table = "clubs_chouettesession"
        ordering = ["-started_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(raccoons=False) | Q(beavers=True), name="chouette_raccoons_need_beavers"),
            models.CheckConstraint(condition=Q(box_partner_from__isnull=True) | Q(box_partner_from__gte=3),
                                   name="chouette_box_partner_from_three"),
            models.CheckConstraint(condition=Q(stake__gte=0), name="chouette_stake_not_negative"),
            models.CheckConstraint(condition=Q(take_half_initial_only=False) | Q(box_must_take_half=True),
                                   name="chouette_initial_only_needs_take_half"),
            models.CheckConstraint(condition=Q(captain_alone_must_beaver=False) | Q(beavers=True),
                                   name="chouette_captain_beaver_needs_beavers"),
        ]

    def __str__(self) -> str:
        return self.name or gettext("Chouette %(number)s at %(club)s") % {"number": self.pk, "club": self.club}


class ChouetteStep(models.Model):
    """One recorded step of a session, in order: the start (roll-off), a player joining or leaving,
    or a game (its record, full or quick, as the engine's JSON). A correction amends a game's record
    or voids it; the line-up and the ledger are recomputed from the steps, never edited."""

    class Kind(models.TextChoices):
        START = "start", _("Start (opening roll-off)")
        JOIN = "join", _("Player joins")
        LEAVE = "leave", _("Player leaves")
        GAME = "game", _("Game")

    session = models.ForeignKey(ChouetteSession, on_delete=models.CASCADE, related_name="steps")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    player = models.ForeignKey("matches.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    record = models.JSONField(default=dict, blank=True, help_text="start: the roll-off; game: the game record")
    voided = models.BooleanField(default=False)
    amended = models.PositiveSmallIntegerField(default=0, help_text="how many times the record was amended")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "clubs_chouettestep"
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="chouette_step_number_once"),
            models.CheckConstraint(condition=~Q(kind__in=("join", "leave")) | Q(player__isnull=False),
                                   name="chouette_join_leave_names_a_player"),
            models.UniqueConstraint(fields=["session"], condition=Q(kind="start"), name="chouette_one_start"),
        ]
