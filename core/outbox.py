"""The transactional outbox: every task a change needs is a row written in the change's own
transaction, so the task exists exactly when the change does, whatever happens to the broker.

The flow:

1. A service calls :func:`outbox_enqueue` inside its atomic block: an :class:`OutboxTask` row is
   written and, once the transaction commits, the task is published to its queue with the row's
   id (``outbox_id``). The publish tries once, with a short timeout
   (``CRAWFORD_BROKER_TIMEOUT_MS``), and never raises: with Redis down the request is answered at
   once, the row is left unsent and the broker is taken to be down for a few seconds
   (``CRAWFORD_OUTBOX_BROKER_DOWN_SECONDS``), so the requests after it do not wait on the timeout
   too. With no broker (``LOCAL_TASKS``: the laptop run) nothing is published: the row is the
   message, and a local worker process runs it (core/local_worker.py), never the web process.

   The row is written already marked sent (``sent_at`` its writing time, one attempt) unless the
   broker is known to be down: the publish after the commit then costs no UPDATE (a third of the
   dispatch's time, on the path of every report). A publish that fails marks the row unsent again
   (``sent_at`` NULL, the attempt taken back, ``last_error``), as if it had never been marked. The
   price is one window: a process that dies between the commit and the publish (or whose reset
   fails with the database down as well) leaves a row marked sent that nobody sent; the relay
   sends it when its queue's ``OUTBOX_RESEND_SECONDS`` have passed (minutes) rather than after
   ``OUTBOX_GRACE_SECONDS``: late, never lost.
2. The relay (:func:`outbox_relay`, run by beat every ``CRAWFORD_OUTBOX_RELAY_SECONDS``) sends the
   rows not sent, and sends again the rows sent long ago and still not done (a message lost with
   a Redis restart, a worker that died): see the OUTBOX_* settings.
3. The task receives ``outbox_id`` and asks the row whether its work is still to do
   (:func:`outbox_once`, or :func:`outbox_is_done` and :func:`outbox_done` for long jobs): a row
   done is never run again, whichever delivery comes second.

The one place a row is read for update by two parties at once is guarded by row locks: a relay
claims its batch with ``SKIP LOCKED`` (core.locking.claimed), and a task holds its row's lock
while it works, so a second delivery waits for it and then finds the row done.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import Count, F, Min, Q
from django.utils import timezone
from kombu.utils.uuid import uuid

from .bulk import row_insert
from .links import current_origin, origin_kept
from .locking import claimed, locked
from .models import OutboxTask

logger = logging.getLogger(__name__)

#: When the broker may be tried again after a failed publish (time.monotonic()); 0: not known down.
_broker_down_until = 0.0
_PRIMITIVES = (int, float, str, bool, type(None))
#: A task's priority (OutboxTask.priority): the first served, every task's unless it says...
PRIORITY_FIRST = 0
#: ...and the last served (kombu's range on Redis is 0 to 9, the lower first).
PRIORITY_LAST = 9


def queue_of(task_name: str) -> str:
    """The queue (without the prefix) a task goes to: ``settings.TASK_QUEUES``, else "quick"."""
    return settings.TASK_QUEUES.get(task_name, "quick")


def queue_name(queue: str) -> str:
    """The broker's name of ``queue``: the prefix (``CRAWFORD_QUEUE_PREFIX``) and the name."""
    return f"{settings.QUEUE_PREFIX}{queue}"


