"""Test helpers for ratings, notifications and tasks: players with a given rating, matches
confirmed through the reporting services, and tasks run in-process on commit."""

from __future__ import annotations

import uuid

from celery import current_app

from core import outbox
from engine.match import MatchRules
from matches.models import Match, Player
from matches.services.matches import match_create
from matches.services.reporting import Claim, match_confirm, match_report
from tests.factories import PlayerFactory, UserFactory


def player(name: str, *, rating: float = 1500.0, experience: int = 0, email: str | None = None,
           user: bool = True) -> Player:
    """A player called ``name`` (with a user whose address is ``name@example.com`` unless ``user``
    is False). Usernames get a unique suffix: other test runs may share the test database."""
    if not user:
        return PlayerFactory(user=None, display_name=name.title(), rating=rating, experience=experience)
    account = UserFactory(username=f"{name}-{uuid.uuid4().hex[:8]}",
                          email=f"{name}@example.com" if email is None else email)
    return PlayerFactory(user=account, display_name=name.title(), rating=rating, experience=experience)


def match_between(first: Player | list[Player], second: Player | list[Player], *, length: int = 5,
                  **options) -> Match:
    """A scheduled match created through the service (which decides whether it is rated)."""
    side0 = first if isinstance(first, list) else [first]
    side1 = second if isinstance(second, list) else [second]
    organiser = UserFactory(username=f"organiser-{uuid.uuid4().hex[:8]}", organiser=True)
    return match_create(created_by=organiser, sides=(side0, side1), rules=MatchRules(length), **options)


def confirm(match: Match, score: tuple[int, int]) -> Match:
    """Side 0's first user reports ``score``, side 1's first user confirms it."""
    match_report(match_id=match.pk, user=match.side0.player_a.user, claim=Claim(score))
    match_confirm(match_id=match.pk, user=match.side1.player_a.user)
    match.refresh_from_db()
    return match


def run_tasks_inline(monkeypatch, *, run: bool = True) -> list[tuple[str, tuple]]:
    """Make the outbox's publish after commit run the task at once, in this process, as a worker
    would (with its ``outbox_id``; no global eager mode), or only record it (``run=False``: nothing
    reaches the broker, where another test's worker could pick it up); returns the list of (task
    name, args) published, in order."""
    dispatched: list[tuple[str, tuple]] = []

    def publish(row, broker):
        dispatched.append((row.task, tuple(row.args)))
        if run:
            current_app.tasks[row.task](*row.args, outbox_id=row.pk)

    monkeypatch.setattr(outbox, "outbox_publish", publish)
    return dispatched
