"""Celery tasks of accounts: the emails of allauth's flows, sent from the outbox
(accounts/adapter.py queues them). Arguments are primitives only; the retry policy is core.tasks'."""

from __future__ import annotations

from celery import shared_task

from core.outbox import outbox_once
from core.tasks import retry_or_raise

from .services import account_email_send


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
