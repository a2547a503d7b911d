"""``manage.py import_mat FILE... [--owner USERNAME] [--map NAME=ID|guest|skip ...]``: import .mat
files (or .zip archives of them) at once, without a worker, and say what became of each file.

Both steps of an import run here: the files are checked, then each name they give is mapped as
the import page first offers it (the player of exactly that name, else a new guest player) unless
``--map`` says otherwise, and the matches are written."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from matches.models import ImportFile
from matches.services.imports.jobs import import_job_run
from matches.services.imports.names import import_job_map, import_job_suggested_mapping
from matches.services.imports.upload import import_job_create

IMPORTER = "importer"


def _owner(username: str | None):
    """The named user; else the first superuser; else the system user "importer" (created here,
    without a usable password, so nobody can sign in as it)."""
    users = get_user_model().objects
    if username:
        try:
            return users.get(username=username)
        except users.model.DoesNotExist:
            raise CommandError(f"no user named {username!r}") from None
    first = users.filter(is_superuser=True).order_by("pk").first()
    if first is not None:
        return first
    user, created = users.get_or_create(username=IMPORTER)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def describe(file: ImportFile) -> str:
    """One line about a processed file, e.g. ``failed     x.mat: line 12, game 2: ...``."""
    if file.status == ImportFile.Status.FAILED:
        error = file.error or {}
        where = ", ".join(f"{key} {error[key]}" for key in ("line", "game") if error.get(key) is not None)
        return f"failed     {file.name}: {where + ': ' if where else ''}{error.get('message', 'unknown error')}"
    if file.status == ImportFile.Status.IMPORTED:
        return f"imported   {file.name} -> match {file.match_id}"
    if file.status == ImportFile.Status.DUPLICATE:
        return f"duplicate  {file.name} -> match {file.match_id}"
    if file.status == ImportFile.Status.SKIPPED:
        return f"skipped    {file.name}"
    return f"pending    {file.name}"


class Command(BaseCommand):
    help = "Import .mat match files (or .zip archives of them); exit status 1 if any file failed."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help=".mat, .txt or .zip file")
        parser.add_argument("--owner", metavar="USERNAME",
                            help='who imports (default: the first superuser, else the user "importer")')
        parser.add_argument("--map", action="append", default=[], metavar="NAME=ID|guest|skip",
                            help="who a name of the files is: a player's id, a new guest player, or skip its "
                                 "matches (default: the player of exactly that name, else a new guest)")

    def handle(self, *args, files: list[str], owner: str | None = None, map: list[str] = (), **options):
        chosen = {}
        for item in map:
            name, sep, choice = item.rpartition("=")
            if not sep or not name:
                raise CommandError(f"--map {item!r}: write NAME=ID, NAME=guest or NAME=skip")
            chosen[name] = int(choice) if choice.isdigit() else choice
        uploads = []
        for name in files:
            path = Path(name)
            try:
                uploads.append((path.name, path.read_bytes()))
            except OSError as error:
                raise CommandError(f"cannot read {name}: {error.strerror or error}") from None
        user = _owner(owner)
        try:
            job = import_job_create(owner=user, files=uploads, dispatch=False)
        except DomainError as error:
            raise CommandError(error.message) from None
        job = import_job_run(job_id=job.pk)
        if job.status == job.Status.MAPPING:
            try:
                import_job_map(job_id=job.pk, user=user, mapping=import_job_suggested_mapping(job) | chosen,
                               dispatch=False)
            except DomainError as error:
                raise CommandError(f"{error.message} (import job {job.pk} waits for its players)") from None
            job = import_job_run(job_id=job.pk)
        counts = {status: 0 for status in ImportFile.Status.values}
        for file in job.files.defer("content").order_by("pk"):
            counts[file.status] += 1
            self.stdout.write(describe(file))
        skipped = f", {counts['skipped']} skipped" if counts["skipped"] else ""
        summary = (f"{job.total} file{'s' if job.total != 1 else ''}: {counts['imported']} imported, "
                   f"{counts['duplicate']} duplicate, {counts['failed']} failed{skipped} (import job {job.pk})")
        if counts["failed"] or counts["pending"]:
            self.stdout.write(summary)
            raise CommandError(f"{counts['failed']} of {job.total} files failed", returncode=1)
        self.stdout.write(self.style.SUCCESS(summary))
