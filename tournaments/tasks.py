"""Celery tasks of tournaments: load by id, call one service (the retry policy is core.tasks')."""

from __future__ import annotations

from celery import shared_task

from core.outbox import outbox_done, outbox_is_done, outbox_once
from core.tasks import retry_or_raise

from .drawings.renders import render_keep
from .services.notifications import entry_invited_notify, tournament_cancelled_notify


@shared_task(bind=True)
def tournament_cancelled_notify_task(self, tournament_id: int, outbox_id: int | None = None) -> int | None:
    """Email the entrants of a cancelled event; written in the outbox by ``tournament_cancel``: a
    row already done returns None at once (core.outbox.outbox_once)."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return tournament_cancelled_notify(tournament_id=tournament_id)
    except Exception as error:
        retry_or_raise(self, error)


@shared_task(bind=True)
def entry_invited_notify_task(self, tournament_id: int, player_id: int, by_id: int | None = None,
                              outbox_id: int | None = None) -> int | None:
    """Tell a player someone else (``by_id``) entered in an event that his entry waits for his
    answer; written in the outbox by the entry's service. A row already done returns None at once."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return entry_invited_notify(tournament_id=tournament_id, player_id=player_id, by_id=by_id)
    except Exception as error:
        retry_or_raise(self, error)


@shared_task(bind=True)
def render_keep_task(self, tournament_id: int, kind: str, number: int, paper: str, language: str,
                     outbox_id: int | None = None) -> str | None:
    """Draw an event's big file and keep it in the cache (``renders.render_keep``), written in the
    outbox by the page that answered 202 for it; returns its key. A row already done returns None
    at once. The drawing takes seconds, so it runs outside a transaction (no row lock held while it
    draws, as core.outbox.outbox_once would) and the row is marked done after it: a second delivery
    finds the file kept and draws nothing."""
    if outbox_is_done(outbox_id):
        return None
    try:
        key = render_keep(tournament_id=tournament_id, kind=kind, number=number, paper=paper, language=language)
    except Exception as error:
        retry_or_raise(self, error)
    outbox_done(outbox_id)
    return key
