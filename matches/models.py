"""Players, matches, their games and the reports that make a result trusted.

Invariants the database guards (not only Python):
- a side is one player or a pair of two different players, and each player or pair has one side;
- a match is between two different sides; money-play options only in money sessions;
- a game number appears once per match;
- one report per side per match, and at most ONE confirmed report per match: two reports racing
  can never leave two confirmed results;
- a rating change is applied once per player per match;
- each side's consent to the match being on its record is pending, given or declined; a match
  counts for ratings and shows on its players' pages only once both sides have given it (see
  ``matches.services.consent``);
- an imported match file (by its canonical hash) is stored once.

A match's context (its event, its club and club night) and a player's home club are held by the
apps above, in rows linked one-to-one to the match or player (``tournaments.EventMatch``,
``clubs.ClubMatch``, ``clubs.HomeClub``): these models name no model of an app above them. What
the querysets below join of them, they learn from ``matches.hooks``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Upper
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from core.engine_words import ENDING_CHOICES
from core.text import SEARCH_KEY_MAX, isolate, search_key
from engine.match import MatchRules, PenaltyAt

from . import hooks

#: The highest score a report, a result or a ruling may give a side: far above any match's final
#: score and any money session's total (a larger number is a typo), and well within the score
#: columns (PositiveIntegerField).
MAX_SCORE = 9999


class SearchKeyField(models.CharField):
    """The search key (``core.text.search_key``) of another field of the row, ``source``: written
    from it whenever the row is written (``pre_save``: ``save()``, ``create()``, ``bulk_create()``
    and ``core.bulk.row_insert``), never set by hand. A write that names the fields it writes
    (``save(update_fields=...)``) writes the key with its source: see ``Player.save``."""

    def __init__(self, *args, source: str = "", **kwargs):
        self.source = source
        kwargs.setdefault("max_length", SEARCH_KEY_MAX)
        kwargs.setdefault("editable", False)
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs["source"] = self.source
        for key, value in (("max_length", SEARCH_KEY_MAX), ("editable", False), ("default", "")):
            if kwargs.get(key, value) == value:
                kwargs.pop(key, None)
        return name, path, args, kwargs

    def pre_save(self, model_instance, add):
        value = search_key(getattr(model_instance, self.source))
        setattr(model_instance, self.attname, value)
        return value


class PlayerQuerySet(models.QuerySet):
    """Writes of many players that name ``display_name`` write its search key with it (the
    writes that go through ``pre_save`` need nothing: see :class:`SearchKeyField`)."""

    def update(self, **kwargs):
        if "display_name" in kwargs and "search_name" not in kwargs:
            name = kwargs["display_name"]
            if not isinstance(name, str):
                # An expression (F, Concat) is computed by the database, which cannot make the key.
                raise TypeError("update display_name with a text (or name search_name too): its search key follows it")
            kwargs["search_name"] = search_key(name)
        return super().update(**kwargs)

    def bulk_update(self, objs, fields, batch_size=None):
        if "display_name" in fields and "search_name" not in fields:
            for player in objs:
                player.search_name = search_key(player.display_name)
            fields = [*fields, "search_name"]
        return super().bulk_update(objs, fields, batch_size=batch_size)


class Player(models.Model):
    """A backgammon player. ``user`` is empty for players known only from imported match files.
    His home club, if any, is ``clubs.HomeClub``.

    ``search_name`` is ``display_name`` as a search compares it (accents, case and the Romanian
    comma or cedilla set aside: ``core.text.search_key``), kept by the row's every write: the
    player directory and the player pickers search it, on PostgreSQL and SQLite alike."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    display_name = models.CharField(max_length=120)
    search_name = SearchKeyField(source="display_name")
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166 alpha-2 code")
    rating = models.FloatField(default=1500.0)
    experience = models.PositiveIntegerField(default=0, help_text="total length of rated matches finished")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["display_name", "id"]
        indexes = [models.Index(fields=["display_name"]), models.Index(fields=["search_name"])]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args, **kwargs):
        # A save naming its fields writes only those: the name's search key goes with the name.
        fields = kwargs.get("update_fields")
        if fields is not None and "display_name" in fields and "search_name" not in fields:
            kwargs["update_fields"] = [*fields, "search_name"]
        super().save(*args, **kwargs)


