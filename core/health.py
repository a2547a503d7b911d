"""What is up, for a load balancer and for a person: ``GET /health/``.

The answer is JSON: the database (a ``SELECT 1``), Redis (a ping with a short timeout), each
queue's last worker heartbeat, whether it is stale and how many messages wait in it, beat's own
heartbeat, the outbox's backlog, and the sections the apps above register
(``core.hooks.health_sections``: the analyses running without progress). It is 200 while the
database answers, with ``status`` "ok" or "degraded" and ``degraded`` naming what is not well
(Redis, a queue without a live worker or holding work none of its workers took for a minute, beat
silent, an outbox row given up on or waiting too long, a section's own trouble): the service still
takes writes then, their tasks wait in the outbox. It is 503 with ``Retry-After`` when the database
does not answer: then nothing can be served.

The laptop run (no broker: core/local_worker.py) is judged the same way: its local workers record
their queues' heartbeats, and the outbox's rows wait for them as they would for a broker's.

The view is plain Django (no DRF): no authentication, no throttle, no session, a handful of cheap
queries; nothing in it is secret.
"""

from __future__ import annotations

import logging

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.http import require_safe

from .hooks import health_sections
from .models import WorkerHeartbeat
from .outbox import outbox_backlog, queue_name

logger = logging.getLogger(__name__)

#: Seconds a client should wait before asking again when the database is down.
RETRY_AFTER = 10
#: The heartbeat row of beat itself (core.tasks.beat_heartbeat_task), beside the queues'.
BEAT = "beat"

def worker_heartbeat_record(*, queue: str, worker: str, now=None) -> None:
    """Record that a worker (host name ``worker``) of ``queue`` ran its heartbeat ``now``: one row
    per queue, written over (an upsert, so two workers at once cannot collide)."""
    WorkerHeartbeat.objects.bulk_create(
        [WorkerHeartbeat(queue=queue, seen_at=now or timezone.now(), worker=worker[:200])],
        update_conflicts=True, unique_fields=["queue"], update_fields=["seen_at", "worker"],
    )


