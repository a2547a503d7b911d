"""Pages: the dispute queue, opening a dispute, a dispute (the board at the disputed moment, the log
around it, statements, rulings and the forms of whoever may act), and an appeal (committee, votes,
decision). Each view parses the request, calls one service (or reads) and redirects (POST, redirect,
GET); a refusal re-renders the page with the error on the form, on the field the service names,
with its 4xx status, and nothing saved (every service runs in one transaction).

Who may read follows ``rulings.access``: a dispute is private to the match's players, its director,
staff and its appeals' committees; anyone else gets a 404. The emails link to
``/rulings/disputes/<id>/`` and ``/rulings/appeals/<id>/``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.engine_words import logged_action_text
from core.errors import DomainError
from core.pages import error_status, form_refuse
from core.text import isolate
from engine.errors import EngineError
from engine.ids import position_from_id
from matches.board import board_svg
from matches.models import Match
from matches.selectors.match import match_readable
from matches.services.reporting import side_of_user, user_runs_match
from tournaments.models import Tournament
from tournaments.selectors.event import tournament_get

from . import access, selectors
from .forms import (
    PARAM_ALIASES,
    AppealForm,
    CommitteeForm,
    DisputeFilterForm,
    DisputeOpenForm,
    RulingForm,
    StatementForm,
    VoteForm,
)
from .models import Appeal, Dispute, Ruling
from .selectors import DisputeDetail, DisputedMoment
from .services.appeals import appeal_lodge, appeal_window_closes, committee_name, vote_cast
from .services.disputes import dispute_answer, dispute_open
from .services.rulings import ruling_make
from .wording import OUTCOME_CHOICES, dispute_reason, ruling_sentence, stands_label

DISPUTES_PER_PAGE = 50
#: How many actions of the log the dispute page shows before and after the disputed one.
LOG_AROUND = 4


# --- helpers -----------------------------------------------------------------------------------


def _side_names(match: Match) -> tuple[str, str]:
    return (match.side0.name, match.side1.name)


def _isolated(sides: tuple[str, str]) -> tuple[str, str]:
    """The sides' names as a sentence places them (core.text.isolate)."""
    return (isolate(sides[0]), isolate(sides[1]))


def _dispute_or_404(dispute_id: int, user) -> DisputeDetail:
    try:
        detail = selectors.dispute_detail(dispute_id)
    except Dispute.DoesNotExist:
        raise Http404("no such dispute") from None
    if not access.dispute_visible(detail.dispute, user):
        raise Http404("no such dispute")
    return detail


def _appeal_or_404(appeal_id: int, user) -> Appeal:
    appeal = selectors.appeal_visible(appeal_id, user)
    if appeal is None:
        raise Http404("no such appeal")
    return appeal


def _dispute_url(dispute_id: int) -> str:
    return reverse("rulings:dispute", args=[dispute_id])


def _appeal_url(appeal_id: int) -> str:
    return reverse("rulings:appeal", args=[appeal_id])


# --- the queue ---------------------------------------------------------------------------------


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    """The disputes the user may read, newest first (``selectors.dispute_list``): a director's
    queue (the matches he directs; staff every dispute), a player's own disputes, a committee
    member's. Filters: status, category, event; bad ones re-render the form with a 400 and no
    disputes."""
    form = DisputeFilterForm(request.GET or None)
    if form.is_bound and not form.is_valid():
        disputes, status = [], 400
    else:
        disputes, status = selectors.dispute_list(request.user, form.filters()), 200
    page = Paginator(disputes, DISPUTES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "rulings/queue.html", {"form": form, "page": page, "query": query.urlencode()},
                  status=status)


# --- opening a dispute -------------------------------------------------------------------------


def _open_page(request: HttpRequest, match: Match, form: DisputeOpenForm, status: int = 200) -> HttpResponse:
    moment = form.moment()
    board_url = (f"{reverse('matches:detail', args=[match.pk])}?game={moment['game']}&moment={moment['moment']}#board"
                 if moment and moment["moment"] is not None else None)
    return render(request, "rulings/open.html", {"match": match, "form": form, "games": selectors.match_games(match),
                                                 "moment": moment, "board_url": board_url}, status=status)


