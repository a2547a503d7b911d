"""Tournaments: the event, its published rules, entries, teams, rounds and pairings.

The draw itself (brackets, flights, Swiss pairing, standings) is pure Python in
``tournaments.draw``; these rows are what it is computed from and what it produced. Every
pairing that is played is a ``matches.Match``, reported and confirmed like any other.

Invariants the database guards:
- one entry per side (player or pair) or team per event, and an entry is one or the other; a side
  may have one re-entry besides (``Entry.reentry_of``: one per original entry, one per side);
- a player is in at most one team per event;
- one pairing per draw key (``main-2-3``, ``swiss-4-7``) per event: two confirmations racing
  can never create the same next match twice;
- one round per number per event (pairing a Swiss round twice at once creates one round);
- one board order per team per round, one match per board of a team match.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from . import hosts


class Tournament(models.Model):
    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")

    class Kind(models.TextChoices):
        INDIVIDUAL = "individual", _("Individual")
        PAIRS = "pairs", _("Consultation pairs")
        TEAMS = "teams", _("N-board teams")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        OPEN = "open", _("Entries open")
        CLOSED = "closed", _("Entries closed, check-in")
        # Translators: an event under way (its rounds are being played): AR جارية (the event,
        # بطولة, is feminine), RO În desfășurare; not a task "in progress".
        RUNNING = "running", pgettext_lazy("event status", "Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Seeding(models.TextChoices):
        RATING = "rating", _("By rating")
        ORGANISER = "organiser", _("By the organiser")
        RANDOM = "random", _("Random")

    class PrematureRoll(models.TextChoices):
        STANDS = "stands", _("The roll stands")
        OPPONENTS_CHOICE = "opponents_choice", _("Stands or is rerolled, at the opponent's choice")

    class ClockPolicy(models.TextChoices):  # whether the event's matches are played on a clock
        NONE = "none", _("No clock")
        ALLOWED = "allowed", _("Clocks allowed")
        PREFERRED = "preferred", _("Clocks preferred")
        REQUIRED = "required", _("Clocks required")

    name = models.CharField(max_length=200)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments")
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    format = models.CharField(max_length=24, choices=Format.choices, default=Format.SINGLE_ELIMINATION)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.INDIVIDUAL)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT, db_index=True)
    board_count = models.PositiveSmallIntegerField(default=3, help_text="boards per team match (team events)")

    # The rules published before play.
    lengths = models.JSONField(
        default=dict, blank=True,
        help_text='match length per flight and round, e.g. {"main": [5, 5, 7, 9], "consolation": [3]}; '
                  'Swiss and round robin use "rounds"',
    )
    consolation_rounds = models.PositiveSmallIntegerField(
        default=0, help_text="0: no consolation; 1: first-round losers; k: losers of the first k rounds")
    last_chance = models.BooleanField(default=False, help_text="consolation losers play a last-chance flight")
    # --- flights directors use, and paid places ---
    consolation_shifted = models.BooleanField(
        default=False, help_text="progressive consolation shifted: later losers enter sooner (TourneyGeek's A.B.C.D.|.|.)")
    playoff_second = models.BooleanField(
        default=False, help_text="the main final's loser plays the consolation's winner for 2nd")
    last_chance_open = models.BooleanField(
        default=False, help_text="the last-chance flight is open to everyone who goes out without cashing")
    payouts = models.JSONField(
        default=dict, blank=True,
        help_text='paid places per flight: {"main": {"pool": 100000, "percentages": [50, 30, 10, 10]}}; '
                  "the pool in minor units (cents), the percentages best place first")
    # Re-entry (buy-back, tournaments.draw.flights.reentry): how many times a
    # player who lost his main round-1 match may enter the main again while its first round is
    # open. 0: no re-entry; the pure rule allows one (a check constraint keeps it at most 1).
    reentries = models.PositiveSmallIntegerField(
        default=0, help_text="re-entries (buy-backs) into the main allowed per player while its first round is open: 0 or 1")
    # --- end of flights and paid places ---
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    max_losses = models.PositiveSmallIntegerField(null=True, blank=True, help_text="elimination Swiss: out at this loss")
    groups = models.PositiveSmallIntegerField(default=1, help_text="round robin groups")
    forbid_same_club = models.BooleanField(default=False)
    crawford = models.BooleanField(default=True)
    move_policy = models.CharField(max_length=16, choices=[("legal", _("Legal moves")),
                                                            ("responsible", _("Responsible moves"))],
                                   default="legal")
    premature_roll = models.CharField(max_length=24, choices=PrematureRoll.choices, default=PrematureRoll.STANDS)
    clock_seconds_per_point = models.PositiveIntegerField(null=True, blank=True,
                                                  help_text="the clock's reserve per match point; empty: no clock")
    penalty_minutes_per_point = models.PositiveSmallIntegerField(default=5, help_text="late arrival: 1 point per N minutes")
    appeal_minutes = models.PositiveIntegerField(default=30, help_text="a ruling may be appealed for this long")
    # --- clocks. The reserve per point is clock_seconds_per_point
    # above (set exactly when the policy is not "none"); engine/clocks.py does the arithmetic.
    clock_policy = models.CharField(max_length=16, choices=ClockPolicy.choices, default=ClockPolicy.NONE)
    clock_delay_seconds = models.PositiveSmallIntegerField(default=12, help_text="the clock's delay per move")
    clock_doubling = models.BooleanField(default=False, help_text="the doubling variant: the longer reserve and delay")
    clock_doubling_seconds_per_point = models.PositiveIntegerField(default=180)
    clock_doubling_delay_seconds = models.PositiveSmallIntegerField(default=15)
    clock_overtime_seconds = models.PositiveIntegerField(default=0, help_text="0: no overtime")
    # --- end clocks

    # How a Swiss is paired and its table ordered, and the order of a
    # round robin's rounds (tournaments/draw: pair_round's method, SWISS or SWISS_FIDE, round_robin's order).
    class SwissPairing(models.TextChoices):
        FAIR = "fair", _("Fairest pairing: the least score differences")
        TOP_DOWN = "top_down", _("Top board first")

    class SwissTiebreaks(models.TextChoices):
        STANDARD = "standard", _("Buchholz, median-Buchholz, head-to-head")
        FIDE = "fide", _("FIDE Buchholz, median-Buchholz, direct encounter")

    class RoundRobinOrder(models.TextChoices):
        CIRCLE = "circle", _("Circle method")
        BERGER = "berger", _("FIDE Berger tables")

    swiss_pairing = models.CharField(max_length=16, choices=SwissPairing.choices, default=SwissPairing.FAIR)
    swiss_tiebreaks = models.CharField(max_length=16, choices=SwissTiebreaks.choices, default=SwissTiebreaks.STANDARD)
    round_robin_order = models.CharField(max_length=16, choices=RoundRobinOrder.choices, default=RoundRobinOrder.CIRCLE)

    # The ABT-style modified Swiss (tournaments/draw/abt.py). Once a round
    # ends with no more players able to cash than the paid places, the Swiss stops and those players
    # play single-elimination playoffs (tournaments/services/playoffs.py).
    abt_playoffs = models.BooleanField(
        default=False, help_text="ABT-style modified Swiss: playoffs once the players who can still cash are no more "
                                 "than the paid places")
    abt_paid_places = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the paid places the move to playoffs counts; empty: the main flight's paid "
                                         "places (payouts)")
    abt_playoff = models.JSONField(
        default=dict, blank=True, editable=False,
        help_text='the playoffs once drawn: {"after_round": 5, "paid": 4, "seeds": [entry ids, best first], '
                  '"cash_only": [entry ids]}; empty: the Swiss goes on')

    seeding = models.CharField(max_length=16, choices=Seeding.choices, default=Seeding.RATING)

    # --- divisions and handicaps (tournaments.draw.divisions) ---
    divisions = models.JSONField(
        default=list, blank=True,
        help_text='the divisions, strongest first, e.g. [{"name": "Open"}, {"name": "Novice", "max_rating": 1500}]; '
                  'empty: no divisions')
    handicaps = models.JSONField(
        default=list, blank=True,
        help_text='handicap starts, e.g. [{"division": "Intermediate", "against": "Open", "length": 7, "points": 1}]')
    # --- end divisions ---

    # --- how deep GNU Backgammon analyses the event's matches (analysis.hooks) ---
    class AnalysisPlies(models.IntegerChoices):
        ZERO = 0, _("0-ply (fastest)")
        ONE = 1, _("1-ply")
        TWO = 2, _("2-ply (the usual depth)")

    analysis_plies = models.PositiveSmallIntegerField(choices=AnalysisPlies.choices, default=AnalysisPlies.TWO,
                                                      help_text="the depth of the analysis of the event's matches")
    # --- end analysis ---

    draw_seed = models.BigIntegerField(null=True, blank=True, help_text="the recorded random seed of the draw")
    drawn_at = models.DateTimeField(null=True, blank=True)
    # Moves on with every committed change made under the event's lock (entries, draw, rounds,
    # results): a version for caching what is computed from the whole event, like standings.
    version = models.PositiveIntegerField(default=0)

    # Cancelled: why (shown on its pages and emailed to the entrants) and when.
    cancel_reason = models.TextField(blank=True, default="")
    cancelled_at = models.DateTimeField(null=True, blank=True)
    # The create form's one-time token (or the API's Idempotency-Key): the same token sent twice by
    # the same creator is the same event, never a second one.
    create_token = models.UUIDField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(fields=["organiser", "create_token"], condition=Q(create_token__isnull=False),
                                    name="tournament_created_once_per_token"),
            models.CheckConstraint(condition=Q(board_count__gte=1), name="tournament_at_least_one_board"),
            models.CheckConstraint(condition=Q(groups__gte=1), name="tournament_at_least_one_group"),
            models.CheckConstraint(condition=Q(reentries__lte=1), name="tournament_reentries_at_most_one"),
            models.CheckConstraint(condition=Q(analysis_plies__lte=2), name="tournament_analysis_plies_0_to_2"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def club(self):
        """The club whose calendar the event is on, or None: held by the clubs app
        (tournaments/hosts.py), read through ``select_related(*hosts.host_joins())``."""
        return hosts.host_of(self)


class EventMatch(models.Model):
    """A match of the event. The event holds its matches: ``matches`` (the kernel) names no event.

    Read a match's event with :func:`event_of` (through ``match.event_link``, which
    ``Match.objects.with_sides()`` joins); an event's matches with ``Match.objects.filter(
    event_link__tournament=...)``. The event's organiser directs every match of the event
    (``tournaments.hooks``), besides the match's own organiser.
    """

    match = models.OneToOneField("matches.Match", primary_key=True, on_delete=models.CASCADE,
                                 related_name="event_link")
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="match_links")

    def __str__(self) -> str:
        return f"match {self.match_id} of event {self.tournament_id}"


#: select_related path from a match to its event (``Match.objects.with_sides()`` joins it).
EVENT_JOIN = "event_link__tournament"


def event_of(match) -> Tournament | None:
    """The event ``match`` belongs to, or None. Joined by ``Match.objects.with_sides()`` and
    ``with_side_ids()`` (no query then; ``select_related(EVENT_JOIN)`` elsewhere)."""
    try:
        return match.event_link.tournament
    except EventMatch.DoesNotExist:
        return None


def event_id_of(match) -> int | None:
    """The id of the event ``match`` belongs to, or None (no query when the link is joined)."""
    try:
        return match.event_link.tournament_id
    except EventMatch.DoesNotExist:
        return None


class Team(models.Model):
    """A team of an N-board team event: a captain and members, some of them reserves."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=120)
    captain = models.ForeignKey("matches.Player", on_delete=models.PROTECT, related_name="captained_teams")

    class Meta:
        ordering = ["tournament", "name"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_name_once_per_event")]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    # Denormalised from the team so that the database can keep a player in one team per event.
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("matches.Player", on_delete=models.PROTECT, related_name="team_memberships")
    reserve = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="team_member_one_team_per_event")]


