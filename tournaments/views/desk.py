"""The director's round desk (``/events/<id>/desk/``): one page per event where its organiser sees
the open disputes first, then every match of the current round(s) with its table, players, state
and score, and enters or corrects results in a grid (tab, score, Enter: one form per row), or
confirms in one click a result reported against a walk-in who has no account to confirm it; before
the draw he pastes a list of entrants, checks in all or some, fixes seeds and makes the draw; after
it he labels tables and pairs the next Swiss round.

Every action is one service call (one transaction, audited): ``services.desk`` for check-in,
pasting, seeds and tables; ``tournament_draw`` and ``tournament_pair_next_round``; a row's result
through ``match_override`` (no confirmed result yet) or, for a confirmed one, through
``result_correction_preview`` then ``result_correct`` (a confirmation step, as on the correction
page); a pending report a guest cannot confirm through ``match_confirm``, the director answering
for him. A refusal re-renders the desk with its 4xx status, saying which line, entrant or row is
wrong; nothing is saved. Only the event's organiser and staff (403 for others)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError
from core.pages import error_status, error_text, form_errors_text
from core.text import isolate, join_list
from engine.errors import EngineError
from matches.models import MAX_SCORE, Match
from matches.services.reporting import claim_make, match_confirm, match_override
from tournaments import formats, services
from tournaments.forms.event import DrawForm
from tournaments.hooks import desk_alerts_of
from tournaments.models import Entry, Tournament
from tournaments.selectors.desk import desk_view
from tournaments.services.common import before_draw
from tournaments.services.corrections import result_correct, result_correction_preview
from tournaments.services.desk import (
    ALL,
    PASTE_MAX_LINES,
    TABLE_MAX,
    entries_check_in,
    entries_paste,
    entries_seed,
    round_set_tables,
)

from .draws import PageLink, query_number
from .event import PAIRING_STATUS, call_service
from .manage import draw_made, managed_or_403, pair_act


class PasteForm(forms.Form):
    names = forms.CharField(label=gettext_lazy("Entrants, one name per line"), max_length=PASTE_MAX_LINES * 130,
                            widget=forms.Textarea(attrs={"rows": 6}))


class RowForm(forms.Form):
    """One row of the grid: the match's score, its sides in the match's order."""

    score0 = forms.IntegerField(min_value=0, max_value=MAX_SCORE)
    score1 = forms.IntegerField(min_value=0, max_value=MAX_SCORE)
    expected = forms.CharField(required=False, max_length=4000)

    @property
    def score(self) -> tuple[int, int]:
        return (self.cleaned_data["score0"], self.cleaned_data["score1"])


def _desk_url(tournament: Tournament, number: int | None = None) -> str:
    url = reverse("tournaments:desk", args=[tournament.pk])
    return f"{url}?round={number}" if number else url


def _render(request: HttpRequest, tournament: Tournament, *, status: int = 200, action_error: str = "",
            paste_form: PasteForm | None = None, draw_form: DrawForm | None = None, row_errors: dict | None = None,
            posted: dict | None = None) -> HttpResponse:
    number = query_number(request, "round") if "round" in request.GET else None
    desk = desk_view(tournament=tournament, number=number)
    if number is not None and desk.numbers and number not in desk.numbers:
        raise Http404(_("no such round"))
    rows = desk.rows
    shown = {rnd.number for rnd in desk.rounds}
    focus = next((row.match_id for row in rows if not row.confirmed), None)
    event_format = formats.format_of(tournament)
    swiss = event_format.pairs_round_by_round
    return render(request, "tournaments/desk.html", {
        "tournament": tournament, "runs": True, "desk": desk,
        "alerts": desk_alerts_of(tournament),
        "before_draw": before_draw(tournament),
        "check_in_open": tournament.status == Tournament.Status.CLOSED,
        "can_paste": before_draw(tournament) and event_format.single_players,
        "organiser_seeds": tournament.seeding == Tournament.Seeding.ORGANISER,
        "random": tournament.seeding == Tournament.Seeding.RANDOM,
        "teams": event_format.has_teams,
        "swiss": swiss, "running": tournament.status == Tournament.Status.RUNNING,
        "can_pair": swiss and tournament.status == Tournament.Status.RUNNING and desk.complete and number is None
        and (tournament.swiss_rounds is None or max(desk.numbers, default=0) < tournament.swiss_rounds),
        "rounds_played": swiss and tournament.status == Tournament.Status.RUNNING and desk.complete
        and tournament.swiss_rounds is not None and max(desk.numbers, default=0) >= tournament.swiss_rounds,
        "round_links": [PageLink(_("Round %(number)d") % {"number": n}, _desk_url(tournament, n),
                                 n == number or (number is None and n in shown))
                        for n in event_format.desk_round_numbers(desk.numbers)],
        "entry_status": dict(Entry.Status.choices),
        "grid": [(rnd, event_format.round_title(rnd.flight, rnd.number),
                  [(row, *_row_values(row, (row_errors or {}).get(row.match_id), (posted or {}).get(row.match_id)))
                   for row in rnd.rows]) for rnd in desk.rounds],
        "focus": focus,
        "paste_form": paste_form or PasteForm(prefix="paste"),
        "draw_form": draw_form or DrawForm(prefix="draw"),
        "pairing_status": PAIRING_STATUS, "action_error": action_error, "table_max": TABLE_MAX,
    }, status=status)


def _row_values(row, error: str | None, posted) -> tuple[str, str, str]:
    """A row's refusal and the scores its inputs show: what was posted when it was refused, else
    its confirmed result, else the score reported against a side that cannot confirm it (the
    director confirms it as it is, or corrects it first)."""
    if posted is not None:
        return error or "", str(posted.get("score0", ""))[:9], str(posted.get("score1", ""))[:9]
    if row.score0 is None and row.waiting and row.reported:
        return error or "", str(row.reported[0]), str(row.reported[1])
    shown = ("" if row.score0 is None else str(row.score0), "" if row.score1 is None else str(row.score1))
    return error or "", *shown


@login_required
def desk(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The round desk (``round``: a paired round of a Swiss or round robin other than the current one)."""
    return _render(request, managed_or_403(request, tournament_id))