class Side(models.Model):
    """One side of a board: a single player, or a consultation pair (``player_b`` set)."""

    class Roller(models.TextChoices):
        A = "a", _("Always the first player")
        B = "b", _("Always the second player")
        ALTERNATE = "alternate", _("Alternating by game")

    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    roller = models.CharField(max_length=16, choices=Roller.choices, default=Roller.A)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player_a"], condition=Q(player_b__isnull=True), name="side_one_solo_per_player"),
            models.UniqueConstraint(fields=["player_a", "player_b"], condition=Q(player_b__isnull=False),
                                    name="side_one_per_pair"),
            models.CheckConstraint(condition=~Q(player_a=F("player_b")), name="side_pair_of_two_players"),
        ]

    @property
    def is_pair(self) -> bool:
        return self.player_b_id is not None

    @property
    def players(self) -> list[Player]:
        return [self.player_a] + ([self.player_b] if self.player_b_id else [])

    @property
    def name(self) -> str:
        return " & ".join(p.display_name for p in self.players)

    def __str__(self) -> str:
        return self.name


class MatchQuerySet(models.QuerySet):
    def with_sides(self) -> MatchQuerySet:
        """Sides and the match's contexts (its event: ``hooks.match_joins``) joined, their
        players prefetched: a fixed number of queries.

        The players are prefetched rather than joined: a nine-table join costs PostgreSQL 5 to
        20 ms of planning per query (measured), far more than four small ``IN`` queries.
        """
        return self.select_related("side0", "side1", *hooks.match_joins()).prefetch_related(
            "side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b"
        )

    def with_side_ids(self) -> MatchQuerySet:
        """Sides (their players' ids) and the match's contexts in one query: all that deciding
        who may act on a match, and auditing it, needs. Services lock through this, without the
        players."""
        return self.select_related("side0", "side1", *hooks.match_joins())

    def for_claims(self) -> MatchQuerySet:
        """Only what checking a claim and the claimant's rights reads: the rules, the starting
        score (penalty points), the sides' player ids, the organisers (the match's, and its
        contexts' directors: ``hooks.director_fields``, its event's organiser). (Fewer columns:
        building the query costs less than running it.)"""
        fields = hooks.director_fields()
        return self.select_related("side0", "side1", *{path.rsplit("__", 1)[0] for path in fields}).only(
            "id", "length", "crawford", "move_policy", "jacoby", "beavers", "raccoons", "automatic_doubles",
            "cube_cap", "rated", "status", "penalty0", "penalty1", "penalties_mid", "organiser", "side0__player_a",
            "side0__player_b", "side1__player_a", "side1__player_b", "consent0", "consent1", "created_by", *fields,
        )

    def consented(self) -> MatchQuerySet:
        """Matches both sides consented to: those on their players' records."""
        return self.filter(consent0=Match.Consent.GIVEN, consent1=Match.Consent.GIVEN)

    def visible_to(self, viewer) -> MatchQuerySet:
        """The matches ``viewer`` (a user, anonymous or None) may see in lists: those both sides
        consented to, and, until then, the match's creator (the importer), the players of a side
        that has not declined it (who see it awaiting their answer) and staff. No extra query:
        the viewer's player is a subquery."""
        if getattr(viewer, "is_staff", False) and getattr(viewer, "is_active", True):
            return self
        shown = Q(consent0=Match.Consent.GIVEN, consent1=Match.Consent.GIVEN)
        if getattr(viewer, "is_authenticated", False):
            mine = Player.objects.filter(user_id=viewer.pk).values("pk")
            shown |= Q(created_by_id=viewer.pk)
            for index in (0, 1):
                plays = Q(**{f"side{index}__player_a__in": mine}) | Q(**{f"side{index}__player_b__in": mine})
                shown |= plays & ~Q(**{f"consent{index}": Match.Consent.DECLINED})
        return self.filter(shown)

    def of_player(self, player: Player) -> MatchQuerySet:
        return self.filter(
            Q(side0__player_a=player) | Q(side0__player_b=player) | Q(side1__player_a=player) | Q(side1__player_b=player)
        )