class Entry(models.Model):
    """An entrant of an event: a side (one player or a consultation pair) or a team."""

    class Status(models.TextChoices):
        ENTERED = "entered", _("Entered")
        CHECKED_IN = "checked_in", _("Checked in")
        # Translators: an entrant (a player, pair or team) who left the event: KO 기권, AR masculine
        # منسحب, RO retras; a claim taken back is "Withdrawn" with the context "claim status".
        WITHDRAWN = "withdrawn", pgettext_lazy("entrant status", "Withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    side = models.ForeignKey("matches.Side", null=True, blank=True, on_delete=models.PROTECT, related_name="entries")
    team = models.OneToOneField(Team, null=True, blank=True, on_delete=models.CASCADE, related_name="entry")
    seed = models.PositiveIntegerField(null=True, blank=True, help_text="the organiser's seed, or the late entrant's")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ENTERED)
    late = models.BooleanField(default=False)
    # The entrant's division (by rating at entry, or the director's); empty: none.
    division = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # Re-entry (buy-back): the player's earlier entry this one re-enters the main
    # for (tournaments.services.reentry); null for an original entry. Same side, same event.
    reentry_of = models.OneToOneField("self", null=True, blank=True, on_delete=models.RESTRICT, related_name="reentry")
    # Who made the entry (the player himself, the organiser, staff, a captain); empty for the
    # entries made before it was kept, which count as their event's organiser's. A director may not
    # decide the claim of a player he entered himself (tournaments.hooks).
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        ordering = ["tournament", "seed", "created_at", "id"]
        verbose_name_plural = "entries"
        constraints = [
            # A side enters an event once, and re-enters it at most once (the pure rule's limit).
            models.UniqueConstraint(fields=["tournament", "side"], condition=Q(side__isnull=False, reentry_of__isnull=True),
                                    name="entry_side_once_per_event"),
            models.UniqueConstraint(fields=["tournament", "side"], condition=Q(reentry_of__isnull=False),
                                    name="entry_side_reenters_once_per_event"),
            models.CheckConstraint(condition=Q(reentry_of__isnull=True) | Q(side__isnull=False),
                                   name="entry_reentry_is_a_side"),
            models.CheckConstraint(condition=Q(side__isnull=False) ^ Q(team__isnull=False),
                                   name="entry_is_a_side_or_a_team"),
        ]


