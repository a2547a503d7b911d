"""Reads of disputes and rulings shared by the API and the pages: the director's queue, the
disputes a user may read, one dispute with its statements, rulings and disputed moment, and an
event's public list of rulings.

Who may read what is ``rulings.access``'s rule (a dispute is private to its match's players, its
director, staff and its appeal committees; an event's rulings are public); the reads for a user
apply it, the others leave it to their callers.
Lists are built with a fixed number of queries whatever their length.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet

from core.errors import DomainError
from engine.actions import actions_from_json
from engine.errors import EngineError
from engine.game import Frame
from matches.models import Game, Match

from . import access
from .models import Appeal, CommitteeMember, Dispute, Ruling, Statement
from .services.disputes import moment_frame

#: How many actions either side of the disputed one the moment shows.
MOMENT_AROUND = 4

_PLAYERS = ("match__side0__player_a", "match__side0__player_b", "match__side1__player_a", "match__side1__player_b")


def _bad_filter(field: str, message: str) -> DomainError:
    return DomainError(message, code="bad_filter", field=field)


def _directed_by(user) -> Q:
    """Disputes of the matches ``user`` directs: he organises the match or its event and does
    not play in it (a director who plays is a party: staff rule there). Subqueries on the match
    id, not joins: see ``access.disputes_visible_q``."""
    return Q(match_id__in=access.organised_match_ids(user)) & ~Q(match_id__in=access.played_match_ids(user))


def _with_match(disputes: QuerySet[Dispute]) -> QuerySet[Dispute]:
    # The match with its sides, players and event is prefetched, not joined: joined to a filter on
    # the dispute, the sides and their four players cost PostgreSQL far more to plan than to run.
    return disputes.select_related("opened_by").prefetch_related(Prefetch("match", queryset=Match.objects.with_sides()))


def disputes_readable(user) -> QuerySet[Dispute]:
    """The disputes ``user`` may read (``access.disputes_visible_q``: his matches', those he
    directs, those he sits on an appeal of; staff every one), newest first, each with its opener
    and its match (sides, players, event): a fixed number of queries. None for anonymous users."""
    if not getattr(user, "is_authenticated", False):
        return Dispute.objects.none()
    return _with_match(Dispute.objects.filter(access.disputes_visible_q(user))).order_by("-created_at", "-id")


def _whole(field: str, value) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise _bad_filter(field, f"{field} is an id, a whole number") from None
    if number < 1:
        raise _bad_filter(field, f"{field} is an id, 1 or more")
    return number


def dispute_queue(user, *, status: str | None = None, category: str | None = None, event: int | None = None,
                  match: int | None = None) -> QuerySet[Dispute]:
    """The disputes ``user`` rules on, newest first: those of the matches he directs (every
    dispute for staff; none for anyone else), filtered by status, category, event (tournament
    id) and match id. Each comes with its match (sides, players, event), its opener and its
    number of statements and rulings (``statement_count``, ``ruling_count``).

    Raises DomainError ``bad_filter`` (with ``field``) for an unknown status or category or an id
    that is not one.
    """
    if not getattr(user, "is_authenticated", False):
        return Dispute.objects.none()
    disputes = Dispute.objects.all() if user.is_staff else Dispute.objects.filter(_directed_by(user))
    if status:
        if status not in Dispute.Status.values:
            raise _bad_filter("status", f"status is one of {', '.join(Dispute.Status.values)}, not {status!r}")
        disputes = disputes.filter(status=status)
    if category:
        if category not in Dispute.Category.values:
            raise _bad_filter("category", f"category is one of {', '.join(Dispute.Category.values)}, not {category!r}")
        disputes = disputes.filter(category=category)
    if event is not None:
        disputes = disputes.filter(match__event_link__tournament_id=_whole("event", event))
    if match is not None:
        disputes = disputes.filter(match_id=_whole("match", match))
    return (
        _with_match(disputes)
        .annotate(statement_count=Count("statements", distinct=True), ruling_count=Count("rulings", distinct=True))
        .order_by("-created_at", "-id")
    )


@dataclass(frozen=True)
class MomentLine:
    """One action of the disputed game's log: its 1-based index, the action, and whether it is
    the disputed one."""

    index: int
    action: dict
    disputed: bool


@dataclass(frozen=True)
class DisputedMoment:
    """The disputed moment: the board before action ``move`` of game ``game`` (``frame``, None
    when the log cannot be replayed that far) with its Position ID, and the actions around it,
    from the game as played (``source`` "log") or the match's record ("record")."""

    game: int
    move: int
    position_id: str
    source: str
    frame: Frame | None
    lines: list[MomentLine]