@login_required
def open_dispute(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player of the match or its director opens a dispute; see dispute_open. Others get 403."""
    match = selectors.match_for_dispute(match_id)
    if match is None or not match_readable(match, request.user):
        raise Http404("no such match")
    if side_of_user(match, request.user) is None and not user_runs_match(match, request.user):
        raise PermissionDenied(_("only the match's players and its director may open a dispute"))
    if request.method != "POST":
        return _open_page(request, match, DisputeOpenForm(initial=request.GET.dict() or None))
    form = DisputeOpenForm(request.POST)
    if not form.is_valid():
        return _open_page(request, match, form, status=400)
    data = form.cleaned_data
    try:
        dispute = dispute_open(match_id=match.pk, user=request.user, category=data["category"],
                               statement=data["statement"], game_number=data["game_number"],
                               move_number=data["move_number"])
    except (DomainError, EngineError) as error:
        form_refuse(form, error, aliases=PARAM_ALIASES)
        return _open_page(request, match, form, status=error_status(error))
    messages.success(request, _("Your dispute is open: the director will rule on it."))
    return redirect(_dispute_url(dispute.pk))


# --- a dispute -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogLine:
    index: int
    text: str
    disputed: bool


@dataclass(frozen=True)
class Board:
    """The board at the disputed moment and the log around it, as the page shows them."""

    svg: str
    position_id: str
    lines: list[LogLine]
    source: str


def _action_text(match: Match, raw: dict) -> str:
    """A line of the disputed game's log in the reader's language ("Bob: roll 31"); an action
    that cannot be read is said so, never shown as its JSON."""
    return logged_action_text(raw, (match.side0.name, match.side1.name))


def _board(dispute: Dispute, moment: DisputedMoment | None, viewer: int) -> Board | None:
    """The board before the disputed action (replayed by ``selectors.dispute_detail``: cube, dice
    and the side on roll included); when the log no longer replays that far, drawn from the stored
    Position ID alone (side 0 on roll)."""
    if moment is None:
        return None
    title = _("Game %(game)s, before action %(move)s") % {"game": moment.game, "move": moment.move}
    names = (dispute.match.side0.name, dispute.match.side1.name)
    frame = moment.frame
    if frame is not None:
        svg = board_svg(frame.position, cube=frame.cube, owner=frame.owner, dice=frame.dice, viewer=viewer, title=title,
                        names=names)
    elif moment.position_id:
        svg = board_svg(position_from_id(moment.position_id), viewer=viewer, title=title, names=names)
    else:
        return None
    source = (_("the game as played, attached to the dispute") if moment.source == "log"
              else _("the record of game %(game)s") % {"game": moment.game})
    lines = [LogLine(line.index, _action_text(dispute.match, line.action), line.disputed) for line in moment.lines]
    return Board(svg=svg, position_id=moment.position_id, lines=lines, source=source)


def _where(dispute: Dispute) -> str:
    """Where in the match the dispute is, in words."""
    if dispute.game_number and dispute.move_number:
        return _("Game %(game)s, action %(move)s") % {"game": dispute.game_number, "move": dispute.move_number}
    if dispute.game_number:
        return _("Game %(game)s") % {"game": dispute.game_number}
    return _("The whole match")


@dataclass(frozen=True)
class RulingRow:
    ruling: Ruling
    appeal: Appeal | None
    window_closes: object
    sentence: str  # the ruling as its director says it (rulings.wording)


def _ruling_sentence(ruling: Ruling, sides: tuple[str, str]) -> str:
    before = (ruling.changes or {}).get("before") or {}
    confirmed = before.get("score") if before.get("status") == "confirmed" else None
    return ruling_sentence(ruling.outcome, ruling.params, _isolated(sides), before_score=confirmed)


def _ruling_form(match: Match, data=None) -> RulingForm:
    """The ruling form, its "result stands" choice worded for the match's result (its confirmed
    result, or its one contested report, which then stands without the score being typed)."""
    sides = _side_names(match)
    confirmed = (match.score0, match.score1) if match.status == Match.Status.CONFIRMED else None
    reported = [] if confirmed else selectors.reported_scores(match)
    return RulingForm(data, side_names=sides,
                      stands_label=stands_label(confirmed=confirmed, reported=reported, sides=sides),
                      stands_score=reported[0] if len(reported) == 1 else None)


def _render_dispute(request: HttpRequest, detail: DisputeDetail, *, answer_form: StatementForm | None = None,
                    ruling_form: RulingForm | None = None, appeal_form: AppealForm | None = None,
                    status: int = 200) -> HttpResponse:
    user = request.user
    dispute = detail.dispute
    match = dispute.match
    my_side = side_of_user(match, user)
    directs = user_runs_match(match, user)
    rows = []
    for ruling in detail.rulings:
        appeal = getattr(ruling, "appeal_of", None)  # the reverse one-to-one raises an AttributeError when absent
        rows.append(RulingRow(ruling, appeal, appeal_window_closes(ruling), _ruling_sentence(ruling, _side_names(match))))
    in_force = next((row for row in rows if row.ruling.status == Ruling.Status.IN_FORCE), None)
    can_appeal = (my_side is not None and in_force is not None and in_force.appeal is None
                  and in_force.ruling.appeal_id is None  # a committee's ruling is final
                  and timezone.now() <= in_force.window_closes)
    context = {
        "dispute": dispute,
        "match": match,
        "side_names": _side_names(match),
        "my_side": my_side,
        "directs": directs,
        "moment": _board(dispute, detail.moment, my_side or 0),
        "statements": detail.statements,
        "rulings": rows,
        "in_force": in_force,
        "answer_form": answer_form or (StatementForm() if (my_side is not None or directs)
                                       and dispute.status not in (Dispute.Status.DECIDED, Dispute.Status.SETTLED) else None),
        "ruling_form": ruling_form or (_ruling_form(match) if directs and in_force is None
                                       and dispute.status == Dispute.Status.OPEN else None),
        "where": _where(dispute),
        "reason": dispute_reason(dispute.automatic, selectors.dispute_scores(dispute)),
        "appeal_form": appeal_form or (AppealForm() if can_appeal else None),
    }
    return render(request, "rulings/dispute.html", context, status=status)


@login_required
def dispute_page(request: HttpRequest, dispute_id: int) -> HttpResponse:
    """A dispute: what and where (the board at the moment, the log around it), the statements,
    the rulings, and the forms the user may use."""
    return _render_dispute(request, _dispute_or_404(dispute_id, request.user))


@login_required
@require_POST
def answer(request: HttpRequest, dispute_id: int) -> HttpResponse:
    """A party or the director adds a statement; see dispute_answer."""
    detail = _dispute_or_404(dispute_id, request.user)
    form = StatementForm(request.POST)
    if not form.is_valid():
        return _render_dispute(request, detail, answer_form=form, status=400)
    try:
        dispute_answer(dispute_id=dispute_id, user=request.user, text=form.cleaned_data["text"])
    except DomainError as error:
        form_refuse(form, error, aliases=PARAM_ALIASES)
        return _render_dispute(request, detail, answer_form=form, status=error_status(error))
    messages.success(request, _("Your statement is added."))
    return redirect(_dispute_url(dispute_id))


@login_required
@require_POST
def rule(request: HttpRequest, dispute_id: int) -> HttpResponse:
    """The director rules; see ruling_make."""
    detail = _dispute_or_404(dispute_id, request.user)
    form = _ruling_form(detail.dispute.match, request.POST)
    if not form.is_valid():
        return _render_dispute(request, detail, ruling_form=form, status=400)
    data = form.cleaned_data
    try:
        ruling = ruling_make(dispute_id=dispute_id, user=request.user, outcome=data["outcome"], params=form.params(),
                             rule=data["rule"], reasoning=data["reasoning"])
    except (DomainError, EngineError) as error:
        form_refuse(form, error, aliases=PARAM_ALIASES)
        return _render_dispute(request, detail, ruling_form=form, status=error_status(error))
    messages.success(request, _("Ruling recorded: %(ruling)s.") % {
        "ruling": _ruling_sentence(ruling, _side_names(detail.dispute.match))})
    return redirect(_dispute_url(dispute_id))


@login_required
@require_POST
def appeal_lodge_page(request: HttpRequest, ruling_id: int) -> HttpResponse:
    """A party appeals the ruling in force; see appeal_lodge."""
    dispute_id = selectors.ruling_dispute_id(ruling_id)
    if dispute_id is None:
        raise Http404("no such ruling")
    detail = _dispute_or_404(dispute_id, request.user)
    form = AppealForm(request.POST)
    if not form.is_valid():
        return _render_dispute(request, detail, appeal_form=form, status=400)
    try:
        appeal = appeal_lodge(ruling_id=ruling_id, user=request.user, grounds=form.cleaned_data["grounds"])
    except DomainError as error:
        form_refuse(form, error, aliases=PARAM_ALIASES)
        return _render_dispute(request, detail, appeal_form=form, status=error_status(error))
    messages.success(request, _("Your appeal is lodged: the director names a committee to decide it."))
    return redirect(_appeal_url(appeal.pk))


# --- an appeal -----------------------------------------------------------------------------------


def _render_appeal(request: HttpRequest, appeal: Appeal, *, committee_form: CommitteeForm | None = None,
                   vote_form: VoteForm | None = None, status: int = 200) -> HttpResponse:
    user = request.user
    dispute = appeal.ruling.dispute
    match = dispute.match
    directs = user_runs_match(match, user)
    members = [member.user for member in appeal.committee.all()]
    member = access.on_committee(appeal, user)
    is_open = appeal.status == Appeal.Status.OPEN
    votes = list(appeal.votes.all())
    context = {
        "appeal": appeal,
        "ruling": appeal.ruling,
        "dispute": dispute,
        "match": match,
        "members": members,
        "sees_votes": access.sees_votes(appeal, user),
        # Each vote with its replacement ruling as a sentence (a vote to uphold or overturn has none).
        "votes": [(v, ruling_sentence(v.outcome, v.params, _isolated(_side_names(match))) if v.outcome else "") for v in votes],
        "ruling_sentence": _ruling_sentence(appeal.ruling, _side_names(match)),
        "my_vote": next((v for v in votes if v.member_id == user.pk), None),
        "committee_form": committee_form or (CommitteeForm() if directs and is_open and not members else None),
        "vote_form": vote_form or (VoteForm(side_names=_side_names(match)) if member and is_open else None),
    }
    return render(request, "rulings/appeal.html", context, status=status)


@login_required
def appeal_detail(request: HttpRequest, appeal_id: int) -> HttpResponse:
    """An appeal: the grounds, the ruling appealed, the committee, the votes (for the committee and
    the director) and the decision; the director's committee form, a member's vote form."""
    return _render_appeal(request, _appeal_or_404(appeal_id, request.user))


@login_required
@require_POST
def committee(request: HttpRequest, appeal_id: int) -> HttpResponse:
    """The director names the committee; see committee_name."""
    appeal = _appeal_or_404(appeal_id, request.user)
    form = CommitteeForm(request.POST)
    if not form.is_valid():
        return _render_appeal(request, appeal, committee_form=form, status=400)
    try:
        committee_name(appeal_id=appeal.pk, user=request.user, member_ids=form.member_ids())
    except DomainError as error:
        form_refuse(form, error, aliases=PARAM_ALIASES)
        return _render_appeal(request, appeal, committee_form=form, status=error_status(error))
    messages.success(request, _("The committee is named; its members are told by email."))
    return redirect(_appeal_url(appeal.pk))


@login_required
@require_POST
def vote(request: HttpRequest, appeal_id: int) -> HttpResponse:
    """A committee member votes; see vote_cast."""
    appeal = _appeal_or_404(appeal_id, request.user)
    form = VoteForm(request.POST, side_names=_side_names(appeal.ruling.dispute.match))
    if not form.is_valid():
        return _render_appeal(request, appeal, vote_form=form, status=400)
    try:
        vote_cast(appeal_id=appeal.pk, user=request.user, **form.service_arguments())
    except (DomainError, EngineError) as error:
        form_refuse(form, error, aliases=PARAM_ALIASES)
        return _render_appeal(request, appeal, vote_form=form, status=error_status(error))
    messages.success(request, _("Your vote is recorded."))
    return redirect(_appeal_url(appeal.pk))


# --- an event's rulings (public) -----------------------------------------------------------------


def event_rulings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The rulings made in an event: category, outcome, rule and date. Public: no statement, no
    reasoning, nobody's name or email."""
    try:
        tournament = tournament_get(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404("no such event") from None
    # The outcome as the form names it ("A warning"): a public page names no side's fault.
    rows = [{"ruling": ruling, "outcome": OUTCOME_CHOICES.get(ruling.outcome, ruling.get_outcome_display())}
            for ruling in selectors.rulings_of_event(tournament)]
    return render(request, "rulings/event.html", {"tournament": tournament, "rulings": rows})


urlpatterns = [
    path("", queue, name="queue"),
    path("matches/<int:match_id>/open/", open_dispute, name="open"),
    path("disputes/<int:dispute_id>/", dispute_page, name="dispute"),
    path("disputes/<int:dispute_id>/answer/", answer, name="answer"),
    path("disputes/<int:dispute_id>/rule/", rule, name="rule"),
    path("rulings/<int:ruling_id>/appeal/", appeal_lodge_page, name="appeal_lodge"),
    path("appeals/<int:appeal_id>/", appeal_detail, name="appeal"),
    path("appeals/<int:appeal_id>/committee/", committee, name="committee"),
    path("appeals/<int:appeal_id>/vote/", vote, name="vote"),
    path("events/<int:tournament_id>/", event_rulings, name="event"),
]
