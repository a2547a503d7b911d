"""Pages of the organiser role (mounted at ``/organiser/``, namespace ``organiser``):

- ``/organiser/``: the signed-in user's own page: his role, his requests with staff's answers
  (a refusal's reason), and the form to ask to become an organiser;
- ``/organiser/requests/``: staff's queue: the open requests to approve or refuse (with a
  reason), the latest decisions, and the organisers, whose role staff may withdraw.

Each view parses the request, calls one service (or reads) and redirects (POST, redirect, GET); a
refusal re-renders the page with the error and its 4xx status, nothing saved. Anyone signed in
but staff gets a 403 from the queue and its actions.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, error_text, form_errors_text, form_refuse, success_redirect

from ..models import User
from ..models_requests import OrganiserRequest
from . import selectors, services
from .forms import OrganiserRequestForm, ReasonForm

#: How many decided requests staff's queue shows under the open ones.
RECENT_DECISIONS = 20

app_name = "organiser"


def _render_home(request: HttpRequest, form: OrganiserRequestForm | None = None, status: int = 200) -> HttpResponse:
    user = request.user
    mine = list(selectors.organiser_request_list(user=user, own=True))
    waiting = next((r for r in mine if r.status == OrganiserRequest.Status.OPEN), None)
    return render(request, "accounts/organiser.html", {
        "requests": mine,
        "waiting": waiting,
        "may_ask": not user.is_organiser and waiting is None,
        "form": form or OrganiserRequestForm(),
    }, status=status)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """The user's organiser page (GET) and his request to become one (POST)."""
    if request.method != "POST":
        return _render_home(request)
    form = OrganiserRequestForm(request.POST)
    if not form.is_valid():
        return _render_home(request, form, status=400)
    try:
        services.organiser_request(user=request.user, statement=form.cleaned_data["statement"])
    except DomainError as error:
        form_refuse(form, error)
        return _render_home(request, form, status=error_status(error))
    return success_redirect(request, _("Your request is sent: staff will decide, and you will be told by email."),
                            reverse("organiser:home"))


def _require_staff(request: HttpRequest) -> None:
    if not request.user.is_staff:
        raise PermissionDenied(_("only staff decide who is an organiser"))


def _render_queue(request: HttpRequest, *, action_error: str = "", status: int = 200) -> HttpResponse:
    everyone = selectors.organiser_request_list(user=request.user)
    return render(request, "accounts/organiser_requests.html", {
        "open": list(everyone.filter(status=OrganiserRequest.Status.OPEN).order_by("created_at", "id")),
        "decided": list(everyone.exclude(status=OrganiserRequest.Status.OPEN)
                        .order_by("-decided_at", "-id")[:RECENT_DECISIONS]),
        "organisers": list(selectors.organiser_list()),
        "action_error": action_error,
    }, status=status)


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    """Staff's queue of requests and the organisers (a read page: POST is read as GET)."""
    _require_staff(request)
    return _render_queue(request)


def _act(request: HttpRequest, act, done: str) -> HttpResponse:
    """Run ``act()`` (one service call) and go back to the queue with ``done``, or re-render the
    queue with the refusal and its status."""
    try:
        act()
    except (OrganiserRequest.DoesNotExist, User.DoesNotExist):
        raise Http404("no such request or user") from None
    except DomainError as error:
        return _render_queue(request, action_error=error_text(error), status=error_status(error))
    return success_redirect(request, done, reverse("organiser:requests"))


@login_required
@require_POST
def approve(request: HttpRequest, organiser_request_id: int) -> HttpResponse:
    _require_staff(request)
    return _act(request, lambda: services.organiser_approve(request_id=organiser_request_id, user=request.user),
                _("The request is approved: the player is an organiser now."))


def _reason(request: HttpRequest) -> tuple[str | None, HttpResponse | None]:
    form = ReasonForm(request.POST)
    if form.is_valid():
        return form.cleaned_data["reason"], None
    return None, _render_queue(request, action_error=form_errors_text(form), status=400)


@login_required
@require_POST
def refuse(request: HttpRequest, organiser_request_id: int) -> HttpResponse:
    _require_staff(request)
    reason, refused = _reason(request)
    if refused is not None:
        return refused
    return _act(request, lambda: services.organiser_refuse(request_id=organiser_request_id, user=request.user,
                                                           reason=reason),
                _("The request is refused: the player is shown your reason."))


@login_required
@require_POST
def revoke(request: HttpRequest, organiser_id: int) -> HttpResponse:
    _require_staff(request)
    reason, refused = _reason(request)
    if refused is not None:
        return refused
    return _act(request, lambda: services.organiser_revoke(user_id=organiser_id, user=request.user, reason=reason),
                _("The organiser role is withdrawn: he is told why by email."))


urlpatterns = [
    path("", home, name="home"),
    path("requests/", queue, name="requests"),
    path("requests/<int:organiser_request_id>/approve/", approve, name="approve"),
    path("requests/<int:organiser_request_id>/refuse/", refuse, name="refuse"),
    path("<int:organiser_id>/revoke/", revoke, name="revoke"),
]