def database_up() -> bool:
    """Whether the database answers a ``SELECT 1``."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:
        logger.warning("health: the database does not answer: %s", error)
        return False
    return True


def redis_state() -> dict:
    """``{"up": bool}`` after a ping of REDIS_URL (``BROKER_TIMEOUT_SECONDS`` at most), with the
    error when it failed; ``{"up": None}`` when no Redis is configured (the laptop run)."""
    if not settings.REDIS_URL:
        return {"up": None}
    timeout = settings.BROKER_TIMEOUT_SECONDS
    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, OSError) as error:
        return {"up": False, "error": str(error)[:200]}
    return {"up": True}


def _priority_suffixes() -> tuple[str, ...]:
    """Redis's keys of one queue after its name: kombu keeps each priority step's messages in a
    list of its own (step 0 the queue's own name; settings.BROKER_PRIORITY_STEPS and _SEP, the
    transport options the workers and the outbox's publish use)."""
    sep = settings.BROKER_PRIORITY_SEP
    return tuple(f"{sep}{step}" if step else "" for step in settings.BROKER_PRIORITY_STEPS)


def queue_lengths() -> dict[str, int]:
    """How many messages wait in each queue of the broker (Redis's lists), in one round trip;
    {} without a broker or when it does not answer (its state is then told apart: ``redis``)."""
    url = settings.CELERY_BROKER_URL or ""
    if settings.LOCAL_TASKS or not url.startswith(("redis://", "rediss://", "unix://")):
        return {}
    timeout, suffixes = settings.BROKER_TIMEOUT_SECONDS, _priority_suffixes()
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            pipe = client.pipeline(transaction=False)
            for queue in settings.QUEUES:
                for suffix in suffixes:
                    pipe.llen(queue_name(queue) + suffix)
            counts = pipe.execute()
        finally:
            client.close()
    except (redis.RedisError, OSError):
        return {}
    steps = len(suffixes)
    return {queue: sum(counts[index * steps:(index + 1) * steps]) for index, queue in enumerate(settings.QUEUES)}


def queues_state(*, now=None, seen: dict | None = None) -> dict:
    """Each queue's last heartbeat (ISO time or None), its age in seconds and whether it is stale
    (older than ``HEARTBEAT_STALE_SECONDS``, or none at all). ``seen``: the heartbeats read
    already (:func:`heartbeats`)."""
    now = now or timezone.now()
    seen = heartbeats() if seen is None else seen
    return {queue: _heartbeat_state(seen.get(queue), now) for queue in settings.QUEUES}


def heartbeats() -> dict:
    """The last heartbeat of each queue, and of beat (:data:`BEAT`), in one query."""
    return dict(WorkerHeartbeat.objects.values_list("queue", "seen_at"))


def _heartbeat_state(last, now) -> dict:
    age = None if last is None else round((now - last).total_seconds(), 1)
    return {"last_heartbeat": None if last is None else last.isoformat(), "age_seconds": age,
            "stale": age is None or age > settings.HEARTBEAT_STALE_SECONDS}


def outbox_overdue(backlog: dict) -> bool:
    """Whether the outbox's backlog (:func:`core.outbox.outbox_backlog`) means work is not being
    done: a row given up on, a row unsent for longer than ``HEALTH_OUTBOX_STALE_SECONDS``, or a
    row sent and not done for longer than its queue's resend time and that stale time (its worker
    died, and nothing has taken it again yet)."""
    stale = settings.HEALTH_OUTBOX_STALE_SECONDS
    unsent = backlog["oldest_unsent_seconds"]
    sent = backlog["oldest_sent_not_done_seconds"]
    return bool(backlog["given_up"] or (unsent is not None and unsent > stale)
                or (sent is not None and sent > stale + _longest_resend()))


def _longest_resend() -> float:
    if settings.LOCAL_TASKS:
        # A local worker takes a row again after the grace times its attempts.
        return settings.OUTBOX_GRACE_SECONDS * settings.OUTBOX_MAX_ATTEMPTS
    return max(settings.OUTBOX_RESEND_SECONDS.values())


def health_report(*, now=None) -> tuple[int, dict]:
    """The status code and body of ``/health/`` (see the module's docstring)."""
    if not database_up():
        return 503, {"status": "down", "degraded": ["database"], "database": {"up": False}, "redis": redis_state()}
    now = now or timezone.now()
    body = {"status": "ok", "degraded": [], "database": {"up": True}, "redis": redis_state(),
            "workers": "local" if settings.LOCAL_TASKS else "celery"}
    seen = heartbeats()
    body["queues"] = queues_state(now=now, seen=seen)
    # A queue that holds work while none of its workers took any (its heartbeat is taken from the
    # queue like any task) for HEALTH_QUEUE_IDLE_SECONDS: its workers are gone or all stuck.
    for name, waiting in queue_lengths().items():
        queue = body["queues"][name]
        queue["waiting"] = waiting
        queue["idle"] = bool(waiting) and (queue["age_seconds"] is None
                                           or queue["age_seconds"] > settings.HEALTH_QUEUE_IDLE_SECONDS)
    # Beat sends the periodic jobs (the local quick worker runs them on a laptop).
    body["beat"] = _heartbeat_state(seen.get(BEAT), now)
    body["outbox"] = outbox_backlog(now=now)
    if body["redis"]["up"] is False:
        body["degraded"].append("redis")
    body["degraded"] += [f"queue:{name}" for name, queue in body["queues"].items()
                         if queue["stale"] or queue.get("idle")]
    if body["beat"]["stale"]:
        body["degraded"].append("beat")
    if outbox_overdue(body["outbox"]):
        body["degraded"].append("outbox")
    for section in health_sections.ordered():
        body[section.name], degraded = section.item(now=now)
        body["degraded"] += [f"{section.name}:{what}" for what in degraded]
    if body["degraded"]:
        body["status"] = "degraded"
    return 200, body


@require_safe
def health(request):
    """``GET /health/`` (or HEAD): 200 while the database answers, 503 with Retry-After when it does not."""
    status, body = health_report()
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    if status == 503:
        response["Retry-After"] = str(RETRY_AFTER)
    return response
