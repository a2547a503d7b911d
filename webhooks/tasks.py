"""Celery tasks of webhooks: one attempt of a delivery, and the sweep of deliveries whose task was
lost. The attempts' schedule is webhooks.services' (WEBHOOKS_BACKOFF); a failure of the service's own
(the database) follows core.tasks' retry policy."""

from __future__ import annotations

from celery import shared_task

from core.outbox import outbox_once
from core.tasks import retry_or_raise

from .services import deliveries_sweep, delivery_attempt

#: A wait up to this long is a Celery retry (countdown); a longer one (1 h, 6 h) is left to the
#: sweep, as Redis would hand a message waiting longer than its visibility timeout out again.
RETRY_BY_CELERY_MAX = 600


@shared_task(bind=True, soft_time_limit=30, time_limit=60)
def webhook_deliver_task(self, delivery_id: int, attempt: int = 1, outbox_id: int | None = None) -> str | None:
    """Make attempt ``attempt`` of a delivery (services.delivery_attempt: a copy of the task that
    is not the one due sends nothing); when it failed and the next is due within
    RETRY_BY_CELERY_MAX, retry with that countdown as attempt ``attempt + 1``. Returns the
    delivery's status (None: the outbox row was done already)."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            outcome = delivery_attempt(delivery_id=delivery_id, attempt=attempt)
    except Exception as error:
        retry_or_raise(self, error)
    if outcome.retry_in is not None and outcome.retry_in <= RETRY_BY_CELERY_MAX:
        raise self.retry(args=(delivery_id, attempt + 1), kwargs={}, countdown=outcome.retry_in, max_retries=None)
    return outcome.status


@shared_task
def webhooks_sweep_task() -> int:
    """Periodic: send again the pending deliveries well past their next attempt; returns how many."""
    return deliveries_sweep()