class Match(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        IN_PLAY = "in_play", _("In play")
        REPORTED = "reported", _("Reported, awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        # Translators: a match whose two reports differ, waiting for the director (RO în dispută, never "disputat" = played).
        DISPUTED = "disputed", _("Disputed")

    class Consent(models.TextChoices):
        PENDING = "pending", _("Awaiting the player's confirmation")
        GIVEN = "given", _("Confirmed by the player")
        DECLINED = "declined", _("Declined by the player")

    class MovePolicy(models.TextChoices):
        LEGAL = "legal", _("Legal moves")
        RESPONSIBLE = "responsible", _("Responsible moves")

    class ClockPolicy(models.TextChoices):  # whether an event's matches are played on a clock
        ALLOWED = "allowed", _("Clocks allowed")
        PREFERRED = "preferred", _("Clocks preferred")
        REQUIRED = "required", _("Clocks required")

    side0 = models.ForeignKey(Side, on_delete=models.PROTECT, related_name="+")
    side1 = models.ForeignKey(Side, on_delete=models.PROTECT, related_name="+")
    length = models.PositiveSmallIntegerField(help_text="points to win; 0 for a money session")
    crawford = models.BooleanField(default=True)
    move_policy = models.CharField(max_length=16, choices=MovePolicy.choices, default=MovePolicy.LEGAL)
    jacoby = models.BooleanField(default=False)
    beavers = models.BooleanField(default=False)
    raccoons = models.BooleanField(default=False)
    automatic_doubles = models.PositiveSmallIntegerField(default=0)
    cube_cap = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=True)

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    # Who directs the match (rules on it, enters or overrides its result), besides the directors
    # its contexts name (its event's organiser: matches.hooks.directs).
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="organised_matches")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    scheduled_at = models.DateTimeField(null=True, blank=True)
    played_on = models.DateField(null=True, blank=True)

    # The result as shown everywhere: capped at the length (the winner with exactly the points he
    # needed, as most clubs and exporters record it; engine.scores).
    score0 = models.PositiveIntegerField(null=True, blank=True)
    score1 = models.PositiveIntegerField(null=True, blank=True)
    # The full score (the winner's points past the length) when the confirmed claim or its game
    # logs gave it; empty when only the capped score is known.
    full_score0 = models.PositiveIntegerField(null=True, blank=True)
    full_score1 = models.PositiveIntegerField(null=True, blank=True)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # Penalty points a director's ruling credited to each side (late arrival, RULES.md §9): the
    # match starts from them, and game logs reported for it are replayed from that score.
    penalty0 = models.PositiveSmallIntegerField(default=0, help_text="points credited to side 0 by rulings")
    penalty1 = models.PositiveSmallIntegerField(default=0, help_text="points credited to side 1 by rulings")
    # Penalty points a director gave mid-match, between games: the MatchPenalty rows as the engine
    # replays them ({"score", "side", "points", "reason"}), kept on the row so that replaying a
    # reported log costs no query.
    penalties_mid = models.JSONField(default=list, blank=True)
    # Each side's consent to the match being on its players' records (an import names players
    # by display name; an organiser may create a match between any two players): the match
    # counts for ratings and shows on their pages only once both are given. Given at creation
    # for the creator's own side and for sides its context vouches for (an event's, a club's
    # members'); by a side's report; by match_consent (the player, a director of an event or club
    # he plays in, staff).
    consent0 = models.CharField(max_length=8, choices=Consent.choices, default=Consent.PENDING)
    consent1 = models.CharField(max_length=8, choices=Consent.choices, default=Consent.PENDING)
    source_hash = models.CharField(max_length=64, null=True, blank=True, unique=True,
                                   help_text="canonical hash of an imported match file")
    # Where the match is played, as the director labels it ("3", "B2"): set from an event's round
    # desk (tournaments.services.desk); empty when not assigned.
    table = models.CharField(max_length=20, blank=True, default="", help_text="the table or board it is played at")
    # --- clocks. The clock the match is played with, as its event
    # published it when the match was made (matches/clocks.py; engine/clocks.py the arithmetic):
    # empty policy, no clock. The reserve is each side's for the whole match (reduced when the
    # clock came in mid-match); the remaining times are the confirmed report's, when it gave them.
    clock_policy = models.CharField(max_length=16, choices=ClockPolicy.choices, blank=True, default="", db_default="")
    clock_seconds_per_point = models.PositiveIntegerField(null=True, blank=True)
    clock_reserve_seconds = models.PositiveIntegerField(null=True, blank=True)
    clock_delay_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_overtime_seconds = models.PositiveIntegerField(default=0, db_default=0)
    clock_remaining0 = models.PositiveIntegerField(null=True, blank=True, help_text="side 0's time left, seconds")
    clock_remaining1 = models.PositiveIntegerField(null=True, blank=True, help_text="side 1's time left, seconds")
    # --- end clocks

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        # Lists show matches newest first, a page at a time: walked in this index, a page reads its
        # 25 rows instead of sorting every match.
        indexes = [models.Index(fields=["-created_at", "-id"], name="match_newest_first")]
        constraints = [
            models.CheckConstraint(condition=~Q(side0=F("side1")), name="match_two_different_sides"),
            models.CheckConstraint(condition=Q(winner__isnull=True) | Q(winner__in=(0, 1)), name="match_winner_is_a_side"),
            models.CheckConstraint(
                condition=Q(length=0) | Q(jacoby=False, beavers=False, raccoons=False, automatic_doubles=0),
                name="match_money_options_only_in_money_play",
            ),
            models.CheckConstraint(condition=Q(raccoons=False) | Q(beavers=True), name="match_raccoons_need_beavers"),
            models.CheckConstraint(
                condition=~Q(status="confirmed") | (Q(score0__isnull=False) & Q(score1__isnull=False)),
                name="match_confirmed_has_score",
            ),
            models.CheckConstraint(condition=Q(full_score0__isnull=True, full_score1__isnull=True)
                                   | Q(full_score0__isnull=False, full_score1__isnull=False),
                                   name="match_full_score_both_or_neither"),
            models.CheckConstraint(condition=Q(consent0__in=("pending", "given", "declined"))
                                   & Q(consent1__in=("pending", "given", "declined")), name="match_consent_is_known"),
        ]

    def __str__(self) -> str:
        if self.length:
            return _("%(side0)s v %(side1)s, %(length)s-point match") % {
                "side0": self.side0, "side1": self.side1, "length": self.length}
        return _("%(side0)s v %(side1)s, money session") % {"side0": isolate(self.side0), "side1": isolate(self.side1)}

    @property
    def is_money(self) -> bool:
        return self.length == 0

    @property
    def consents(self) -> tuple[str, str]:
        return (self.consent0, self.consent1)

    @property
    def consented(self) -> bool:
        """Both sides consented: the match is on its players' records (ratings, pages)."""
        return self.consent0 == self.Consent.GIVEN and self.consent1 == self.Consent.GIVEN

    @property
    def sides(self) -> tuple[Side, Side]:
        return (self.side0, self.side1)

    @property
    def full_score(self) -> tuple[int, int] | None:
        """The confirmed result's full score when it is known (see ``full_score0``), else None."""
        return None if self.full_score0 is None else (self.full_score0, self.full_score1)

    @property
    def start(self) -> tuple[int, int]:
        """The score the match starts from: the penalty points rulings credited, else 0-0."""
        return (self.penalty0, self.penalty1)

    def penalties_at(self) -> list[PenaltyAt]:
        """The penalty points given mid-match, as the engine places them between the games."""
        return [PenaltyAt((p["score"][0], p["score"][1]), p["side"], p["points"], p["reason"])
                for p in self.penalties_mid or []]

    def rules(self) -> MatchRules:
        """The engine's rules for this match's games."""
        return MatchRules(
            length=self.length, crawford=self.crawford, jacoby=self.jacoby, beavers=self.beavers,
            raccoons=self.raccoons, automatic_doubles=self.automatic_doubles, cube_cap=self.cube_cap,
            responsible_moves=self.move_policy == self.MovePolicy.RESPONSIBLE,
        )


