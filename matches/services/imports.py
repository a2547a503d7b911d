"""Importing .mat match files in batches: a job of files, each file becoming one confirmed match.

Flow: :func:`import_job_create` checks the upload (zip archives expanded safely), stores the job
and its files and writes ``import_job_run_task`` in the task outbox (core/outbox.py); the task calls
:func:`import_job_run`, which processes the pending files one by one with
:func:`import_file_process`, each in its own transaction.

Guarantees:
- a file is processed once: its status moves from "pending" by a conditional update in the same
  transaction as the match it creates, so a second run (a redelivered task, two workers) finds it
  done and changes nothing; the job's ``done`` counter moves in that same transaction;
- one match per match file: the canonical hash (sha256 of the engine's own .mat rendering, without
  tags) is unique in the database, so the same match with CRLF line ends, a byte-order mark or
  other tags is a duplicate, even when two imports race;
- a file that fails stores ``{line, game, message}`` and the other files go on;
- an imported match is on a named player's record only once he (or a director of his, or
  staff) confirms it; only the importer's own side is consented at once (when a name is his
  own player's): see ``matches.services.consent``.
- a job whose worker died is found by :func:`import_jobs_sweep` (its ``progressed_at`` stopped) and
  sent again, resuming at its first pending file; after IMPORT_MAX_REDISPATCH tries it is failed.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
import zipfile
import zlib
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import PurePosixPath

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, OperationalError, connection, transaction
from django.db.models import Exists, F, OuterRef, Prefetch
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from audit.services import audit_record
from core.errors import DomainError
from core.locking import locked
from core.outbox import outbox_enqueue
from core.text import db_safe
from engine.actions import action_to_dict
from engine.errors import EngineError
from engine.formats.mat import MatCheck, check_mat, write_mat

from .. import errors
from ..models import Game, ImportFile, ImportJob, Match, Player, Report
from .logs import mat_read
from .matches import match_create, match_summary, player_create, side_name

logger = logging.getLogger(__name__)

# Files kept from an upload or an archive; anything else is refused (top level) or ignored (inside
# an archive: READMEs, images, __MACOSX resource forks).
MAT_SUFFIXES = (".mat", ".txt")
ZIP_SUFFIX = ".zip"
# An archive may list at most this many entries, and its kept files may hold at most
# ZIP_MAX_TOTAL_FACTOR x MAX_UPLOAD_BYTES once decompressed: a 2 MB zip can otherwise expand to
# gigabytes (a zip bomb). Real .mat files are 2-20 kB, so these bounds leave plenty of room.
ZIP_MAX_MEMBERS = 1000
ZIP_MAX_TOTAL_FACTOR = 10
# One job holds at most this many files, whatever mix of files and archives made it.
JOB_MAX_FILES = 1000
_READ_CHUNK = 64 * 1024
_LINE_PREFIX = re.compile(r"^(?:game [0-9]+, )?line [0-9]+: ")


# --- creating a job --------------------------------------------------------------------------


def _bad_upload(message: str, name: str, code: str) -> DomainError:
    return DomainError(message, code=code, file=name)


def _clean_name(name: str, index: int) -> str:
    """The file's own name (no directories a client may send), at most 255 characters."""
    base = re.split(r"[\\/]", (name or "").strip())[-1].strip()
    return _fit(base or f"file {index}")


def _fit(name: str) -> str:
    # Keep the end of a long name: it holds the file's own name and extension. The name is stored
    # and quoted in the match's report and audit note: db_safe, as PostgreSQL refuses NUL.
    name = db_safe(name)
    return name if len(name) <= 255 else "..." + name[-252:]


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes | None:
    """The member's bytes, or None once more than ``limit`` bytes come out.

    Reads in chunks and counts what the decompressor really produces: the sizes an archive's
    headers declare are not to be trusted.
    """
    chunks, size = [], 0
    with archive.open(info) as member:
        while True:
            chunk = member.read(_READ_CHUNK)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > limit:
                return None
            chunks.append(chunk)


