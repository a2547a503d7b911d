"""The managers' walk-in form on the club's members page (templates/clubs/_walkin.html): add a
member who has no account. A refusal re-renders the form on a page of its own with its 4xx
status; nothing is saved."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, form_refuse, success_redirect
from core.text import isolate
from matches.forms.walkins import GuestForm

from .models import Membership
from .pages import club_or_404, club_page_context, require_manager
from .services.walkins import membership_add_walk_in


def _render(request: HttpRequest, club, form: GuestForm, status: int) -> HttpResponse:
    return render(request, "clubs/walkin.html", club_page_context(request, club, walkin_form=form), status=status)


@login_required
@require_POST
def add_walk_in(request: HttpRequest, slug: str) -> HttpResponse:
    """See membership_add_walk_in. Only the club's owners and organisers (403 for others)."""
    club = club_or_404(slug)
    require_manager(request, club)
    form = GuestForm(request.POST, prefix="walkin")
    if not form.is_valid():
        return _render(request, club, form, 400)
    try:
        membership = membership_add_walk_in(club_id=club.pk, user=request.user, **form.service_arguments())
    except DomainError as error:
        form_refuse(form, error)
        return _render(request, club, form, error_status(error))
    walk_in = membership.walk_in
    name = walk_in.player.display_name
    if membership.status == Membership.Status.INVITED:
        text = gettext("%(name)s already has an account: he is invited to join the club.") % {"name": isolate(name)}
    elif walk_in.invited:
        text = gettext("%(name)s is a member, and invited by email to claim his player.") % {"name": isolate(name)}
    else:
        text = gettext("%(name)s is a member.") % {"name": isolate(name)}
    return success_redirect(request, text, reverse("clubs:members", args=[club.slug]))


urlpatterns = [
    path("<slug:slug>/members/walk-in/", add_walk_in, name="add_walk_in"),
]
