"""``manage.py outbox_worker``: a local task worker (core/local_worker.py), for a machine without a
broker. ``runserver`` starts one per queue by itself; run this beside any other web server."""

from __future__ import annotations

import signal

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.local_worker import LocalWorker


class Command(BaseCommand):
    help = "Run the outbox's tasks of the given queues in this process, without a broker (the laptop run)."

    def add_arguments(self, parser):
        parser.add_argument("--queue", action="append", choices=settings.QUEUES,
                            help="a queue to work on (repeat it; all of them by default)")
        parser.add_argument("--parent", type=int, default=None,
                            help="stop when this process (the server that started the worker) is gone")

    def handle(self, *args, **options):
        if not settings.LOCAL_TASKS:
            raise CommandError("a broker is configured (REDIS_URL): run Celery's workers instead (docs/production.md, "
                               "\"Production shape\")")
        queues = options["queue"] or list(settings.QUEUES)
        worker = LocalWorker(queues, periodic="quick" in queues, parent_pid=options["parent"])
        signal.signal(signal.SIGTERM, worker.stop)
        signal.signal(signal.SIGINT, worker.stop)
        worker.run()