def _unzip(name: str, data: bytes) -> list[tuple[str, bytes]]:
    """The .mat and .txt files inside the archive ``name``, named ``name/member``.

    Raises DomainError naming the archive for a damaged or encrypted archive, an unsafe member
    path, too many entries, a member over MAX_UPLOAD_BYTES, more than the total uncompressed
    limit, or no match file at all.
    """
    per_file = settings.MAX_UPLOAD_BYTES
    total_limit = ZIP_MAX_TOTAL_FACTOR * per_file
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise _bad_upload(f"{name} is not a readable zip archive", name, "bad_zip") from None
    if len(infos) > ZIP_MAX_MEMBERS:
        raise _bad_upload(f"{name} holds {len(infos)} entries; the limit is {ZIP_MAX_MEMBERS}", name, "zip_too_large")
    found: list[tuple[str, bytes]] = []
    total = 0
    for info in infos:
        # The name as the archive holds it: zipfile cuts ``filename`` at a NUL, which would turn
        # "x.mat\0.exe" into "x.mat" and drop "mid\0dle.mat" unseen. _fit stores the NUL visibly.
        path = info.orig_filename.replace("\\", "/")
        parts = PurePosixPath(path).parts
        # Nothing is extracted to disk, but a member that tries to climb out of the archive says
        # the archive was crafted: refuse it rather than guess what was meant.
        if path.startswith("/") or ".." in parts or (parts and ":" in parts[0]):
            raise _bad_upload(f"{name}: the entry {info.filename!r} has an unsafe path", name, "zip_unsafe_path")
        if info.is_dir() or not parts:
            continue
        base = parts[-1]
        if parts[0] == "__MACOSX" or base.startswith(".") or not base.lower().endswith(MAT_SUFFIXES):
            continue
        if info.flag_bits & 0x1:
            raise _bad_upload(f"{name}: {path} is encrypted", name, "bad_zip")
        if info.file_size > per_file:
            raise errors.upload_too_large(f"{name}/{path}", info.file_size, per_file)
        try:
            content = _read_member(archive, info, min(per_file, total_limit - total))
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError, OSError):
            raise _bad_upload(f"{name}: {path} cannot be read from the archive", name, "bad_zip") from None
        if content is None:
            if total_limit - total < per_file:
                raise _bad_upload(f"{name} holds more than {total_limit} bytes of match files uncompressed; "
                                  f"the limit is {total_limit}", name, "zip_too_large")
            raise errors.upload_too_large(f"{name}/{path}", per_file + 1, per_file)
        total += len(content)
        found.append((_fit(f"{name}/{path}"), content))
    if not found:
        raise _bad_upload(f"{name} holds no .mat or .txt file", name, "zip_empty")
    return found


