"""Pages of the chouette tables: a club's tables, starting one (settings and the roll-off), the table
page an organiser keeps open on a tablet during the night (the line-up with roles, the forms to record
a quick result, let a player join or leave and end the session, or reopen an ended one, the last
games, the ledger and the settlement; it reloads itself when the table changes), and one game's
page (amend or void it while the session is open; a
correction that changes who plays later games names them and asks for each, on the line-up it now
falls to, in one form saved with the correction).

Every chouette page is for the club's members only (an anonymous visitor is sent to sign in, anyone
else gets 403): the amounts are the club's business. Only owners and organisers see and use the
forms. Each view parses the request, calls one selector or service, and renders or redirects (POST,
redirect, GET); a refusal re-renders the page with the message and its 4xx status, nothing saved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs.models import Club, ClubNight
from clubs.pages import club_or_404, club_page_context, require_manager, require_member
from clubs.permissions import MANAGERS, club_role
from core.engine_words import logged_action_text
from core.errors import DomainError
from core.pages import error_status, error_text, form_errors_text, form_refuse, success_redirect
from core.text import isolate

from . import selectors, services
from .forms import ChouetteRulesForm, ChouetteStartForm, FullRecordForm, PlayerChoiceForm, QuickResultForm
from .models import ChouetteSession

LAST_GAMES = 8


def _session_or_404(club: Club, chouette_id: int) -> ChouetteSession:
    try:
        return selectors.chouette_get(club=club, chouette_id=chouette_id)
    except ChouetteSession.DoesNotExist:
        raise Http404("no such chouette table") from None


def _table_url(club: Club, session: ChouetteSession) -> str:
    return reverse("chouette:table", args=[club.slug, session.pk])


def _member_players(club: Club) -> list[tuple[int, str]]:
    return selectors.club_players(club=club)


def _refusal_text(error: DomainError, names: dict[int, str]) -> str:
    """The refusal's message, led by the player it concerns by name (the engine names ids)."""
    text = error_text(error)
    player = error.details.get("player")
    if isinstance(player, int) and player in names and names[player] not in text:
        text = gettext("%(name)s: %(message)s") % {"name": isolate(names[player]), "message": text}
    step = error.details.get("step")
    if step is not None and error.details.get("game") is not None and error.code != "later_games_to_amend":
        text = gettext("game %(game)s (step %(step)s) would no longer fit: %(message)s") % {
            "game": error.details["game"], "step": step, "message": text}
    return text


# --- the list and a new table -------------------------------------------------------------------------


@login_required
def chouette_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's chouette tables, newest first. Members only; managers see the link to start one."""
    club = club_or_404(slug)
    require_member(request, club)
    return render(request, "chouette/list.html", club_page_context(
        request, club, sessions=selectors.chouette_list(club=club)))


def _open_nights(club: Club) -> list[tuple[int, str]]:
    return [(night.pk, f"{night.date} {night.title}".strip())
            for night in club_selectors.night_list(club=club).filter(status=ClubNight.Status.OPEN)]


def _render_new(request: HttpRequest, club: Club, *, form=None, status: int = 200):
    form = form or ChouetteStartForm(players=_member_players(club), nights=_open_nights(club), club=club)
    return render(request, "chouette/new.html", club_page_context(request, club, form=form), status=status)


