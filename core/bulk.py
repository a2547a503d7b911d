"""Writing rows where Django's own calls cost more than the rows: many rows in one statement, one
row by a statement compiled once per model, and several rows' statements sent in one round trip.

``QuerySet.bulk_update`` writes ``CASE WHEN id = 1 THEN ... WHEN id = 2 THEN ...`` with two
parameters per row: PostgreSQL then tests every branch for every row (quadratic: a 1,024-entrant
draw's seeds took a third of a second), and building and sending thousands of parameters costs as
much again. :func:`rows_update` sends one array per column instead.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from django.db import DatabaseError, connection
from django.db.models import Model
from psycopg import ClientCursor

from .prepared import statement_name


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
def _insert_sql(model: type[Model], keyed: bool = False) -> tuple[list, str]:
    # Written once per model from its metadata: building an INSERT with the ORM (save(), the
    # compiler) costs several times what PostgreSQL spends on it, on the path of every report.
    meta = model._meta
    quote = connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if keyed or field is not meta.pk]
    sql = "INSERT INTO {table} ({columns}) VALUES ({values}) RETURNING {pk}".format(
        table=quote(meta.db_table), columns=", ".join(quote(field.column) for field in fields),
        values=", ".join(["%s"] * len(fields)), pk=quote(meta.pk.column),
    )
    return fields, sql


def row_insert(row: Model, *, later: bool = False) -> Model:
    """Insert ``row`` (a new instance of a model whose key the database assigns, unless the caller
    took one from its sequence: :func:`key_statement`) as ``row.save(force_insert=True)`` would, in
    one statement compiled once per model, and return it with its key. Every concrete field is
    written as it is on the instance after the field's ``pre_save`` (``auto_now_add`` times are
    set, as ``save()`` sets them). Like ``bulk_create``: no ``save()`` method, no signals (a model
    that needs either is not written with this).

    With ``later`` (for a caller that does not need the key at once) inside :func:`writes_batched`,
    the statement waits to go with the batch's others: ``row.pk`` is set when the batch is sent,
    before any other statement runs and at the latest when the block ends. Raises what the
    database raises (its constraints check every value), then or when the batch is sent."""
    if connection.vendor != "postgresql":
        # SQLite (the embedded default of a laptop: README): the ORM's own INSERT.
        row.save(force_insert=True)
        return row
    fields, sql = _insert_sql(type(row), row.pk is not None)
    values = [field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields]

    def inserted(cursor) -> None:
        row.pk = cursor.fetchone()[0]
        row._state.adding, row._state.db = False, connection.alias

    _write(sql, values, inserted, later)
    return row


@functools.cache
def key_statement(model: type[Model]) -> tuple[str, str, list]:
    """The statement (name, SQL, parameters: ``core.prepared.statements_execute``) that takes the
    next key of ``model``'s sequence (PostgreSQL only): a caller that knows the key of the row it
    will insert can send that INSERT in a batch (:func:`row_insert` with ``later``) and name the
    row elsewhere at once. A key taken and not used leaves a gap, as a rolled-back INSERT does."""
    meta = model._meta
    sql = "SELECT nextval(pg_get_serial_sequence(%s, %s))"
    return statement_name(f"key.{meta.db_table}", sql), sql, [meta.db_table, meta.pk.column]


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


def row_update(row: Model, fields: Sequence[str], *, later: bool = False) -> None:
    """Write ``fields`` of ``row`` (a saved instance) as ``row.save(update_fields=fields)`` would,
    in one statement compiled once per model and fields: each field's ``pre_save`` runs first
    (an ``auto_now`` time named in ``fields`` is set, on the instance too). No ``save()`` method,
    no signals. With ``later`` inside :func:`writes_batched` the statement goes with the batch (see
    :func:`row_insert`). Raises DatabaseError when no row has the instance's key (as ``save()``
    does), and what the database raises."""
    if connection.vendor != "postgresql":
        row.save(update_fields=fields)
        return
    if row.pk is None and getattr(_batches, "pending", None):
        _send()  # a row inserted later in this batch: its key comes with the batch
    columns, sql = _update_sql(type(row), tuple(fields))
    values = [field.get_db_prep_save(field.pre_save(row, False), connection) for field in columns]

    def updated(cursor) -> None:
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")

    _write(sql, [*values, row.pk], updated, later)


# --- batches: several rows' statements in one round trip ---------------------------------------

_batches = threading.local()


@contextmanager
def writes_batched() -> Iterator[None]:
    """Within the block, the writes made with ``later`` (:func:`row_insert`, :func:`row_update`)
    are sent together, as one multi-statement query (one round trip to PostgreSQL instead of one
    each): when the block ends, and before any other statement the block runs on the connection
    (so every read and every write still sees them, in the order they were made). Use it inside a
    transaction: a write that fails raises when the batch is sent, and the transaction rolls the
    others back with it. An exception leaving the block drops what was not sent. Nested blocks
    share the outermost one's batch. Raises what the database raises."""
    if getattr(_batches, "pending", None) is not None:
        yield
        return
    _batches.pending = []
    try:
        with connection.execute_wrapper(_sent_first):
            yield
            _send()
    finally:
        _batches.pending = None


def _write(sql: str, params: list, done: Callable, later: bool) -> None:
    pending = getattr(_batches, "pending", None)
    if later and pending is not None:
        pending.append((sql, params, done))
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        done(cursor)


def _sent_first(execute, sql, params, many, context):
    # Any other statement run inside the block: the batch goes first, so it sees the writes.
    if _batches.pending and not getattr(_batches, "sending", False):
        _send()
    return execute(sql, params, many, context)


def _send() -> None:
    pending, _batches.pending = _batches.pending, []
    if not pending:
        return
    _batches.sending = True
    try:
        with connection.cursor() as cursor:
            if len(pending) == 1 or not isinstance(cursor.cursor, ClientCursor):
                # One statement; or parameters bound by the server (server_side_binding), which
                # takes one statement per query.
                for sql, params, done in pending:
                    cursor.execute(sql, params)
                    done(cursor)
                return
            cursor.execute("; ".join(sql for sql, _, _ in pending), [p for _, params, _ in pending for p in params])
            for index, (_, _, done) in enumerate(pending):
                if index:
                    cursor.nextset()
                done(cursor)
    finally:
        _batches.sending = False
