"""Pages of the clubs app: the club list and a new club, a club's page (members, upcoming nights
and events, joining and leaving), the managers' members page, seasons and their ladder, the
nights and a night's summary. Each view parses the request, calls one selector or service, and
renders or redirects (POST, redirect, GET); a domain error re-renders the page with the message
and its 4xx status (nothing is saved: every service runs in one transaction).

Who sees what is :mod:`clubs.permissions`: member-only pages send an anonymous visitor to sign in
and answer 403 to a logged-in outsider; read pages answer POST as GET.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, error_text, form_errors_text, form_refuse, success_redirect
from core.text import isolate
from matches.models import Player
from matches.services.matches import match_create, match_rules, player_for_user

from . import selectors, services
from .forms import CheckInForm, ClubForm, InviteForm, MembershipActionForm, NightForm, NightMatchForm, SeasonForm
from .models import Club, ClubNight, Membership, Season
from .pages import club_or_404, club_page_context, require_manager, require_member, require_owner
from .permissions import MANAGERS, club_role

app_name = "clubs"


# --- the club list and a new club ----------------------------------------------------------------


def club_list(request: HttpRequest) -> HttpResponse:
    """Every club, with its city and member count. Public."""
    return render(request, "clubs/list.html", {"clubs": selectors.club_list()})


@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    """Any logged-in user creates a club and becomes its owner; see club_create."""
    if request.method != "POST":
        return render(request, "clubs/new.html", {"form": ClubForm()})
    form = ClubForm(request.POST)
    if not form.is_valid():
        return render(request, "clubs/new.html", {"form": form}, status=400)
    try:
        club = services.club_create(user=request.user, **form.cleaned_data)
    except DomainError as error:
        form_refuse(form, error)
        return render(request, "clubs/new.html", {"form": form}, status=error_status(error))
    return success_redirect(request, _("Club “%(name)s” created: you are its owner.") % {"name": isolate(club.name)},
                            reverse("clubs:detail", args=[club.slug]))


# --- a club's page -------------------------------------------------------------------------------


def _render_detail(request: HttpRequest, club: Club, *, action_error: str = "", status: int = 200) -> HttpResponse:
    today = timezone.localdate()
    own = selectors.membership_of(club=club, user=request.user)
    return render(request, "clubs/detail.html", club_page_context(
        request, club, own=own, members=selectors.member_list(club=club), action_error=action_error,
        nights=selectors.night_list(club=club, upcoming_from=today),
        events=selectors.event_list(club=club, upcoming_from=today),
    ), status=status)


def detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The club: its members (display name, role, rating, last results; never an email), its
    upcoming nights and events, and the visitor's own membership actions. Public."""
    return _render_detail(request, club_or_404(slug))


def _own_action(request: HttpRequest, slug: str, service, text: str) -> HttpResponse:
    club = club_or_404(slug)
    try:
        service(club_id=club.pk, user=request.user)
    except DomainError as error:
        return _render_detail(request, club, action_error=error_text(error), status=error_status(error))
    return success_redirect(request, text, reverse("clubs:detail", args=[club.slug]))


@login_required
@require_POST
def join(request: HttpRequest, slug: str) -> HttpResponse:
    """Ask to join; see membership_request."""
    return _own_action(request, slug, services.membership_request, _("You asked to join: an owner will answer."))


@login_required
@require_POST
def accept(request: HttpRequest, slug: str) -> HttpResponse:
    """Accept an invitation; see membership_accept."""
    return _own_action(request, slug, services.membership_accept, _("Welcome: you are a member."))


@login_required
@require_POST
def leave(request: HttpRequest, slug: str) -> HttpResponse:
    """Leave, withdraw a request or decline an invitation; see membership_leave."""
    return _own_action(request, slug, services.membership_leave, _("Done: you are no longer in this club."))


# --- members (managers) --------------------------------------------------------------------------


def _render_members(request: HttpRequest, club: Club, *, invite_form=None, action_error: str = "",
                    status: int = 200) -> HttpResponse:
    return render(request, "clubs/members.html", club_page_context(
        request, club, members=selectors.member_list(club=club), pending=selectors.membership_pending(club=club),
        invite_form=invite_form or InviteForm(), roles=Membership.Role.choices, action_error=action_error,
    ), status=status)


@login_required
def members(request: HttpRequest, slug: str) -> HttpResponse:
    """Owners and organisers: requests to join, invitations, the invite form; owners also
    approve, decline, change roles and remove. 403 for anyone else."""
    club = club_or_404(slug)
    require_manager(request, club)
    return _render_members(request, club)


@login_required
@require_POST
def invite(request: HttpRequest, slug: str) -> HttpResponse:
    """Invite a user by username; see membership_invite."""
    club = club_or_404(slug)
    require_manager(request, club)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _render_members(request, club, invite_form=form, status=400)
    try:
        services.membership_invite(club_id=club.pk, user=request.user, username=form.cleaned_data["username"])
    except DomainError as error:
        form_refuse(form, error, field="username")
        return _render_members(request, club, invite_form=form, status=error_status(error))
    return success_redirect(request, _("%(name)s is invited.") % {"name": isolate(form.cleaned_data["username"])},
                            reverse("clubs:members", args=[club.slug]))


