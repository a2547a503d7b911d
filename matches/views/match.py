"""Pages: my matches, a match (result reporting and a board to replay every stored game) and a
player. Each view parses the request, calls one selector or service, and renders or redirects
(POST, redirect, GET); domain and engine errors become form errors on the re-rendered page."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from audit.describe import ltr
from audit.selectors import audit_of_match, audit_rows
from core.engine_words import action_text, ending_text
from core.errors import DomainError
from core.pages import error_status, error_text, form_errors_text, form_refuse
from core.text import isolate, join_list
from engine.actions import action_from_dict
from engine.errors import EngineError

from .. import errors, hooks
from ..board import board_svg
from ..clocks import match_clock_text, remaining_text
from ..forms.clocks import ClockIntroduceForm
from ..forms.match import ConsentForm, ContestForm, ResultForm
from ..forms.penalties import PenaltyForm
from ..models import Game, Match, Player, Report
from ..penalties_text import penalty_text
from ..selectors.match import game_moments, match_get_readable, match_list, matches_directed_by, with_pending_reports
from ..selectors.players import SECTION_ITEMS
from ..services.consent import DECLINE, consent_sides, match_consent
from ..services.logs import file_sides, log_from_mat, report_games
from ..services.matches import player_for_user
from ..services.penalties import penalty_standing
from ..services.reporting import (
    Claim,
    claim_make,
    match_confirm,
    match_contest,
    match_override,
    match_report,
    side_of_user,
    user_runs_match,
)

MATCHES_PER_PAGE = 50
RECENT_MATCHES = 20
HISTORY_ROWS = 50


# --- helpers -----------------------------------------------------------------------------------


def match_or_404(match_id: int, viewer) -> Match:
    """The match for ``viewer``, or a 404: also for one he may not read (awaiting its players'
    consent: ``selectors.match_readable``), whose existence is not told. Shared with the match's
    other pages (clock, penalties, analysis)."""
    try:
        return match_get_readable(match_id, viewer)
    except Match.DoesNotExist:
        raise Http404("no such match") from None


def _score_text(score0: int | None, score1: int | None) -> str:
    return "" if score0 is None or score1 is None else f"{score0}-{score1}"


def _length_text(match: Match) -> str:
    if not match.length:
        return gettext("money session")
    return gettext("%(length)s-point match") % {"length": match.length}


def detail_url(match: Match, *, anchor: str = "board", **query) -> str:
    """The match page's address; with ``query`` (the game and moment to show...) also that query
    and the ``anchor`` to scroll to (the board by default)."""
    url = reverse("matches:detail", args=[match.pk])
    return f"{url}?{urlencode(query)}#{anchor}" if query else url


# --- my matches ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchRow:
    """One line of a match list, from the viewing user's side (``my_side`` None: not a player);
    ``contexts``: what the match belongs to, as pages name it (its event)."""

    match: Match
    my_side: int | None
    score: str
    reported: str
    waiting_for_me: bool
    needs_ruling: bool
    contexts: tuple[str, ...] = ()
    # The viewer's side has not confirmed the match yet: it is not on his record until he does.
    consent_needed: bool = False


def match_list_rows(matches, player: Player | None) -> list[MatchRow]:
    """One :class:`MatchRow` per match of ``matches`` (loaded ``with_pending_reports``), from the
    side of ``player`` (None: a viewer who plays none of them). Reads each match's contexts
    (``hooks.describe``); used by my matches and by a player's page."""
    rows = []
    for match in matches:
        my_side = None
        if player is not None:
            for index, side in enumerate(match.sides):
                if player.pk in (side.player_a_id, side.player_b_id):
                    my_side = index
        pending = match.pending_reports
        reported = join_list(_score_text(r.score0, r.score1) for r in pending)
        rows.append(MatchRow(
            match=match, my_side=my_side, score=_score_text(match.score0, match.score1), reported=reported,
            waiting_for_me=my_side is not None and any(r.side == 1 - my_side for r in pending),
            needs_ruling=match.status == Match.Status.DISPUTED,
            contexts=tuple(text for _, text in hooks.describe(match)),
            consent_needed=my_side is not None and match.consents[my_side] != Match.Consent.GIVEN,
        ))
    return rows


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    """The user's matches, newest first, those waiting for the user's confirmation marked; and,
    for whoever runs matches, the unfinished ones they run (disputes marked)."""
    player = player_for_user(request.user)
    page = None
    if player is not None:
        page = Paginator(with_pending_reports(match_list(viewer=request.user, player=player)),
                         MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    running = matches_directed_by(request.user)[:MATCHES_PER_PAGE]
    playing = match_list_rows(page.object_list, player) if page is not None else []
    return render(request, "matches/mine.html", {
        "player": player,
        "page": page,
        "rows": playing,
        "waiting": sum(1 for row in playing if row.waiting_for_me),
        "consent_waiting": sum(1 for row in playing if row.consent_needed),
        "running": match_list_rows(running, None),
    })


# --- a match -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """The board at one moment of a game and the links around it."""

    game: Game
    index: int
    count: int
    svg: str
    position_id: str
    pips: tuple[int, int]
    text: str
    first: str | None
    previous: str | None
    next: str | None
    last: str | None
    # What the apps above say of the action that follows (hooks.MoveMarker: a blunder), and
    # their links to the next and previous marked moments: (label, url, rel).
    marks: tuple[hooks.MoveMark, ...] = ()
    jumps: tuple[tuple[str, str, str], ...] = ()


def _marks(match: Match, games: list[Game]) -> list[tuple[hooks.MoveMarker, list[hooks.MoveMark]]]:
    """Every registered marker's marks on ``match``'s stored games (none without games)."""
    if not games:
        return []
    return [(marker, marker.marks(match)) for marker in hooks.move_markers.entries()]


def _jumps(marked, game: Game, index: int, link) -> tuple[tuple[str, str, str], ...]:
    """The links to each marker's previous and next stop around moment ``index`` of ``game``."""
    out = []
    here = (game.number, index)
    for marker, marks in marked:
        stops = sorted((mark.game, mark.index) for mark in marks if mark.stop)
        before = [stop for stop in stops if stop < here]
        after = [stop for stop in stops if stop > here]
        if before and marker.previous_label:
            out.append((str(marker.previous_label), link(*before[-1]), "previous"))
        if after and marker.next_label:
            out.append((str(marker.next_label), link(*after[0]), "next"))
    return tuple(out)


def _moment_text(match: Match, game: Game, moment) -> str:
    if moment.action is None:
        return ngettext("end of game %(number)s: %(winner)s wins %(points)s point (%(ending)s)",
                        "end of game %(number)s: %(winner)s wins %(points)s points (%(ending)s)", game.points) % {
            "number": game.number, "winner": match.sides[game.winner].name, "points": game.points,
            "ending": ending_text(game.ending)}
    action = action_from_dict(moment.action)
    if action.type == "setup":
        return gettext("the checkers were set up wrongly and the game stands: it started from the position shown "
                       "(Position ID %(position)s)") % {"position": ltr(action.position)}
    # The engine's action worded for the reader (core.engine_words), never its English describe().
    if action.side is None:
        return gettext("move %(move)s: %(action)s") % {"move": moment.frame.move, "action": action_text(action)}
    return gettext("move %(move)s, %(name)s: %(action)s") % {
        "move": moment.frame.move, "name": isolate(match.sides[action.side].name), "action": action_text(action)}


def _step(request: HttpRequest, match: Match, games: list[Game], viewer: int, *, prefix: str = "",
          anchor: str = "board", marked=()) -> Step | None:
    """The moment chosen by ``?game=&moment=`` (default: game 1's start); 404 when it does not exist.
    ``prefix`` names another board's parameters (``?report_game=&report_moment=``: the games of
    the report awaiting confirmation), ``anchor`` the element its links lead to; ``marked``: the
    markers' marks on these games (:func:`_marks`), shown at their moments."""
    if not games:
        return None
    try:
        number = int(request.GET.get(f"{prefix}game", games[0].number))
        index = int(request.GET.get(f"{prefix}moment", 0))
    except ValueError:
        raise Http404("game and moment are whole numbers") from None
    game = next((g for g in games if g.number == number), None)
    if game is None:
        raise Http404(f"this match has no game {number}")
    moments = game_moments(match, game)
    if not 0 <= index < len(moments):
        raise Http404(f"game {number} has moments 0 to {len(moments) - 1}")
    moment = moments[index]
    frame = moment.frame
    names = (match.side0.name, match.side1.name)
    values = {"number": game.number, "index": index, "name": names[frame.position.turn],
              "dice": f"{frame.dice[0]}{frame.dice[1]}" if frame.dice else ""}
    if frame.dice:
        title = gettext("Game %(number)s, moment %(index)s: %(name)s on roll, dice %(dice)s") % values
    else:
        title = gettext("Game %(number)s, moment %(index)s: %(name)s on roll") % values
    last = len(moments) - 1

    def link(i: int, number: int | None = None) -> str:
        return detail_url(match, anchor=anchor, **{f"{prefix}game": game.number if number is None else number,
                                                   f"{prefix}moment": i})

    return Step(
        game=game, index=index, count=len(moments),
        svg=board_svg(frame.position, cube=frame.cube, owner=frame.owner, dice=frame.dice, viewer=viewer, title=title,
                      names=(match.side0.name, match.side1.name)),
        position_id=moment.position_id, pips=(frame.position.pips(0), frame.position.pips(1)),
        text=_moment_text(match, game, moment),
        first=link(0) if index > 0 else None, previous=link(index - 1) if index > 0 else None,
        next=link(index + 1) if index < last else None, last=link(last) if index < last else None,
        marks=tuple(mark for _, marks in marked for mark in marks if (mark.game, mark.index) == (game.number, index)),
        jumps=_jumps(marked, game, index, lambda number, i: link(i, number)),
    )


def _ending_text(game: Game) -> str:
    """How a game ended, as a phrase: "a gammon", "the double dropped", "a gammon, resigned"."""
    level = {1: gettext("a single game"), 2: gettext("a gammon"), 3: gettext("a backgammon")}
    if game.ending == "drop":
        return gettext("the double dropped")
    if game.ending == "resign":
        return gettext("%(level)s, resigned") % {"level": level.get(getattr(game, "level", 1), level[1])}
    return level[{"single": 1, "gammon": 2, "backgammon": 3}[game.ending]]


def _reported_game_text(match: Match, game: Game) -> str:
    """A reported game as a sentence: who won what, how, the cube, Crawford, and the score after."""
    values = {"number": game.number, "winner": match.sides[game.winner].name, "points": game.points,
              "how": _ending_text(game), "after": _score_text(*game.score_after)}
    text = ngettext("Game %(number)s: %(winner)s wins %(points)s point (%(how)s)",
                    "Game %(number)s: %(winner)s wins %(points)s points (%(how)s)", game.points) % values
    if game.cube > 1:
        text += gettext(", the cube at %(cube)s") % {"cube": game.cube}
    if game.crawford:
        text += gettext(", in the Crawford game")
    return text + gettext("; the score after it: %(after)s.") % values


def render_detail(
    request: HttpRequest, match: Match, *, report_form: ResultForm | None = None,
    override_form: ResultForm | None = None, contest_form: ContestForm | None = None,
    action_error: str = "", status: int = 200, penalty_form=None,
) -> HttpResponse:
    """The match page for the requesting user, with ``status``: sides, score, reports, games and
    the board, the forms the user may use (a form given here shown with its errors, else a fresh
    one), ``action_error`` above them when an action was refused. What every action on a match
    (result, consent, clock, penalties, analysis) re-renders when it fails."""
    user = request.user
    my_side = side_of_user(match, user)
    runs = user_runs_match(match, user)
    reports = list(match.reports.all())
    games = list(match.games.all())
    theirs = mine = None
    if my_side is not None:
        theirs = next((r for r in reports if r.side == 1 - my_side and r.status == Report.Status.PENDING), None)
        mine = next((r for r in reports if r.side == my_side), None)
    # The games of the report awaiting the viewer's confirmation, to read before confirming.
    reported = (report_games(theirs) or []) if theirs is not None else []
    can_report = my_side is not None and match.status != Match.Status.CONFIRMED
    answerable = consent_sides(match, user)
    context = {
        "match": match,
        # What the apps above say of the match (its event; its analysis): matches.hooks.match_page.
        "facts": hooks.page_facts(hooks.match_page, match),
        "length": _length_text(match),
        "score": _score_text(match.score0, match.score1),
        "sides": [(index, side, index == my_side) for index, side in enumerate(match.sides)],
        "my_side": my_side,
        "runs": runs,
        "reports": [(r, gettext("Organiser") if r.side is None else match.sides[r.side].name, _score_text(r.score0, r.score1))
                    for r in reports],
        "theirs": theirs,
        "theirs_score": _score_text(theirs.score0, theirs.score1) if theirs else "",
        "mine": mine,
        "mine_score": _score_text(mine.score0, mine.score1) if mine else "",
        "other_name": match.sides[1 - my_side].name if my_side is not None else "",
        "report_form": report_form or (ResultForm(match=match, prefix="report") if can_report else None),
        "contest_form": contest_form or (ContestForm(prefix="contest") if theirs else None),
        "override_form": override_form or (ResultForm(match=match, prefix="override", organiser=True) if runs else None),
        "action_error": action_error,
        # Each side's consent to the match being on its record, and the buttons of whoever may
        # answer for a side that has not confirmed it (the player; a director of his; staff).
        "consents": [(index, side, Match.Consent(match.consents[index]).label) for index, side in enumerate(match.sides)],
        "consent_pending": not match.consented,
        "consent_answers": [(index, match.sides[index].name, index == my_side,
                             match.consents[index] == Match.Consent.DECLINED)
                            for index in answerable if match.consents[index] != Match.Consent.GIVEN],
        "games": [(g, match.sides[g.winner].name, detail_url(match, game=g.number, moment=0),
                   _score_text(g.score0, g.score1)) for g in games],
        "step": _step(request, match, games, my_side or 0, marked=_marks(match, games)),
        "sections": hooks.page_parts(hooks.match_page, request, match, limit=SECTION_ITEMS),
        "reported_games": [(g, _reported_game_text(match, g),
                            detail_url(match, anchor="report-board", report_game=g.number, report_moment=0))
                           for g in reported],
        "report_step": _step(request, match, reported, my_side or 0, prefix="report_", anchor="report-board"),
        # The match's own audit log, for whoever directs it (the event's log is on the event's audit page).
        # Each change as a sentence naming the sides (audit.describe), never its action's name or JSON.
        # The match's clock, the time left, and the director's flag-fall buttons.
        "clock_text": match_clock_text(match),
        "clock_left": remaining_text(match, (match.side0.name, match.side1.name)),
        "flag_fall": runs and bool(match.clock_policy) and match.status != Match.Status.CONFIRMED,
        "history": audit_rows(audit_of_match(match)[:HISTORY_ROWS], {match.pk: (match.side0.name, match.side1.name)})
        if runs else None,
    }
    # The match row keeps its penalties' scores (penalties_mid): a match without any reads no rows.
    penalties = list(match.penalties.all()) if match.penalties_mid and not match.is_money else []
    open_ = runs and not match.is_money and match.status in (Match.Status.SCHEDULED, Match.Status.IN_PLAY)
    context.update(_penalties_context(match, open_, penalty_form, penalties))
    # A match under way without a required clock may get one for slow play,
    # from the score as it stands (the reserve shown first, on the clock's own page).
    context["clock_form"] = (ClockIntroduceForm(match=match, standing=penalty_standing(match, penalties), prefix="clock")
                             if open_ and match.clock_policy != Match.ClockPolicy.REQUIRED else None)
    return render(request, "matches/detail.html", context, status=status)


def _penalties_context(match: Match, open_: bool, form, penalties: list) -> dict:
    """The penalty points given mid-match, the score they left and, for whoever directs a match in
    play (``open_``), the form to give more."""
    last = penalties[-1] if penalties else None
    if open_ and form is None:
        form = PenaltyForm(match=match, standing=penalty_standing(match, penalties), prefix="penalty")
    return {
        "penalties": [penalty_text(match, p) for p in penalties],
        "penalty_standing": _score_text(*last.score_after) if last and not last.ended_match else "",
        "penalty_crawford_next": bool(last and last.crawford_next and not last.ended_match),
        "penalty_form": form if open_ else None,
    }


def detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """A match: sides, rules, status, score, reports, the forms the user may use, and the board
    at the chosen moment of a stored game. Public."""
    return render_detail(request, match_or_404(match_id, request.user))


def _claim(match: Match, form: ResultForm, side: int | None) -> Claim:
    """The checked claim of a valid result form sent by side ``side`` (None: the organiser);
    raises DomainError or EngineError."""
    upload = form.cleaned_data.get("mat_file")
    log = None
    if upload:
        # The upload's size is known before reading it: an oversized file is refused with its
        # real size (a read cut past the limit would only know the limit plus one byte).
        if upload.size > settings.MAX_UPLOAD_BYTES:
            raise errors.upload_too_large(upload.name, upload.size, settings.MAX_UPLOAD_BYTES)
        data = upload.read()
        sides = file_sides(match, side=side, file_side=form.cleaned_data.get("file_side"))
        log = log_from_mat(upload.name, data, match.rules(), start=match.start, sides=sides,
                           penalties=match.penalties_at())
    return claim_make(match, form.score, log)


def _score_field(error) -> dict[str, str]:
    # A refused score names the side whose score is wrong: the form shows it on that side's field.
    return {"score": f"score{error.details.get('side') or 0}"}


def _report_message(match: Match, report: Report) -> str:
    score = _score_text(report.score0, report.score1)
    if report.status in (Report.Status.CONFIRMED, Report.Status.AGREED):
        return gettext("Result confirmed: %(score)s.") % {"score": score}
    if report.status == Report.Status.CONTESTED:
        return gettext("Your report of %(score)s differs from the other side's: the match is disputed, "
                       "the organiser will decide.") % {"score": score}
    if report.side is None:
        return gettext("Your report of %(score)s is saved; waiting for the other side to confirm.") % {"score": score}
    return gettext("Your report of %(score)s is saved; waiting for %(name)s to confirm.") % {
        "score": score, "name": match.sides[1 - report.side].name}


@login_required
@require_POST
def report(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player reports the final score (with an optional .mat file); see match_report."""
    match = match_or_404(match_id, request.user)
    form = ResultForm(request.POST, request.FILES, match=match, prefix="report")
    if not form.is_valid():
        return render_detail(request, match, report_form=form, status=400)
    try:
        claim = _claim(match, form, side_of_user(match, request.user))
        saved = match_report(match_id=match.pk, user=request.user, claim=claim,
                             statement=form.cleaned_data["statement"])
    except (DomainError, EngineError) as error:
        form_refuse(form, error, aliases=_score_field(error))
        return render_detail(request, match, report_form=form, status=error_status(error))
    messages.success(request, _report_message(match, saved))
    return redirect(detail_url(match))


@login_required
@require_POST
def confirm(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player confirms the other side's pending report; see match_confirm. The match is read
    for the page only when it is shown again (a refusal): the service reads what it decides on."""
    try:
        saved = match_confirm(match_id=match_id, user=request.user)
    except Match.DoesNotExist:
        raise Http404("no such match") from None
    except (DomainError, EngineError) as error:
        return render_detail(request, match_or_404(match_id, request.user), action_error=error_text(error),
                             status=error_status(error))
    messages.success(request, gettext("Result confirmed: %(score)s.") % {
        "score": _score_text(saved.score0, saved.score1)})
    return redirect(reverse("matches:detail", args=[match_id]))


@login_required
@require_POST
def contest(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player contests the other side's pending report; see match_contest. The match is read
    for the page only when it is shown again (a bad form, a refusal)."""
    form = ContestForm(request.POST, prefix="contest")
    if not form.is_valid():
        return render_detail(request, match_or_404(match_id, request.user), contest_form=form, status=400)
    try:
        match_contest(match_id=match_id, user=request.user, statement=form.cleaned_data["statement"])
    except Match.DoesNotExist:
        raise Http404("no such match") from None
    except (DomainError, EngineError) as error:
        return render_detail(request, match_or_404(match_id, request.user), contest_form=form, action_error=error_text(error),
                             status=error_status(error))
    messages.success(request, gettext("You contested the report: the match is disputed, the organiser will decide."))
    return redirect(reverse("matches:detail", args=[match_id]))


@login_required
@require_POST
def override(request: HttpRequest, match_id: int) -> HttpResponse:
    """The organiser enters or overrides the result; see match_override."""
    match = match_or_404(match_id, request.user)
    form = ResultForm(request.POST, request.FILES, match=match, prefix="override", organiser=True)
    if not form.is_valid():
        return render_detail(request, match, override_form=form, status=400)
    try:
        saved = match_override(match_id=match.pk, user=request.user, claim=_claim(match, form, None),
                               statement=form.cleaned_data["statement"])
    except (DomainError, EngineError) as error:
        form_refuse(form, error, aliases=_score_field(error))
        return render_detail(request, match, override_form=form, status=error_status(error))
    # Translators: %(score)s is the final score, e.g. "7-4"; the organiser (KO 주최자) decided it.
    messages.success(request, gettext("Result set by the organiser: %(score)s.") % {
        "score": _score_text(saved.score0, saved.score1)})
    return redirect(detail_url(match))


@login_required
@require_POST
def consent(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player confirms or declines the match for his record, or a director of his (or staff)
    confirms it for a side; see match_consent."""
    match = match_or_404(match_id, request.user)
    if not consent_sides(match, request.user):
        error = errors.may_not_consent()
        return render_detail(request, match, action_error=error_text(error), status=error_status(error))
    form = ConsentForm(request.POST)
    if not form.is_valid():
        return render_detail(request, match, action_error=form_errors_text(form), status=400)
    try:
        saved = match_consent(match_id=match.pk, user=request.user, decision=form.cleaned_data["decision"],
                              side=form.cleaned_data["side"])
    except DomainError as error:
        return render_detail(request, match, action_error=error_text(error), status=error_status(error))
    if form.cleaned_data["decision"] == DECLINE:
        messages.success(request, gettext("You declined this match: it is not on your record."))
    elif saved.consented:
        messages.success(request, gettext("Match confirmed: it is on both players' records."))
    else:
        messages.success(request, gettext("Match confirmed; it is on the records once the other side confirms it too."))
    return redirect(detail_url(match))


urlpatterns = [
    path("", mine, name="mine"),
    path("matches/<int:match_id>/", detail, name="detail"),
    path("matches/<int:match_id>/report/", report, name="report"),
    path("matches/<int:match_id>/confirm/", confirm, name="confirm"),
    path("matches/<int:match_id>/contest/", contest, name="contest"),
    path("matches/<int:match_id>/override/", override, name="override"),
    path("matches/<int:match_id>/consent/", consent, name="consent"),
]
