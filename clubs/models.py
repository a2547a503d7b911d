"""Clubs: members and their roles, club nights with check-ins, seasons for the ladder, and chouette
sessions whose line-up and ledger are always recomputed from their recorded steps.

Invariants the database guards:
- a user has one membership row per club (requested, invited or active), with one role;
- a season's dates are in order and its name is unique in the club;
- a member checks in once per night;
- a chouette session's steps are numbered once each; a session's settings are sane (raccoons need
  beavers, a Box partner needs at least three players, the stake is not negative);
- nothing of the ledger is stored to be edited: amounts are derived from the steps by the engine.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    city = models.CharField(max_length=120, blank=True)
    description = models.TextField(blank=True)
    open_to_requests = models.BooleanField(default=True, help_text="people may ask to join")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        ORGANISER = "organiser", "Organiser"
        MEMBER = "member", "Member"

    class Status(models.TextChoices):
        REQUESTED = "requested", "Asked to join"
        INVITED = "invited", "Invited"
        ACTIVE = "active", "Member"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REQUESTED)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "role", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once_per_club"),
            # Only an active member holds a role above member: an invitation or a request is for membership.
            models.CheckConstraint(condition=Q(status="active") | Q(role="member"), name="membership_role_needs_active"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role}, {self.status})"


class HomeClub(models.Model):
    """A player's home club: what "same club" means to a draw (an event's ``forbid_same_club``).
    Set when the player's user first becomes an active member of a club, cleared when he leaves
    it (``clubs.services.common``). Held here: ``matches.Player`` names no club."""

    player = models.OneToOneField("matches.Player", primary_key=True, on_delete=models.CASCADE,
                                  related_name="home_club")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="home_players")

    def __str__(self) -> str:
        return f"player {self.player_id}'s home club {self.club_id}"


class ClubEvent(models.Model):
    """An event on the club's calendar (its page, its iCal feed), put there by one of the club's
    owners or organisers when the event was created. Held here: clubs stand above tournaments, and
    ``tournaments.Tournament`` names no club (it reads its club through tournaments/hosts.py)."""

    tournament = models.OneToOneField("tournaments.Tournament", primary_key=True, on_delete=models.CASCADE,
                                      related_name="club_event")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")

    def __str__(self) -> str:
        return f"event {self.tournament_id} on club {self.club_id}'s calendar"


class ClubMatch(models.Model):
    """A club's match (its ladder counts it) and the club night it was played at, if any. Held
    here: ``matches.Match`` names no club. Read through ``match.club_link``; a club's matches
    with ``Match.objects.filter(club_link__club=...)``, a night's with ``club_link__night``."""

    match = models.OneToOneField("matches.Match", primary_key=True, on_delete=models.CASCADE,
                                 related_name="club_link")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="match_links")
    night = models.ForeignKey("ClubNight", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="match_links")

    def __str__(self) -> str:
        return f"match {self.match_id} of club {self.club_id}"


class Season(models.Model):
    """A ladder season: the club's confirmed matches played between its dates count."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    starts_on = models.DateField()
    ends_on = models.DateField()

    class Meta:
        ordering = ["club", "-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_once_per_club"),
            models.CheckConstraint(condition=Q(starts_on__lte=F("ends_on")), name="season_dates_in_order"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class ClubNight(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    title = models.CharField(max_length=120, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "-date", "-id"]

    def __str__(self) -> str:
        return f"{self.club} night {self.date}"


class CheckIn(models.Model):
    night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="check_ins")
    player = models.ForeignKey("matches.Player", on_delete=models.PROTECT, related_name="club_check_ins")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "at", "id"]
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="check_in_once_per_night")]


class ChouetteSession(models.Model):
    """A chouette table for one sitting: its settings, and the ordered steps everything else is
    computed from (engine.chouette). The row is the table's lock: every step is written under it."""

    class Status(models.TextChoices):
        OPEN = "open", "Playing"
        ENDED = "ended", "Ended"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="chouettes")
    night = models.ForeignKey(ClubNight, null=True, blank=True, on_delete=models.SET_NULL, related_name="chouettes")
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
    stake = models.DecimalField(max_digits=9, decimal_places=2, default=1, help_text="money per point")
    currency = models.CharField(max_length=3, default="EUR")
    # Moves on with every step written: the table page polls it to know when to refresh.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(raccoons=False) | Q(beavers=True), name="chouette_raccoons_need_beavers"),
            models.CheckConstraint(condition=Q(box_partner_from__isnull=True) | Q(box_partner_from__gte=3),
                                   name="chouette_box_partner_from_three"),
            models.CheckConstraint(condition=Q(stake__gte=0), name="chouette_stake_not_negative"),
        ]

    def __str__(self) -> str:
        return self.name or f"Chouette {self.pk} at {self.club}"


class ChouetteStep(models.Model):
    """One recorded step of a session, in order: the start (roll-off), a player joining or leaving,
    or a game (its record, full or quick, as the engine's JSON). A correction amends a game's record
    or voids it; the line-up and the ledger are recomputed from the steps, never edited."""

    class Kind(models.TextChoices):
        START = "start", "Start (opening roll-off)"
        JOIN = "join", "Player joins"
        LEAVE = "leave", "Player leaves"
        GAME = "game", "Game"

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
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="chouette_step_number_once"),
            models.CheckConstraint(condition=~Q(kind__in=("join", "leave")) | Q(player__isnull=False),
                                   name="chouette_join_leave_names_a_player"),
            models.UniqueConstraint(fields=["session"], condition=Q(kind="start"), name="chouette_one_start"),
        ]