OWNER_ACTIONS = {
    "approve": (services.membership_approve, gettext_lazy("The request is approved.")),
    "decline": (services.membership_decline, gettext_lazy("Declined.")),
    "role": (services.membership_role_change, gettext_lazy("The role is changed.")),
    "remove": (services.membership_remove, gettext_lazy("The member is removed.")),
}


@login_required
@require_POST
def membership(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """An owner approves, declines, changes the role of or removes one membership (``action``)."""
    club = club_or_404(slug)
    require_owner(request, club)
    form = MembershipActionForm(request.POST)
    if not form.is_valid():
        return _render_members(request, club, action_error=form_errors_text(form), status=400)
    service, text = OWNER_ACTIONS[form.cleaned_data["action"]]
    extra = {"role": form.cleaned_data["role"]} if form.cleaned_data["action"] == "role" else {}
    try:
        service(club_id=club.pk, membership_id=membership_id, user=request.user, **extra)
    except DomainError as error:
        return _render_members(request, club, action_error=error_text(error), status=error_status(error))
    return success_redirect(request, str(text), reverse("clubs:members", args=[club.slug]))


# --- seasons and the ladder ----------------------------------------------------------------------


def _render_seasons(request: HttpRequest, club: Club, *, form=None, status: int = 200) -> HttpResponse:
    return render(request, "clubs/seasons.html", club_page_context(
        request, club, seasons=selectors.season_list(club=club), form=form or SeasonForm()), status=status)


def seasons(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's seasons (public); owners and organisers create one here (POST)."""
    club = club_or_404(slug)
    if request.method != "POST":
        return _render_seasons(request, club)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    require_manager(request, club)
    form = SeasonForm(request.POST)
    if not form.is_valid():
        return _render_seasons(request, club, form=form, status=400)
    try:
        season = services.season_create(club_id=club.pk, user=request.user, **form.cleaned_data)
    except DomainError as error:
        form_refuse(form, error)
        return _render_seasons(request, club, form=form, status=error_status(error))
    return success_redirect(request, _("Season “%(name)s” created.") % {"name": isolate(season.name)},
                            reverse("clubs:ladder", args=[club.slug, season.pk]))


def _render_ladder(request: HttpRequest, club: Club, season: Season, *, form=None, action_error: str = "",
                   status: int = 200) -> HttpResponse:
    initial = {"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on}
    return render(request, "clubs/ladder.html", club_page_context(
        request, club, season=season, rows=selectors.season_ladder(season=season),
        definition=_(selectors.LADDER_DEFINITION), form=form or SeasonForm(initial=initial), action_error=action_error,
    ), status=status)


def ladder(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's ladder with its definition and CSV link (public); owners and organisers edit
    the season's name and dates (POST ``action=update``) or delete it (``action=delete``)."""
    club = club_or_404(slug)
    try:
        season = selectors.season_get(club=club, season_id=season_id)
    except Season.DoesNotExist:
        raise Http404("no such season") from None
    if request.method != "POST":
        return _render_ladder(request, club, season)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    require_manager(request, club)
    try:
        if request.POST.get("action") == "delete":
            services.season_delete(club_id=club.pk, season_id=season.pk, user=request.user)
            return success_redirect(request, _("Season “%(name)s” deleted.") % {"name": isolate(season.name)},
                                     reverse("clubs:seasons", args=[club.slug]))
        form = SeasonForm(request.POST)
        if not form.is_valid():
            return _render_ladder(request, club, season, form=form, status=400)
        services.season_update(club_id=club.pk, season_id=season.pk, user=request.user, **form.cleaned_data)
    except DomainError as error:
        return _render_ladder(request, club, season, action_error=error_text(error), status=error_status(error))
    return success_redirect(request, _("The season is saved."), reverse("clubs:ladder", args=[club.slug, season.pk]))


# --- nights --------------------------------------------------------------------------------------


def _render_nights(request: HttpRequest, club: Club, *, form=None, status: int = 200) -> HttpResponse:
    return render(request, "clubs/nights.html", club_page_context(
        request, club, nights=selectors.night_list(club=club), form=form or NightForm(initial={
            "date": timezone.localdate()})), status=status)


def nights(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's nights (public: dates, titles, how many came); owners and organisers open one
    (POST)."""
    club = club_or_404(slug)
    if request.method != "POST":
        return _render_nights(request, club)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    require_manager(request, club)
    form = NightForm(request.POST)
    if not form.is_valid():
        return _render_nights(request, club, form=form, status=400)
    try:
        night = services.night_open(club_id=club.pk, user=request.user, **form.cleaned_data)
    except DomainError as error:
        form_refuse(form, error)
        return _render_nights(request, club, form=form, status=error_status(error))
    return success_redirect(request, _("The night is open: members may check in."),
                            reverse("clubs:night", args=[club.slug, night.pk]))


def _night_or_404(club: Club, night_id: int) -> ClubNight:
    try:
        return selectors.night_get(club=club, night_id=night_id)
    except ClubNight.DoesNotExist:
        raise Http404("no such night") from None


def _night_players(summary) -> list[tuple[int, str]]:
    return [(c.player_id, c.display_name) for c in summary.check_ins]


def _render_night(request: HttpRequest, club: Club, night: ClubNight, *, action_error: str = "",
                  status: int = 200, match_form=None) -> HttpResponse:
    summary = selectors.night_summary(night=night)
    checked_in = {c.player_id for c in summary.check_ins}
    member_rows = selectors.member_list(club=club) if club_role(club, request.user) in MANAGERS else []
    own_player = player_for_user(request.user)
    return render(request, "clubs/night.html", club_page_context(
        request, club, night=night, summary=summary, action_error=action_error,
        can_check_in=night.status == ClubNight.Status.OPEN and own_player is not None
        and own_player.pk not in checked_in,
        absent=[m for m in member_rows if m.player_id is not None and m.player_id not in checked_in],
        match_form=match_form or NightMatchForm(players=_night_players(summary)),
    ), status=status)


@login_required
def night(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """A night's summary: check-ins, matches and results, chouette sessions and each player's net
    chouette result. Members only (403 for others)."""
    club = club_or_404(slug)
    require_member(request, club)
    return _render_night(request, club, _night_or_404(club, night_id))


@login_required
@require_POST
def night_check_in(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """A member checks himself in; a manager checks in a member (``player``). See night_check_in."""
    club = club_or_404(slug)
    require_member(request, club)
    night_row = _night_or_404(club, night_id)
    form = CheckInForm(request.POST)
    if not form.is_valid():
        return _render_night(request, club, night_row, action_error=form_errors_text(form), status=400)
    try:
        check_in = services.night_check_in(club_id=club.pk, night_id=night_row.pk, user=request.user,
                                           player_id=form.cleaned_data["player"])
    except DomainError as error:
        return _render_night(request, club, night_row, action_error=error_text(error), status=error_status(error))
    return success_redirect(request, _("%(name)s is checked in.") % {"name": isolate(check_in.player.display_name)},
                            reverse("clubs:night", args=[club.slug, night_row.pk]))


@login_required
@require_POST
def night_match(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """A member records a match of the night between two of its checked-in players (a club match:
    it counts for the ladder once confirmed); see matches.services.matches.match_create. The match's
    page takes it from there (reports, confirmation)."""
    club = club_or_404(slug)
    require_member(request, club)
    night_row = _night_or_404(club, night_id)
    form = NightMatchForm(request.POST, players=_night_players(selectors.night_summary(night=night_row)))
    if not form.is_valid():
        return _render_night(request, club, night_row, action_error=form_errors_text(form), status=400, match_form=form)
    players = {p.pk: p for p in Player.objects.filter(pk__in=[form.cleaned_data["side0"], form.cleaned_data["side1"]])}
    try:
        match = match_create(created_by=request.user,
                             sides=([players[form.cleaned_data["side0"]]], [players[form.cleaned_data["side1"]]]),
                             rules=match_rules(length=form.cleaned_data["length"]), context={"club_night": night_row})
    except DomainError as error:
        return _render_night(request, club, night_row, action_error=error_text(error), status=error_status(error),
                             match_form=form)
    return success_redirect(request, _("%(side0)s v %(side1)s is on.") % {
        "side0": isolate(match.side0.name), "side1": isolate(match.side1.name)},
                            reverse("matches:detail", args=[match.pk]))


@login_required
@require_POST
def night_close(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """Owners and organisers close the night; see night_close."""
    club = club_or_404(slug)
    require_manager(request, club)
    night_row = _night_or_404(club, night_id)
    try:
        services.night_close(club_id=club.pk, night_id=night_row.pk, user=request.user)
    except DomainError as error:
        return _render_night(request, club, night_row, action_error=error_text(error), status=error_status(error))
    return success_redirect(request, _("The night is closed."), reverse("clubs:night", args=[club.slug, night_row.pk]))


urlpatterns = [
    path("", club_list, name="list"),
    path("new/", club_new, name="new"),
    path("<slug:slug>/", detail, name="detail"),
    path("<slug:slug>/join/", join, name="join"),
    path("<slug:slug>/accept/", accept, name="accept"),
    path("<slug:slug>/leave/", leave, name="leave"),
    path("<slug:slug>/members/", members, name="members"),
    path("<slug:slug>/members/invite/", invite, name="invite"),
    path("<slug:slug>/members/<int:membership_id>/", membership, name="membership"),
    path("<slug:slug>/seasons/", seasons, name="seasons"),
    path("<slug:slug>/seasons/<int:season_id>/", ladder, name="ladder"),
    path("<slug:slug>/nights/", nights, name="nights"),
    path("<slug:slug>/nights/<int:night_id>/", night, name="night"),
    path("<slug:slug>/nights/<int:night_id>/check-in/", night_check_in, name="night_check_in"),
    path("<slug:slug>/nights/<int:night_id>/close/", night_close, name="night_close"),
    path("<slug:slug>/nights/<int:night_id>/matches/", night_match, name="night_match"),
]
