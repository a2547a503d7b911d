"""Reads of the webhooks app: who may manage a target's webhooks, its subscriptions, the delivery
log, and the subscriptions a result, a round or a ruling is delivered to (one query each)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from clubs.models import ClubEvent, ClubMatch
from clubs.permissions import MANAGERS, club_role
from tournaments.models import EventMatch
from tournaments.services.common import runs

from . import errors
from .models import Delivery, Subscription

#: How many deliveries the log shows on a page (the API pages through them all).
LOG_SHOWN = 50


def may_manage(user, *, tournament=None, club=None) -> bool:
    """Whether ``user`` manages the webhooks of ``tournament`` (its organiser, or staff) or of
    ``club`` (its owners and organisers; staff has no role in a club)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if tournament is not None:
        return runs(tournament, user)
    return club_role(club, user) in MANAGERS


def require_manager(user, *, tournament=None, club=None) -> None:
    if not may_manage(user, tournament=tournament, club=club):
        raise errors.not_manager()


def subscription_get(*, subscription_id: int, user) -> Subscription:
    """The subscription, if ``user`` manages its target. Raises Subscription.DoesNotExist and
    NotAllowed ``not_webhook_manager``."""
    subscription = Subscription.objects.select_related("tournament", "club", "owner").get(pk=subscription_id)
    require_manager(user, tournament=subscription.tournament, club=subscription.club)
    return subscription


def subscription_list(*, tournament=None, club=None) -> QuerySet[Subscription]:
    """The target's subscriptions, oldest first, with their owners."""
    target = {"tournament": tournament} if tournament is not None else {"club": club}
    return Subscription.objects.filter(**target).select_related("owner__player").order_by("created_at", "id")


def delivery_log(*, subscription: Subscription | None = None, tournament=None, club=None,
                 with_payload: bool = False) -> QuerySet[Delivery]:
    """Deliveries, newest first: of one subscription, or of every subscription of a target (the
    bodies only ``with_payload``: a page shows none)."""
    if subscription is not None:
        deliveries = Delivery.objects.filter(subscription=subscription)
    elif tournament is not None:
        deliveries = Delivery.objects.filter(subscription__tournament=tournament)
    else:
        deliveries = Delivery.objects.filter(subscription__club=club)
    deliveries = deliveries.select_related("subscription").order_by("-created_at", "-id")
    return deliveries if with_payload else deliveries.defer("payload")


def delivery_get(*, subscription: Subscription, delivery_id: int) -> Delivery:
    """One delivery of ``subscription``; raises Delivery.DoesNotExist (another's is none here)."""
    return Delivery.objects.select_related("subscription").get(subscription=subscription, pk=delivery_id)


def _listening(event: str) -> QuerySet[Subscription]:
    return Subscription.objects.filter(active=True, **{f"on_{event}": True}).order_by("pk")


def subscriptions_for_match(*, match_id: int, event: str) -> list[Subscription]:
    """The active subscriptions told of ``event`` about a match: its event's, its club's (a club
    match) and the club's whose calendar its event is on. One query."""
    events = EventMatch.objects.filter(match_id=match_id).values("tournament_id")
    return list(_listening(event).filter(
        Q(tournament_id__in=events) | Q(club_id__in=ClubMatch.objects.filter(match_id=match_id).values("club_id"))
        | Q(club_id__in=ClubEvent.objects.filter(tournament_id__in=events).values("club_id"))))


def subscriptions_for_event(*, tournament_id: int, event: str) -> list[Subscription]:
    """The active subscriptions told of ``event`` about an event: its own and its club's. One query."""
    return list(_listening(event).filter(
        Q(tournament_id=tournament_id) | Q(club_id__in=ClubEvent.objects.filter(tournament_id=tournament_id).values("club_id"))))


def club_of_match(*, match_id: int) -> int | None:
    """The club a match belongs to: its own (a club match), else its event's host; None."""
    own = ClubMatch.objects.filter(match_id=match_id).values_list("club_id", flat=True).first()
    if own is not None:
        return own
    return ClubEvent.objects.filter(tournament__match_links__match_id=match_id).values_list("club_id", flat=True).first()


def club_of_event(*, tournament_id: int) -> int | None:
    """The club whose calendar the event is on, or None."""
    return ClubEvent.objects.filter(tournament_id=tournament_id).values_list("club_id", flat=True).first()
