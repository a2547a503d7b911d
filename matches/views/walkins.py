"""The invitation page: a guest player (a walk-in, an imported name) is claimed here by the person
invited (matches.services.guests).

``/invitations/<token>/``: anyone with the link sees who invited him and which player; someone
not signed in is offered to create an account or sign in, and comes back here after it. Someone
signed in whose verified address is the invited one confirms, and the player (with every result on
his record) becomes his; whose address it is but not verified yet is asked to verify it first;
anyone else may ask for the player instead: a claim a director decides (``/claims/``)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, path, reverse
from django.utils.translation import gettext

from accounts.selectors import ADDRESS_NOT_HIS, address_standing
from core.errors import DomainError
from core.pages import error_status, error_text

from ..selectors.claims import open_claim_of
from ..services.claims import TEXT_LIMIT
from ..services.guests import invitation_accept, invitation_find, player_match_count
from ..services.invitations import invitation_refusal, inviter_name
from ..services.matches import player_for_user


def _url_named(*names: str) -> str | None:
    """The first of the URL ``names`` this site has (django-allauth's, when it is installed, then
    Django's own), or None. Resolved at each request: the page works with either sign-in."""
    for name in names:
        try:
            return reverse(name)
        except NoReverseMatch:
            continue
    return None


def _with_next(url: str | None, back: str) -> str | None:
    return f"{url}?{urlencode({'next': back})}" if url else None


def _render(request: HttpRequest, token: str, *, error: str = "", status: int = 200) -> HttpResponse:
    try:
        invitation = invitation_find(token)
    except DomainError:
        raise Http404(gettext("This invitation link is not valid: check that it was copied whole.")) from None
    user = request.user if request.user.is_authenticated else None
    refusal = invitation_refusal(invitation, user)
    own = player_for_user(user)
    inviter = invitation.created_by
    standing = address_standing(user, invitation.email) if user is not None else ADDRESS_NOT_HIS
    context = {
        "invitation": invitation,
        "player": invitation.player,
        # Named as its email names him: his display name, never his account's free name fields.
        "inviter": inviter_name(inviter) or "",
        "refusal": error_text(refusal) if refusal is not None else "",
        "error": error,
        "own": own,
        "own_matches": player_match_count(own) if own is not None else 0,
        "signup_url": _with_next(_url_named("account_signup"), request.path),
        "login_url": _with_next(_url_named("account_login", "login"), request.path),
        # Whether the invitation's address is his (verified or not), never the address itself.
        "address": standing,
        "account_url": _url_named("account_email"),
        "waiting_claim": open_claim_of(user, invitation.player_id) is not None,
        "statement_limit": TEXT_LIMIT,
    }
    return render(request, "matches/invitation.html", context, status=status)


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the invitation (404 for a link that names none). POST (signed in): accept it, see
    invitation_accept: the player is his (to his matches), or, the invitation sent to another
    address, his claim is sent to a director (to his claims, saying so); a refusal is shown on the
    page with its status (403, 409), nothing changed; an anonymous POST is sent to sign in first."""
    if request.method != "POST":
        return _render(request, token)
    if not request.user.is_authenticated:
        return redirect(_with_next(_url_named("account_login", "login"), request.path))
    try:
        accepted = invitation_accept(token=token, user=request.user, statement=request.POST.get("statement", ""))
    except DomainError as error:
        if error_status(error) == 404:
            raise Http404(error_text(error)) from None
        return _render(request, token, error=error_text(error), status=error_status(error))
    if accepted.claim is not None:
        messages.info(request, accepted.text)
        return redirect("matches:claims")
    messages.success(request, accepted.text)
    return redirect("matches:mine")


urlpatterns = [
    path("invitations/<slug:token>/", invitation, name="invitation"),
]