class Round(models.Model):
    """A paired round of a Swiss or round robin (brackets carry their rounds in pairing keys)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    paired_at = models.DateTimeField(auto_now_add=True)
    started = models.BooleanField(default=False, help_text="board orders are locked once a round starts")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_once_per_number")]


class Pairing(models.Model):
    """Two entries to meet (or one with a bye), under the draw's stable key; its match (or, in a
    team event, its board matches) is created when both entries are known."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    key = models.CharField(max_length=40, help_text="the draw's id: main-2-3, swiss-4-7")
    flight = models.CharField(max_length=24, default="main")
    round_number = models.PositiveSmallIntegerField()
    entry0 = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    entry1 = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    length = models.PositiveSmallIntegerField()
    match = models.OneToOneField("matches.Match", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="pairing")
    # The handicap start its match was given (entry0's points, entry1's) from the
    # divisions' handicap table when it was made; 0-0 without one.
    handicap0 = models.PositiveSmallIntegerField(default=0)
    handicap1 = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "round_number", "key"]
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="pairing_key_once_per_event")]

    @property
    def is_bye(self) -> bool:
        return (self.entry0_id is None) != (self.entry1_id is None)


class BoardMatch(models.Model):
    """One board of a team match."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="boards")
    board = models.PositiveSmallIntegerField()
    match = models.OneToOneField("matches.Match", on_delete=models.PROTECT, related_name="board")

    class Meta:
        ordering = ["pairing", "board"]
        constraints = [models.UniqueConstraint(fields=["pairing", "board"], name="board_once_per_team_match")]


class BoardOrder(models.Model):
    """A captain's board order for one round, locked when the round starts."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="board_orders")
    round_number = models.PositiveSmallIntegerField()
    players = models.JSONField(help_text="player ids, board 1 first")
    locked = models.BooleanField(default=False)
    submitted_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "round_number"], name="board_order_once_per_round")]


class Acceptance(models.Model):
    """A player stands behind an event's results by his own act: he entered it himself (signed
    up, captains his team, checked his entry in) or accepted an organiser's entry of him, which is
    an invitation until then. Staff entering him vouch for him as well.

    Why: an organiser may enter anyone with an account; that alone must not put the event's
    results on his record. Without an acceptance the event does not vouch for his sides (their
    consent waits for his own report or confirmation: ``matches.services.consent``), and its
    organiser does not direct him (``tournaments.hooks``). A player with no account (a walk-in, a
    player known from imported files) is the organiser's own record until claimed, and needs none.
    """

    class How(models.TextChoices):
        SIGNED_UP = "signed_up", _("Entered himself")
        ACCEPTED = "accepted", _("Accepted the entry")
        STAFF = "staff", _("Entered by staff")
        # The entrants of the events held before acceptances were kept: their results stood.
        EARLIER = "earlier", _("Entered before acceptances were kept")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="acceptances")
    player = models.ForeignKey("matches.Player", on_delete=models.CASCADE, related_name="event_acceptances")
    how = models.CharField(max_length=16, choices=How.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="acceptance_once_per_event")]
