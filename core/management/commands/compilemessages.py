"""``manage.py compilemessages``: Django's, with two differences for Crawford.

- It looks for catalogs in the project only: the virtualenv (whose packages ship their compiled
  catalogs), the translators' fragments (locale/fragments: parts of a catalog, merged by hand) and
  the collected static files are skipped, as if given with ``--ignore``.
- Without GNU gettext's ``msgfmt`` (a laptop with nothing but Python, README "Run it") it compiles
  each catalog with polib instead: the same .mo files, fuzzy and obsolete entries left out as
  msgfmt leaves them, but without msgfmt's checks of the placeholders (CI has msgfmt, and the
  translators run ``msgfmt --check`` on their fragments).

The .mo files are made, never committed (.gitignore): the .po files are the source.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib
from django.core.management.commands import compilemessages
from django.core.management.utils import find_command

#: Folders that hold no catalog of ours (their names, as --ignore takes them).
IGNORED = (".venv", "venv", "node_modules", "staticfiles", "media", "fragments")


class Command(compilemessages.Command):
    help = compilemessages.Command.help + " Uses polib when GNU gettext's msgfmt is not installed."

    def handle(self, **options):
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        self.with_polib = find_command(compilemessages.Command.program) is None
        if self.with_polib:
            # Django's command stops when its program is missing; ours needs none (polib, below).
            self.program = sys.executable
        return super().handle(**options)

    def compile_messages(self, locations):
        if not self.with_polib:
            return super().compile_messages(locations)
        for dirpath, name in locations:
            po_path = Path(dirpath) / name
            mo_path = po_path.with_suffix(".mo")
            if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                continue
            if self.verbosity > 0:
                self.stdout.write(f"processing file {name} in {dirpath} (polib)")
            try:
                polib.pofile(str(po_path), wrapwidth=0).save_as_mofile(str(mo_path))
            except (OSError, ValueError) as error:
                self.stderr.write(f"{po_path} was not compiled: {error}")
                self.has_errors = True
        return None