def outbox_enqueue(task, *args, priority: int = PRIORITY_FIRST) -> OutboxTask:
    """Write the row of ``task`` (a Celery task or its name) with ``args`` (ids and primitives
    only) in the current transaction, and have it published after the commit (see the module's
    docstring: the publish never fails the caller). The task is later called as
    ``task(*args, outbox_id=row.pk)``. Nothing is written, nor sent, if the transaction rolls back.

    ``priority`` (:data:`PRIORITY_FIRST` 0, the default, to :data:`PRIORITY_LAST` 9) is the
    message's: a queue's workers take its messages of a lower number first (on Redis, kombu's
    priority lists: settings.BROKER_PRIORITY_STEPS), and so does a local worker its rows.

    Raises RuntimeError outside an atomic block (in autocommit the row would be written at once
    and the task sent before the change it belongs to exists), TypeError for an argument that
    is not a primitive and ValueError for a priority outside 0..9.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("outbox_enqueue must be called inside transaction.atomic(): the task belongs to a change")
    bad = [arg for arg in args if not isinstance(arg, _PRIMITIVES)]
    if bad:
        raise TypeError(f"task arguments must be ids and primitives, not {bad!r}")
    if isinstance(priority, bool) or not isinstance(priority, int) or not PRIORITY_FIRST <= priority <= PRIORITY_LAST:
        raise ValueError(f"a task's priority is {PRIORITY_FIRST} to {PRIORITY_LAST}, not {priority!r}")
    name = task if isinstance(task, str) else task.name
    # The address of the request this change answers (or the one the running task was given): an
    # email the task sends links there when no site URL is set (core/links.py).
    row = OutboxTask(task=name, args=list(args), queue=queue_of(name), created_at=timezone.now(),
                     origin=current_origin()[:255], priority=priority)
    if settings.LOCAL_TASKS:
        # The row is the message: a local worker takes it once it is committed.
        row_insert(row, later=True)
        return row
    # Marked sent now unless the broker is known down: see the module's docstring (1.).
    if not broker_known_down():
        row.sent_at, row.attempts = row.created_at, 1
    row_insert(row, later=True)  # its key is read after the commit (core.bulk.writes_batched)
    transaction.on_commit(functools.partial(_dispatch, row))
    return row


# --- sending ---------------------------------------------------------------------------------------


def broker_connection():
    """A connection to the broker that tries once and waits at most ``BROKER_TIMEOUT_SECONDS``
    (kombu's defaults would retry for about 19 s). Use as a context manager."""
    timeout = settings.BROKER_TIMEOUT_SECONDS
    return current_app.connection_for_write(
        url=settings.CELERY_BROKER_URL, connect_timeout=timeout,
        transport_options={"max_retries": 0, "socket_connect_timeout": timeout, "socket_timeout": timeout},
    )


_kept = threading.local()


@contextmanager
def _kept_broker_connection():
    """This thread's broker connection, kept from one dispatch to the next: opening one and
    declaring the queue on it costs a dozen round trips to Redis, more than the publish itself.
    Made as :func:`broker_connection` makes it (one try, short timeouts), for the broker URL in
    the settings; dropped (closed) after any failure, so the next dispatch connects anew."""
    key = (settings.CELERY_BROKER_URL, settings.BROKER_TIMEOUT_SECONDS)
    kept = getattr(_kept, "broker", None)
    if kept is None or kept[0] != key:
        if kept is not None:
            _close_quietly(kept[1])
        kept = (key, broker_connection())
        _kept.broker = kept
    try:
        yield kept[1]
    except BaseException:
        _kept.broker = None
        _close_quietly(kept[1])
        raise


def _close_quietly(broker) -> None:
    try:
        broker.release()
    except Exception:  # a connection that failed may fail to close too: it is dropped all the same
        logger.debug("closing a failed broker connection failed", exc_info=True)


def _producer(broker):
    # One producer per connection, kept with it (it dies with the connection): making one per
    # publish costs more than the message.
    producer = getattr(broker, "_crawford_producer", None)
    if producer is None:
        producer = current_app.amqp.Producer(broker, auto_declare=False)
        channel = producer.channel
        if callable(getattr(channel, "_create_client", None)) and callable(getattr(channel, "conn_or_acquire", None)):
            # kombu's Redis channel builds a redis-py client (a hundred and seventy response
            # callbacks registered) for every message it puts; this channel only publishes, from
            # one thread: one client, on the channel's own pool, serves every message.
            channel.conn_or_acquire = functools.partial(_client_given, channel._create_client())
        broker._crawford_producer = producer
    return producer


@contextmanager
def _client_given(kept, client=None):
    yield client or kept


def outbox_publish(row: OutboxTask, broker) -> None:
    """Publish ``row``'s task to its queue on the connection ``broker``, once (no retry): the
    message Celery's ``send_task`` makes (the same headers and body), with the task's own time
    limits, sent to the queue through the default exchange (one LPUSH) on a producer kept with the
    connection, without declaring the queue again on every publish (its workers declare it; on
    Redis a queue is only a list, made by the first message): a third of ``send_task``'s CPU.

    The message carries the row's priority (kombu puts it in the queue's list of that priority).

    Raises whatever the broker raises (kombu's OperationalError, OSError, ...)."""
    app = current_app
    task = app._tasks.get(row.task)
    args, kwargs = list(row.args), {"outbox_id": row.pk}
    root_id = parent_id = None
    parent = app.current_worker_task
    if parent:  # a task's tasks carry its ids, as send_task gives them
        root_id, parent_id = parent.request.root_id or parent.request.id, parent.request.id
    message = app.amqp.create_task_message(
        uuid(), row.task, args, kwargs, reply_to=app.thread_oid,
        time_limit=getattr(task, "time_limit", None), soft_time_limit=getattr(task, "soft_time_limit", None),
        root_id=root_id, parent_id=parent_id, ignore_result=True,
        # The arguments are ids and primitives (outbox_enqueue): repr is what saferepr would give.
        argsrepr=repr(args), kwargsrepr=repr(kwargs),
    )
    app.amqp.send_task_message(_producer(broker), row.task, message, queue=queue_name(row.queue), exchange="",
                               declare=[], retry=False, priority=row.priority)


def broker_known_down() -> bool:
    """Whether a publish failed less than ``OUTBOX_BROKER_DOWN_SECONDS`` ago."""
    return time.monotonic() < _broker_down_until


def broker_forget() -> None:
    """Forget that the broker was down: the next dispatch tries it (tests; a relay run that
    succeeds does it too)."""
    global _broker_down_until
    _broker_down_until = 0.0


def _broker_failed(row_ids: list[int], error: BaseException, *, marked: list[OutboxTask] = ()) -> None:
    """A publish failed: the broker is taken to be down for a while, the error is kept on the rows
    ``row_ids``, and the rows among them written marked sent (``marked``) are marked unsent."""
    global _broker_down_until
    _broker_down_until = time.monotonic() + settings.OUTBOX_BROKER_DOWN_SECONDS
    logger.warning("broker unavailable, outbox rows %s left for the relay: %s", row_ids, error)
    for row in marked:
        _unsent(row, f"broker: {error!r}")
    rest = [pk for pk in row_ids if pk not in {row.pk for row in marked}]
    if not rest:
        return
    try:
        OutboxTask.objects.filter(pk__in=rest).update(last_error=f"broker: {error!r}"[:2000])
    except Exception:  # the database may be failing too: the row stays unsent all the same
        logger.exception("could not record the broker error on outbox rows %s", rest)


def _dispatch(row: OutboxTask) -> None:
    """After the commit: send ``row``. Never raises: whatever goes
    wrong, the row is left unsent and the relay sends it later. A row written unsent (the broker
    was known down) is marked sent after its publish; one written marked sent (the usual case:
    see the module's docstring) is marked unsent again when its publish fails or is not tried."""
    marked = row.sent_at is not None
    try:
        if broker_known_down():
            if marked:
                _unsent(row, "broker: known down, not tried")
            return
        with _kept_broker_connection() as broker:
            outbox_publish(row, broker)
    except Exception as error:
        _broker_failed([row.pk], error, marked=[row] if marked else [])
        return
    if marked:
        return
    try:
        OutboxTask.objects.filter(pk=row.pk, sent_at=None).update(sent_at=timezone.now(), attempts=F("attempts") + 1)
    except Exception:
        # Sent but not marked: the relay sends it again after the grace time, and the task finds
        # the row done the second time.
        logger.exception("outbox row %s sent but not marked sent", row.pk)


def _unsent(row: OutboxTask, error: str) -> None:
    """Mark ``row``, written marked sent, unsent again (its attempt taken back): the relay sends
    it after the grace time. If the database fails too the row stays marked, and the relay sends
    it after its queue's resend time instead."""
    try:
        OutboxTask.objects.filter(pk=row.pk, sent_at=row.sent_at, done_at=None).update(
            sent_at=None, attempts=F("attempts") - 1, last_error=error[:2000])
    except Exception:
        logger.exception("could not mark outbox row %s unsent: it is sent again after the resend time", row.pk)
    row.sent_at, row.attempts = None, row.attempts - 1


def _due(now, *, broker_started=None) -> Q:
    due = Q(sent_at=None, created_at__lte=now - timedelta(seconds=settings.OUTBOX_GRACE_SECONDS))
    for queue, seconds in settings.OUTBOX_RESEND_SECONDS.items():
        due |= Q(queue=queue, sent_at__lte=now - timedelta(seconds=seconds))
    if broker_started is not None:
        # Sent before the broker last started: the message went with the broker's old memory.
        due |= Q(sent_at__lt=broker_started)
    return due


def broker_started_at(now=None):
    """When the broker (Redis) last started, from its uptime (``INFO server``); None when it cannot
    be told (not Redis, not answering, or ``OUTBOX_RESEND_AFTER_BROKER_RESTART`` off). Redis keeps
    its queues in memory here: a message sent before that moment and not yet taken is gone."""
    if settings.LOCAL_TASKS or not settings.OUTBOX_RESEND_AFTER_BROKER_RESTART:
        return None
    url = settings.CELERY_BROKER_URL or ""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    import redis

    timeout = settings.BROKER_TIMEOUT_SECONDS
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            uptime = int(client.info("server")["uptime_in_seconds"])
        finally:
            client.close()
    except (redis.RedisError, OSError, KeyError, ValueError) as error:
        logger.info("the broker's uptime is unknown: %s", error)
        return None
    # The uptime is in whole seconds: the broker started up to a second before this. A row sent in
    # that second may be sent twice (harmless: a task does its work once per row); none is lost.
    return (now or timezone.now()) - timedelta(seconds=uptime)


def outbox_relay(*, now=None) -> int:
    """Send the rows due (not sent ``OUTBOX_GRACE_SECONDS`` after they were written, sent and not
    done after their queue's ``OUTBOX_RESEND_SECONDS``, or sent before the broker last started
    (:func:`broker_started_at`: a Redis restart lost them); at most ``OUTBOX_BATCH``, fewer than
    ``OUTBOX_MAX_ATTEMPTS`` sends each), oldest first; returns how many were sent.

    Rows are claimed with ``SKIP LOCKED``: two relays at once send different rows, and a row whose
    task is running (it holds the row's lock) is left alone. Stops at the first broker error (it
    is logged and kept on the row, and the rest wait for the next run); never raises for it.
    Without a broker (``LOCAL_TASKS``) there is nothing to send to: the local workers take the
    rows themselves (core/local_worker.py), and this returns 0.
    """
    if settings.LOCAL_TASKS:
        return 0
    now = now or timezone.now()
    broker_started = broker_started_at(now)
    with transaction.atomic():
        rows = list(claimed(OutboxTask.objects.filter(_due(now, broker_started=broker_started), done_at=None,
                                                      attempts__lt=settings.OUTBOX_MAX_ATTEMPTS))[:settings.OUTBOX_BATCH])
        if not rows:
            return 0
        sent: list[int] = []
        try:
            with broker_connection() as broker:
                for row in rows:
                    outbox_publish(row, broker)
                    sent.append(row.pk)
        except Exception as error:
            failed = [row.pk for row in rows if row.pk not in sent]
            _broker_failed(failed[:1], error)
        else:
            broker_forget()
        OutboxTask.objects.filter(pk__in=sent).update(sent_at=now, attempts=F("attempts") + 1, last_error="")
    if sent:
        logger.info("outbox relay sent %s rows", len(sent))
    return len(sent)


class RelayLoop:
    """The relay run every ``OUTBOX_RELAY_SECONDS`` on a thread of its own (each web server process
    starts one: :func:`relay_in_process_start`), until :meth:`stop`. A run that fails (the database
    down) is logged and the next one tries again."""

    def __init__(self, *, every: float | None = None):
        self.every = settings.OUTBOX_RELAY_SECONDS if every is None else every
        self.runs = 0
        self._stopped = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="outbox-relay", daemon=True)

    def start(self) -> RelayLoop:
        self.thread.start()
        return self

    def _loop(self) -> None:
        from django.db import close_old_connections

        while not self._stopped.wait(self.every):
            close_old_connections()
            try:
                outbox_relay()
            except (OperationalError, InterfaceError) as error:
                # The database down (a restart, a failover): said once a run, without a traceback;
                # the rows wait for the next run.
                logger.warning("the outbox relay could not run (the database: %s): it runs again in %s s",
                               str(error).splitlines()[0][:200], self.every)
            except Exception:
                logger.exception("the outbox relay failed: it runs again in %s s", self.every)
            self.runs += 1
        connection.close()

    def stop(self, *, timeout: float = 10.0) -> None:
        self._stopped.set()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(timeout)


