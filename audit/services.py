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