class Game(models.Model):
    """One game of a match with its validated log (the engine's JSON actions)."""

    # How a game ended (engine.game.ENDINGS), labelled in the reader's language.
    ENDINGS = ENDING_CHOICES

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    score0 = models.PositiveIntegerField(help_text="side 0's score before the game")
    score1 = models.PositiveIntegerField(help_text="side 1's score before the game")
    crawford = models.BooleanField(default=False)
    winner = models.PositiveSmallIntegerField()
    points = models.PositiveIntegerField()
    cube = models.PositiveIntegerField(default=1)
    ending = models.CharField(max_length=16, choices=ENDINGS)
    log = models.JSONField(default=list)
    condoned = models.JSONField(default=list, blank=True)
    # Illegal plays that stood under the legal-moves policy (noticed too late; RULES.md §9), kept
    # apart from the condoned ones.
    stood = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_once_per_match"),
            models.CheckConstraint(condition=Q(winner__in=(0, 1)), name="game_winner_is_a_side"),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of {self.match_id}"

    @property
    def setup(self) -> str | None:
        """The Position ID the game really started from when its checkers were set up wrongly and
        the game stands (RULES.md §9; the log's first action), else None."""
        first = self.log[0] if self.log else None
        return first.get("position") if isinstance(first, dict) and first.get("type") == "setup" else None


