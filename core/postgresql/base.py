"""Django's PostgreSQL backend with a health check that costs no round trip while the connection is sound.

With ``CONN_HEALTH_CHECKS`` Django checks a kept connection before each request's first query by
sending ``SELECT 1`` (``is_usable``): a round trip to PostgreSQL on every request that touches the
database, whatever the request. A connection that PostgreSQL ended (a restart, a shutdown,
``pg_terminate_backend``, an idle timeout) is not silent: the server sends its termination
message and closes the socket, so the socket turns readable. An idle connection whose socket has
nothing to read and whose state is sound is therefore used as it is; any other (something to read,
a transaction left open, a bad status) gets Django's own check, which closes it when it fails.

What this does not see, ``SELECT 1`` would not have seen either: a server that vanished without a
word (a network cut) makes the first query fail; the request answers 503 and the connection is
replaced on the next one, as with Django's check when the cut comes just after it.
"""

from __future__ import annotations

import select

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def close_if_health_check_failed(self):
        """Mark the health check done without a query when the idle connection's socket is quiet;
        otherwise run Django's check (``SELECT 1``, the connection closed if it fails)."""
        if (self.connection is not None and self.health_check_enabled and not self.health_check_done
                and not self.pool and connection_quiet(self.connection)):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()


def connection_quiet(connection) -> bool:
    """Whether a psycopg ``connection`` is open, idle outside a transaction, and has nothing
    waiting on its socket (what PostgreSQL sends when it ends a session)."""
    if connection.closed or connection.broken:
        return False
    pgconn = connection.pgconn
    if pgconn.status != pq.ConnStatus.OK or pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return False
    try:
        poller = select.poll()
        poller.register(pgconn.socket, select.POLLIN | select.POLLPRI)
        return not poller.poll(0)
    except (OSError, ValueError, psycopg.Error):  # no socket to ask: Django's check decides
        return False
