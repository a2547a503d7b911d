"""Writing many rows in one statement, where Django's own bulk calls cost more than the rows.

``QuerySet.bulk_update`` writes ``CASE WHEN id = 1 THEN ... WHEN id = 2 THEN ...`` with two
parameters per row: PostgreSQL then tests every branch for every row (quadratic: a 1,024-entrant
draw's seeds took a third of a second), and building and sending thousands of parameters costs as
much again. :func:`rows_update` sends one array per column instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection
from django.db.models import Model


def rows_update(model: type[Model], rows: Sequence[Model], fields: Sequence[str]) -> int:
    """Write ``fields`` of ``rows`` (saved instances of ``model``) as they are on the instances,
    in one ``UPDATE ... FROM unnest(...)`` joined on the primary key (``bulk_update`` on a
    database other than PostgreSQL); returns the number of rows updated. Like ``bulk_update``: no
    ``save()``, no signals, ``auto_now`` fields untouched unless named; the database's constraints
    check every value. Raises what the database raises."""
    if not rows:
        return 0
    if connection.vendor != "postgresql":
        # SQLite (the embedded default of a laptop: README) has no arrays; its events are small.
        return model._default_manager.bulk_update(rows, fields)
    meta = model._meta
    quote = connection.ops.quote_name
    columns = [meta.pk, *(meta.get_field(name) for name in fields)]
    arrays = [[column.get_db_prep_save(getattr(row, column.attname), connection) for row in rows]
              for column in columns]
    names = [f"c{i}" for i in range(len(columns))]
    sql = "UPDATE {table} SET {sets} FROM unnest({arrays}) AS v({names}) WHERE {table}.{pk} = v.c0".format(
        table=quote(meta.db_table),
        sets=", ".join(f"{quote(column.column)} = v.{name}" for column, name in zip(columns[1:], names[1:], strict=True)),
        arrays=", ".join(f"%s::{column.db_type(connection)}[]" for column in columns),
        names=", ".join(names), pk=quote(meta.pk.column),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, arrays)
        return cursor.rowcount
