"""What is up, for a load balancer and for a person: ``GET /health/``.

The answer is JSON: the database (a ``SELECT 1``), Redis (a ping with a short timeout), each
queue's last worker heartbeat and whether it is stale, and the outbox's backlog. It is 200 while
the database answers, with ``status`` "ok" or "degraded" and ``degraded`` naming what is not well
(Redis, a queue without a live worker, an outbox row given up on): the service still takes writes
then, their tasks wait in the outbox. It is 503 with ``Retry-After`` when the database does not
answer: then nothing can be served.

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

from .models import WorkerHeartbeat
from .outbox import outbox_backlog

logger = logging.getLogger(__name__)

#: Seconds a client should wait before asking again when the database is down.
RETRY_AFTER = 10


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


def queues_state(*, now=None) -> dict:
    """Each queue's last heartbeat (ISO time or None), its age in seconds and whether it is stale
    (older than ``HEARTBEAT_STALE_SECONDS``, or none at all)."""
    now = now or timezone.now()
    seen = dict(WorkerHeartbeat.objects.values_list("queue", "seen_at"))
    state = {}
    for queue in settings.QUEUES:
        last = seen.get(queue)
        age = None if last is None else round((now - last).total_seconds(), 1)
        state[queue] = {"last_heartbeat": None if last is None else last.isoformat(), "age_seconds": age,
                        "stale": age is None or age > settings.HEARTBEAT_STALE_SECONDS}
    return state


def health_report(*, now=None) -> tuple[int, dict]:
    """The status code and body of ``/health/`` (see the module's docstring)."""
    if not database_up():
        return 503, {"status": "down", "degraded": ["database"], "database": {"up": False}, "redis": redis_state()}
    body = {"status": "ok", "degraded": [], "database": {"up": True}, "redis": redis_state()}
    if settings.CELERY_TASK_ALWAYS_EAGER:
        # No broker: tasks run in the web process after each commit, there are no workers.
        body["queues"] = {}
    else:
        body["queues"] = queues_state(now=now)
    body["outbox"] = outbox_backlog(now=now)
    if body["redis"]["up"] is False:
        body["degraded"].append("redis")
    body["degraded"] += [f"queue:{name}" for name, queue in body["queues"].items() if queue["stale"]]
    if body["outbox"]["given_up"]:
        body["degraded"].append("outbox")
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
