"""Creating an import job: the upload checked (zip archives expanded safely; an uploaded file
refused fails alone, with its reason), the job and its files stored, and the import task written
in the task outbox."""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath

from django.conf import settings
from django.db import transaction
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError as DrfValidationError

from core.errors import DomainError
from core.outbox import outbox_enqueue
from core.text import db_safe

from ... import errors, hooks
from ...models import ImportFile, ImportJob

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
        raise _bad_upload(gettext("%(name)s is not a readable zip archive") % {"name": name}, name,
                          "bad_zip") from None
    if len(infos) > ZIP_MAX_MEMBERS:
        raise _bad_upload(gettext("%(name)s holds %(count)s entries; the limit is %(limit)s")
                          % {"name": name, "count": len(infos), "limit": ZIP_MAX_MEMBERS}, name, "zip_too_large")
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
            raise _bad_upload(gettext("%(name)s: the entry %(entry)r has an unsafe path")
                              % {"name": name, "entry": info.filename}, name, "zip_unsafe_path")
        if info.is_dir() or not parts:
            continue
        base = parts[-1]
        if parts[0] == "__MACOSX" or base.startswith(".") or not base.lower().endswith(MAT_SUFFIXES):
            continue
        if info.flag_bits & 0x1:
            raise _bad_upload(gettext("%(name)s: %(path)s is encrypted") % {"name": name, "path": path}, name, "bad_zip")
        if info.file_size > per_file:
            raise errors.upload_too_large(f"{name}/{path}", info.file_size, per_file)
        try:
            content = _read_member(archive, info, min(per_file, total_limit - total))
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError, OSError):
            raise _bad_upload(gettext("%(name)s: %(path)s cannot be read from the archive") % {"name": name, "path": path},
                              name, "bad_zip") from None
        if content is None:
            if total_limit - total < per_file:
                raise _bad_upload(gettext("%(name)s holds more than %(limit)s of match files once uncompressed: that "
                                          "is the limit") % {"name": name, "limit": filesizeformat(total_limit)},
                                  name, "zip_too_large")
            # The read stopped once past the limit: how large the member really is is not known.
            raise errors.upload_too_large(f"{name}/{path}", None, per_file)
        total += len(content)
        found.append((_fit(f"{name}/{path}"), content))
    if not found:
        raise _bad_upload(gettext("%(name)s holds no .mat or .txt file") % {"name": name}, name, "zip_empty")
    return found


@dataclass(frozen=True)
class TooLarge:
    """An upload refused for its size before it was read (the API and the form measure it)."""

    size: int


def _refusal(error: DomainError) -> dict:
    return {"line": None, "game": None, "message": db_safe(str(error.message)), "code": error.code}


def _expand(files: list[tuple[str, bytes | TooLarge]]) -> list[tuple[str, bytes, dict | None]]:
    """Each match file of the upload, ``(name, bytes, None)``; an uploaded file refused (too
    large, another type, a damaged or unsafe archive) as ``(name, b"", {line, game, message})``:
    one bad file does not refuse the others. Raises DomainError for more than JOB_MAX_FILES."""
    limit = settings.MAX_UPLOAD_BYTES
    expanded: list[tuple[str, bytes, dict | None]] = []
    for index, (raw_name, data) in enumerate(files, start=1):
        name = _clean_name(raw_name, index)
        try:
            size = data.size if isinstance(data, TooLarge) else len(data)
            if size > limit:
                raise errors.upload_too_large(name, size, limit)
            lower = name.lower()
            if lower.endswith(ZIP_SUFFIX):
                expanded.extend((member, content, None) for member, content in _unzip(name, data))
            elif lower.endswith(MAT_SUFFIXES):
                expanded.append((name, bytes(data), None))
            else:
                raise _bad_upload(gettext("%(name)s: only .mat, .txt and .zip files can be imported") % {"name": name},
                                  name, "bad_file_type")
        except DomainError as error:
            expanded.append((name, b"", _refusal(error)))
        if len(expanded) > JOB_MAX_FILES:
            raise _bad_upload(gettext("more than %(limit)s match files in one import (at %(name)s)")
                              % {"limit": JOB_MAX_FILES, "name": name}, name, "too_many_files")
    return expanded


def context_values(context: dict, user) -> dict:
    """``context`` (``{"event": id}``) as ``match_create`` takes it (``{"event": tournament}``),
    through the contexts ``matches.hooks`` holds: each resolves its own ids and says whether
    ``user`` may add matches to it. Raises DomainError for an unknown key or id, NotAllowed
    (from the context) when ``user`` may not."""
    values: dict = {}
    known = set()
    for match_context in hooks.match_contexts.entries():
        fields = match_context.input_fields() if match_context.input_fields is not None else {}
        for name in match_context.inputs:
            known.add(name)
            if context.get(name) is None or name not in fields:
                continue
            try:
                value = fields[name].to_internal_value(context[name])
            except DrfValidationError:
                raise DomainError(gettext("there is no %(what)s %(id)s to import matches into")
                                  % {"what": name, "id": context[name]}, code="bad_context", field=name) from None
            if match_context.may_create is not None:
                match_context.may_create(user, {name: value})
            values[name] = value
    unknown = sorted(set(context) - known)
    if unknown:
        raise DomainError(gettext("matches cannot be imported into %(what)s") % {"what": ", ".join(unknown)},
                          code="bad_context", field=unknown[0])
    return values


def import_job_create(*, owner, files: list[tuple[str, bytes | TooLarge]], context: dict | None = None,
                      dispatch: bool = True) -> ImportJob:
    """Create an import job of ``files`` (``(name, bytes)`` pairs: .mat/.txt files or .zip archives;
    ``TooLarge`` for an upload refused unread), for ``context`` (``{"event": id}``: an organiser's
    import for his event) when given.

    Archives are expanded in memory (only their .mat and .txt members; see :func:`_unzip` for the
    limits). Creates the job (queued), one pending ImportFile per match file, one failed
    ImportFile (with the reason naming it) per uploaded file refused, and the outbox row of
    ``import_job_run_task`` (unless ``dispatch`` is False: the caller runs the job itself, as the
    ``import_mat`` command does), sent to the "imports" queue after commit. The task checks the
    files and collects the players' names; nothing is written to matches or players before the
    importer maps them (:func:`import_job_map`). Raises DomainError for no files, more than
    JOB_MAX_FILES or a bad ``context``, NotAllowed when ``owner`` may not import into it; then
    nothing is saved.
    """
    if not files:
        raise DomainError(gettext("choose at least one .mat or .zip file to import"), code="no_files")
    context = {key: value for key, value in (context or {}).items() if value is not None}
    context_values(context, owner)
    expanded = _expand(files)
    refused = sum(1 for _, _, error in expanded if error is not None)
    with transaction.atomic():
        job = ImportJob.objects.create(owner=owner, total=len(expanded), context=context, checked=refused,
                                       done=refused)
        ImportFile.objects.bulk_create(
            ImportFile(job=job, name=name, content=data, error=error,
                       status=ImportFile.Status.FAILED if error is not None else ImportFile.Status.PENDING)
            for name, data, error in expanded
        )
        if dispatch:
            outbox_enqueue(tasks_imports.import_job_run_task, job.pk)
    return job


# The task module imports this one (the task wraps ``import_job_run``): bound last, once this
# module's functions exist, whichever of the two is imported first.
from ... import tasks_imports  # noqa: E402