class Report(models.Model):
    """A side's (or the organiser's) claim of a match's final result, optionally with the logs."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting the other side")
        CONFIRMED = "confirmed", _("Confirmed (the match's result)")
        AGREED = "agreed", _("Agreed with the confirmed result")
        CONTESTED = "contested", _("Contested")
        SUPERSEDED = "superseded", _("Superseded")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    side = models.PositiveSmallIntegerField(null=True, blank=True, help_text="empty for the organiser's result")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="match_reports")
    score0 = models.PositiveIntegerField(help_text="the claimed score, capped at the length")
    score1 = models.PositiveIntegerField(help_text="the claimed score, capped at the length")
    full_score0 = models.PositiveIntegerField(null=True, blank=True, help_text="the full score, when known")
    full_score1 = models.PositiveIntegerField(null=True, blank=True, help_text="the full score, when known")
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    games = models.JSONField(null=True, blank=True, help_text="validated game logs, one list of actions per game")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    class Origin(models.TextChoices):
        """Where a result came from when no person wrote it: worded where it is read
        (:attr:`origin_text`), in the reader's language."""

        IMPORTED = "imported", _("Imported from a match file")
        FORFEIT = "forfeit", _("A forfeit")
        # Translators: how a result came about: the director recorded that a player's clock ran out (KO 시간패).
        FLAG_FALL = "flag_fall", _("A flag fall")  # the director recorded it: the match to the opponent

    statement = models.TextField(blank=True)
    contest_statement = models.TextField(blank=True, default="", db_default="",
                                         help_text="the other side's words when it contested the report")
    origin = models.CharField(max_length=16, choices=Origin.choices, blank=True, default="", db_default="",
                              help_text="where the result came from when no person reported it")
    origin_name = models.CharField(max_length=255, blank=True, default="", db_default="",
                                   help_text="the file it was imported from, or the entrant who withdrew")
    # Each side's time left on the clock, when a report with the logs gave it.
    clock_remaining0 = models.PositiveIntegerField(null=True, blank=True)
    clock_remaining1 = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "side"], condition=Q(side__isnull=False) & ~Q(status="superseded"),
                                    name="report_one_live_per_side"),
            models.UniqueConstraint(fields=["match"], condition=Q(status="confirmed"), name="report_one_confirmed_per_match"),
            models.CheckConstraint(condition=Q(side__isnull=True) | Q(side__in=(0, 1)), name="report_side_is_a_side"),
            models.CheckConstraint(condition=Q(full_score0__isnull=True, full_score1__isnull=True)
                                   | Q(full_score0__isnull=False, full_score1__isnull=False),
                                   name="report_full_score_both_or_neither"),
        ]

    @property
    def score(self) -> tuple[int, int]:
        return (self.score0, self.score1)

    @property
    def full_score(self) -> tuple[int, int] | None:
        """The full score the claim or its logs gave (past the length), else None."""
        return None if self.full_score0 is None else (self.full_score0, self.full_score1)

    @property
    def origin_text(self) -> str:
        """Where the result came from, as a sentence in the active language ("Imported from
        final.mat"); empty for a person's report."""
        return report_origin_text(self.origin, self.origin_name)


