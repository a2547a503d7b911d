"""Row locks: one way to take them, one timeout, one answer when they cannot be had.

Every service that changes shared state locks the rows it decides on (``select_for_update``)
before it reads them, so two requests at once are decided one after the other. Two rules keep
that free of deadlocks and of requests that hang:

- several rows of one table are locked in the order of their keys (:func:`locked_rows`), so two
  transactions that want the same rows never each hold one the other waits for;
- no lock is waited for longer than ``CRAWFORD_LOCK_TIMEOUT_MS`` (PostgreSQL's ``lock_timeout``,
  set on every connection in config/settings.py). A lock not had in time, or one asked for with
  ``nowait``, raises PostgreSQL's ``lock_not_available``; :func:`lock_failed` recognises it by its
  type and :func:`as_locked` turns it into :class:`core.errors.Locked`, which the API and the
  pages answer with a 409 and ``Retry-After``. Nothing was changed: the transaction rolled back.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models

from .errors import Locked

try:  # psycopg is the PostgreSQL driver; on the embedded SQLite run no row is ever locked.
    from psycopg.errors import LockNotAvailable
except ImportError:  # pragma: no cover - psycopg is in requirements.txt
    LockNotAvailable = None


def locked(queryset: models.QuerySet, *, nowait: bool = False) -> models.QuerySet:
    """``queryset`` read under row locks held until the transaction ends: only its own table's rows
    (``of=("self",)``: a joined row is read, not locked), taken in the order of their keys. With
    ``nowait``, a row someone else holds fails at once instead of waiting for the lock timeout."""
    return queryset.select_for_update(of=("self",), nowait=nowait).order_by("pk")


def locked_one(queryset: models.QuerySet, **lookup) -> models.Model:
    """The one row of ``queryset`` matching ``lookup``, locked until the transaction ends. Raises
    the model's DoesNotExist."""
    return locked(queryset).get(**lookup)


def locked_rows(queryset: models.QuerySet, keys: Iterable[int]) -> list[models.Model]:
    """The rows of ``queryset`` whose primary key is in ``keys``, locked in the order of their keys
    (so two transactions wanting the same rows take them in the same order), in that order."""
    return list(locked(queryset).filter(pk__in=sorted(set(keys))))


def lock_failed(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) is PostgreSQL's ``lock_not_available``: a row lock not
    had within the lock timeout, or not at once with ``nowait``."""
    seen: BaseException | None = error
    while seen is not None:
        if LockNotAvailable is not None and isinstance(seen, LockNotAvailable):
            return True
        seen = seen.__cause__
    return False


def as_locked(error: BaseException) -> BaseException:
    """``error`` as :class:`Locked` when it is a lock not had; any other error unchanged."""
    return Locked() if lock_failed(error) else error


def claimed(queryset: models.QuerySet) -> models.QuerySet:
    """``queryset`` less the rows someone else holds, the rest locked until the transaction ends
    (``SKIP LOCKED``), in the order of their keys: how two background jobs (two relays, say) share
    a batch of rows without both taking one and without either waiting."""
    return queryset.select_for_update(of=("self",), skip_locked=True).order_by("pk")


def is_locking(queryset) -> bool:
    """Whether ``queryset`` locks the rows it reads (made by :func:`locked` or :func:`claimed`)."""
    return bool(queryset.query.select_for_update)
