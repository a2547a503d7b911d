"""The Celery app: reads CELERY_* from Django settings and finds each app's tasks.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("crawford")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Periodic jobs, all in one place (run by `celery -A config beat`).
app.conf.beat_schedule = {
    # Every ten minutes: apply the rating change of any confirmed rated match whose update was lost
    # (a worker crash between commit and task); the task is idempotent, so this is safe.
    "ratings-catch-up": {"task": "matches.tasks.ratings_catch_up", "schedule": 600.0},
}