#: This process's relay loop, with the process it was started in (a fork does not inherit it).
_relay: tuple[int, RelayLoop] | None = None


def relay_in_process_start() -> RelayLoop | None:
    """Run the relay (:class:`RelayLoop`) on a thread of this process, once per process: each web
    server process calls it when it loads the site (config/wsgi.py), so that what the outbox holds
    is sent with beat stopped. Does nothing without a broker (the local workers take the rows) or
    with ``OUTBOX_RELAY_IN_WEB`` off; returns the loop, or None."""
    global _relay
    if settings.LOCAL_TASKS or not settings.OUTBOX_RELAY_IN_WEB:
        return None
    if _relay is None or _relay[0] != os.getpid() or not _relay[1].thread.is_alive():
        _relay = (os.getpid(), RelayLoop().start())
    return _relay[1]


def relay_in_process_stop() -> None:
    """Stop this process's relay loop (tests)."""
    global _relay
    if _relay is not None:
        _relay[1].stop()
        _relay = None


# --- the task's side ----------------------------------------------------------------------------


@contextmanager
def outbox_once(outbox_id: int | None) -> Iterator[bool]:
    """One transaction around a task's work, done at most once for its outbox row.

    Yields whether the work is still to do: False when the row is done (or gone: done rows are
    pruned), True otherwise, with the row's origin kept for the links the work makes
    (core/links.py); then the row is locked until the transaction ends, so a second
    delivery of the same row waits for the first and then finds the row done. When the block ends
    without an exception the row is marked done in the same transaction as the work's own writes;
    an exception rolls both back and the row stays to do. Without a row (``outbox_id`` None: a
    direct call, the catch-up jobs) the block simply runs in one transaction.

    For work whose effect is in the database this is exactly once. For an email the window that
    remains is the commit after the send: if it fails (the database or the worker dies just then)
    the row is not done and the next delivery sends the email again.
    """
    with transaction.atomic():
        origin = ""
        if outbox_id is not None:
            row = locked(OutboxTask.objects.filter(pk=outbox_id)).only("done_at", "origin").first()
            if row is None or row.done_at is not None:
                yield False
                return
            origin = row.origin
        # The links an email of the work makes are on the address of the request that wrote the
        # row (core/links.py), wherever and whenever the task runs.
        with origin_kept(origin):
            yield True
        if outbox_id is not None:
            OutboxTask.objects.filter(pk=outbox_id).update(done_at=timezone.now(), last_error="")


