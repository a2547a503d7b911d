"""Reads of the audit log: an event's entries and a match's, newest first.

The selectors return lazy querysets so that the caller's paginator reads one page (a COUNT and one
slice: two queries whatever the log's size; ``AuditEntry`` has no foreign key to join). The API
pages them with DRF's ``core.api.Pagination``; pages use :func:`audit_page` and :func:`audit_rows`
(each entry as a sentence: never its action's name, an object type, an id or JSON). Who may
read them (an event's organiser and staff, a match's director) is for the views to check.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet

from . import describe
from .models import AuditEntry

PER_PAGE = 50


@dataclass(frozen=True)
class AuditFilters:
    """What an audit listing may be narrowed to. ``action`` is an exact action
    (``entry.withdrawn``) or, ending with a dot, every action of an entity (``entry.``);
    ``object_type`` an ``app.Model``; ``match_id`` one match; ``actor`` a username."""

    action: str = ""
    object_type: str = ""
    match_id: int | None = None
    actor: str = ""


def _filtered(entries: QuerySet[AuditEntry], filters: AuditFilters | None) -> QuerySet[AuditEntry]:
    if filters is None:
        return entries
    if filters.action:
        entries = (entries.filter(action__startswith=filters.action) if filters.action.endswith(".")
                   else entries.filter(action=filters.action))
    if filters.object_type:
        entries = entries.filter(object_type=filters.object_type)
    if filters.match_id is not None:
        entries = entries.filter(match_id=filters.match_id)
    if filters.actor:
        entries = entries.filter(actor_name=filters.actor)
    return entries


def audit_of_event(tournament, filters: AuditFilters | None = None) -> QuerySet[AuditEntry]:
    """Every audit entry of ``tournament`` (its own changes, its entries, draw, rounds, pairings
    and every change of its matches, which carry its id), newest first, narrowed by ``filters``."""
    return _filtered(AuditEntry.objects.filter(tournament_id=tournament.pk), filters).order_by("-at", "-id")


def audit_of_match(match, filters: AuditFilters | None = None) -> QuerySet[AuditEntry]:
    """Every audit entry of ``match`` (reports, results, disputes, rulings; its creation and,
    for an event's match, its deletion), newest first."""
    about = Q(match_id=match.pk) | Q(object_type="matches.Match", object_id=match.pk)
    return _filtered(AuditEntry.objects.filter(about), filters).order_by("-at", "-id")


def audit_actions(tournament) -> list[str]:
    """The distinct actions of ``tournament``'s log, for a filter's choices."""
    return list(AuditEntry.objects.filter(tournament_id=tournament.pk).order_by("action")
                .values_list("action", flat=True).distinct())


@dataclass(frozen=True)
class AuditRow:
    """An entry as a page shows it: when, who, what (the action's label) and the change as a
    sentence (``audit.describe``); the match it is about, for a link."""

    at: object
    actor: str
    label: str
    sentence: str
    match_id: int | None


def audit_rows(entries, sides: dict[int, tuple[str, str]] | None = None) -> list[AuditRow]:
    """``entries`` as a page shows them; ``sides`` maps a match id to its sides' names, for the
    sentences that name them (a match no longer there: "the first side")."""
    sides = sides or {}
    return [
        AuditRow(entry.at, describe.who(entry), describe.action_label(entry.action),
                 describe.describe(entry, sides.get(entry.match_id)), entry.match_id)
        for entry in entries
    ]


def action_choices(actions: list[str]) -> list[tuple[str, str]]:
    """Actions (``audit_actions``) as a filter offers them: (action, its label), by label."""
    return sorted(((action, describe.action_label(action)) for action in actions), key=lambda pair: pair[1])


def audit_page(entries: QuerySet[AuditEntry], number, per_page: int = PER_PAGE) -> Page:
    """One page of ``entries`` (a bad or too large ``number``: the first or last page)."""
    return Paginator(entries, per_page).get_page(number)
