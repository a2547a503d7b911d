"""``manage.py demo_data``: load the demo club, players and matches (idempotent) and print every demo login."""

import logging
import re

from django.core.management.base import BaseCommand, CommandError
from django.core.management.commands.runserver import naiveip_re

from demo.services import demo_data_load

#: runserver's own default address.
DEFAULT_ADDR = "127.0.0.1:8000"
#: An address served on every interface, and where this machine's browser opens it.
EVERY_INTERFACE = {"0": "127.0.0.1", "0.0.0.0": "127.0.0.1", "[::]": "[::1]"}


def served_url(addrport: str) -> str:
    """The address a browser on this machine opens for ``runserver <addrport>`` (a port, or an
    address and a port, as runserver takes them). Raises CommandError for anything runserver
    would refuse."""
    found = re.match(naiveip_re, addrport)
    if found is None:
        raise CommandError(f'"{addrport}" is not a port number or an address:port pair (as runserver takes them).')
    host = found["addr"] or "127.0.0.1"
    return f"http://{EVERY_INTERFACE.get(host, host)}:{found['port']}/"


class Command(BaseCommand):
    help = ("Load a demo club, an organiser, ten players and their matches (real match files from "
            "../shared/data/mat). Safe to run again: a second run changes nothing.")

    def add_arguments(self, parser):
        parser.add_argument(
            "--addr", default=DEFAULT_ADDR, metavar="[ADDR:]PORT",
            help=f"where runserver will serve the demo, as given to it (default {DEFAULT_ADDR}): the "
                 "address printed to open in the browser")

    def handle(self, *args, **options):
        # Read before anything is loaded: a mistyped address writes nothing.
        url = served_url(options["addr"])
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
        self.stdout.write(self.style.SUCCESS(summary.login(url)))