def _expand(files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    limit = settings.MAX_UPLOAD_BYTES
    expanded: list[tuple[str, bytes]] = []
    for index, (raw_name, data) in enumerate(files, start=1):
        name = _clean_name(raw_name, index)
        if len(data) > limit:
            raise errors.upload_too_large(name, len(data), limit)
        lower = name.lower()
        if lower.endswith(ZIP_SUFFIX):
            expanded.extend(_unzip(name, data))
        elif lower.endswith(MAT_SUFFIXES):
            expanded.append((name, bytes(data)))
        else:
            raise _bad_upload(f"{name}: only .mat, .txt and .zip files can be imported", name, "bad_file_type")
        if len(expanded) > JOB_MAX_FILES:
            raise _bad_upload(f"more than {JOB_MAX_FILES} match files in one import (at {name})", name,
                              "too_many_files")
    return expanded


def import_job_create(*, owner, files: list[tuple[str, bytes]], dispatch: bool = True) -> ImportJob:
    """Create an import job of ``files`` (``(name, bytes)`` pairs: .mat/.txt files or .zip archives).

    Archives are expanded in memory (only their .mat and .txt members; see :func:`_unzip` for the
    limits). Creates the job (queued), one pending ImportFile per match file and the outbox row of
    ``import_job_run_task`` (unless ``dispatch`` is False: the caller runs the job itself, as the
    ``import_mat`` command does), sent to the "imports" queue after commit. Raises DomainError (with ``file``) for no files,
    a file over MAX_UPLOAD_BYTES, another file type, or an archive that is damaged, unsafe or over
    the limits; then nothing is saved.
    """
    if not files:
        raise DomainError("choose at least one .mat or .zip file to import", code="no_files")
    expanded = _expand(files)
    with transaction.atomic():
        job = ImportJob.objects.create(owner=owner, total=len(expanded))
        ImportFile.objects.bulk_create(ImportFile(job=job, name=name, content=data) for name, data in expanded)
        if dispatch:
            outbox_enqueue(tasks_imports.import_job_run_task, job.pk)
    return job


# --- processing one file ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Outcome:
    status: str
    match_id: int | None = None
    error: dict | None = None


def _failure(error: Exception) -> dict:
    details = getattr(error, "details", {}) or {}
    if isinstance(error, ValidationError):
        message = "; ".join(error.messages)
    else:
        message = getattr(error, "message", None) or str(error)
    line = details.get("line")
    if isinstance(line, int):
        # The line has its own key: do not repeat it at the start of the message.
        message = _LINE_PREFIX.sub("", message, count=1)
    game = details.get("game")
    # The message may quote the file's own bytes: a NUL in it would make the row fail to save.
    return {"line": line if isinstance(line, int) else None, "game": game if isinstance(game, int) else None,
            "message": db_safe(str(message))}


def canonical_hash(check: MatCheck) -> str:
    """The match's identity: sha256 of the engine's own .mat text of it, without tags.

    Two files of the same match that differ in line ends, byte-order mark, tags, spacing, hit
    marks or sub-move order give the same hash.
    """
    return hashlib.sha256(write_mat(check, tags={}).encode("utf-8")).hexdigest()


def _lock_names(names: list[str]) -> None:
    """Serialise "find or create the player named X" between concurrent imports.

    Display names are not unique in the schema (two people may share one), so no constraint can
    stop two imports from each creating "lasse"; a transaction-level advisory lock per name does.
    Names are locked in sorted order so two imports of the same pair cannot deadlock. SQLite
    (laptop runs) allows one writer at a time, so it needs no lock.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for name in sorted(set(names)):
            key = int.from_bytes(hashlib.sha256(f"crawford.player:{name}".encode()).digest()[:8], "big", signed=True)
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def _player_named(name: str, owner) -> Player:
    """The player with exactly this display name: the importer's own if it is his name, else the
    oldest of that name; created when unknown. (Finding another's player puts the match on his
    record only once he confirms it: see matches.services.consent.)"""
    own = Player.objects.filter(display_name=name, user_id=owner.pk).first() if owner is not None else None
    player = own or Player.objects.filter(display_name=name).order_by("pk").first()
    return player if player is not None else player_create(display_name=name)


def _played_on(tags: dict[str, str]) -> date | None:
    found = re.fullmatch(r"\s*([0-9]{4})[.\-/]([0-9]{1,2})[.\-/]([0-9]{1,2})\s*", tags.get("EventDate", ""))
    if not found:
        return None
    try:
        return date(*(int(part) for part in found.groups()))
    except ValueError:
        return None


def import_games_write(match: Match, check: MatCheck, games: list[list[dict]]) -> list[Game]:
    """Write the Game rows of a checked match file, as result reporting writes them: the score
    before each game, its Crawford flag, how it ended and its log as JSON actions."""
    return Game.objects.bulk_create(
        Game(
            match=match, number=game.number, score0=game.score[0], score1=game.score[1], crawford=game.crawford,
            winner=game.winner, points=game.points, cube=game.cube, ending=game.ending, log=games[index],
            condoned=[{"move": c.move, "side": c.side, "play": c.play, "rule": c.rule, "message": c.message}
                      for c in game.replay.condoned],
        )
        for index, game in enumerate(check.games)
    )


def _unfinished(check: MatCheck) -> DomainError | None:
    for game in check.games:
        if game.winner is None:
            return DomainError(f"game {game.number} never ends: a match file must hold finished games only",
                               code="unfinished", line=game.line, game=game.number)
    if check.length and check.winner is None:
        last = check.games[-1]
        score = check.final_score
        return DomainError(f"the match is unfinished at {score[0]}-{score[1]} in a {check.length}-point match",
                           code="unfinished", line=last.line, game=last.number)
    return None


def _import(file: ImportFile, owner) -> _Outcome:
    """Check the file and create its match, or find the match it duplicates.

    Raises the engine's errors and DomainError for a file that cannot be imported.
    """
    check = check_mat(mat_read(file.name, bytes(file.content)))
    problem = _unfinished(check)
    if problem is not None:
        raise problem
    games = [[action_to_dict(action) for action in game.replay.actions] for game in check.games]
    actions = sum(len(game) for game in games)
    if actions > settings.MAX_LOG_ACTIONS:
        raise errors.log_too_large(actions, settings.MAX_LOG_ACTIONS)
    digest = canonical_hash(check)
    existing = Match.objects.filter(source_hash=digest).values_list("pk", flat=True).first()
    if existing is not None:
        return _Outcome(ImportFile.Status.DUPLICATE, existing)
    try:
        with transaction.atomic():
            match = _match_write(file, owner, check, games, digest)
    except IntegrityError:
        # Another import of the same match committed first (the unique source_hash said so).
        existing = Match.objects.filter(source_hash=digest).values_list("pk", flat=True).first()
        if existing is None:
            raise
        return _Outcome(ImportFile.Status.DUPLICATE, existing)
    return _Outcome(ImportFile.Status.IMPORTED, match.pk)


def _match_write(file: ImportFile, owner, check: MatCheck, games: list[list[dict]], digest: str) -> Match:
    names = [name.strip()[:120] for name in check.players]
    _lock_names(names)
    first, second = (_player_named(name, owner) for name in names)
    rules = check.rules
    match = match_create(
        created_by=owner, organiser=owner, side0=[first], side1=[second], length=check.length, crawford=check.crawford,
        jacoby=rules.jacoby, beavers=rules.beavers, raccoons=rules.raccoons, rated=False,
        played_on=_played_on(check.tags),
    )
    match.score0, match.score1 = check.final_score
    match.winner = check.winner
    match.status = Match.Status.CONFIRMED
    match.confirmed_at = timezone.now()
    # Set first among the writes so that a duplicate racing in fails before anything else is done.
    match.source_hash = digest
    match.save(update_fields=["score0", "score1", "winner", "status", "confirmed_at", "source_hash", "updated_at"])
    Report.objects.create(
        match=match, side=None, reporter=owner, score0=match.score0, score1=match.score1, winner=match.winner,
        games=games, status=Report.Status.CONFIRMED, statement=f"Imported from {file.name}",
    )
    import_games_write(match, check, games)
    audit_record(actor=owner, action="match.imported", object_type="matches.Match", object_id=match.pk,
                 match_id=match.pk, after={**match_summary(match, (side_name([first]), side_name([second]))),
                                           "games": len(games), "file": file.name}, note=f"imported from {file.name}")
    return match


def _outcome(file: ImportFile) -> _Outcome:
    """Import the file in a savepoint of its own, so a refusal leaves nothing of it behind; a
    refusal becomes a failed outcome. Raises OperationalError (transient: retry)."""
    try:
        with transaction.atomic():
            return _import(file, file.job.owner)
    except OperationalError:
        raise
    except (EngineError, DomainError, ValidationError) as error:
        return _Outcome(ImportFile.Status.FAILED, error=_failure(error))
    except Exception:
        logger.exception("import file %s failed unexpectedly", file.pk)
        return _Outcome(ImportFile.Status.FAILED, error={
            "line": None, "game": None, "message": "an internal error stopped this file's import",
        })


def _store(file_id: int, outcome: _Outcome) -> None:
    changed = ImportFile.objects.filter(pk=file_id, status=ImportFile.Status.PENDING).update(
        status=outcome.status, match_id=outcome.match_id, error=outcome.error, content=b"",
    )
    if changed != 1:
        # Unreachable while the caller's row lock holds; kept so the counter can never drift.
        raise RuntimeError(f"import file {file_id} changed under its lock")


def import_file_process(*, file_id: int) -> ImportFile:
    """Import one pending file of a job, in one transaction; safe to call twice.

    Imported: creates the players it does not know by exact display name, the match (unrated,
    Crawford and length from the file), its confirmed result (a report by the job's owner) and
    its games, and stores the match's canonical hash. Duplicate: links the existing match.
    Failed: stores ``{line, game, message}``. In each case the file's bytes are dropped, its
    status leaves "pending" by a conditional update and the job's ``done`` goes up by one; a file
    no longer pending is returned unchanged. A file whose outcome cannot be saved (the database
    refuses it: DataError, IntegrityError) fails with a generic reason and keeps nothing of its
    match, so that one bad file never stops the others. Raises only database errors that are
    worth a retry (OperationalError); anything else marks the file failed.
    """
    with transaction.atomic():
        # Lock the row so a second worker waits here and then finds the file done.
        file = locked(ImportFile.objects.select_related("job__owner")
                       .filter(pk=file_id, status=ImportFile.Status.PENDING)).first()
        if file is None:
            return ImportFile.objects.defer("content").get(pk=file_id)
        try:
            # The match and the outcome share a savepoint: an outcome that cannot be saved takes
            # the match with it, rather than leave a match no file points to.
            with transaction.atomic():
                _store(file_id, _outcome(file))
        except (DataError, IntegrityError):
            logger.exception("import file %s: its outcome could not be saved", file_id)
            _store(file_id, _Outcome(ImportFile.Status.FAILED, error={
                "line": None, "game": None, "message": "this file's result could not be saved",
            }))
        ImportJob.objects.filter(pk=file.job_id).update(done=F("done") + 1, progressed_at=timezone.now())
    return ImportFile.objects.defer("content").get(pk=file_id)


# --- running a job ---------------------------------------------------------------------------


def _finish(job_id: int) -> None:
    pending = ImportFile.objects.filter(job=OuterRef("pk"), status=ImportFile.Status.PENDING)
    ImportJob.objects.filter(pk=job_id).exclude(status=ImportJob.Status.DONE).exclude(Exists(pending)).update(
        status=ImportJob.Status.DONE, finished_at=timezone.now()
    )


def import_job_run(*, job_id: int) -> ImportJob:
    """Process the job's pending files one by one (each in its own transaction), then mark the
    job done. Safe to run twice or concurrently: files already processed are skipped, and a job
    that is done is returned unchanged. Raises ImportJob.DoesNotExist for an unknown job and
    OperationalError (transient: retry) from the database.
    """
    ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(
        status=ImportJob.Status.RUNNING, progressed_at=timezone.now())
    job = ImportJob.objects.get(pk=job_id)
    if job.status == ImportJob.Status.DONE:
        return job
    pending = job.files.filter(status=ImportFile.Status.PENDING).order_by("pk").values_list("pk", flat=True)
    for file_id in list(pending):
        import_file_process(file_id=file_id)
    _finish(job_id)
    job.refresh_from_db()
    return job


@transaction.atomic
def import_job_abandon(*, job_id: int, message: str) -> ImportJob:
    """Give up on a job whose task cannot go on (retries exhausted): its pending files fail with
    ``message`` and the job is done. Files already processed keep their result."""
    failed = ImportFile.objects.filter(job_id=job_id, status=ImportFile.Status.PENDING).update(
        status=ImportFile.Status.FAILED, error={"line": None, "game": None, "message": message}, content=b"",
    )
    ImportJob.objects.filter(pk=job_id).update(done=F("done") + failed)
    _finish(job_id)
    return ImportJob.objects.get(pk=job_id)


def import_jobs_sweep(*, now=None) -> tuple[int, int]:
    """Find the jobs queued or running without progress for IMPORT_STALL_SECONDS (their worker
    died, or their message was lost with Redis) and send each again through the outbox; it resumes
    at its first pending file. A running job already sent again IMPORT_MAX_REDISPATCH times is
    abandoned instead: its pending files fail with a reason and it is done (a queued job is never
    abandoned for waiting). Returns (sent again, abandoned).

    Each job is claimed by a conditional update of its ``progressed_at`` (two sweepers at once
    never both send it), in the same transaction as its outbox row. A job only slow, not dead, may
    be sent twice: harmless, a file is processed once whoever runs it.
    """
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.IMPORT_STALL_SECONDS)
    stalled = (ImportJob.objects.exclude(status=ImportJob.Status.DONE).filter(progressed_at__lt=limit)
               .order_by("progressed_at").values_list("pk", "progressed_at", "redispatched", "status")[:100])
    sent = abandoned = 0
    for job_id, progressed_at, redispatched, status in stalled:
        # Only a job that started and stopped counts towards the bound: a queued job may just be
        # waiting behind another import on a busy worker, and sending it again is harmless.
        tries = redispatched + 1 if status == ImportJob.Status.RUNNING else redispatched
        with transaction.atomic():
            claimed = (ImportJob.objects.filter(pk=job_id, progressed_at=progressed_at)
                       .exclude(status=ImportJob.Status.DONE)
                       .update(progressed_at=now, redispatched=tries))
            if not claimed:
                continue
            if status == ImportJob.Status.RUNNING and redispatched >= settings.IMPORT_MAX_REDISPATCH:
                logger.warning("import job %s made no progress after %s tries: abandoned", job_id, redispatched)
                import_job_abandon(job_id=job_id, message=gettext(
                    "the import stopped and was tried again %(tries)s times without getting further; "
                    "please upload this file again") % {"tries": redispatched})
                abandoned += 1
            else:
                logger.warning("import job %s made no progress since %s: sent again", job_id, progressed_at)
                outbox_enqueue(tasks_imports.import_job_run_task, job_id)
                sent += 1
    return sent, abandoned


# --- reading a job (shared by the API, the page and the command) ---------------------------------


def import_job_get(*, job_id: int, user) -> ImportJob:
    """The job with its files (without their bytes), for its owner or staff.

    Raises Http404 for anyone else, so that a job's existence is not revealed.
    """
    files = Prefetch("files", queryset=ImportFile.objects.defer("content").order_by("pk"))
    job = ImportJob.objects.prefetch_related(files).filter(pk=job_id).first()
    if job is None or not getattr(user, "is_authenticated", False) or not (user.is_staff or job.owner_id == user.pk):
        raise Http404("no such import")
    return job


def import_job_percent(job: ImportJob) -> int:
    """How far the job is, 0..100 (a job of no files is complete)."""
    return 100 if not job.total else min(100, job.done * 100 // job.total)


# The task module imports this one (the task wraps ``import_job_run``): bound last, once this
# module's functions exist, whichever of the two is imported first.
from .. import tasks_imports  # noqa: E402
