"""Pages: claiming a player known from imported files ("This is me" on his page), the claims a
user made or may decide (/claims/), and the staff page that merges two players (/players/merge/).
Each view parses the request, calls one selector or service, and renders or redirects; a refusal
is shown as a sentence on the page, with its status."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, error_text, form_errors_text, success_redirect
from core.text import isolate

from ..models import Player, PlayerClaim
from ..selectors.claims import claim_list, merge_choices
from ..services.claims import TEXT_LIMIT, claim_approve, claim_refuse, claim_request, claim_withdraw, player_merge


class ClaimForm(forms.Form):
    statement = forms.CharField(label=_("Why you are this player"), required=False, max_length=TEXT_LIMIT,
                                widget=forms.Textarea(attrs={"rows": 2}))


class RefuseForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=TEXT_LIMIT, widget=forms.Textarea(attrs={"rows": 2}))


class MergeForm(forms.Form):
    source = forms.TypedChoiceField(label=_("Merge this player (he is removed)"), coerce=int)
    target = forms.TypedChoiceField(label=_("into this player (he keeps every match)"), coerce=int)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = merge_choices()
        self.fields["source"].choices = choices
        self.fields["target"].choices = choices


def _claims_page(request: HttpRequest, *, error: str = "", status: int = 200) -> HttpResponse:
    rows = claim_list(request.user)
    return render(request, "matches/claims.html", {
        "mine": [row for row in rows if row.claim.user_id == request.user.pk],
        "deciding": [row for row in rows if row.may_decide],
        "refuse_form": RefuseForm(),
        "action_error": error,
    }, status=status)


@login_required
def claims(request: HttpRequest) -> HttpResponse:
    """The user's own claims, and the claims waiting that he may decide (a director, staff)."""
    return _claims_page(request)


@login_required
@require_POST
def claim(request: HttpRequest, player_id: int) -> HttpResponse:
    """"This is me": the user claims the player; see claim_request."""
    form = ClaimForm(request.POST)
    if not form.is_valid():
        return _claims_page(request, error=form_errors_text(form), status=400)
    try:
        made = claim_request(player_id=player_id, user=request.user, statement=form.cleaned_data["statement"])
    except Player.DoesNotExist:
        raise Http404("no such player") from None
    except DomainError as error:
        return _claims_page(request, error=error_text(error), status=error_status(error))
    text = gettext("You claimed to be %(player)s: a director or staff will decide, and you will be told.")
    return success_redirect(request, text % {"player": isolate(made.player.display_name)}, reverse("matches:claims"))


def _decided(request: HttpRequest, claim_id: int, decide) -> HttpResponse:
    try:
        done = decide()
    except PlayerClaim.DoesNotExist:
        raise Http404("no such claim") from None
    except DomainError as error:
        return _claims_page(request, error=error_text(error), status=error_status(error))
    values = {"player": done.player.display_name, "claimant": done.user.get_username()}
    if done.status == PlayerClaim.Status.APPROVED:
        text = gettext("Claim approved: %(claimant)s is now %(player)s.") % values
    elif done.status == PlayerClaim.Status.REFUSED:
        text = gettext("Claim of %(claimant)s to be %(player)s refused; he is told why.") % values
    else:
        text = gettext("You withdrew your claim to be %(player)s.") % values
    return success_redirect(request, text, reverse("matches:claims"))


@login_required
@require_POST
def claim_approve_view(request: HttpRequest, claim_id: int) -> HttpResponse:
    return _decided(request, claim_id, lambda: claim_approve(claim_id=claim_id, user=request.user))


@login_required
@require_POST
def claim_refuse_view(request: HttpRequest, claim_id: int) -> HttpResponse:
    # Read as text here: the service checks who may decide before the reason, so a missing reason
    # is a 400 only for those who may decide (a form would refuse it first, for anyone).
    reason = request.POST.get("reason", "")
    return _decided(request, claim_id, lambda: claim_refuse(claim_id=claim_id, user=request.user, reason=reason))


@login_required
@require_POST
def claim_withdraw_view(request: HttpRequest, claim_id: int) -> HttpResponse:
    return _decided(request, claim_id, lambda: claim_withdraw(claim_id=claim_id, user=request.user))


@login_required
def merge(request: HttpRequest) -> HttpResponse:
    """Staff merge two players: choose them, see what would move (a dry run: the matches, the
    ratings before and after), then merge."""
    if not request.user.is_staff:
        raise PermissionDenied("only staff may merge players")
    data = request.POST if request.method == "POST" else (request.GET if "source" in request.GET else None)
    form = MergeForm(data)
    preview, error, status = None, "", 200
    if data is not None:
        if not form.is_valid():
            return render(request, "matches/merge.html", {"form": form}, status=400)
        source, target = form.cleaned_data["source"], form.cleaned_data["target"]
        try:
            outcome = player_merge(source_id=source, target_id=target, user=request.user,
                                   dry_run=request.method != "POST")
        except Player.DoesNotExist:
            raise Http404("no such player") from None
        except DomainError as error_raised:
            error, status = error_text(error_raised), error_status(error_raised)
        else:
            if outcome.applied:
                text = gettext("%(source)s was merged into %(target)s: %(matches)s match(es) moved, rating now "
                               "%(rating).2f.") % {"source": isolate(outcome.source), "target": isolate(outcome.target),
                                                   "matches": outcome.matches, "rating": outcome.rating}
                return success_redirect(request, text, reverse("matches:player", args=[target]))
            preview = outcome
    return render(request, "matches/merge.html", {"form": form, "preview": preview, "action_error": error},
                  status=status)


urlpatterns = [
    path("claims/", claims, name="claims"),
    path("claims/<int:claim_id>/approve/", claim_approve_view, name="claim_approve"),
    path("claims/<int:claim_id>/refuse/", claim_refuse_view, name="claim_refuse"),
    path("claims/<int:claim_id>/withdraw/", claim_withdraw_view, name="claim_withdraw"),
    path("players/merge/", merge, name="player_merge"),
    path("players/<int:player_id>/claim/", claim, name="claim"),
]