def _act(request: HttpRequest, tournament_id: int, act, **on_error) -> HttpResponse:
    """Run ``act(tournament)`` (one service call returning the sentence to show) and go back to the
    desk, or re-render it with the refusal and its 4xx status."""
    tournament = managed_or_403(request, tournament_id)
    try:
        text = act(tournament)
    except (DomainError, EngineError) as error:
        return _render(request, tournament, action_error=error_text(error), status=error_status(error), **on_error)
    messages.success(request, text)
    return redirect(_desk_url(tournament))


@login_required
@require_POST
def desk_check_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Check in every entrant (``all``) or those ticked (``entries``); see entries_check_in."""
    def act(tournament):
        chosen = ALL if request.POST.get("all") else request.POST.getlist("entries")
        done = entries_check_in(tournament_id=tournament.pk, entry_ids=chosen, user=request.user)
        if not done:
            return _("Every entrant chosen was already checked in.")
        return ngettext("%(count)d entrant is checked in.", "%(count)d entrants are checked in.",
                        len(done)) % {"count": len(done)}
    return _act(request, tournament_id, act)


@login_required
@require_POST
def desk_paste(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Enter the pasted names; see entries_paste. A refused line is named; nothing is saved."""
    tournament = managed_or_403(request, tournament_id)
    form = PasteForm(request.POST, prefix="paste")
    if not form.is_valid():
        return _render(request, tournament, paste_form=form, action_error=form_errors_text(form), status=400)
    try:
        pasted = entries_paste(tournament_id=tournament.pk, text=form.cleaned_data["names"], user=request.user)
    except DomainError as error:
        form.add_error("names", error_text(error))
        return _render(request, tournament, paste_form=form, action_error=error_text(error),
                       status=error_status(error))
    matched, created = len(pasted.matched), len(pasted.created)
    parts = []
    if matched:
        parts.append(ngettext("%(count)d known player is entered.", "%(count)d known players are entered.", matched)
                     % {"count": matched})
    if created:
        parts.append(ngettext("%(count)d new guest player is created and entered: %(names)s.",
                              "%(count)d new guest players are created and entered: %(names)s.", created)
                     % {"count": created, "names": join_list(line.name for line in pasted.created)})
    messages.success(request, " ".join(parts))
    return redirect(_desk_url(tournament))


