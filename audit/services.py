"""The audit log's one writer. Every service that changes results, matches, brackets, entries,
rulings or club records calls :func:`audit_record` inside its own transaction, so an entry exists
exactly when the change committed."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.utils import timezone

from core.bulk import row_insert

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
    # One INSERT compiled once (core.bulk): every report writes an entry, and save()'s machinery
    # costs more than the row (AuditEntry.save only guards against changing a row). Nobody needs
    # its key at once: inside core.bulk.writes_batched it goes with the change's other writes.
    return row_insert(later=True, row=AuditEntry(
        actor_id=actor.pk if authenticated else None,
        actor_name=actor.get_username() if authenticated else "system",
        action=action, object_type=object_type, object_id=object_id, tournament_id=tournament_id,
        match_id=match_id, club_id=club_id, before=_plain(before), after=_plain(after), note=note,
    ))


#: The columns :func:`audit_record_many` writes from its JSON document, with their SQL types.
_MANY_COLUMNS = (("actor_id", "integer"), ("actor_name", "text"), ("action", "text"), ("object_type", "text"),
                 ("object_id", "bigint"), ("tournament_id", "integer"), ("match_id", "integer"),
                 ("club_id", "integer"), ("before", "jsonb"), ("after", "jsonb"), ("note", "text"))


def audit_record_many(*, actor, entries: list[dict[str, Any]]) -> int:
    """Append many entries under one ``actor`` in one INSERT; returns how many. Each of
    ``entries`` holds the keyword arguments :func:`audit_record` takes besides ``actor``
    (``action``, ``object_type``, ``object_id``, ``tournament_id``, ``match_id``, ``club_id``,
    ``before``, ``after``, ``note``): the entries are those one :func:`audit_record` call each
    would write, at one time (``at``), in the order given (by id).

    The rows go to PostgreSQL as one JSON document (``jsonb_to_recordset``), encoded once by
    Django's encoder as :func:`audit_record` encodes ``before`` and ``after``: an array of JSON
    values per column would be escaped value by value (a third of a draw's time). Changes
    nothing else and raises nothing of its own; call it inside the transaction of the change it
    records."""
    if not entries:
        return 0
    authenticated = actor is not None and getattr(actor, "is_authenticated", False)
    actor_id = actor.pk if authenticated else None
    actor_name = actor.get_username() if authenticated else "system"
    rows = [
        {"actor_id": actor_id, "actor_name": actor_name, "action": entry["action"],
         "object_type": entry["object_type"], "object_id": entry.get("object_id"),
         "tournament_id": entry.get("tournament_id"), "match_id": entry.get("match_id"),
         "club_id": entry.get("club_id"), "before": entry.get("before"), "after": entry.get("after"),
         "note": entry.get("note", "")}
        for entry in entries
    ]
    if connection.vendor != "postgresql":
        # SQLite (the embedded default of a laptop: README): Django's bulk INSERT, in the order given.
        at = timezone.now()
        AuditEntry.objects.bulk_create([
            AuditEntry(at=at, **{**row, "before": _plain(row["before"]), "after": _plain(row["after"])}) for row in rows
        ])
        return len(rows)
    meta = AuditEntry._meta
    quote = connection.ops.quote_name
    names = ", ".join(quote(meta.get_field(name).column) for name, _ in _MANY_COLUMNS)
    # WITH ORDINALITY keeps the given order in the ids the sequence hands out.
    sql = (f"INSERT INTO {quote(meta.db_table)} ({quote(meta.get_field('at').column)}, {names}) "
           f"SELECT %s, {', '.join(f'r.{name}' for name, _ in _MANY_COLUMNS)} "
           f"FROM ROWS FROM (jsonb_to_recordset(%s::jsonb) AS ({', '.join(f'{name} {kind}' for name, kind in _MANY_COLUMNS)})) "
           f"WITH ORDINALITY AS r({', '.join(name for name, _ in _MANY_COLUMNS)}, n) ORDER BY r.n")
    with connection.cursor() as cursor:
        cursor.execute(sql, [timezone.now(), json.dumps(rows, cls=DjangoJSONEncoder)])
    return len(rows)