def outbox_is_done(outbox_id: int | None) -> bool:
    """Whether the row ``outbox_id`` is done (or gone); False without a row."""
    if outbox_id is None:
        return False
    return not OutboxTask.objects.filter(pk=outbox_id, done_at=None).exists()


def outbox_done(outbox_id: int | None) -> None:
    """Mark the row done: for a long job that is idempotent by its own rows (an import), marked
    when the job has finished rather than held locked while it runs."""
    if outbox_id is not None:
        OutboxTask.objects.filter(pk=outbox_id, done_at=None).update(done_at=timezone.now(), last_error="")


def outbox_give_up(outbox_id: int | None, error: BaseException) -> None:
    """The row's task failed for good (an error that another try would not mend): mark it done
    with the error, so that the relay does not send it again."""
    if outbox_id is not None:
        OutboxTask.objects.filter(pk=outbox_id, done_at=None).update(
            done_at=timezone.now(), last_error=f"failed: {error!r}"[:2000])


def outbox_prune(*, now=None) -> int:
    """Delete the rows done more than ``OUTBOX_KEEP_DAYS`` days ago; returns how many."""
    now = now or timezone.now()
    deleted, _ = OutboxTask.objects.filter(done_at__lt=now - timedelta(days=settings.OUTBOX_KEEP_DAYS)).delete()
    return deleted


def outbox_backlog(*, now=None) -> dict:
    """What waits in the outbox: rows not sent (and the age in seconds of the oldest), rows sent
    and not done (and how long ago the oldest of them was last sent), rows the relay gave up on
    (sent ``OUTBOX_MAX_ATTEMPTS`` times, never done); in one query, from the rows not done."""
    now = now or timezone.now()
    unsent, sent = Q(sent_at=None), Q(sent_at__isnull=False)
    counts = OutboxTask.objects.filter(done_at=None).aggregate(
        unsent=Count("pk", filter=unsent), oldest_unsent=Min("created_at", filter=unsent),
        sent_not_done=Count("pk", filter=sent), oldest_sent=Min("sent_at", filter=sent),
        given_up=Count("pk", filter=Q(attempts__gte=settings.OUTBOX_MAX_ATTEMPTS)),
    )
    return {
        "unsent": counts["unsent"],
        "oldest_unsent_seconds": _age(now, counts["oldest_unsent"]),
        "sent_not_done": counts["sent_not_done"],
        "oldest_sent_not_done_seconds": _age(now, counts["oldest_sent"]),
        "given_up": counts["given_up"],
    }


def _age(now, moment) -> float | None:
    return None if moment is None else round((now - moment).total_seconds(), 1)
