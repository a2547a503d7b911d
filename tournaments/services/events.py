"""The event itself: its published rules (:class:`EventRules`), create it, open and close entries,
finish it."""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass, fields

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from core.text import join_clauses, name_clean
from engine import clocks
from tournaments import errors, formats, hosts
from tournaments.draw import DrawError
from tournaments.draw.divisions import MAX_DIVISIONS, MAX_HANDICAP_ROWS, parse_divisions, parse_handicaps
from tournaments.draw.divisions import MAX_LENGTH as MAX_HANDICAP_LENGTH
from tournaments.draw.lengths import check_schedule
from tournaments.draw.payouts import check_percentages
from tournaments.hooks import finish_blockers
from tournaments.labels import flight_title, rule_label
from tournaments.models import Tournament

from . import state
from .audit import event_audit_record, tournament_summary
from .common import require_organiser, tournament_lock

MAX_LENGTH = 99  # a match to more points than this is a typo, not a backgammon match


def _label(field: str) -> dict:
    """The values of a sentence that names the setting ``field`` (``%(field)s``) by its label."""
    return {"field": rule_label(field)}


def _choice(field: str, value, choices) -> str:
    if value not in choices.values:
        raise errors.bad_rules(field, gettext("%(value)s is not one of %(choices)s")
                               % {"value": repr(value), "choices": ", ".join(choices.values)})
    return value


#: The range of each counted rule (the API's serializer and the event form take the same): far
#: beyond any real event, and within the columns (smallint; the clock's integer).
RULE_BOUNDS = {
    "consolation_rounds": (0, 20),
    "swiss_rounds": (1, 100),
    "max_losses": (1, 100),
    "groups": (1, 1000),
    "board_count": (1, 50),
    "penalty_minutes_per_point": (1, 1440),
    "clock_seconds_per_point": (1, 86400),
    # clocks
    "clock_delay_seconds": (0, 600),
    "clock_doubling_seconds_per_point": (1, 86400),
    "clock_doubling_delay_seconds": (0, 600),
    "clock_overtime_seconds": (0, 86400),
    # re-entry: the pure rule allows one re-entry a player
    "reentries": (0, 1),
    # a modified Swiss's paid places: as many as a flight may pay (MAX_PAID_PLACES)
    "abt_paid_places": (1, 1024),
}


def rule_bounds(field: str) -> dict:
    """``min_value`` and ``max_value`` of a counted rule, for a serializer's or a form's field."""
    minimum, maximum = RULE_BOUNDS[field]
    return {"min_value": minimum, "max_value": maximum}


