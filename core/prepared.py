"""One-row queries compiled once and run again for any key, on the paths every request takes.

Building a queryset and compiling it to SQL costs more CPU than PostgreSQL spends answering a
lookup by key (the match's lock on every report, the API token on every authenticated request).
:class:`Prepared` compiles the queryset once per thread, with a placeholder for the key, and then
only runs the SQL and turns the row into an instance as the ORM does (``ModelIterable``: the
model's columns, then the ``select_related`` rows, then the annotations).

On PostgreSQL, planning such a query costs more than running it (a join of four tables by key:
about 0.4 ms to plan, 0.1 ms to run). :func:`statement_execute` therefore runs these queries as
prepared statements of the database session: the first run in a session sends ``PREPARE`` and
``EXECUTE`` in one round trip, later runs only ``EXECUTE``, and PostgreSQL plans the statement
once per session instead of on every request. The session must be the service's own (a direct
connection, or a pooler in session mode): a pooler that hands one session to several clients
between transactions would lose the statements.
"""

from __future__ import annotations

import hashlib
import threading

from django.db import connections
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

from .locking import is_locking

#: Stands for the key each run asks for, while the query is compiled: no row has it.
_PLACEHOLDERS = {int: -7_130_001, str: "\uffffprepared-key"}

_kept = threading.local()


class Prepared:
    """``queryset`` filtered on ``field`` = a key, compiled once and run for any key of the
    placeholder's type (``int`` or ``str``). A queryset that locks its row (``core.locking``) is
    refused outside a transaction, as the ORM refuses it."""

    def __init__(self, queryset, field: str = "pk", kind: type = int, name: str = "query"):
        self.model, self.db = queryset.model, queryset.db
        placeholder = _PLACEHOLDERS[kind]
        self.compiler = queryset.filter(**{field: placeholder}).query.get_compiler(using=self.db)
        sql, params = self.compiler.as_sql()
        self.sql, self.params = sql, list(params)
        self.at = self.params.index(placeholder)
        self.name = statement_name(name, self.sql)
        self.locks = is_locking(queryset)
        select, klass_info = self.compiler.select, self.compiler.klass_info
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start:self.end]]
        self.populators = get_related_populators(klass_info, select, self.db)
        self.annotations = self.compiler.annotation_col_map
        # The columns' converters (what results_iter would work out again on every run).
        self.converters = self.compiler.get_converters([s[0] for s in select[:self.compiler.col_count]])

    def one(self, key):
        """The instance whose field is ``key``. Raises the model's DoesNotExist when there is none,
        and TransactionManagementError for a locking query outside a transaction."""
        name, sql, params = self.statement(key)
        with self.compiler.connection.cursor() as cursor:
            statement_execute(cursor, name, sql, params)
            rows = cursor.fetchall()
        return self.instance(rows)

    def statement(self, key) -> tuple[str, str, list]:
        """The statement that reads the row of ``key``, for :func:`statements_execute`: its name,
        SQL and parameters. Raises TransactionManagementError for a locking query outside a
        transaction."""
        if self.locks and self.compiler.connection.get_autocommit():
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = list(self.params)
        params[self.at] = key
        return self.name, self.sql, params

    def instance(self, rows):
        """The instance that the rows :meth:`statement` read make. Raises the model's DoesNotExist
        when there are none."""
        if not rows:
            raise self.model.DoesNotExist(f"{self.model._meta.object_name} matching query does not exist.")
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        [row] = list(rows)
        obj = self.model.from_db(self.db, self.init_list, row[self.start:self.end])
        for populator in self.populators:
            populator.populate(row, obj)
        for name, position in (self.annotations or {}).items():
            setattr(obj, name, row[position])
        return obj


def prepared(name: str, build, key=(), *, field: str = "pk", kind: type = int) -> Prepared:
    """This thread's :class:`Prepared` called ``name``, made from ``build()`` (a queryset) the
    first time and again whenever ``key`` (what the queryset depends on besides the models, e.g.
    the hooks registered) or the database connection changes."""
    kept = getattr(_kept, "queries", None)
    if kept is None:
        kept = _kept.queries = {}
    identity = (connections["default"], key)
    found = kept.get(name)
    if found is None or found[0] != identity:
        found = kept[name] = (identity, Prepared(build(), field=field, kind=kind, name=name))
    return found[1]