@login_required
@require_POST
def desk_seeds(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Set or fix the seeds (``seed-<entry id>``: a number, or empty for none); see entries_seed."""
    def act(tournament):
        seeds = {}
        for name, value in request.POST.items():
            if not name.startswith("seed-"):
                continue
            text = value.strip()
            if text and not (text.isascii() and text.isdigit() and len(text) <= 9):
                raise DomainError(_("a seed is a whole number, 1 or more"), code="bad_seed", field="seeds")
            seeds[name.removeprefix("seed-")] = int(text) if text else None
        changed = entries_seed(tournament_id=tournament.pk, seeds=seeds, user=request.user)
        return ngettext("%(count)d seed is saved.", "%(count)d seeds are saved.", len(changed)) % {
            "count": len(changed)}
    return _act(request, tournament_id, act)


@login_required
@require_POST
def desk_tables(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Label the tables (``table-<match id>``), or with ``number`` give the matches shown tables 1,
    2, 3... in board order; see round_set_tables."""
    def act(tournament):
        if request.POST.get("number"):
            shown = desk_view(tournament=tournament).rounds
            rows = sorted((row for rnd in shown for row in rnd.rows), key=lambda row: (row.flight, row.round, row.board))
            tables = {row.match_id: str(place) for place, row in enumerate(rows, start=1)}
        else:
            tables = {name.removeprefix("table-"): value for name, value in request.POST.items()
                      if name.startswith("table-")}
        changed = round_set_tables(tournament_id=tournament.pk, tables=tables, user=request.user)
        return ngettext("%(count)d table is saved.", "%(count)d tables are saved.", len(changed)) % {
            "count": len(changed)}
    return _act(request, tournament_id, act)


@login_required
@require_POST
def desk_draw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Make the draw; see tournament_draw."""
    tournament = managed_or_403(request, tournament_id)
    form = DrawForm(request.POST, prefix="draw")
    if not form.is_valid():
        return _render(request, tournament, draw_form=form, action_error=form_errors_text(form), status=400)
    try:
        drawn = call_service(services.tournament_draw, tournament_id=tournament.pk, user=request.user,
                             seed=form.cleaned_data["seed"])
    except DomainError as error:
        return _render(request, tournament, draw_form=form, action_error=error_text(error), status=error_status(error))
    draw_made(request, drawn)
    return redirect(_desk_url(tournament))


@login_required
@require_POST
def desk_pair(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Pair the next Swiss round; see tournament_pair_next_round."""
    return _act(request, tournament_id, pair_act(request))


def _event_match_or_404(tournament: Tournament, match_id: int) -> Match:
    try:
        return Match.objects.with_sides().get(pk=match_id, event_link__tournament=tournament)
    except Match.DoesNotExist:
        raise Http404(_("no such match in this event")) from None


def _score_text(match: Match, score: tuple[int, int]) -> str:
    return _("%(a)s %(s0)d, %(b)s %(s1)d") % {"a": isolate(match.side0.name), "s0": score[0], "b": isolate(match.side1.name),
                                              "s1": score[1]}


@login_required
@require_http_methods(["POST"])
def desk_result(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    """A row of the grid: the director enters the result of a match without a confirmed one
    (match_override), or corrects a confirmed one: first what it changes
    (result_correction_preview), then, with ``confirm``, the correction (result_correct). With
    ``confirm_reported`` he confirms the pending report, whose score he was shown, for a side that
    cannot confirm it (a walk-in without an account: match_confirm, as that side would)."""
    tournament = managed_or_403(request, tournament_id)
    match = _event_match_or_404(tournament, match_id)
    form = RowForm(request.POST)
    name = _("%(a)s v %(b)s") % {"a": isolate(match.side0.name), "b": isolate(match.side1.name)}

    def refuse(text: str, status: int) -> HttpResponse:
        return _render(request, tournament, action_error=_("%(match)s: %(problem)s") % {"match": name, "problem": text},
                       row_errors={match.pk: text}, posted={match.pk: request.POST}, status=status)

    if not form.is_valid():
        return refuse(_("enter each side's score, a whole number from 0 to %(max)d") % {"max": MAX_SCORE}, 400)
    try:
        if "confirm_reported" in request.POST and match.status != Match.Status.CONFIRMED:
            saved = match_confirm(match_id=match.pk, user=request.user, score=form.score)
            messages.success(request, _("%(match)s: %(score)s, confirmed.") % {
                "match": name, "score": _score_text(match, (saved.score0, saved.score1))})
            return redirect(_desk_url(tournament))
        if match.status != Match.Status.CONFIRMED:
            saved = match_override(match_id=match.pk, user=request.user,
                                   claim=claim_make(match, form.score, None), statement="")
            messages.success(request, _("%(match)s: %(score)s, confirmed.") % {
                "match": name, "score": _score_text(match, (saved.score0, saved.score1))})
            return redirect(_desk_url(tournament))
        if form.score == (match.score0, match.score1):
            messages.success(request, _("%(match)s: the result is unchanged.") % {"match": name})
            return redirect(_desk_url(tournament))
        if "confirm" not in request.POST:
            preview = result_correction_preview(match_id=match.pk, user=request.user, score=form.score,
                                                tournament_id=tournament.pk)
            return render(request, "tournaments/desk_confirm.html", {
                "tournament": tournament, "runs": True, "match": match, "preview": preview,
                "score": form.score, "expected": ",".join(preview.keys),
                "was": _score_text(match, (match.score0, match.score1)), "now": _score_text(match, form.score)})
        expected = [key for key in (form.cleaned_data["expected"] or "").split(",") if key]
        done = result_correct(match_id=match.pk, user=request.user, score=form.score, tournament_id=tournament.pk,
                              expected=expected)
    except (DomainError, EngineError) as error:
        return refuse(error_text(error), error_status(error))
    text = done.summary
    if done.resets:
        text += " " + ngettext("%(count)d later match was reset.", "%(count)d later matches were reset.",
                               len(done.resets)) % {"count": len(done.resets)}
    messages.success(request, text)
    return redirect(_desk_url(tournament))


urlpatterns = [
    path("<int:tournament_id>/desk/", desk, name="desk"),
    path("<int:tournament_id>/desk/check-in/", desk_check_in, name="desk_check_in"),
    path("<int:tournament_id>/desk/paste/", desk_paste, name="desk_paste"),
    path("<int:tournament_id>/desk/seeds/", desk_seeds, name="desk_seeds"),
    path("<int:tournament_id>/desk/tables/", desk_tables, name="desk_tables"),
    path("<int:tournament_id>/desk/draw/", desk_draw, name="desk_draw"),
    path("<int:tournament_id>/desk/pair/", desk_pair, name="desk_pair"),
    path("<int:tournament_id>/desk/results/<int:match_id>/", desk_result, name="desk_result"),
]
