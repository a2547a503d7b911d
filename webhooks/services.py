"""State changes of the webhooks app (one transaction each, audited): subscriptions made, changed
and removed by whoever manages the event or the club, a delivery sent again from the log, and the
deliveries a confirmed result, a paired round or a ruling makes (webhooks/receivers.py calls them
inside that change's transaction: they write their Delivery rows and their outbox tasks there, so
a change that rolls back leaves no delivery and sends nothing).

A delivery's attempts (:func:`delivery_attempt`, run by webhooks.tasks) follow the backoff of
``WEBHOOKS_BACKOFF`` (config/settings.py): an answer other than 2xx, or none within 5 s, is tried again 30 s, 2 min, 10 min, 1 h
and 6 h later; the sixth failure fails the delivery for good. Each attempt carries its number, and
runs only if the delivery is still pending with exactly the attempts before it made: a second copy
of a task (the outbox relay, a Celery retry and the sweep meeting) sends nothing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from core.locking import claimed, locked
from core.outbox import outbox_enqueue
from tournaments.models import event_id_of

from . import errors, selectors, signing, transport
from .models import Delivery, Subscription

DELIVER_TASK = "webhooks.tasks.webhook_deliver_task"


def backoff() -> tuple[int, ...]:
    """Seconds to wait after the 1st, 2nd ... failed attempt (``WEBHOOKS_BACKOFF``: 30 s, 2 min,
    10 min, 1 h, 6 h); the attempt after the last wait is the last (the 6th)."""
    return tuple(settings.WEBHOOKS_BACKOFF)

#: A pending delivery this late past its next attempt lost its task (Redis restarted, a retry
#: longer than Celery keeps): the sweep sends it again.
SWEEP_GRACE = timedelta(minutes=2)
SWEEP_BATCH = 500
URL_MAX = Subscription._meta.get_field("url").max_length
EVENTS = tuple(Subscription.Event.values)

# --- subscriptions --------------------------------------------------------------------------------


def _checked_url(url) -> str:
    if not isinstance(url, str) or not url.strip():
        raise errors.bad_webhook("url", _("give the address the deliveries are posted to"))
    url = url.strip()
    if len(url) > URL_MAX:
        raise errors.bad_webhook("url", _("the address is longer than %(max)d characters") % {"max": URL_MAX})
    try:
        URLValidator(schemes=["http", "https"])(url)
    except ValidationError:
        raise errors.bad_webhook("url", _("this is not a web address (https://...)")) from None
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    local = host in transport.LOCAL_HOSTS
    if parts.username or parts.password:
        raise errors.bad_webhook("url", _("the address must not carry a user name or a password"))
    if not transport.local_http_allowed():
        # Its host as written (any form of an IP address) and every address it resolves to now;
        # each delivery resolves and checks again, as DNS may change.
        if local or transport.private_address(host) or transport.host_refusal(host):
            raise errors.bad_webhook("url", _("the address must be on the public internet"))
        if parts.scheme != "https":
            raise errors.bad_webhook("url", _("the address must start with https://"))
    elif parts.scheme != "https" and not local:
        raise errors.bad_webhook("url", _("the address must start with https:// (http only for this computer)"))
    return url


def _checked_events(events) -> list[str]:
    if not isinstance(events, (list, tuple)) or not events:
        raise errors.bad_webhook("events", _("choose at least one of results, pairings and rulings"))
    unknown = [event for event in events if event not in EVENTS]
    if unknown:
        raise errors.bad_webhook("events", _("%(given)s is not one of results, pairings and rulings")
                                 % {"given": unknown[0]})
    return [event for event in EVENTS if event in events]


def summary(subscription: Subscription) -> dict:
    """What the audit log keeps of a subscription: the receiver's host (never its whole URL, which
    may carry a key of the receiver's, nor the secret), the event types and whether it is on."""
    return {"host": urlsplit(subscription.url).hostname or "", "events": subscription.events,
            "active": subscription.active}


def _audit(action: str, subscription: Subscription, actor, *, before=None, after=None) -> None:
    audit_record(actor=actor, action=action, object_type="webhooks.Subscription", object_id=subscription.pk,
                 tournament_id=subscription.tournament_id, club_id=subscription.club_id, before=before, after=after)


@transaction.atomic
def subscription_create(*, user, url, events, tournament=None, club=None, active: bool = True) -> Subscription:
    """Subscribe ``url`` to ``events`` (some of results, pairings, rulings) of ``tournament`` or of
    ``club`` (exactly one). Its secret is made here and is on the returned row (show it to the
    owner). Raises NotAllowed ``not_webhook_manager``; DomainError ``bad_webhook`` with ``field``.
    Audited as ``webhook.created``."""
    if (tournament is None) == (club is None):
        raise ValueError("a webhook is for an event or for a club")
    selectors.require_manager(user, tournament=tournament, club=club)
    url, chosen = _checked_url(url), _checked_events(events)
    subscription = Subscription.objects.create(
        owner=user, tournament=tournament, club=club, url=url, active=bool(active),
        **{f"on_{event}": event in chosen for event in EVENTS})
    _audit("webhook.created", subscription, user, after=summary(subscription))
    return subscription