def _count(field: str, value, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    minimum, maximum = RULE_BOUNDS[field]
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise errors.bad_rules(field, gettext("must be a whole number from %(min)d to %(max)d")
                               % {"min": minimum, "max": maximum})
    return value


def _lengths(event_format: formats.EventFormat, lengths) -> dict:
    """The published match lengths, checked: a dict of schedule name -> a length or a list of
    lengths, only names the format reads (a typo would otherwise silently fall back)."""
    if lengths is None:
        return {}
    if not isinstance(lengths, dict):
        raise errors.bad_rules("lengths", gettext('a mapping such as {"main": [5, 5, 7, 9], "consolation": 3}'))
    allowed = event_format.length_keys
    out = {}
    for name, schedule in lengths.items():
        if name not in allowed:
            raise errors.bad_rules(f"lengths.{name}", gettext("a %(format)s reads only %(names)s") % {
                "format": event_format.label.lower(),
                "names": gettext(", ").join(flight_title(key) for key in allowed)})
        try:
            checked = check_schedule(schedule)
        except DrawError:
            raise errors.bad_rules(f"lengths.{name}", gettext("a positive whole number or a non-empty list of them")) from None
        if any(n > MAX_LENGTH for n in checked):
            raise errors.bad_rules(f"lengths.{name}", gettext("a match is at most %(max)d points") % {"max": MAX_LENGTH})
        out[name] = list(checked) if isinstance(schedule, list | tuple) else checked[0]
    return out


# --- divisions and handicaps ---
def division_reason(error: DrawError) -> str:
    """Why the divisions or the handicap table were refused (``tournaments.draw.divisions``), in a
    sentence for people."""
    reason = error.details.get("reason")
    if reason == "not_a_list":
        return gettext("a list, strongest division first") if error.code == "bad_division" else gettext(
            "a list of handicap rows")
    if reason == "too_many":
        if error.code == "bad_division":
            return gettext("at most %(max)d divisions") % {"max": MAX_DIVISIONS}
        return gettext("at most %(max)d handicap rows") % {"max": MAX_HANDICAP_ROWS}
    sentences = {
        "not_a_mapping": gettext("each one is a mapping of its fields"),
        "unknown_key": gettext("not a field of a division or of a handicap row"),
        "bad_name": gettext("a name of 1 to 40 characters"),
        "duplicate_name": gettext("two divisions cannot have the same name"),
        "bad_rating": gettext("a rating from 0 to 10000, or empty for no bound"),
        "empty_range": gettext("the highest rating must be above the lowest"),
        "unknown_division": gettext("not one of the event's divisions"),
        "same_division": gettext("a handicap is between two different divisions"),
        "bad_length": gettext("a match length from 1 to %(max)d points") % {"max": MAX_HANDICAP_LENGTH},
        "bad_points": gettext("a start of at least 1 point and less than the match length"),
        "duplicate_row": gettext("these two divisions already have a handicap at this length"),
    }
    return sentences.get(reason, error.message)
# --- end divisions ---
# --- paid places per flight ----------------------------------------------------------------------

#: The largest prize pool taken, in minor units (ten billion in a currency of cents).
MAX_POOL = 10**12
#: The most paid places a flight takes.
MAX_PAID_PLACES = 1024


def _payouts(value, flights: tuple[str, ...]) -> dict:
    """The paid places, checked (DomainError ``bad_rules`` naming ``payouts.<flight>.<what>``):
    ``{flight: {"pool": minor units, "percentages": [...]}}``, only flights the event has, a pool
    a whole number from 0 (not yet known) to :data:`MAX_POOL`, the percentages positive, summing
    to 100, never increasing (``tournaments.draw.payouts.check_percentages``). Normalised: the
    percentages as numbers (whole ones as ints)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise errors.bad_rules("payouts", gettext(
            'a mapping of flights to their pool and percentages, such as {"main": {"pool": 100000, '
            '"percentages": [50, 30, 20]}}'))
    out = {}
    for flight, paid in value.items():
        where = f"payouts.{flight}"
        if flight not in flights:
            raise errors.bad_rules(where, gettext("this event pays only %(flights)s") % {
                "flights": gettext(", ").join(flight_title(key) for key in flights)})
        if not isinstance(paid, dict) or set(paid) - {"pool", "percentages"} or "percentages" not in paid:
            raise errors.bad_rules(where, gettext("a pool (in cents) and a list of percentages, best place first"))
        pool = paid.get("pool", 0)
        if not isinstance(pool, int) or isinstance(pool, bool) or not 0 <= pool <= MAX_POOL:
            raise errors.bad_rules(f"{where}.pool", gettext("a whole number of cents from 0 to %(max)d")
                                   % {"max": MAX_POOL})
        percentages = paid["percentages"]
        if isinstance(percentages, list | tuple) and len(percentages) > MAX_PAID_PLACES:
            raise errors.bad_rules(f"{where}.percentages", gettext("at most %(max)d paid places")
                                   % {"max": MAX_PAID_PLACES})
        try:
            checked = check_percentages(percentages, field=f"{where}.percentages")
        except DrawError as error:
            reason = error.details.get("reason")
            message = {
                "sum": gettext("the percentages add up to %(total)s, not 100") % {"total": error.details.get("total")},
                "increasing": gettext("a place is paid more than the place before it"),
                "not_positive": gettext("each percentage is above 0, with at most two decimals"),
                "not_number": gettext("each percentage is a number"),
            }.get(reason, gettext("a list of percentages, best place first"))
            raise errors.bad_rules(error.details["field"], message) from None
        out[flight] = {"pool": pool, "percentages": [int(p) if p == p.to_integral_value() else float(p) for p in checked]}
    return out


# --- end paid places ---


@dataclass(frozen=True)
class EventRules:
    """A new event as it is published: its name, dates and club, its format and kind, and the rules
    it is played by. The event form (``TournamentForm.rules``) and the API's serializer
    (``TournamentCreateSerializer.rules``) build it; :func:`tournament_create` takes it.

    Checked when made: every value of its type and range, and the rules that only some formats read
    left at their defaults in the others (consolation and last-chance flights: single elimination;
    rounds and losses: Swiss; groups: round robin), so that what is published is what is played.
    The name is stripped, the lengths normalised (a list per flight, or one length) and the flags
    made booleans. Raises DomainError ``bad_rules`` naming the field (``lengths.main`` for a
    flight's lengths), the first wrong one in the order of the fields. Whether the club exists and
    the organiser may use it is :func:`tournament_create`'s question.
    """

    name: str
    format: str = Tournament.Format.SINGLE_ELIMINATION
    kind: str = Tournament.Kind.INDIVIDUAL
    club_id: int | None = None
    starts_on: datetime.date | None = None
    ends_on: datetime.date | None = None
    lengths: dict | None = None
    consolation_rounds: int = 0
    last_chance: bool = False
    swiss_rounds: int | None = None
    max_losses: int | None = None
    groups: int = 1
    forbid_same_club: bool = False
    crawford: bool = True
    move_policy: str = "legal"
    premature_roll: str = Tournament.PrematureRoll.STANDS
    clock_seconds_per_point: int | None = None
    penalty_minutes_per_point: int = 5
    seeding: str = Tournament.Seeding.RATING
    board_count: int = 3
    # --- divisions and handicaps (tournaments.draw.divisions) ---
    # The divisions, strongest first (empty or None: none); the handicap table (None: the default
    # table's rows between these divisions). Both stored as lists of plain dicts.
    divisions: list | None = None
    handicaps: list | None = None
    # --- end divisions ---
    # --- clocks. ``clock_policy`` None: "required" when a reserve
    # per point is given (as before the policy existed), else "none"; a clock without a reserve
    # per point gets the default (engine.clocks: 2 minutes a point).
    clock_policy: str | None = None
    clock_delay_seconds: int = clocks.DEFAULT_DELAY_SECONDS
    clock_doubling: bool = False
    clock_doubling_seconds_per_point: int = clocks.DEFAULT_DOUBLING_SECONDS_PER_POINT
    clock_doubling_delay_seconds: int = clocks.DEFAULT_DOUBLING_DELAY_SECONDS
    clock_overtime_seconds: int = 0
    # --- flights: the shifted consolation, the playoff for 2nd, the open last chance, paid places ---
    consolation_shifted: bool = False
    playoff_second: bool = False
    last_chance_open: bool = False
    payouts: dict | None = None
    # Re-entry (buy-back) into the main while its first round is open: 0 or 1.
    reentries: int = 0
    # --- end flights ---
    # The Swiss pairing and tie-breaks; the round robin's order.
    swiss_pairing: str = Tournament.SwissPairing.FAIR
    swiss_tiebreaks: str = Tournament.SwissTiebreaks.STANDARD
    round_robin_order: str = Tournament.RoundRobinOrder.CIRCLE
    # The ABT-style modified Swiss and the paid places it counts (None:
    # the main flight's paid places from ``payouts``).
    abt_playoffs: bool = False
    abt_paid_places: int | None = None
    # How deep GNU Backgammon analyses the event's matches (0, 1, 2 plies).
    analysis_plies: int = Tournament.AnalysisPlies.TWO

    def _check_reentries(self, event_format: formats.EventFormat, consolation_rounds: int) -> None:
        """Re-entry (``tournaments.draw.flights.reentry``) is into the main of a
        single elimination, into a bye; and only without a flight fed by the main's first round (a
        consolation, an open last chance): the first entry's loss would already place the player
        there, so one player would hold two places in it and could meet himself."""
        reentries = _count("reentries", self.reentries)
        event_format.check_reentries(reentries)
        if reentries and (consolation_rounds or self.last_chance_open):
            raise errors.bad_rules("reentries", gettext(
                "a player who re-enters would also keep his place in the consolation or last chance his first-round "
                "loss gave him: re-entry is for an event without them"))

    def __post_init__(self):
        title = name_clean(self.name, field="name", refuse=errors.bad_rules) if isinstance(self.name, str) else ""
        if not title:
            raise errors.bad_rules("name", gettext("a tournament needs a name"))
        if len(title) > 200:
            raise errors.bad_rules("name", gettext("at most 200 characters"))
        _choice("format", self.format, Tournament.Format)
        _choice("kind", self.kind, Tournament.Kind)
        event_format = formats.format_of(self)
        _choice("seeding", self.seeding, Tournament.Seeding)
        _choice("premature_roll", self.premature_roll, Tournament.PrematureRoll)
        if self.move_policy not in ("legal", "responsible"):
            raise errors.bad_rules("move_policy", gettext("legal or responsible"))
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise errors.bad_rules("ends_on", gettext("the event cannot end before it starts"))
        lengths = _lengths(event_format, self.lengths)
        consolation_rounds = _count("consolation_rounds", self.consolation_rounds)
        groups = _count("groups", self.groups)
        swiss_rounds = _count("swiss_rounds", self.swiss_rounds, optional=True)
        max_losses = _count("max_losses", self.max_losses, optional=True)
        _count("board_count", self.board_count)
        _count("penalty_minutes_per_point", self.penalty_minutes_per_point)
        _count("clock_seconds_per_point", self.clock_seconds_per_point, optional=True)
        event_format.check_consolation(consolation_rounds)
        if self.last_chance and not consolation_rounds:
            raise errors.bad_rules("last_chance", gettext(
                "a last-chance flight is fed by a consolation flight: set “%(field)s”") % _label("consolation_rounds"))
        event_format.check_counted_rounds(swiss_rounds, max_losses)
        event_format.check_groups(groups)
        self._check_divisions(event_format)
        # --- flights ---
        if self.consolation_shifted and consolation_rounds < 3:
            raise errors.bad_rules("consolation_shifted", gettext(
                "only a progressive consolation of at least 3 rounds of losers can be shifted: set “%(field)s”")
                % _label("consolation_rounds"))
        if self.playoff_second and not consolation_rounds:
            raise errors.bad_rules("playoff_second", gettext(
                "the playoff for 2nd is against the consolation's winner: set “%(field)s”") % _label("consolation_rounds"))
        event_format.check_last_chance_open(self.last_chance_open)
        if self.last_chance_open and self.last_chance:
            raise errors.bad_rules("last_chance_open", gettext(
                "choose one last chance: for the consolation's first-round losers, or open to everyone who has not cashed"))
        payouts = _payouts(self.payouts, event_format.payout_flights(consolation_rounds,
                                                                     bool(self.last_chance or self.last_chance_open)))
        if self.last_chance_open and not payouts:
            raise errors.bad_rules("last_chance_open", gettext(
                "a last chance open to everyone who has not cashed needs the paid places: set “%(field)s”")
                % _label("payouts"))
        object.__setattr__(self, "payouts", payouts)
        for flag in ("consolation_shifted", "playoff_second", "last_chance_open"):
            object.__setattr__(self, flag, bool(getattr(self, flag)))
        self._check_reentries(event_format, consolation_rounds)
        # --- end flights ---
        # The Swiss pairing and tie-breaks; the round robin's order.
        _choice("swiss_pairing", self.swiss_pairing, Tournament.SwissPairing)
        _choice("swiss_tiebreaks", self.swiss_tiebreaks, Tournament.SwissTiebreaks)
        _choice("round_robin_order", self.round_robin_order, Tournament.RoundRobinOrder)
        event_format.check_swiss_rules(self.swiss_pairing, self.swiss_tiebreaks)
        event_format.check_round_robin_order(self.round_robin_order)
        self._check_abt(event_format, swiss_rounds, max_losses, payouts)
        if isinstance(self.analysis_plies, bool) or self.analysis_plies not in Tournament.AnalysisPlies.values:
            raise errors.bad_rules("analysis_plies", gettext("the depth of the analysis is 0, 1 or 2 plies"))
        object.__setattr__(self, "name", title)
        object.__setattr__(self, "lengths", lengths)
        for flag in ("last_chance", "forbid_same_club", "crawford", "clock_doubling"):
            object.__setattr__(self, flag, bool(getattr(self, flag)))
        self._check_clock()

    def _check_clock(self) -> None:
        """The clock policy and its numbers; with a policy other than
        "none" the reserve per point is set (its default when not given), with "none" it is not."""
        policy = self.clock_policy
        if policy is None:
            policy = Tournament.ClockPolicy.REQUIRED if self.clock_seconds_per_point is not None else Tournament.ClockPolicy.NONE
        _choice("clock_policy", policy, Tournament.ClockPolicy)
        for field in ("clock_delay_seconds", "clock_doubling_seconds_per_point", "clock_doubling_delay_seconds",
                      "clock_overtime_seconds"):
            _count(field, getattr(self, field))
        seconds = self.clock_seconds_per_point
        if policy == Tournament.ClockPolicy.NONE and seconds is not None:
            raise errors.bad_rules("clock_seconds_per_point", gettext(
                "an event without clocks has no reserve per point: choose a clock policy or leave it empty"))
        if policy != Tournament.ClockPolicy.NONE and seconds is None:
            seconds = clocks.DEFAULT_SECONDS_PER_POINT
        object.__setattr__(self, "clock_policy", str(policy))
        object.__setattr__(self, "clock_seconds_per_point", seconds)

    def _check_abt(self, event_format: formats.EventFormat, swiss_rounds: int | None, max_losses: int | None,
                   payouts: dict) -> None:
        """The ABT-style modified Swiss is a Swiss of players or pairs with
        a known number of rounds (who can still cash depends on the rounds left), no elimination
        by losses, and paid places: its own count or the main flight's payouts."""
        paid = _count("abt_paid_places", self.abt_paid_places, optional=True)
        if not self.abt_playoffs:
            if paid is not None:
                raise errors.bad_rules("abt_paid_places", gettext(
                    "only an ABT-style modified Swiss counts paid places for its playoffs: set “%(field)s”")
                    % _label("abt_playoffs"))
            object.__setattr__(self, "abt_playoffs", False)
            return
        event_format.check_playoffs()
        if swiss_rounds is None:
            raise errors.bad_rules("swiss_rounds", gettext(
                "who can still cash depends on the rounds left: a modified Swiss publishes its number of rounds"))
        if max_losses is not None:
            raise errors.bad_rules("max_losses", gettext("a modified Swiss eliminates by its playoffs, not by losses"))
        if paid is None and "main" not in payouts:
            raise errors.bad_rules("abt_paid_places", gettext(
                "the playoffs are for those who can still cash: give the paid places, here or in the payouts"))
        object.__setattr__(self, "abt_playoffs", True)

    # --- divisions and handicaps ---
    def _check_divisions(self, event_format: formats.EventFormat) -> None:
        """The divisions and the handicap table checked (``tournaments.draw.divisions`` rules 1, 5
        and 6) and normalised; DomainError ``bad_rules`` naming the value (``divisions.1.name``)."""
        try:
            divisions = parse_divisions(self.divisions)
            handicaps = parse_handicaps(self.handicaps, divisions)
        except DrawError as error:
            raise errors.bad_rules(error.details.get("field", "divisions"), division_reason(error)) from None
        event_format.check_divisions(divisions)
        object.__setattr__(self, "divisions", [d.as_dict() for d in divisions])
        object.__setattr__(self, "handicaps", [h.as_dict() for h in handicaps])
    # --- end divisions ---

    def tournament_fields(self) -> dict:
        """The rules as the Tournament row's fields (all but the club, which is looked up)."""
        return {field.name: getattr(self, field.name) for field in fields(self) if field.name != "club_id"}


def may_create_events(user) -> bool:
    """Whether ``user`` may create an event at all: an organiser (or staff), or the owner of a club
    (only on his club's calendar: :func:`tournament_create` checks the club). Reads only."""
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_organiser or bool(hosts.host_owned_choices(user))


def _require_creator(user, club_id: int | None) -> None:
    """NotAllowed ``not_an_organiser`` unless ``user`` may create events; ``club_events_only``
    when, without the organiser role, he asks for an event not on a club he owns."""
    if not getattr(user, "is_authenticated", False):
        raise errors.not_an_organiser()
    if user.is_organiser:
        return
    owned = {pk for pk, _name in hosts.host_owned_choices(user)}
    if not owned:
        raise errors.not_an_organiser()
    if club_id not in owned:
        raise errors.club_events_only()


@transaction.atomic
def tournament_create(*, user, rules: EventRules, token: uuid.UUID | None = None) -> Tournament:
    """Create a tournament in ``draft``, organised (directed) by ``user``, as ``rules`` publishes
    it (checked when they were made: :class:`EventRules`), on the calendar of ``rules.club_id``
    if given.

    Raises NotAllowed ``not_an_organiser`` unless ``user`` is an organiser or staff or owns a
    club (a club's owner creates events on his club's calendar without the organiser role, and
    runs them as their organiser); NotAllowed ``club_events_only`` when such an owner asks for an
    event without a club or on another club's calendar; DomainError
    ``unknown_club``; NotAllowed ``not_club_manager`` for a club the user does not own or
    organise; DomainError ``bad_rules`` (naming the field) for what only the row's own validation
    sees. Nothing is saved on failure. Audited as ``tournament.created``.

    ``token`` (the create form's hidden one-time token, the API's Idempotency-Key) makes a repeat
    harmless: the user's event made with the same token is returned as it is, never a second one,
    also when both requests arrive at once (the database keeps one event per creator and token).
    """
    _require_creator(user, rules.club_id)
    if token is not None:
        made = Tournament.objects.filter(organiser=user, create_token=token).first()
        if made is not None:
            return made
    # An event on a club's calendar is the club's business: the club (its app) checks who may put one there.
    attach = hosts.host_prepare(user, rules.club_id) if rules.club_id is not None else None
    tournament = Tournament(organiser=user, create_token=token, **rules.tournament_fields())
    try:
        tournament.full_clean(validate_constraints=False)
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise errors.bad_rules(field, messages[0]) from None
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError:
        # The same token's other request committed its event first (the unique constraint waited for it).
        made = Tournament.objects.filter(organiser=user, create_token=token).first() if token is not None else None
        if made is None:
            raise
        return made
    if attach is not None:
        attach(tournament)
    event_audit_record("tournament.created", actor=user, tournament=tournament, obj=tournament,
                       after={**tournament_summary(tournament), "club": rules.club_id, "lengths": tournament.lengths})
    return tournament


@transaction.atomic
def tournament_open_entries(*, tournament_id: int, user) -> Tournament:
    """Open the entries (from draft, or again after closing them before the draw): players may
    sign up. Opening open entries changes nothing. Audited as ``tournament.entries_opened``.
    Raises NotAllowed ``not_organiser``; Conflict ``already_drawn`` or ``tournament_finished``
    after the draw."""
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    _before_draw(tournament)
    if tournament.status != Tournament.Status.OPEN:
        _set_status(tournament, Tournament.Status.OPEN, "tournament.entries_opened", user)
    return tournament


@transaction.atomic
def tournament_close_entries(*, tournament_id: int, user) -> Tournament:
    """Close the entries: sign-ups stop and check-in starts (the organiser may still add and
    check in entrants). Closing closed entries changes nothing. Audited as
    ``tournament.entries_closed``. Raises NotAllowed ``not_organiser``; Conflict
    ``already_drawn`` or ``tournament_finished`` after the draw."""
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    _before_draw(tournament)
    if tournament.status != Tournament.Status.CLOSED:
        _set_status(tournament, Tournament.Status.CLOSED, "tournament.entries_closed", user)
    return tournament


def _set_status(tournament: Tournament, status: str, action: str, user) -> None:
    before = tournament_summary(tournament)
    tournament.status = status
    tournament.save(update_fields=["status"])
    event_audit_record(action, actor=user, tournament=tournament, obj=tournament, before=before,
                       after=tournament_summary(tournament))


def _before_draw(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.CANCELLED:
        raise errors.cancelled()
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if tournament.status == Tournament.Status.RUNNING:
        raise errors.already_drawn()


@transaction.atomic
def tournament_finish(*, tournament_id: int, user) -> Tournament:
    """Finish a running event: its placings and standings are final.

    A bracket must be played out (every match decided); a Swiss or round robin must have no match
    without a confirmed result (a team match: no team match undecided by its boards, and in a
    round robin of teams no team match whose boards are still to be created; a Swiss may stop
    after any complete round: the organiser decides how many are played, ``swiss_rounds`` is what
    was published). Finishing a finished event changes nothing. Audited as
    ``tournament.finished``. Raises NotAllowed ``not_organiser``; Conflict ``not_drawn``,
    ``event_unfinished`` (saying what is missing, also when an app above says why not:
    ``tournaments.hooks.finish_checks``, e.g. a dispute still open on one of its matches, each
    named in a sentence). Nothing changes when refused.
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.status == Tournament.Status.FINISHED:
        return tournament
    if tournament.status != Tournament.Status.RUNNING:
        raise errors.not_drawn()
    formats.format_of(tournament).refuse_unfinished(tournament, state.load(tournament))
    # What the apps above say against it (tournaments.hooks: a dispute still open, for rulings).
    blockers = finish_blockers(tournament)
    if blockers:
        raise errors.event_unfinished(
            gettext("the event cannot be finished yet: %(reasons)s") % {"reasons": join_clauses(blockers)})
    _set_status(tournament, Tournament.Status.FINISHED, "tournament.finished", user)
    return tournament


@transaction.atomic
def event_reopen(*, tournament_id: int, user, note: str = "") -> Tournament:
    """Reopen a finished event so that its director can correct a result (``corrections``): its
    status goes back to running and its placings are no longer final until it is finished again.
    Audited as ``tournament.reopened`` (with ``note``, the director's reason). Raises NotAllowed
    ``not_organiser``; Conflict ``not_finished`` for an event that is not finished."""
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.status != Tournament.Status.FINISHED:
        raise errors.not_finished(tournament.name)
    before = tournament_summary(tournament)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    event_audit_record("tournament.reopened", actor=user, tournament=tournament, obj=tournament, before=before,
                       after=tournament_summary(tournament), note=note)
    return tournament
