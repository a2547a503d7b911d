"""Pages of the webhooks: an event's (``/events/<id>/webhooks/``) and a club's
(``/clubs/<slug>/webhooks/``), for whoever manages it (the event's organiser and staff; the club's
owners and organisers; 403 for anyone else, sign-in first). One page lists the webhooks, makes a
new one (its secret is shown once, there), switches one off or on, shows its secret to its owner,
removes one, and shows the delivery log (the latest deliveries of all of them) with a button to
send a delivery again. Each view parses the request, calls one selector or service, and renders
or redirects; a refusal re-renders the page with the message and its status, nothing saved.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.pages import club_or_404, club_page_context
from core.errors import DomainError
from core.pages import error_status, error_text, form_refuse, success_redirect
from core.text import join_list
from tournaments.models import Tournament

from . import selectors, services
from .forms import WebhookForm
from .models import Delivery, Subscription

app_name = "webhooks"


def _target(tournament=None, club=None) -> dict:
    return {"tournament": tournament} if tournament is not None else {"club": club}


def _page_url(subscription_or_target) -> str:
    tournament = getattr(subscription_or_target, "tournament", None)
    if isinstance(subscription_or_target, Tournament):
        tournament = subscription_or_target
    if tournament is not None:
        return reverse("webhooks:event", args=[tournament.pk])
    club = subscription_or_target if isinstance(subscription_or_target, Club) else subscription_or_target.club
    return reverse("webhooks:club", args=[club.slug])


def host_of(url: str) -> str:
    return urlsplit(url).hostname or url


def _render(request, *, tournament=None, club=None, form=None, shown_secret=None, refusal: str = "",
            status: int = 200):
    target = _target(tournament, club)
    subscriptions = list(selectors.subscription_list(**target))
    for subscription in subscriptions:
        subscription.host = host_of(subscription.url)
        subscription.event_labels = join_list(Subscription.Event(e).label for e in subscription.events)
    deliveries = list(selectors.delivery_log(**target)[:selectors.LOG_SHOWN])
    for delivery in deliveries:
        delivery.host = host_of(delivery.subscription.url)
    context = {"tournament": tournament, "form": form or WebhookForm(), "subscriptions": subscriptions,
               "deliveries": deliveries, "shown_secret": shown_secret, "refusal": refusal,
               "page_url": _page_url(tournament or club),
               "target_name": tournament.name if tournament is not None else club.name}
    if club is not None:
        context = club_page_context(request, club, **context)
    return render(request, "webhooks/page.html", context, status=status)


def _page(request: HttpRequest, *, tournament=None, club=None) -> HttpResponse:
    if not selectors.may_manage(request.user, tournament=tournament, club=club):
        raise PermissionDenied("only the organisers may manage the webhooks")
    if request.method != "POST":
        return _render(request, tournament=tournament, club=club)
    form = WebhookForm(request.POST)
    if not form.is_valid():
        return _render(request, tournament=tournament, club=club, form=form, status=400)
    try:
        subscription = services.subscription_create(user=request.user, url=form.cleaned_data["url"],
                                                    events=form.cleaned_data["events"], **_target(tournament, club))
    except DomainError as error:
        form_refuse(form, error)
        return _render(request, tournament=tournament, club=club, form=form, status=error_status(error))
    # Rendered, not redirected: the secret is shown this once (and later to its owner on request).
    return _render(request, tournament=tournament, club=club, shown_secret=(host_of(subscription.url), subscription.secret),
                   status=201)


@login_required
def event_webhooks(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _page(request, tournament=get_object_or_404(Tournament, pk=tournament_id))


@login_required
def club_webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, club=club_or_404(slug))


def _subscription(request, subscription_id: int) -> Subscription:
    try:
        return selectors.subscription_get(subscription_id=subscription_id, user=request.user)
    except Subscription.DoesNotExist:
        raise Http404("no such webhook") from None
    except DomainError as error:
        raise PermissionDenied(error.message) from None


def _refused(request, subscription: Subscription, error: DomainError) -> HttpResponse:
    return _render(request, tournament=subscription.tournament, club=subscription.club, refusal=error_text(error),
                   status=error_status(error))


@login_required
@require_POST
def webhook_switch(request: HttpRequest, subscription_id: int) -> HttpResponse:
    subscription = _subscription(request, subscription_id)
    services.subscription_update(subscription_id=subscription.pk, user=request.user, active=not subscription.active)
    text = (gettext("The webhook to %(host)s is switched off.") if subscription.active
            else gettext("The webhook to %(host)s is switched on.")) % {"host": host_of(subscription.url)}
    return success_redirect(request, text, _page_url(subscription))


@login_required
@require_POST
def webhook_delete(request: HttpRequest, subscription_id: int) -> HttpResponse:
    subscription = _subscription(request, subscription_id)
    services.subscription_delete(subscription_id=subscription.pk, user=request.user)
    return success_redirect(request, gettext("The webhook to %(host)s is removed.") % {"host": host_of(subscription.url)},
                            _page_url(subscription))


@login_required
@require_POST
def webhook_secret(request: HttpRequest, subscription_id: int) -> HttpResponse:
    subscription = _subscription(request, subscription_id)
    try:
        secret = services.subscription_secret(subscription_id=subscription.pk, user=request.user)
    except DomainError as error:
        return _refused(request, subscription, error)
    return _render(request, tournament=subscription.tournament, club=subscription.club,
                   shown_secret=(host_of(subscription.url), secret))


@login_required
@require_POST
def delivery_redeliver(request: HttpRequest, subscription_id: int, delivery_id: int) -> HttpResponse:
    subscription = _subscription(request, subscription_id)
    try:
        services.delivery_redeliver(subscription_id=subscription.pk, delivery_id=delivery_id, user=request.user)
    except Delivery.DoesNotExist:
        raise Http404("no such delivery") from None
    except DomainError as error:
        return _refused(request, subscription, error)
    return success_redirect(request, gettext("The delivery is sent again to %(host)s.")
                            % {"host": host_of(subscription.url)}, _page_url(subscription))


urlpatterns = [
    path("events/<int:tournament_id>/webhooks/", event_webhooks, name="event"),
    path("clubs/<slug:slug>/webhooks/", club_webhooks, name="club"),
    path("webhooks/<int:subscription_id>/switch/", webhook_switch, name="switch"),
    path("webhooks/<int:subscription_id>/delete/", webhook_delete, name="delete"),
    path("webhooks/<int:subscription_id>/secret/", webhook_secret, name="secret"),
    path("webhooks/<int:subscription_id>/deliveries/<int:delivery_id>/redeliver/", delivery_redeliver,
         name="redeliver"),
]
