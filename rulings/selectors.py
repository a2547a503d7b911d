"""Reads of disputes and rulings shared by the API and the pages: the disputes a user may read
(a director's queue, a player's own), filtered; one dispute with its statements, rulings and
disputed moment; an appeal; and an event's public list of rulings.

Who may read what is ``rulings.access``'s rule (a dispute is private to its match's players, its
director, staff and its appeal committees; an event's rulings are public); the reads for a user
apply it, the others leave it to their callers.
Lists are built with a fixed number of queries whatever their length.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from engine.actions import actions_from_json
from engine.errors import EngineError
from engine.game import Frame
from matches.models import Game, Match, Report

from . import access, errors
from .models import Appeal, CommitteeMember, Dispute, Ruling, Statement
from .services.disputes import moment_frame

#: How many actions either side of the disputed one the moment shows.
MOMENT_AROUND = 4

_PLAYERS = ("match__side0__player_a", "match__side0__player_b", "match__side1__player_a", "match__side1__player_b")


@dataclass(frozen=True)
class DisputeFilters:
    """The filters of a list of disputes, each optional (None: any): ``status`` and ``category``
    (the model's choices), ``event`` (a tournament id) and ``match`` (a match id). Built by the
    queue page's form and the API's filter serializer; an empty value is no filter.

    Raises DomainError ``bad_filter`` (with ``field``) for an unknown status or category or an id
    that is not a whole number of 1 or more.
    """

    status: str | None = None
    category: str | None = None
    event: int | None = None
    match: int | None = None

    def __post_init__(self):
        for field, choices in (("status", Dispute.Status), ("category", Dispute.Category)):
            value = getattr(self, field) or None
            if value is not None and value not in choices.values:
                raise errors.bad_filter(field, f"{field} is one of {', '.join(choices.values)}, not {value!r}")
            object.__setattr__(self, field, value)
        for field in ("event", "match"):
            value = getattr(self, field)
            if value in (None, ""):
                object.__setattr__(self, field, None)
                continue
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise errors.bad_filter(field, f"{field} is an id, a whole number")
            try:
                number = int(value)
            except ValueError:
                raise errors.bad_filter(field, f"{field} is an id, a whole number") from None
            if number < 1:
                raise errors.bad_filter(field, f"{field} is an id, 1 or more")
            object.__setattr__(self, field, number)


def _with_match(disputes: QuerySet[Dispute]) -> QuerySet[Dispute]:
    # The match with its sides, players and event is prefetched, not joined: joined to a filter on
    # the dispute, the sides and their four players cost PostgreSQL far more to plan than to run.
    return disputes.select_related("opened_by").prefetch_related(Prefetch("match", queryset=Match.objects.with_sides()))


def dispute_list(user, filters: DisputeFilters | None = None) -> QuerySet[Dispute]:
    """The disputes ``user`` may read, narrowed by ``filters``, newest first: a director's queue
    (the matches he directs, as the match's or its event's organiser), a player's own disputes,
    those of the appeals he sits on a committee of, every dispute for staff
    (``access.disputes_visible_q``, the rule ``access.dispute_visible`` applies to one dispute).
    None for anonymous users. Each comes with its opener and its match (sides, players, event):
    a fixed number of queries whatever the length of the list."""
    if not getattr(user, "is_authenticated", False):
        return Dispute.objects.none()
    filters = filters or DisputeFilters()
    disputes = Dispute.objects.filter(access.disputes_visible_q(user))
    if filters.status is not None:
        disputes = disputes.filter(status=filters.status)
    if filters.category is not None:
        disputes = disputes.filter(category=filters.category)
    if filters.event is not None:
        disputes = disputes.filter(match__event_link__tournament_id=filters.event)
    if filters.match is not None:
        disputes = disputes.filter(match_id=filters.match)
    return _with_match(disputes).order_by("-created_at", "-id")


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


def match_for_dispute(match_id: int) -> Match | None:
    """The match a dispute is opened on, with its sides, players and event, or None when there
    is no such match. Who may open one is the caller's question (``side_of_user``,
    ``user_runs_match``) and the service's."""
    return Match.objects.with_sides().filter(pk=match_id).first()


def match_games(match: Match) -> list[Game]:
    """The match's recorded games, by number: those a dispute may name."""
    return list(match.games.all())


def ruling_visible(ruling_id: int, user) -> Ruling | None:
    """The ruling with its director, its appeal (appellant, committee) and its dispute's match
    (sides, players, event), or None when there is none or ``user`` may not see its dispute
    (callers answer 404)."""
    ruling = (
        Ruling.objects.select_related("director", "appeal_of__appellant", "dispute")
        .prefetch_related(Prefetch("appeal_of__committee", queryset=CommitteeMember.objects.select_related("user")),
                          Prefetch("dispute__match", queryset=Match.objects.with_sides()))
        .filter(pk=ruling_id).first()
    )
    if ruling is None or not access.dispute_visible(ruling.dispute, user):
        return None
    return ruling


def ruling_dispute_id(ruling_id: int) -> int | None:
    """The id of the dispute ruling ``ruling_id`` decided, or None when there is no such ruling
    (whether the user may see it is ``access.dispute_visible``'s question)."""
    return Ruling.objects.filter(pk=ruling_id).values_list("dispute_id", flat=True).first()


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


#: The disputes an event cannot be finished over: awaiting a ruling, or a ruling under appeal.
UNRESOLVED = (Dispute.Status.OPEN, Dispute.Status.APPEALED)


def disputes_unresolved_in_event(tournament) -> list[Dispute]:
    """The disputes still open (awaiting a ruling or under appeal) on ``tournament``'s matches,
    oldest first, with their match, sides and the match's pairing (or team board's pairing) for
    its round: one query."""
    return list(
        Dispute.objects.filter(match__event_link__tournament=tournament, status__in=UNRESOLVED)
        .select_related(*_PLAYERS, "match__pairing", "match__board__pairing")
        .order_by("created_at", "pk")
    )


def dispute_round(dispute: Dispute) -> int | None:
    """The round of the event the disputed match belongs to (its pairing's, or its team match's
    pairing's), or None for a match outside a draw."""
    match = dispute.match
    pairing = getattr(match, "pairing", None)  # a reverse one-to-one raises when absent
    if pairing is None:
        board = getattr(match, "board", None)
        pairing = board.pairing if board is not None else None
    return pairing.round_number if pairing is not None else None


def dispute_scores(dispute: Dispute) -> list | None:
    """The reported scores an automatic dispute was opened over (its reason, worded by
    ``wording.dispute_reason``): those it keeps, else (a dispute kept from before it kept them)
    the match's live reports now. None for a dispute a person opened."""
    if not dispute.automatic:
        return None
    if dispute.reported_scores:
        return dispute.reported_scores
    return [list(score) for score in reported_scores(dispute.match)]


def reported_scores(match: Match) -> list[tuple[int, int]]:
    """The distinct scores the match's players report now (their reports not superseded), in
    the order reported: one when a report is contested, two when the reports disagree."""
    scores: list[tuple[int, int]] = []
    for score in (match.reports.exclude(status=Report.Status.SUPERSEDED).exclude(side=None)
                  .order_by("created_at", "pk").values_list("score0", "score1")):
        if score not in scores and None not in score:
            scores.append(score)
    return scores
