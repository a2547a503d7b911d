"""What the audit log keeps of an event's rows, and the one call the tournaments services make to
write it (``audit.services.audit_record``, inside the service's transaction).

Summaries are small on purpose: ids, names, statuses and seeds, never whole rows, so an entry
stays readable on the audit page and never carries anything private (no user, no email).
"""

from __future__ import annotations

from typing import Any

from audit.services import audit_record
from tournaments.models import Entry, Pairing, Tournament

from . import state


def _object_type(obj) -> str:
    """``app.Model`` of a row, as the audit log names it."""
    return f"{obj._meta.app_label}.{obj._meta.object_name}"


def event_audit_record(action: str, *, actor, tournament: Tournament | int, obj, object_id: int | None = None,
           before: Any = None, after: Any = None, match_id: int | None = None, note: str = "") -> None:
    """Append ``action`` on ``obj`` (a row of ``tournament``) to the audit log. ``object_id``
    names a row already deleted (its pk is gone)."""
    audit_record(
        actor=actor, action=action, object_type=_object_type(obj), object_id=obj.pk if object_id is None else object_id,
        tournament_id=tournament if isinstance(tournament, int) else tournament.pk, match_id=match_id,
        before=before, after=after, note=note,
    )


def tournament_summary(tournament: Tournament) -> dict:
    return {"name": tournament.name, "status": tournament.status, "format": tournament.format, "kind": tournament.kind}


def entry_summary(entry: Entry) -> dict:
    """The entry's id, name (in no language: a re-entry's is the player's, with ``reentry_of``),
    status, seed and lateness."""
    summary = {"entry": entry.pk, "name": state.plain_name(entry), "status": entry.status, "seed": entry.seed,
               "late": entry.late}
    if entry.reentry_of_id is not None:  # a re-entry (buy-back)
        summary["reentry_of"] = entry.reentry_of_id
    return summary


def pairing_summary(pairing: Pairing, names: dict[int, str] | None = None) -> dict:
    """A pairing's key, entries (and their names when ``names`` maps entry ids to them) and match."""
    entries = [pairing.entry0_id, pairing.entry1_id]
    summary = {"key": pairing.key, "entries": entries, "match": pairing.match_id}
    if names is not None:
        summary["names"] = [names.get(e) if e is not None else None for e in entries]
    return summary


def entrant_names(loaded: state.Loaded) -> dict[int, str]:
    """Entry id -> entrant name, from what :func:`state.load` already read."""
    return {e.pk: state.plain_name(e) for e in loaded.entries}
