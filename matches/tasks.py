"""Celery tasks of matches: load by id, call one service. Arguments are ids and primitives only;
the retry policy is core.tasks'.

The services write these tasks in the outbox (core/outbox.py): each arrives with ``outbox_id``,
and its work is done once for that row (a second delivery of the row does nothing). Called
without a row (tests, the catch-up job) the services' own guards make a second run harmless.
"""

from __future__ import annotations

from celery import shared_task

from core.outbox import outbox_once
from core.tasks import retry_or_raise

from .services.invitations import invitation_email
from .services.notifications import claim_notify, match_notify
from .services.ratings import match_rating_apply
from .services.ratings import ratings_catch_up as ratings_catch_up_service


@shared_task(bind=True)
def match_rating_apply_task(self, match_id: int, outbox_id: int | None = None) -> int | None:
    """Apply a confirmed match's rating change; returns the number of RatingChange rows (the
    same on a second run, which changes nothing), None when the outbox row was done already.
    The ratings and the row's done mark are written in one transaction."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return len(match_rating_apply(match_id=match_id))
    except Exception as error:
        retry_or_raise(self, error)


@shared_task
def ratings_catch_up() -> int:
    """Periodic (config/celery.py): rate confirmed matches whose rating task was lost; returns
    how many were rated (0 on a second run)."""
    return ratings_catch_up_service()


@shared_task(bind=True)
def match_notify_task(self, match_id: int, event: str, outbox_id: int | None = None) -> int | None:
    """Email the sides about a result; returns how many recipients (a second run sends nothing),
    None when the outbox row was done already. The row stays locked while the emails are sent
    and is marked done right after (core.outbox.outbox_once says which window remains; the
    service's own claim closes it while the cache is up)."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return match_notify(match_id=match_id, event=event)
    except Exception as error:
        retry_or_raise(self, error)


@shared_task(bind=True)
def invitation_email_task(self, invitation_id: int, outbox_id: int | None = None) -> int | None:
    """Email an invitation to claim a guest player; returns 1 when sent, 0 when the invitation is
    no longer open, None when the outbox row was done already."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return invitation_email(invitation_id=invitation_id)
    except Exception as error:
        retry_or_raise(self, error)


@shared_task(bind=True)
def claim_notify_task(self, claim_id: int, outbox_id: int | None = None) -> int | None:
    """Email a claimant the decision on his claim; returns 1 when it is announced (a second run
    sends nothing), 0 when there is nothing to tell, None when the outbox row was done already."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return claim_notify(claim_id=claim_id)
    except Exception as error:
        retry_or_raise(self, error)


from .tasks_imports import import_job_run_task  # noqa: E402,F401