@dataclass(frozen=True)
class DisputeDetail:
    dispute: Dispute
    statements: list[Statement]
    rulings: list[Ruling]
    moment: DisputedMoment | None


def _moment(dispute: Dispute, around: int) -> DisputedMoment | None:
    if dispute.game_number is None or dispute.move_number is None:
        return None
    number, move = dispute.game_number, dispute.move_number
    if dispute.log is not None:
        raw, source, crawford = dispute.log, "log", False
    else:
        stored = Game.objects.filter(match_id=dispute.match_id, number=number).only("log", "crawford").first()
        if stored is None:  # the record was replaced since (a ruling voided the game): the id stays
            return DisputedMoment(number, move, dispute.position_id, "record", None, [])
        raw, source, crawford = stored.log, "record", stored.crawford
    try:
        frame = moment_frame(dispute.match, number, crawford, actions_from_json(raw), move)
    except EngineError:
        frame = None
    lines = [MomentLine(index, raw[index - 1], index == move)
             for index in range(max(1, move - around), min(len(raw), move + around) + 1)]
    return DisputedMoment(number, move, dispute.position_id, source, frame, lines)


def dispute_detail(dispute_id: int, *, around: int = MOMENT_AROUND) -> DisputeDetail:
    """One dispute with its match (sides, players, event), its statements (authors), its rulings
    (directors, appeals and their committees), and the disputed moment: the board before the
    disputed action and the log ``around`` actions either side of it. Raises
    Dispute.DoesNotExist."""
    dispute = (
        Dispute.objects.select_related("match__side0", "match__side1", "match__event_link__tournament", "opened_by")
        .prefetch_related(
            *_PLAYERS,
            Prefetch("statements", queryset=Statement.objects.select_related("author").order_by("created_at", "id")),
            Prefetch("rulings", queryset=Ruling.objects.select_related("director", "appeal_of__appellant")
                     .prefetch_related("appeal_of__committee__user").order_by("created_at", "id")),
        )
        .get(pk=dispute_id)
    )
    return DisputeDetail(dispute, list(dispute.statements.all()), list(dispute.rulings.all()), _moment(dispute, around))


def rulings_of_event(tournament) -> QuerySet[Ruling]:
    """The rulings made in an event's matches, oldest first: public (what was decided, by which
    rule, when; the match's sides for naming it). Overturned and replaced rulings stay listed
    with their status: every ruling is recorded for good (RULES.md §9)."""
    tournament_id = getattr(tournament, "pk", tournament)
    return (
        Ruling.objects.filter(dispute__match__event_link__tournament_id=tournament_id)
        .select_related("dispute__match__side0", "dispute__match__side1", "director", "appeal_of")
        .prefetch_related("dispute__match__side0__player_a", "dispute__match__side0__player_b",
                          "dispute__match__side1__player_a", "dispute__match__side1__player_b")
        .order_by("created_at", "id")
    )


def appeal_visible(appeal_id: int, user) -> Appeal | None:
    """The appeal with its ruling, dispute, match and sides, committee and votes (a fixed number of
    queries), or None when there is none or ``user`` may not see its dispute (callers answer 404)."""
    appeal = (
        Appeal.objects.select_related("appellant", "ruling__director", "ruling__dispute")
        .prefetch_related(Prefetch("ruling__dispute__match", queryset=Match.objects.with_sides()),
                          Prefetch("committee", queryset=CommitteeMember.objects.select_related("user")),
                          "votes__member")
        .filter(pk=appeal_id).first()
    )
    if appeal is None or not access.dispute_visible(appeal.ruling.dispute, user):
        return None
    return appeal
