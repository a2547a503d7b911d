"""``manage.py demo_data``: load the demo club, players and matches (idempotent) and print every demo login."""

import logging

from django.core.management.base import BaseCommand

from demo.services import demo_data_load


class Command(BaseCommand):
    help = ("Load a demo club, an organiser, ten players and their matches (real match files from "
            "../shared/data/mat). Safe to run again: a second run changes nothing.")

    def handle(self, *args, **options):
        # Without a broker the result emails and rating tasks run in-process, and Celery logs one
        # line per task: dozens of lines that would bury the sign-in instructions.
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
        summary = demo_data_load()
        for note in summary.notes:
            self.stdout.write(f"Note: {note}")
        counts = summary.counts()
        self.stdout.write(
            f"{summary.club.name}: {counts['players']} players, {counts['matches']} matches "
            f"({summary.created} new), {counts['games']} games, {counts['rating_changes']} rating changes"
        )
        for part in (summary.club_demo, summary.chouette_demo):
            if part is not None:
                self.stdout.write(part.line)
        for line in summary.logins():
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS(summary.login))
