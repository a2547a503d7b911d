"""``manage.py runserver``: Django's development server (static files left to WhiteNoise), which
also starts the laptop's task workers when there is no broker (``LOCAL_TASKS``): one process per
queue, watched and started again if one dies (core/local_worker.py). ``--without-workers`` leaves
them out (run ``manage.py outbox_worker`` yourself)."""

from __future__ import annotations

from django.conf import settings
from whitenoise.runserver_nostatic.management.commands.runserver import Command as WhiteNoiseRunserver

from core.local_worker import local_workers_start


class Command(WhiteNoiseRunserver):
    help = WhiteNoiseRunserver.help + " Without a broker, it starts the local task workers too."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--without-workers", action="store_true",
                            help="do not start the local task workers (no effect with a broker)")

    def inner_run(self, *args, **options):
        # Runs in the process that serves (the autoreloader's child): its workers end with it, and a
        # reload starts them anew on the new code.
        if settings.LOCAL_TASKS and not options.get("without_workers"):
            self.stdout.write("Starting the local task workers (quick, imports, analysis): emails are written here.")
            local_workers_start()
        super().inner_run(*args, **options)
