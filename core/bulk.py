"""Writing rows where Django's own calls cost more than the rows: many rows in one statement, and
one row by an INSERT compiled once per model.

``QuerySet.bulk_update`` writes ``CASE WHEN id = 1 THEN ... WHEN id = 2 THEN ...`` with two
parameters per row: PostgreSQL then tests every branch for every row (quadratic: a 1,024-entrant
draw's seeds took a third of a second), and building and sending thousands of parameters costs as
much again. :func:`rows_update` sends one array per column instead.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from django.db import DatabaseError, connection
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


@functools.cache
def _insert_sql(model: type[Model]) -> tuple[list, str]:
    # Written once per model from its metadata: building an INSERT with the ORM (save(), the
    # compiler) costs several times what PostgreSQL spends on it, on the path of every report.
    meta = model._meta
    quote = connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if field is not meta.pk]
    sql = "INSERT INTO {table} ({columns}) VALUES ({values}) RETURNING {pk}".format(
        table=quote(meta.db_table), columns=", ".join(quote(field.column) for field in fields),
        values=", ".join(["%s"] * len(fields)), pk=quote(meta.pk.column),
    )
    return fields, sql


def row_insert(row: Model) -> Model:
    """Insert ``row`` (a new instance of a model whose key the database assigns) as
    ``row.save(force_insert=True)`` would, in one statement compiled once per model, and return it
    with its key. Every concrete field is written as it is on the instance after the field's
    ``pre_save`` (``auto_now_add`` times are set, as ``save()`` sets them). Like ``bulk_create``:
    no ``save()`` method, no signals (a model that needs either is not written with this). Raises
    what the database raises (its constraints check every value)."""
    if connection.vendor != "postgresql":
        # SQLite (the embedded default of a laptop: README): the ORM's own INSERT.
        row.save(force_insert=True)
        return row
    fields, sql = _insert_sql(type(row))
    values = [field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row.pk = cursor.fetchone()[0]
    row._state.adding, row._state.db = False, connection.alias
    return row


@functools.cache
def _update_sql(model: type[Model], names: tuple[str, ...]) -> tuple[list, str]:
    meta = model._meta
    quote = connection.ops.quote_name
    fields = [meta.get_field(name) for name in names]
    sql = "UPDATE {table} SET {sets} WHERE {pk} = %s".format(
        table=quote(meta.db_table), sets=", ".join(f"{quote(field.column)} = %s" for field in fields),
        pk=quote(meta.pk.column),
    )
    return fields, sql


def row_update(row: Model, fields: Sequence[str]) -> None:
    """Write ``fields`` of ``row`` (a saved instance) as ``row.save(update_fields=fields)`` would,
    in one statement compiled once per model and fields: each field's ``pre_save`` runs first
    (an ``auto_now`` time named in ``fields`` is set, on the instance too). No ``save()`` method,
    no signals. Raises DatabaseError when no row has the instance's key (as ``save()`` does), and
    what the database raises."""
    if connection.vendor != "postgresql":
        row.save(update_fields=fields)
        return
    columns, sql = _update_sql(type(row), tuple(fields))
    values = [field.get_db_prep_save(field.pre_save(row, False), connection) for field in columns]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, row.pk])
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