def report_origin_text(origin: str, name: str) -> str:
    """The sentence of a report's ``origin`` code with its ``name`` (a file, an entrant)."""
    if origin == Report.Origin.IMPORTED:
        return gettext("Imported from %(file)s") % {"file": name}
    if origin == Report.Origin.FORFEIT:
        return gettext("Forfeit: %(name)s withdrew from the tournament.") % {"name": name}
    if origin == Report.Origin.FLAG_FALL:
        # Translators: %(name)s is the player whose clock ran out; he loses the match.
        return gettext("Flag fall: %(name)s ran out of time on the clock.") % {"name": name}
    return ""


class LiveRatingChanges(models.Manager):
    """The ledger as it stands: rating changes not superseded by a correction. The default manager
    (and so every ``player.rating_changes``/``match.rating_changes``), so that whatever counts or
    sums rating changes counts each match once; ``RatingChange.ledger`` also has the superseded."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(superseded_at__isnull=True)


class RatingChange(models.Model):
    """The FIBS rating change one confirmed rated match made to one player: one entry of the
    ratings ledger (``matches.services.ratings``).

    ``sequence`` is the match's place in the ledger, the same for both its players' rows: each
    player's live rows are in the order they were applied (a new match goes after both players'
    latest), and a correction recomputes them in that order, each keeping its place. A row the
    correction changed is kept, marked superseded (when, and which match's correction), and a new
    row takes its place: a player's history shows what his rating was and what it is now.
    Applied exactly once per player and match among the live rows.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    experience_before = models.PositiveIntegerField()
    experience_after = models.PositiveIntegerField()
    sequence = models.PositiveBigIntegerField(help_text="the match's place in the ratings ledger")
    created_at = models.DateTimeField(auto_now_add=True)
    superseded_at = models.DateTimeField(null=True, blank=True,
                                         help_text="when a correction recomputed or removed this change")
    corrected_match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                        help_text="the match whose correction superseded this change")

    objects = LiveRatingChanges()
    ledger = models.Manager()

    class Meta:
        ordering = ["sequence", "id"]
        base_manager_name = "ledger"
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], condition=Q(superseded_at__isnull=True),
                                    name="rating_once_per_player_per_match"),
            # A player's live changes have one order: no two at the same place of his ledger.
            models.UniqueConstraint(fields=["player", "sequence"], condition=Q(superseded_at__isnull=True),
                                    name="rating_one_place_per_player"),
            models.CheckConstraint(condition=Q(superseded_at__isnull=False) | Q(corrected_match__isnull=True),
                                   name="rating_corrected_only_when_superseded"),
        ]
        indexes = [models.Index(fields=["player", "match"], condition=Q(superseded_at__isnull=False),
                                name="rating_superseded_by_player")]

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