@login_required
def chouette_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Owners and organisers start a table: its settings and the players' roll-off dice; see
    chouette_start. The table page follows."""
    club = club_or_404(slug)
    require_manager(request, club)
    if request.method != "POST":
        return _render_new(request, club)
    players = _member_players(club)
    form = ChouetteStartForm(request.POST, players=players, nights=_open_nights(club), club=club)
    if not form.is_valid():
        return _render_new(request, club, form=form, status=400)
    try:
        session = services.chouette_start(club_id=club.pk, user=request.user,
                                          settings=services.chouette_settings(form.settings()),
                                          **form.service_arguments())
    except DomainError as error:
        form_refuse(form, error, text=lambda e: _refusal_text(e, dict(players)))
        return _render_new(request, club, form=form, status=error_status(error))
    return success_redirect(request, gettext("The table is set: good game."), _table_url(club, session))


# --- the table -----------------------------------------------------------------------------------------------


def _join_form(club: Club, state, data=None) -> PlayerChoiceForm:
    seated = {seat.player_id for seat in state.lineup}
    return PlayerChoiceForm(data, initial={"version": state.version}, label=gettext("Newcomer"), club=club,
                            players=[(pid, name) for pid, name in _member_players(club) if pid not in seated])


def _leave_form(club: Club, state, data=None) -> PlayerChoiceForm:
    return PlayerChoiceForm(data, initial={"version": state.version}, label=gettext("Leaving"),
                            players=[(seat.player_id, seat.display_name) for seat in state.lineup])


def _forms(club: Club, session: ChouetteSession, state: selectors.ChouetteState, *, game_form=None, full_form=None,
           rules_form=None) -> dict:
    return {
        "game_form": game_form or QuickResultForm.for_state(state, initial={"version": state.version, "level": 1}),
        "full_form": full_form or FullRecordForm(initial={"version": state.version}),
        "join_form": _join_form(club, state),
        "leave_form": _leave_form(club, state),
        "rules_form": rules_form or ChouetteRulesForm.for_session(session),
    }


def _render_table(request: HttpRequest, club: Club, session: ChouetteSession, *, action_error: str = "",
                  status: int = 200, **forms) -> HttpResponse:
    state = selectors.chouette_state(session=session, last_games=LAST_GAMES)
    extra = {}
    if club_role(club, request.user) in MANAGERS and session.status == ChouetteSession.Status.OPEN:
        extra = _forms(club, session, state, **forms)
    elif not action_error:
        # An ended table shows no form: a refusal put on one (the session ended meanwhile) is said above.
        refused = next((form for form in forms.values() if form is not None and form.errors), None)
        action_error = form_errors_text(refused) if refused is not None else ""
    return render(request, "chouette/table.html", club_page_context(
        request, club, session=session, state=state, action_error=action_error,
        house_rules=selectors.house_rule_labels(session), **extra), status=status)


@login_required
def chouette_table(request: HttpRequest, slug: str, chouette_id: int) -> HttpResponse:
    """The table: the line-up for the next game with roles and running totals, the last games with
    every cube and amount, the ledger and the settlement; for owners and organisers the forms to
    record a quick result, let a player join or leave, and end the session. Members only."""
    club = club_or_404(slug)
    require_member(request, club)
    return _render_table(request, club, _session_or_404(club, chouette_id))


def _manager_session(request: HttpRequest, slug: str, chouette_id: int) -> tuple[Club, ChouetteSession]:
    club = club_or_404(slug)
    require_manager(request, club)
    return club, _session_or_404(club, chouette_id)


def _names(state: selectors.ChouetteState) -> dict[int, str]:
    return {row.player_id: row.display_name for row in state.ledger}


@login_required
@require_POST
def chouette_game_record(request: HttpRequest, slug: str, chouette_id: int) -> HttpResponse:
    """Record the next game as a quick result; see chouette_game_record."""
    club, session = _manager_session(request, slug, chouette_id)
    state = selectors.chouette_state(session=session, last_games=0)
    form = QuickResultForm.for_state(state, request.POST)
    if not form.is_valid():
        return _render_table(request, club, session, game_form=form, status=400)
    try:
        services.chouette_game_record(club_id=club.pk, chouette_id=session.pk, user=request.user, kind="quick",
                                      record=form.record(), expected_version=form.cleaned_data["version"])
    except DomainError as error:
        form_refuse(form, error, field=form.field_for(error.details.get("field")) or "",
                    text=lambda e: _refusal_text(e, _names(state)))
        session.refresh_from_db()
        return _render_table(request, club, session, game_form=form, status=error_status(error))
    session.refresh_from_db()
    after = selectors.chouette_state(session=session, last_games=1)
    game = after.games[0]
    box, captain = after.lineup[0], after.lineup[1]
    text = gettext("Game %(number)s: %(result)s. Next: %(box)s is the Box, %(captain)s the Captain.") % {
        "number": game.number, "result": game.result_label, "box": isolate(box.display_name),
        "captain": isolate(captain.display_name)}
    return success_redirect(request, text, _table_url(club, session))


@login_required
@require_POST
def chouette_game_record_full(request: HttpRequest, slug: str, chouette_id: int) -> HttpResponse:
    """Record the next game from its full record (the board's log and the crew's cube moments, as
    JSON); see chouette_game_record. A refusal names the place in the record (``board_log[7]``)."""
    club, session = _manager_session(request, slug, chouette_id)
    form = FullRecordForm(request.POST)
    if not form.is_valid():
        return _render_table(request, club, session, full_form=form, status=400)
    state = selectors.chouette_state(session=session, last_games=0)
    try:
        services.chouette_game_record(club_id=club.pk, chouette_id=session.pk, user=request.user, kind="full",
                                      record=form.cleaned_data["record"], expected_version=form.cleaned_data["version"])
    except DomainError as error:
        where = error.details.get("field")
        form.add_error("record", gettext("%(field)s: %(message)s") % {
            "field": where, "message": _refusal_text(error, _names(state))} if where else
                       _refusal_text(error, _names(state)))
        session.refresh_from_db()
        return _render_table(request, club, session, full_form=form, status=error_status(error))
    session.refresh_from_db()
    game = selectors.chouette_state(session=session, last_games=1).games[0]
    return success_redirect(request, gettext("Game %(number)s: %(result)s.") % {
        "number": game.number, "result": game.result_label}, _table_url(club, session))


def _player_action(request: HttpRequest, slug: str, chouette_id: int, service, make_form, text):
    club, session = _manager_session(request, slug, chouette_id)
    state = selectors.chouette_state(session=session, last_games=0)
    form = make_form(club, state, request.POST)
    if not form.is_valid():
        return _render_table(request, club, session, action_error=form_errors_text(form), status=400)
    try:
        service(club_id=club.pk, chouette_id=session.pk, user=request.user, player_id=form.cleaned_data["player"],
                expected_version=form.cleaned_data["version"])
    except DomainError as error:
        session.refresh_from_db()
        return _render_table(request, club, session, action_error=_refusal_text(error, _names(state)),
                             status=error_status(error))
    return success_redirect(request, str(text) % {"name": isolate(form.chosen_name)}, _table_url(club, session))


@login_required
@require_POST
def chouette_join(request: HttpRequest, slug: str, chouette_id: int) -> HttpResponse:
    """A newcomer joins at the bottom of the line; see chouette_join."""
    return _player_action(request, slug, chouette_id, services.chouette_join, _join_form,
                          gettext_lazy("%(name)s joins at the bottom of the line."))


@login_required
@require_POST
def chouette_leave(request: HttpRequest, slug: str, chouette_id: int) -> HttpResponse:
    """A player leaves the table; see chouette_leave."""
    return _player_action(request, slug, chouette_id, services.chouette_leave, _leave_form,
                          gettext_lazy("%(name)s leaves the table."))


@login_required
@require_POST
def chouette_end(request: HttpRequest, slug: str, chouette_id: int) -> HttpResponse:
    """End the session: the settlement follows on the table page; see chouette_end."""
    club, session = _manager_session(request, slug, chouette_id)
    try:
        services.chouette_end(club_id=club.pk, chouette_id=session.pk, user=request.user)
    except DomainError as error:
        return _render_table(request, club, session, action_error=error_text(error), status=error_status(error))
    return success_redirect(request, gettext("The session is over: here is who pays whom."), _table_url(club, session))


@login_required
@require_POST
def chouette_reopen(request: HttpRequest, slug: str, chouette_id: int) -> HttpResponse:
    """Reopen an ended session: games, players and house rules can change again, and the
    settlement is no longer final until it ends again; see chouette_reopen."""
    club, session = _manager_session(request, slug, chouette_id)
    try:
        services.chouette_reopen(club_id=club.pk, chouette_id=session.pk, user=request.user)
    except DomainError as error:
        return _render_table(request, club, session, action_error=error_text(error), status=error_status(error))
    return success_redirect(request, gettext("The session is open again: its settlement is no longer final until you "
                                             "end it again."), _table_url(club, session))


@login_required
@require_POST
def chouette_rules(request: HttpRequest, slug: str, chouette_id: int) -> HttpResponse:
    """Change the table's house rules: they apply to every game of the session,
    which is settled again by them; see chouette_rules_change."""
    club, session = _manager_session(request, slug, chouette_id)
    form = ChouetteRulesForm(request.POST, prefix="rules")
    if not form.is_valid():
        return _render_table(request, club, session, rules_form=form, status=400)
    try:
        services.chouette_rules_change(club_id=club.pk, chouette_id=session.pk, user=request.user, rules=form.rules(),
                                       expected_version=form.cleaned_data["version"])
    except DomainError as error:
        form_refuse(form, error)
        return _render_table(request, club, session, rules_form=form, status=error_status(error))
    return success_redirect(request, gettext("The house rules are changed: every game of the session is settled by "
                                             "them."), _table_url(club, session))


# --- one game ------------------------------------------------------------------------------------------------


def _game_or_404(state: selectors.ChouetteState, number: int) -> selectors.GameRow:
    game = next((game for game in state.games if game.number == number), None)
    if game is None:
        raise Http404("no such game at this table")
    return game


def _amend_form(state: selectors.ChouetteState, game: selectors.GameRow, data=None) -> QuickResultForm:
    """The quick-result form for the line-up the game was played with, filled with its record."""
    players = [(game.box_id, game.box_name, "box"), (game.captain_id, game.captain_name, "captain"),
               *((pid, name, "crew") for pid, name in game.crew)]
    seats = tuple(selectors.Seat(pid, name, role, place, 0, Decimal("0"))
                  for place, (pid, name, role) in enumerate(players))
    record = game.entered if game.entry == "quick" else {
        "winner": game.winner, "level": game.level, "automatic": game.automatic, "box_partner": game.box_partner_id,
        "cubes": [{"player": cube.player_id, "value": cube.value, "end": cube.end} for cube in game.cubes]}
    initial = QuickResultForm.initial_from(record, state.version)
    return QuickResultForm(data, initial=initial, seats=seats, automatic_limit=state.session.automatic_doubles,
                           box_partner_allowed=state.settings.box_partner_allowed(len(seats)))


@dataclass(frozen=True)
class LaterForm:
    """A later game entered again with a correction: its number, the line-up it now falls to (ids,
    box first, for the page to post back) and its quick-result form (prefix ``later-<number>``)."""

    number: int
    lineup: str
    box_name: str
    captain_name: str
    form: QuickResultForm


def _posted_later(request: HttpRequest) -> list[dict]:
    """The later games the page posted with a correction: each number with its line-up."""
    games = []
    for text in request.POST.get("later", "").split(","):
        if text.strip().isdigit():
            number = int(text)
            ids = [int(part) for part in request.POST.get(f"later-{number}-lineup", "").split(",") if part.isdigit()]
            if len(ids) >= 2:
                games.append({"game": number, "lineup": {"box": ids[0], "captain": ids[1], "crew": ids[2:]}})
    return games


def _later_forms(state: selectors.ChouetteState, games: list[dict], data=None) -> list[LaterForm]:
    """A quick-result form for each later game to enter again, for the line-up it now falls to,
    filled with its recorded result (or ``data`` as posted)."""
    names = _names(state)
    recorded = {game.number: game for game in state.games}
    out = []
    for game in games:
        lineup = game["lineup"]
        players = [(lineup["box"], "box"), (lineup["captain"], "captain"), *((pid, "crew") for pid in lineup["crew"])]
        seats = tuple(selectors.Seat(pid, names.get(pid, ""), role, place, 0, Decimal("0"))
                      for place, (pid, role) in enumerate(players))
        row = recorded.get(game["game"])
        initial = QuickResultForm.initial_from(row.entered, state.version) if row is not None and \
            row.entry == "quick" else {}
        form = QuickResultForm(data, prefix=f"later-{game['game']}", initial=initial, seats=seats,
                               automatic_limit=state.session.automatic_doubles,
                               box_partner_allowed=state.settings.box_partner_allowed(len(seats)))
        out.append(LaterForm(game["game"], ",".join(str(pid) for pid, _role in players), seats[0].display_name,
                             seats[1].display_name, form))
    return out


def _later_refusal(error: DomainError, later_forms: list[LaterForm], state: selectors.ChouetteState) -> bool:
    """Put a refusal of a later game's amendment (field ``later[<n>]...``) on that game's form."""
    match = re.fullmatch(r"later\[(\d+)\](?:\.(.*))?", str(error.details.get("field") or ""))
    target = next((later for later in later_forms if match and later.number == int(match.group(1))), None)
    if target is None:
        return False
    target.form.add_error(target.form.field_for(match.group(2)), _refusal_text(error, _names(state)))
    return True


def _render_game(request, club, session, number, *, form=None, action_error: str = "", status: int = 200,
                 later_forms: list[LaterForm] | None = None, correction: str = ""):
    state = selectors.chouette_state(session=session)
    game = _game_or_404(state, number)
    extra = {}
    # An ended session's games stay as they are until the session is reopened (the page says so).
    if club_role(club, request.user) in MANAGERS and not game.voided and session.status == ChouetteSession.Status.OPEN:
        extra["form"] = form or _amend_form(state, game)
        if later_forms:
            extra.update(later_forms=later_forms, correction=correction,
                         later_numbers=",".join(str(later.number) for later in later_forms))
    return render(request, "chouette/game.html", club_page_context(
        request, club, session=session, state=state, game=game, action_error=action_error,
        board_log=_board_log(game), **extra), status=status)


def _board_log(game: selectors.GameRow) -> list[str]:
    """The board's log of a game recorded in full, each action in the reader's language: the Box
    is the board's first side, the Captain plays the team's (engine.chouette.full_game). Empty for
    a quick result."""
    log = game.entered.get("board_log") if game.entry == "full" and isinstance(game.entered, dict) else None
    if not isinstance(log, list):
        return []
    return [logged_action_text(raw, (game.box_name, game.captain_name)) for raw in log]


@login_required
def chouette_game(request: HttpRequest, slug: str, chouette_id: int, game_number: int) -> HttpResponse:
    """One game: its line-up, every cube and amount, its record; owners and organisers amend it with
    a quick result (POST) or void it (POST ``action=void``). Members only."""
    club = club_or_404(slug)
    require_member(request, club)
    session = _session_or_404(club, chouette_id)
    if request.method != "POST":
        return _render_game(request, club, session, game_number)
    require_manager(request, club)
    state = selectors.chouette_state(session=session)
    game = _game_or_404(state, game_number)
    correction = "void" if request.POST.get("action") == "void" else "amend"
    later_forms = _later_forms(state, _posted_later(request), request.POST)
    form = _amend_form(state, game, request.POST) if correction == "amend" else None
    if (form is not None and not form.is_valid()) | any([not later.form.is_valid() for later in later_forms]):
        return _render_game(request, club, session, game_number, form=form, status=400, later_forms=later_forms,
                            correction=correction)
    later = {later.number: ("quick", later.form.record()) for later in later_forms}
    try:
        if correction == "void":
            version = request.POST.get("version", "")
            services.chouette_game_void(club_id=club.pk, chouette_id=session.pk, number=game_number, user=request.user,
                                        expected_version=int(version) if version.isdigit() else None, later=later)
        else:
            services.chouette_game_amend(club_id=club.pk, chouette_id=session.pk, number=game_number,
                                         user=request.user, kind="quick", record=form.record(),
                                         expected_version=form.cleaned_data["version"], later=later)
    except DomainError as error:
        session.refresh_from_db()
        text = _refusal_text(error, _names(state))
        if error.code == "chouette_ended":  # no form to put it on: the page says how to reopen
            return _render_game(request, club, session, game_number, status=error_status(error), action_error=text)
        if error.code == "later_games_to_amend":
            # Ask for the games the correction leaves to enter again; those already posted for the
            # same line-up keep what was entered.
            posted = {(later.number, later.lineup) for later in later_forms}
            games = error.details["games"]
            later_forms = [
                _later_forms(state, [item], request.POST if (item["game"], _ids(item["lineup"])) in posted else None)[0]
                for item in games]
        elif _later_refusal(error, later_forms, state):
            text = ""
        elif form is not None:
            form_refuse(form, error, field=form.field_for(error.details.get("field")) or "",
                        text=lambda e: _refusal_text(e, _names(state)))
            text = ""
        return _render_game(request, club, session, game_number, form=form, status=error_status(error),
                            action_error=text, later_forms=later_forms, correction=correction)
    if correction == "void":
        return success_redirect(request, gettext("Game %(number)d is void: it no longer counts.") % {
            "number": game_number}, _table_url(club, session))
    return success_redirect(request, gettext("Game %(number)d is amended.") % {"number": game_number},
                            reverse("chouette:game", args=[club.slug, session.pk, game_number]))


def _ids(lineup: dict) -> str:
    return ",".join(str(pid) for pid in (lineup["box"], lineup["captain"], *lineup["crew"]))
