"""Clubs: members and their roles, club nights with check-ins, and seasons for the ladder. The chouette
tables played at a club (and at its nights) are the chouette app's, on top of this one.

Invariants the database guards:
- a user has one membership row per club (requested, invited or active), with one role;
- a membership is a user's or, for a walk-in member without an account, a guest player's (never
  both, never neither); a guest player is a member once per club, active, with the member role
  (an owner or organiser signs in); when the guest claims his player the row becomes his user's;
- a season's dates are in order and its name is unique in the club;
- a member checks in once per night.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


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
        OWNER = "owner", _("Owner")
        ORGANISER = "organiser", _("Organiser")
        MEMBER = "member", _("Member")

    class Status(models.TextChoices):
        REQUESTED = "requested", _("Asked to join")
        INVITED = "invited", _("Invited")
        ACTIVE = "active", pgettext_lazy("membership status", "Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="club_memberships")
    # A walk-in member with no account (clubs.services.walkins): his guest player instead of a user.
    player = models.ForeignKey("matches.Player", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="guest_club_memberships")
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
            models.UniqueConstraint(fields=["club", "player"], condition=Q(player__isnull=False),
                                    name="membership_guest_once_per_club"),
            models.CheckConstraint(condition=Q(user__isnull=False, player__isnull=True)
                                   | Q(user__isnull=True, player__isnull=False), name="membership_user_or_guest"),
            models.CheckConstraint(condition=Q(player__isnull=True) | Q(status="active", role="member"),
                                   name="membership_guest_active_member"),
        ]

    def __str__(self) -> str:
        return f"{self.user or self.player} in {self.club} ({self.role}, {self.status})"

    @property
    def member_name(self) -> str:
        """Who the membership is for, as people read it: the user's name, or the guest player's."""
        if self.user_id is None:
            return self.player.display_name
        return self.user.get_username()


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
        # Translators: a club night under way: members may check in (AR feminine: أمسية).
        OPEN = "open", pgettext_lazy("club night", "Open")
        CLOSED = "closed", pgettext_lazy("club night", "Closed")

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