def statement_name(name: str, sql: str) -> str:
    """The prepared statement's name for ``sql``: ``name`` made an identifier, and a digest of the
    SQL, so that two texts under one name (other hooks registered, another process's code) never
    meet under one statement."""
    readable = "".join(c if c.isalnum() else "_" for c in name)[:32]
    return f"crawford_{readable}_{hashlib.blake2b(sql.encode(), digest_size=6).hexdigest()}"


def statement_execute(cursor, name: str, sql: str, params: list) -> None:
    """Run ``sql`` (a ``%s`` placeholder for each of ``params``) on ``cursor`` (Django's, with
    client-side binding), on PostgreSQL as the session's prepared statement ``name`` (see
    :func:`statement_name`): prepared in the same round trip as its first run in the session, then
    only executed. Elsewhere (SQLite) the SQL runs as it is. What the query raises goes through."""
    connection = cursor.db
    if connection.vendor != "postgresql" or any(type(value) is int and not _BIGINT[0] <= value <= _BIGINT[1]
                                                for value in params):
        # A whole number past 64 bits (a key typed in a URL) cannot bind to a prepared bigint
        # parameter; sent in the SQL, PostgreSQL compares it as a numeric and finds no row.
        cursor.execute(sql, params)
        return
    known = _known(cursor)
    run = _run_text(name, params)
    if _state(cursor, known, name) is _PREPARED:
        cursor.execute(run, params)
        return
    known[name] = _DOUBTFUL
    cursor.execute(f"PREPARE {name} AS {_numbered(sql, params)}; {run}", params)
    known[name] = _PREPARED
    cursor.nextset()


def statements_execute(cursor, statements: list[tuple[str, str, list]]) -> list[list[tuple]]:
    """Run ``statements`` (name, SQL, parameters: see :func:`statement_execute`) in this order, in
    one round trip on PostgreSQL (each prepared in it if the session has not got it yet), and return
    each one's rows. Each statement sees what the ones before it did (a lock taken first holds for
    the reads after it). Elsewhere, or with a key past 64 bits, they run one after the other."""
    connection = cursor.db
    if connection.vendor != "postgresql" or any(type(value) is int and not _BIGINT[0] <= value <= _BIGINT[1]
                                                for _name, _sql, params in statements for value in params):
        found = []
        for name, sql, params in statements:
            statement_execute(cursor, name, sql, params)
            found.append(cursor.fetchall())
        return found
    known = _known(cursor)
    texts, values, sent = [], [], []
    for name, sql, params in statements:
        run = _run_text(name, params)
        if name in sent or _state(cursor, known, name) is _PREPARED:  # prepared before, or earlier in this text
            texts.append(run)
        else:
            texts.append(f"PREPARE {name} AS {_numbered(sql, params)}; {run}")
            known[name] = _DOUBTFUL
            sent.append(name)
        values.extend(params)
    cursor.execute("; ".join(texts), values)
    for name in sent:
        known[name] = _PREPARED
    found = []
    while True:
        if cursor.description is not None:  # an EXECUTE's rows (a PREPARE answers with none)
            found.append(cursor.fetchall())
        if not cursor.nextset():
            return found


def _known(cursor) -> dict:
    session = cursor.db.connection
    known = getattr(session, "crawford_prepared", None)
    if known is None:
        known = session.crawford_prepared = {}
    return known


def _run_text(name: str, params: list) -> str:
    return f"EXECUTE {name}({', '.join(['%s'] * len(params))})" if params else f"EXECUTE {name}"


def _state(cursor, known: dict, name: str):
    state = known.get(name)
    if state is _DOUBTFUL:
        # A first run failed: PREPARE outlives the failed transaction it was sent in (it is not
        # transactional), so whether the session has the statement is asked, once.
        cursor.execute("SELECT 1 FROM pg_prepared_statements WHERE name = %s", [name])
        state = known[name] = _PREPARED if cursor.fetchone() else None
    return state


def _numbered(sql: str, params: list) -> str:
    # The statement's own text takes PostgreSQL's numbered parameters; its literal "%" (written
    # "%%" for the client-side binding) are written "%%" again for the EXECUTE that follows.
    return (sql % tuple(f"${number}" for number in range(1, len(params) + 1))).replace("%", "%%")


_PREPARED, _DOUBTFUL = "prepared", "doubtful"
_BIGINT = (-(2**63), 2**63 - 1)