@transaction.atomic
def subscription_update(*, subscription_id: int, user, url=None, events=None, active=None) -> Subscription:
    """Change a subscription's URL, events or whether it is on (None: unchanged). Raises
    Subscription.DoesNotExist, NotAllowed ``not_webhook_manager``, DomainError ``bad_webhook``.
    Audited as ``webhook.changed``."""
    subscription = locked(Subscription.objects.filter(pk=subscription_id)).get()
    selectors.require_manager(user, tournament=subscription.tournament, club=subscription.club)
    before = summary(subscription)
    if url is not None:
        subscription.url = _checked_url(url)
    if events is not None:
        chosen = _checked_events(events)
        for event in EVENTS:
            setattr(subscription, f"on_{event}", event in chosen)
    if active is not None:
        subscription.active = bool(active)
    subscription.updated_at = timezone.now()
    subscription.save()
    _audit("webhook.changed", subscription, user, before=before, after=summary(subscription))
    return subscription


@transaction.atomic
def subscription_delete(*, subscription_id: int, user) -> None:
    """Remove a subscription and its delivery log. Raises Subscription.DoesNotExist, NotAllowed
    ``not_webhook_manager``. Audited as ``webhook.deleted``."""
    subscription = locked(Subscription.objects.filter(pk=subscription_id)).get()
    selectors.require_manager(user, tournament=subscription.tournament, club=subscription.club)
    _audit("webhook.deleted", subscription, user, before=summary(subscription))
    subscription.delete()


def subscription_secret(*, subscription_id: int, user) -> str:
    """The subscription's signing secret, for its owner only (he still manages its target).
    Raises Subscription.DoesNotExist, NotAllowed ``not_webhook_manager`` / ``not_webhook_owner``."""
    subscription = selectors.subscription_get(subscription_id=subscription_id, user=user)
    if subscription.owner_id != user.pk:
        raise errors.not_owner()
    return subscription.secret


# --- deliveries ------------------------------------------------------------------------------------


def _deliver(subscriptions: list[Subscription], event: str, payload: dict, *, redelivery_of=None) -> list[Delivery]:
    """A pending delivery of ``payload`` to each subscription and its outbox task, in the current
    transaction."""
    now = timezone.now()
    rows = Delivery.objects.bulk_create([
        Delivery(subscription=subscription, event=event, payload=payload, next_attempt_at=now, created_at=now,
                 redelivery_of=redelivery_of) for subscription in subscriptions])
    for row in rows:
        outbox_enqueue(DELIVER_TASK, row.pk, 1)
    return rows


@transaction.atomic
def delivery_redeliver(*, subscription_id: int, delivery_id: int, user) -> Delivery:
    """Send a delivery of the log again: a new delivery (its own id and attempts) of the same
    payload, so the receiver gets the same body. Raises Subscription/Delivery.DoesNotExist,
    NotAllowed ``not_webhook_manager``, Conflict ``webhook_inactive``. Audited as
    ``webhook.redelivered``."""
    subscription = selectors.subscription_get(subscription_id=subscription_id, user=user)
    original = selectors.delivery_get(subscription=subscription, delivery_id=delivery_id)
    if not subscription.active:
        raise errors.inactive()
    [delivery] = _deliver([subscription], original.event, original.payload, redelivery_of=original)
    _audit("webhook.redelivered", subscription, user,
           after={**summary(subscription), "event": original.event, "delivery": delivery.pk, "of": original.pk})
    return delivery


def _payload(kind: str, data: dict) -> dict:
    return {"type": kind, "id": str(uuid.uuid4()), "occurred_at": timezone.now().isoformat(), "data": data}


def _match_brief(match) -> dict:
    sides = [match.side0.name, match.side1.name]
    score = None if match.score0 is None else [match.score0, match.score1]
    return {"id": match.pk, "length": match.length, "players": sides, "score": score, "winner": match.winner,
            "winner_name": sides[match.winner] if match.winner in (0, 1) else None}


def deliveries_for_result(*, match) -> list[Delivery]:
    """A confirmed result (``matches.hooks.result_confirmed``): a delivery to each subscription of
    its event or club told of results. One query when there is none."""
    subscriptions = selectors.subscriptions_for_match(match_id=match.pk, event="results")
    if not subscriptions:
        return []
    data = {"event": event_id_of(match), "club": selectors.club_of_match(match_id=match.pk), "match": _match_brief(match)}
    return _deliver(subscriptions, "results", _payload("result.confirmed", data))


