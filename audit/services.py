"""The audit log's one writer. Every service that changes results, matches, brackets, entries,
rulings or club records calls :func:`audit_record` inside its own transaction, so an entry exists
exactly when the change committed."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from .models import AuditEntry


def _plain(value: Any) -> Any:
    # JSONField would refuse dates, Decimals and tuples inside; round-trip through Django's encoder.
    return None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def audit_record(*, actor, action: str, object_type: str, object_id: int | None = None, tournament_id: int | None = None,
                 match_id: int | None = None, club_id: int | None = None, before: Any = None, after: Any = None,
                 note: str = "") -> AuditEntry:
    """Append one entry to the audit log (``actor`` None or anonymous: the system, e.g. a task).

    Changes nothing else and raises nothing of its own; call it inside the transaction of the
    change it records.
    """
    authenticated = actor is not None and getattr(actor, "is_authenticated", False)
    return AuditEntry.objects.create(
        actor_id=actor.pk if authenticated else None,
        actor_name=actor.get_username() if authenticated else "system",
        action=action, object_type=object_type, object_id=object_id, tournament_id=tournament_id,
        match_id=match_id, club_id=club_id, before=_plain(before), after=_plain(after), note=note,
    )


def audit_record_many(*, actor, entries: list[dict[str, Any]]) -> list[AuditEntry]:
    """Append many entries under one ``actor`` in one INSERT: each of ``entries`` holds the
    keyword arguments :func:`audit_record` takes besides ``actor`` (``action``, ``object_type``,
    ``object_id``, ``tournament_id``, ``match_id``, ``club_id``, ``before``, ``after``, ``note``).
    The entries are the same as one :func:`audit_record` call each would write.

    Changes nothing else and raises nothing of its own; call it inside the transaction of the
    change it records."""
    if not entries:
        return []
    authenticated = actor is not None and getattr(actor, "is_authenticated", False)
    actor_id = actor.pk if authenticated else None
    actor_name = actor.get_username() if authenticated else "system"
    return AuditEntry.objects.bulk_create([
        AuditEntry(
            actor_id=actor_id, actor_name=actor_name, action=entry["action"], object_type=entry["object_type"],
            object_id=entry.get("object_id"), tournament_id=entry.get("tournament_id"), match_id=entry.get("match_id"),
            club_id=entry.get("club_id"), before=_plain(entry.get("before")), after=_plain(entry.get("after")),
            note=entry.get("note", ""),
        )
        for entry in entries
    ])