class ImportJob(models.Model):
    """A batch of uploaded .mat files imported in two steps, with its progress.

    Checking: the task reads and checks every file (``checked`` counts them) and collects the
    players' names with their likely players (``names``); nothing is written to matches or
    players. Mapping: the importer maps each name to an existing player, a new guest player or
    "skip" (``mapping``); the task then writes one match per file (``done`` counts the files with
    a final result). ``context`` names what the matches belong to (``{"event": id}``: an
    organiser's import for his event), as ``matches.hooks`` contexts take it.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        # Translators: an import of match files being processed by the workers (not an event under way).
        RUNNING = "running", _("Running")
        MAPPING = "mapping", _("Waiting for you to choose the players")
        DONE = "done", _("Done")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(default=0)
    checked = models.PositiveIntegerField(default=0, help_text="files read and checked")
    done = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The sweeper's clock (matches/services/imports/jobs.py): set when the job is created, starts, moves
    # a file on, or is sent again; a job not done whose clock stopped has lost its worker.
    progressed_at = models.DateTimeField(default=timezone.now)
    redispatched = models.PositiveSmallIntegerField(default=0, help_text="times the sweeper sent it again")
    context = models.JSONField(default=dict, blank=True, help_text='what the matches belong to: {"event": id}')
    names = models.JSONField(default=list, blank=True,
                             help_text="[{name, matches, candidates: [{player, reason}]}] once the files are checked")
    mapping = models.JSONField(null=True, blank=True, help_text='{name: player id | "guest" | "skip"}')
    guests = models.JSONField(default=dict, blank=True, help_text="{name: id} of the guest players created")
    mapped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(done__lte=F("total")), name="import_done_within_total"),
            models.CheckConstraint(condition=Q(checked__lte=F("total")), name="import_checked_within_total"),
        ]
        indexes = [models.Index(fields=["progressed_at"], condition=~Q(status="done"), name="import_job_not_done")]


class ImportFile(models.Model):
    """One file of an import job; its bytes are kept until it is checked, what checking found until
    its match is written."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        CHECKED = "checked", _("Checked, waiting for the players")
        IMPORTED = "imported", _("Imported")
        DUPLICATE = "duplicate", _("Already imported")
        SKIPPED = "skipped", _("Skipped")
        # Translators: an imported match file the checks refused (a file: AR مرفوض, RO refuzat).
        FAILED = "failed", _("Refused")

    job = models.ForeignKey(ImportJob, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(max_length=255)
    content = models.BinaryField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    error = models.JSONField(null=True, blank=True, help_text="{line, game, message} when the file failed")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # What checking the file found, kept until its match is written: the players' names, the
    # rules, the final score, the canonical hash and each game with its log (engine actions).
    parsed = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["job", "id"]


class PlayerInvitation(models.Model):
    """An invitation to claim a guest player (a player with no user: a walk-in an organiser
    entered, or a name from an imported file) by creating an account or signing in.

    The link's token is never stored: ``token_hash`` is its SHA-256 (matches.services.guests
    makes the token, an HMAC of the row under the site's secret key, and finds the row by its
    hash). Invariants the database guards: one open invitation per player (neither accepted nor
    withdrawn; an expired one is still open until a new one replaces it), a token hash once, and
    an accepted invitation names who accepted it.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(max_length=254)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    withdrawn_at = models.DateTimeField(null=True, blank=True, help_text="replaced by a newer invitation")
    # Where the sender entered the player, as the service knows it (its email names it): "event" or
    # "club" and that event's or club's name when he was invited; empty otherwise.
    sent_for = models.CharField(max_length=8, blank=True, default="", db_default="",
                                help_text="event or club: where the sender entered the player")
    sent_for_name = models.CharField(max_length=200, blank=True, default="", db_default="",
                                     help_text="the name of that event or club when he was invited")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["player"], condition=Q(accepted_at__isnull=True, withdrawn_at__isnull=True),
                                    name="invitation_one_open_per_player"),
            models.CheckConstraint(condition=Q(accepted_at__isnull=True) | Q(withdrawn_at__isnull=True),
                                   name="invitation_accepted_or_withdrawn"),
            models.CheckConstraint(condition=Q(accepted_at__isnull=True, accepted_by__isnull=True)
                                   | Q(accepted_at__isnull=False), name="invitation_acceptor_when_accepted"),
            models.CheckConstraint(condition=Q(expires_at__gt=F("created_at")), name="invitation_expires_later"),
        ]
        # What the limits count (matches.services.guests): a sender's invitations, an address's.
        indexes = [models.Index(fields=["created_by", "created_at"], name="invitation_by_sender"),
                   models.Index(Upper("email"), "created_at", name="invitation_to_address")]

    def __str__(self) -> str:
        return f"invitation {self.pk} to claim player {self.player_id}"


class PlayerClaim(models.Model):
    """A signed-in user's claim to be a player known from imported match files (``Player.user``
    empty): "this is me". A director of an event or club the player played in, or staff, approves
    it (the user is then the player's: his matches and rating) or refuses it with a reason the
    user is shown; the user may withdraw it while it waits (``matches.services.claims``).

    What the database guards: one open claim per user and player (asking again is answered with
    the open one); at most one approved claim per player, and per user; ``Player.user`` being
    one-to-one already keeps two users from holding one player. A decided claim names who decided
    it and when; a refusal carries its reason.
    """

    class Status(models.TextChoices):
        REQUESTED = "requested", _("Waiting for a decision")
        APPROVED = "approved", _("Approved")
        # Translators: the status of a claim (a user's "this player is me"), a feminine noun in
        # Arabic (مرفوضة) and Romanian (refuzată); not an imported file's "Refused".
        REFUSED = "refused", pgettext_lazy("claim status", "Refused")
        # Translators: a claim its maker took back (KO 철회됨, AR feminine مسحوبة); an entrant who
        # leaves an event is "Withdrawn" with the context "entrant status" (KO 기권).
        WITHDRAWN = "withdrawn", pgettext_lazy("claim status", "Withdrawn")

    class Reason(models.TextChoices):
        """A refusal the application makes itself, worded in the reader's language (a director's
        refusal is his own words, ``reason``)."""

        GIVEN_TO_ANOTHER = "given_to_another", _("The player was given to another user's claim.")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REQUESTED)
    statement = models.TextField(blank=True, help_text="what the claimant says to support his claim")
    reason = models.TextField(blank=True, help_text="why the claim was refused, shown to the claimant")
    reason_code = models.CharField(max_length=32, choices=Reason.choices, blank=True, default="", db_default="",
                                   help_text="why the claim was refused, when the application refused it")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True, help_text="when it was approved, refused or withdrawn")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "player"], condition=Q(status="requested"),
                                    name="claim_one_open_per_user_and_player"),
            models.UniqueConstraint(fields=["player"], condition=Q(status="approved"), name="claim_one_approved_per_player"),
            models.UniqueConstraint(fields=["user"], condition=Q(status="approved"), name="claim_one_approved_per_user"),
            models.CheckConstraint(condition=Q(status__in=("requested", "approved", "refused", "withdrawn")),
                                   name="claim_status_is_known"),
            models.CheckConstraint(condition=~Q(status="refused") | ~Q(reason="") | ~Q(reason_code=""),
                                   name="claim_refusal_has_reason"),
            models.CheckConstraint(condition=Q(status="requested") | Q(decided_at__isnull=False),
                                   name="claim_decided_has_time"),
        ]
        indexes = [models.Index(fields=["player"], condition=Q(status="requested"), name="claim_open_by_player")]

    def __str__(self) -> str:
        return f"claim of {self.player_id} by {self.user_id} ({self.status})"

    @property
    def reason_text(self) -> str:
        """Why it was refused, as the claimant reads it: the application's reason in the active
        language, else the director's words (empty when it was not refused)."""
        if self.reason_code:
            return str(self.Reason(self.reason_code).label) if self.reason_code in self.Reason.values \
                else self.reason_code
        return self.reason


