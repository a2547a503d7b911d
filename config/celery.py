"""The Celery app: reads CELERY_* from Django settings and finds each app's tasks.py.

Two queues (config/settings.py): "imports" for the long jobs, "quick" for everything else, each
named with CRAWFORD_QUEUE_PREFIX in front. docs/production.md ("Production shape") gives the commands.
"""

import os

from celery import Celery
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("crawford")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _quick(seconds: float) -> dict:
    # A periodic job not run within its own interval is dropped: the next one does its work.
    return {"queue": f"{settings.QUEUE_PREFIX}quick", "expires": seconds}


# Periodic jobs, all in one place (run by `celery -A config beat`). Intervals come from the
# environment (config/settings.py), so a test can run them every second or two.
app.conf.beat_schedule = {
    # Every ten minutes: apply the rating change of any confirmed rated match whose update was lost
    # (a worker crash between commit and task); the task is idempotent, so this is safe.
    "ratings-catch-up": {"task": "matches.tasks.ratings_catch_up", "schedule": 600.0, "options": _quick(600.0)},
    # Every CRAWFORD_OUTBOX_RELAY_SECONDS (30 s): send the tasks written in the outbox that were
    # not sent after their commit (the broker was down), and again those sent long ago and never
    # done (a message lost with Redis, a worker that died).
    "outbox-relay": {"task": "core.tasks.outbox_relay_task", "schedule": float(settings.OUTBOX_RELAY_SECONDS),
                     "options": _quick(settings.OUTBOX_RELAY_SECONDS)},
    # Every hour: forget the outbox rows done more than CRAWFORD_OUTBOX_KEEP_DAYS (7) days ago.
    "outbox-prune": {"task": "core.tasks.outbox_prune_task", "schedule": 3600.0, "options": _quick(3600.0)},
    # Every CRAWFORD_IMPORT_SWEEP_SECONDS (60 s): send again the imports that made no progress for
    # CRAWFORD_IMPORT_STALL_SECONDS (their worker died), or fail them after a few tries.
    "imports-sweep": {"task": "matches.tasks_imports.import_jobs_sweep_task", "schedule": float(settings.IMPORT_SWEEP_SECONDS),
                      "options": _quick(settings.IMPORT_SWEEP_SECONDS)},
    # Every CRAWFORD_ANALYSIS_SWEEP_SECONDS (30 s): send again the analyses running without progress
    # for CRAWFORD_ANALYSIS_STALL_SECONDS (their worker died), or fail them after a few tries.
    "analyses-sweep": {"task": "analysis.tasks.match_analyses_sweep_task",
                       "schedule": float(settings.ANALYSIS_SWEEP_SECONDS),
                       "options": _quick(settings.ANALYSIS_SWEEP_SECONDS)},
    # Every minute: send again the webhook deliveries well past their next attempt (a lost task, or
    # a wait of an hour or more, longer than a Celery retry is kept: webhooks/services.py).
    "webhooks-sweep": {"task": "webhooks.tasks.webhooks_sweep_task", "schedule": 60.0, "options": _quick(60.0)},
}
# Every CRAWFORD_HEARTBEAT_SECONDS (30 s): beat records that it is sending (a quick worker runs it):
# /health/ says when beat has gone silent (the periodic jobs stop; the relay goes on in the workers).
app.conf.beat_schedule["heartbeat-beat"] = {
    "task": "core.tasks.beat_heartbeat_task", "schedule": float(settings.HEARTBEAT_SECONDS),
    "options": _quick(settings.HEARTBEAT_SECONDS),
}
# Every CRAWFORD_HEARTBEAT_SECONDS (30 s), to each queue: a worker of that queue records that it is
# alive and taking work (/health/ shows it).
for _queue in settings.QUEUES:
    app.conf.beat_schedule[f"heartbeat-{_queue}"] = {
        "task": "core.tasks.worker_heartbeat_task", "schedule": float(settings.HEARTBEAT_SECONDS), "args": (_queue,),
        "options": {"queue": f"{settings.QUEUE_PREFIX}{_queue}", "expires": settings.HEARTBEAT_SECONDS},
    }

