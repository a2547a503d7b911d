"""Celery tasks of accounts: the emails of allauth's flows, sent from the outbox
(accounts/adapter.py queues them), and staff's decisions on organiser requests. Arguments are
primitives only; the retry policy is core.tasks'."""

from __future__ import annotations

from celery import shared_task

from core.outbox import outbox_once
from core.tasks import retry_or_raise

from .organiser.notifications import organiser_notify
from .services import account_email_send


@shared_task(bind=True)
def organiser_notify_task(self, kind: str, object_id: int, reason: str = "", stamp: str = "",
                          outbox_id: int | None = None) -> int | None:
    """Email a user staff's decision on his organiser request, or the withdrawal of his role; a
    second run sends nothing. Written in the outbox by accounts.organiser.services: a row already
    done returns None at once (core.outbox.outbox_once)."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return organiser_notify(kind=kind, object_id=object_id, reason=reason, stamp=stamp)
    except Exception as error:
        retry_or_raise(self, error)


@shared_task(bind=True)
def account_email_send_task(self, subject: str, body: str, html: str, to: str,
                            outbox_id: int | None = None) -> int | None:
    """Send an account email once for its outbox row; returns how many messages went, None when
    the row was done already. The row stays locked while it is sent and is marked done (its
    arguments emptied) in the same transaction."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return account_email_send(subject=subject, body=body, html=html, to=to, outbox_id=outbox_id)
    except Exception as error:
        retry_or_raise(self, error)