def deliveries_for_round(*, tournament, round_number: int | None, pairings: list[dict]) -> list[Delivery]:
    """A round paired, or a draw's first matches (``tournaments.hooks.round_paired``)."""
    subscriptions = selectors.subscriptions_for_event(tournament_id=tournament.pk, event="pairings")
    if not subscriptions:
        return []
    data = {"event": tournament.pk, "club": selectors.club_of_event(tournament_id=tournament.pk),
            "round": round_number,
            "pairings": [{"match": p.get("match"), "players": list(p.get("names") or [None, None])} for p in pairings]}
    return _deliver(subscriptions, "pairings", _payload("round.paired", data))


def deliveries_for_ruling(*, ruling, match) -> list[Delivery]:
    """A ruling applied (``rulings.hooks.ruling_made``): the ruling's outcome and rule and the
    match as it stands after it."""
    subscriptions = selectors.subscriptions_for_match(match_id=match.pk, event="rulings")
    if not subscriptions:
        return []
    data = {"event": event_id_of(match), "club": selectors.club_of_match(match_id=match.pk), "match": _match_brief(match),
            "ruling": {"id": ruling.pk, "dispute": ruling.dispute_id, "outcome": ruling.outcome, "rule": ruling.rule,
                       "on_appeal": ruling.appeal_id is not None}}
    return _deliver(subscriptions, "rulings", _payload("ruling.made", data))


@dataclass(frozen=True)
class Outcome:
    """What an attempt came to: the delivery's status after it, whether this attempt was made
    (False: the delivery is gone, done, or this copy of the task is not the one due), and in how
    many seconds the next attempt is due (None: no other)."""

    status: str
    attempted: bool = False
    retry_in: int | None = None


def delivery_attempt(*, delivery_id: int, attempt: int, now=None, post=transport.post) -> Outcome:
    """Make attempt number ``attempt`` of a delivery: POST its body, signed, and record the answer
    (2xx: delivered; else the next attempt's time, or failed after the last). The delivery's row is
    locked from before the POST to the record of its answer, so a second copy of the task waits,
    then finds the attempt made and sends nothing. A switched-off subscription fails its pending
    deliveries without sending."""
    with transaction.atomic():
        delivery = locked(Delivery.objects.filter(pk=delivery_id).select_related("subscription")).first()
        if delivery is None:
            return Outcome("gone")
        if delivery.status != Delivery.Status.PENDING or delivery.attempts != attempt - 1:
            return Outcome(delivery.status)
        subscription = delivery.subscription
        now = now or timezone.now()
        if not subscription.active:
            delivery.status, delivery.next_attempt_at, delivery.last_error = Delivery.Status.FAILED, None, "webhook switched off"
            delivery.save(update_fields=["status", "next_attempt_at", "last_error"])
            return Outcome(delivery.status)
        body = signing.body_of(delivery.payload)
        answer = post(subscription.url, body, {
            signing.SIGNATURE_HEADER: signing.signature_header(subscription.secret, int(now.timestamp()), body),
            signing.EVENT_HEADER: delivery.payload.get("type", delivery.event),
            signing.DELIVERY_HEADER: str(delivery.uid),
        })
        delivery.attempts = attempt
        delivery.last_status_code, delivery.last_error = answer.status_code, answer.error
        retry_in, waits = None, backoff()
        if answer.delivered:
            delivery.status, delivery.delivered_at, delivery.next_attempt_at = Delivery.Status.DELIVERED, now, None
        elif attempt > len(waits):
            delivery.status, delivery.next_attempt_at = Delivery.Status.FAILED, None
        else:
            retry_in = waits[attempt - 1]
            delivery.next_attempt_at = now + timedelta(seconds=retry_in)
        delivery.save(update_fields=["attempts", "last_status_code", "last_error", "status", "delivered_at",
                                     "next_attempt_at"])
        return Outcome(delivery.status, attempted=True, retry_in=retry_in)


def deliveries_sweep(*, now=None) -> int:
    """Send again the pending deliveries whose next attempt is ``SWEEP_GRACE`` overdue (their task
    was lost, or waits longer than Celery keeps a retry); returns how many. Rows are claimed with
    SKIP LOCKED (an attempt under way holds its row) and given a new next attempt time."""
    now = now or timezone.now()
    with transaction.atomic():
        rows = list(claimed(Delivery.objects.filter(status=Delivery.Status.PENDING,
                                                    next_attempt_at__lte=now - SWEEP_GRACE).only("pk", "attempts"))
                    [:SWEEP_BATCH])
        for row in rows:
            outbox_enqueue(DELIVER_TASK, row.pk, row.attempts + 1)
        Delivery.objects.filter(pk__in=[row.pk for row in rows]).update(next_attempt_at=now)
    return len(rows)