class MatchPenalty(models.Model):
    """Penalty points a director gave mid-match, between two games (RULES.md §9): against
    ``side``, to the opponent's score, at the score as it then stood. The Crawford game follows
    from the score after it (``crawford_next``: the penalty put a side one point short and the
    next game is the Crawford game; False: it is not; None: unchanged by the penalty, a side
    stood at match point already, so the games played decide it)."""

    class Reason(models.TextChoices):
        LATE = "late", _("Late arrival or overrun")
        SLOW_PLAY = "slow_play", _("Slow play")
        OTHER = "other", _("Another breach of the rules")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="penalties")
    side = models.PositiveSmallIntegerField(help_text="the penalised side; the points go to the other")
    points = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=16, choices=Reason.choices)
    score0_before = models.PositiveIntegerField()
    score1_before = models.PositiveIntegerField()
    score0_after = models.PositiveIntegerField()
    score1_after = models.PositiveIntegerField()
    crawford_next = models.BooleanField(null=True, blank=True)
    ended_match = models.BooleanField(default=False)
    given_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(side__in=(0, 1)), name="match_penalty_side_is_a_side"),
            models.CheckConstraint(condition=Q(points__gte=1), name="match_penalty_points_positive"),
        ]

    def __str__(self) -> str:
        return f"penalty of {self.points} against side {self.side} of match {self.match_id}"

    @property
    def score_before(self) -> tuple[int, int]:
        return (self.score0_before, self.score1_before)

    @property
    def score_after(self) -> tuple[int, int]:
        return (self.score0_after, self.score1_after)
