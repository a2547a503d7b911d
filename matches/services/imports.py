"""Importing .mat match files in batches, in two steps: check the files, then, once the importer
has said who each name is, write one match per file.

Flow: :func:`import_job_create` checks the upload (zip archives expanded safely; an uploaded file
refused fails alone, with its reason), stores the job and its files and writes
``import_job_run_task`` in the task outbox (core/outbox.py). The task calls :func:`import_job_run`:
it checks the pending files one by one (:func:`import_file_check`, each in its own transaction),
keeps what each holds in its row (``ImportFile.parsed``) and collects the players' names with
the players each likely is (:func:`import_candidates`); nothing is written to matches or players.
The importer maps each name (:func:`import_job_map`) to an existing player, a new guest player or
"skip"; the task then writes each file's match (:func:`import_file_process`, one transaction per
file) with that mapping.

Guarantees:
- a file is processed once per step: its status moves from "pending" (then "checked") by a
  conditional update in the same transaction as its result, so a second run (a redelivered task,
  two workers) finds it done and changes nothing; the job's counters move in that same transaction;
- one match per match file: the canonical hash (sha256 of the engine's own .mat rendering, without
  tags) is unique in the database, so the same match with CRLF line ends, a byte-order mark or
  other tags is a duplicate, even when two imports race;
- a file that fails stores ``{line, game, message}`` and the other files go on;
- no player is created nor named before the importer chooses: a name mapped to a player of an
  event the import is for must be one of its entrants; a guest player is created once per job;
- the importer directs an imported match only if he plays in it; an import for an event makes
  the event's director the matches' director (the event context of ``matches.hooks``);
- an imported match is on a named player's record only once he (or a director of his, or
  staff) confirms it; only the importer's own side is consented at once: see
  ``matches.services.consent``.
- a job whose worker died is found by :func:`import_jobs_sweep` (its ``progressed_at`` stopped) and
  sent again, resuming at its first file not processed; after IMPORT_MAX_REDISPATCH tries it is
  failed. A job waiting for its mapping is left alone.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import logging
import re
import unicodedata
import zipfile
import zlib
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import PurePosixPath

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, OperationalError, transaction
from django.db.models import Case, Exists, F, IntegerField, OuterRef, Prefetch, Q, When
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast
from django.http import Http404
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ValidationError as DrfValidationError

from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.locking import locked
from core.outbox import outbox_enqueue
from core.text import db_safe
from engine.actions import action_to_dict
from engine.errors import EngineError
from engine.formats.mat_check import MatCheck, check_mat
from engine.formats.mat_write import write_mat
from engine.scores import capped_score, final_score_problem

from .. import errors, hooks
from ..models import Game, ImportFile, ImportJob, Match, Player, Report
from .logs import mat_read
from .matches import MatchDate, match_create, match_rules, match_summary, player_create, side_name

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


def _context_values(context: dict, user) -> dict:
    """``context`` (``{"event": id}``) as ``match_create`` takes it (``{"event": tournament}``),
    through the contexts ``matches.hooks`` holds: each resolves its own ids and says whether
    ``user`` may add matches to it. Raises DomainError for an unknown key or id, NotAllowed
    (from the context) when ``user`` may not."""
    values: dict = {}
    known = set()
    for match_context in hooks.match_contexts():
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
    _context_values(context, owner)
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


# --- processing one file ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Outcome:
    status: str
    match_id: int | None = None
    error: dict | None = None
    parsed: dict | None = None


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
            return DomainError(gettext("game %(number)s never ends: a match file must hold finished games only")
                               % {"number": game.number}, code="unfinished", line=game.line, game=game.number)
    if check.length and check.winner is None:
        last = check.games[-1]
        score = check.final_score
        return DomainError(gettext("the match is unfinished at %(score)s in a %(length)s-point match")
                           % {"score": f"{score[0]}-{score[1]}", "length": check.length},
                           code="unfinished", line=last.line, game=last.number)
    return None


def _unreachable(check: MatCheck) -> DomainError | None:
    """A final score no sequence of games can end the match at (engine.scores): the file's games
    are replayed by the engine, so this guards the record the engine computed, naming the match."""
    if not check.length:
        return None
    problem = final_score_problem(check.rules, check.final_score)
    if problem is None:
        return None
    last = check.games[-1]
    score = check.final_score
    message = gettext("the match %(first)s v %(second)s cannot end at %(score)s: %(reason)s") % {
        "first": check.players[0], "second": check.players[1], "score": f"{score[0]}-{score[1]}",
        "reason": gettext(problem.template) % problem.values}
    return DomainError(message, code="bad_score", field="score", reason=problem.code, line=last.line, game=last.number)


def _parsed(check: MatCheck, games: list[list[dict]], digest: str) -> dict:
    """What the job keeps of a checked file until its match is written (JSON)."""
    rules = check.rules
    played_on = _played_on(check.tags)
    return {
        "players": [name.strip()[:120] for name in check.players], "length": check.length,
        "crawford": check.crawford, "jacoby": rules.jacoby, "beavers": rules.beavers, "raccoons": rules.raccoons,
        "played_on": played_on.isoformat() if played_on else None, "score": list(check.final_score),
        "winner": check.winner, "hash": digest,
        "games": [{"number": game.number, "score": list(game.score), "crawford": game.crawford,
                   "winner": game.winner, "points": game.points, "cube": game.cube, "ending": game.ending,
                   "log": games[index],
                   "condoned": [{"move": c.move, "side": c.side, "play": c.play, "rule": c.rule, "message": c.message}
                                for c in game.replay.condoned]}
                  for index, game in enumerate(check.games)],
    }


def _check(file: ImportFile) -> _Outcome:
    """Read and check the file: checked (what it holds kept), or the match it duplicates.

    Raises the engine's errors and DomainError for a file that cannot be imported.
    """
    check = check_mat(mat_read(file.name, bytes(file.content)))
    problem = _unfinished(check) or _unreachable(check)
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
    if len({name.strip()[:120] for name in check.players}) < 2:
        raise DomainError(gettext("both sides of the match are named %(name)s: a match is between two players")
                          % {"name": check.players[0].strip()}, code="bad_players")
    return _Outcome(ImportFile.Status.CHECKED, parsed=_parsed(check, games, digest))


def _guarded(step, file: ImportFile, *args) -> _Outcome:
    """Run ``step`` in a savepoint of its own, so a refusal leaves nothing of it behind; a
    refusal becomes a failed outcome. Raises OperationalError (transient: retry)."""
    try:
        with transaction.atomic():
            return step(file, *args)
    except OperationalError:
        raise
    except (EngineError, DomainError, ValidationError) as error:
        return _Outcome(ImportFile.Status.FAILED, error=_failure(error))
    except Exception:
        logger.exception("import file %s failed unexpectedly", file.pk)
        return _Outcome(ImportFile.Status.FAILED, error={
            "line": None, "game": None, "message": gettext("an internal error stopped this file's import"),
        })


def _store(file_id: int, outcome: _Outcome) -> None:
    # A written file keeps only a summary of what checking found (its players, its games' count).
    changed = ImportFile.objects.filter(
        pk=file_id, status__in=(ImportFile.Status.PENDING, ImportFile.Status.CHECKED),
    ).update(status=outcome.status, match_id=outcome.match_id, error=outcome.error, content=b"", parsed=outcome.parsed)
    if changed != 1:
        # Unreachable while the caller's row lock holds; kept so the counter can never drift.
        raise RuntimeError(f"import file {file_id} changed under its lock")


def _settle(file_id: int, step, file: ImportFile, *args) -> _Outcome:
    """The file's outcome stored; one the database refuses (DataError, IntegrityError) becomes a
    failure with a generic reason, so that one bad file never stops the others. The work and its
    outcome share a savepoint: an outcome that cannot be saved takes the match with it."""
    try:
        with transaction.atomic():
            outcome = step(file, *args)
            _store(file_id, outcome)
            return outcome
    except (DataError, IntegrityError):
        logger.exception("import file %s: its outcome could not be saved", file_id)
        outcome = _Outcome(ImportFile.Status.FAILED, error={
            "line": None, "game": None, "message": gettext("this file's result could not be saved"),
        })
        _store(file_id, outcome)
        return outcome


def import_file_check(*, file_id: int) -> ImportFile:
    """Read and check one pending file of a job, in one transaction; safe to call twice.

    Checked: keeps what the file holds (players' names, rules, score, games) in ``parsed`` for
    the mapping step; nothing is written to matches or players. Duplicate: links the match it
    duplicates. Failed: stores ``{line, game, message}``. The file's bytes are dropped, the job's
    ``checked`` (and, for a final result, ``done``) goes up by one; a file no longer pending is
    returned unchanged. Raises only OperationalError (worth a retry).
    """
    with transaction.atomic():
        file = locked(ImportFile.objects.filter(pk=file_id, status=ImportFile.Status.PENDING)).first()
        if file is None:
            return ImportFile.objects.defer("content").get(pk=file_id)
        outcome = _settle(file_id, lambda f: _guarded(_check, f), file)
        final = 0 if outcome.status == ImportFile.Status.CHECKED else 1
        ImportJob.objects.filter(pk=file.job_id).update(checked=F("checked") + 1, done=F("done") + final,
                                                         progressed_at=timezone.now())
    return ImportFile.objects.defer("content").get(pk=file_id)


def _players_for(file: ImportFile, job: ImportJob) -> list[Player] | None:
    """The two players of the file under the job's mapping (guests created once per job, their
    ids kept in ``job.guests``); None when a name is skipped. Raises DomainError for a player
    that no longer exists."""
    names = file.parsed["players"]
    choices = [job.mapping.get(name, "skip") for name in names]
    if "skip" in choices:
        return None
    ids = [choice for choice in choices if isinstance(choice, int)]
    found = Player.objects.in_bulk(ids)
    players = []
    for name, choice in zip(names, choices, strict=True):
        if choice == "guest":
            guest = Player.objects.filter(pk=job.guests.get(name)).first() if name in job.guests else None
            if guest is None:
                guest = player_create(display_name=name)
                job.guests = {**job.guests, name: guest.pk}
                ImportJob.objects.filter(pk=job.pk).update(guests=job.guests)
            players.append(guest)
        elif choice in found:
            players.append(found[choice])
        else:
            raise DomainError(gettext("the player chosen for %(name)s no longer exists") % {"name": name},
                              code="bad_mapping", name=name)
    return players


def _write(file: ImportFile, job: ImportJob) -> _Outcome:
    """Create the file's match with the job's mapping, or find the match it duplicates, or skip
    it. Raises DomainError for a file that cannot be imported."""
    parsed = file.parsed
    existing = Match.objects.filter(source_hash=parsed["hash"]).values_list("pk", flat=True).first()
    if existing is not None:
        return _Outcome(ImportFile.Status.DUPLICATE, existing)
    guests = dict(job.guests)
    try:
        # The guests and the match share a savepoint: a duplicate racing in takes both back.
        with transaction.atomic():
            players = _players_for(file, job)
            if players is None:
                return _Outcome(ImportFile.Status.SKIPPED, parsed=_summary(parsed))
            if players[0].pk == players[1].pk:
                raise DomainError(gettext("%(first)s and %(second)s are mapped to the same player")
                                  % {"first": parsed["players"][0], "second": parsed["players"][1]},
                                  code="bad_mapping")
            match = _match_write(file, job, players)
    except IntegrityError:
        # Another import of the same match committed first (the unique source_hash said so).
        job.guests = guests
        existing = Match.objects.filter(source_hash=parsed["hash"]).values_list("pk", flat=True).first()
        if existing is None:
            raise
        return _Outcome(ImportFile.Status.DUPLICATE, existing)
    return _Outcome(ImportFile.Status.IMPORTED, match.pk, parsed=_summary(parsed))


def _summary(parsed: dict) -> dict:
    return {"players": parsed["players"], "games": len(parsed["games"]), "length": parsed["length"]}


def _match_write(file: ImportFile, job: ImportJob, players: list[Player]) -> Match:
    parsed, owner = file.parsed, job.owner
    first, second = players
    values = _context_values(job.context, owner) if job.context else {}
    rules = match_rules(length=parsed["length"], crawford=parsed["crawford"], jacoby=parsed["jacoby"],
                        beavers=parsed["beavers"], raccoons=parsed["raccoons"])
    played_on = date.fromisoformat(parsed["played_on"]) if parsed["played_on"] else None
    match = match_create(created_by=owner, sides=([first], [second]), rules=rules, rated=False,
                         when=MatchDate(played_on=played_on), context=values)
    if not values:
        # Outside a context the importer directs only a match he played in: importing others'
        # matches must not make him their director.
        plays = owner is not None and owner.pk in {first.user_id, second.user_id}
        match.organiser = owner if plays else None
    # Shown capped at the length, as every result is; the file's full score kept beside it.
    match.score0, match.score1 = capped_score(parsed["length"], tuple(parsed["score"]))
    if parsed["length"]:
        match.full_score0, match.full_score1 = parsed["score"]
    match.winner = parsed["winner"]
    match.status = Match.Status.CONFIRMED
    match.confirmed_at = timezone.now()
    # Set first among the writes so that a duplicate racing in fails before anything else is done.
    match.source_hash = parsed["hash"]
    match.save(update_fields=["organiser", "score0", "score1", "full_score0", "full_score1", "winner", "status",
                              "confirmed_at", "source_hash", "updated_at"])
    games = [game["log"] for game in parsed["games"]]
    Report.objects.create(
        match=match, side=None, reporter=owner, score0=match.score0, score1=match.score1,
        full_score0=match.full_score0, full_score1=match.full_score1, winner=match.winner,
        games=games, status=Report.Status.CONFIRMED, origin=Report.Origin.IMPORTED, origin_name=file.name,
    )
    Game.objects.bulk_create(
        Game(match=match, number=game["number"], score0=game["score"][0], score1=game["score"][1],
             crawford=game["crawford"], winner=game["winner"], points=game["points"], cube=game["cube"],
             ending=game["ending"], log=game["log"], condoned=game["condoned"])
        for game in parsed["games"]
    )
    audit_record(actor=owner, action="match.imported", object_type="matches.Match", object_id=match.pk,
                 match_id=match.pk, after={**match_summary(match, (side_name([first]), side_name([second]))),
                                           "games": len(games), "file": file.name}, note=f"imported from {file.name}")
    # In the file's transaction: an app above starts on the match's games (its analysis).
    hooks.match_imported.send(match=match, actor=owner)
    return match


def import_file_process(*, file_id: int) -> ImportFile:
    """Write one checked file of a mapped job, in one transaction; safe to call twice.

    Imported: the match between the players the mapping names (a guest player created for a
    name mapped to "guest", once per job), unrated, Crawford and length from the file, its
    confirmed result (a report by the job's owner) and its games, with its canonical hash; its
    organiser is the context's director (an event's organiser) or, outside any context, the
    importer only if he plays in it. Skipped: a name of the file is mapped to "skip".
    Duplicate: links the existing match. Failed: stores ``{line, game, message}``. The job's
    ``done`` goes up by one; a file no longer checked is returned unchanged. A file whose outcome
    the database refuses (DataError, IntegrityError) fails with a generic reason and keeps
    nothing of its match. Raises only OperationalError (worth a retry).
    """
    job_id = ImportFile.objects.filter(pk=file_id).values_list("job_id", flat=True).get()
    with transaction.atomic():
        # The job's row first: its guests are created once, whichever worker writes its files.
        job = locked(ImportJob.objects.select_related("owner").filter(pk=job_id)).get()
        file = locked(ImportFile.objects.filter(pk=file_id, status=ImportFile.Status.CHECKED)).first()
        if file is None or job.mapping is None:
            return ImportFile.objects.defer("content").get(pk=file_id)
        _settle(file_id, lambda f, j: _guarded(_write, f, j), file, job)
        ImportJob.objects.filter(pk=job_id).update(done=F("done") + 1, progressed_at=timezone.now())
    return ImportFile.objects.defer("content").get(pk=file_id)


# --- the players' names ------------------------------------------------------------------------

#: At most this many players are offered for one name.
MAX_CANDIDATES = 10
#: How alike two folded names must be (difflib's ratio) to be offered as similar.
SIMILAR_CUTOFF = 0.6
#: How many names sharing the most trigrams with a name difflib then compares with it.
SHORTLIST = 200
#: How many of the importer's matches (played, directed) are read for the players he knows.
KNOWN_MATCHES = 200

REASONS = {
    "exact": _("the same name"),
    "case": _("the same name in other capitals"),
    "accent": _("the same name without accents"),
    "similar": _("a similar name"),
    "you": _("you"),
    "played": _("a player you have played"),
    "directs": _("a player of a match you direct"),
}


def _fold(name: str) -> str:
    """The name without case, accents or repeated spaces."""
    decomposed = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def _trigrams(key: str) -> set[str]:
    padded = f"  {key} "
    return {padded[index:index + 3] for index in range(len(padded) - 2)}


def _shortlist(key: str, grams: dict[str, list[str]]) -> list[str]:
    """The folded names sharing the most trigrams with ``key`` (at most SHORTLIST): difflib over
    every player's name would cost a second a name with 20,000 players."""
    shared: Counter[str] = Counter()
    for gram in _trigrams(key):
        shared.update(grams.get(gram, ()))
    return [name for name, _ in shared.most_common(SHORTLIST)]


def _known_players(owner, members) -> list[tuple[int, str]]:
    """``(player id, reason)`` of the importer himself, the players he has played, and the players
    of matches he directs (the newest KNOWN_MATCHES of each), each once, in that order."""
    own = Player.objects.filter(user_id=owner.pk).values_list("pk", flat=True).first()
    found: dict[int, str] = {}
    if own is not None:
        found[own] = "you"
    columns = ("side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b")
    queries = []
    if own is not None:
        queries.append(("played", Match.objects.filter(
            Q(side0__player_a=own) | Q(side0__player_b=own) | Q(side1__player_a=own) | Q(side1__player_b=own))))
    queries.append(("directs", Match.objects.filter(Q(organiser=owner) | hooks.directed_by(owner))))
    for reason, matches in queries:
        for row in matches.order_by("-created_at", "-id").values_list(*columns)[:KNOWN_MATCHES]:
            for pk in row:
                if pk is not None and pk not in found:
                    found[pk] = reason
    if members is not None and found:
        allowed = set(members.filter(pk__in=list(found)).values_list("pk", flat=True))
        found = {pk: reason for pk, reason in found.items() if pk in allowed}
    return list(found.items())


def import_candidates(*, owner, names: list[str], members=None) -> dict[str, list[dict]]:
    """For each name, the players it likely is, most likely first: the same name exactly, in
    other capitals, without accents; then similar names (difflib); then the importer himself,
    the players he has played and those of matches he directs. ``members`` (a Player queryset:
    an event's entrants) limits them; None: any player. At most MAX_CANDIDATES each, as
    ``{"player": id, "reason": key of REASONS}``. Reads; changes nothing."""
    pool = list((members if members is not None else Player.objects.all()).values_list("pk", "display_name"))
    exact: dict[str, list[int]] = {}
    case: dict[str, list[int]] = {}
    folded: dict[str, list[int]] = {}
    names_of: dict[int, str] = {}
    for pk, display in sorted(pool):
        names_of[pk] = display
        exact.setdefault(display, []).append(pk)
        case.setdefault(display.casefold(), []).append(pk)
        folded.setdefault(_fold(display), []).append(pk)
    grams: dict[str, list[str]] = {}
    for key in folded:
        for gram in _trigrams(key):
            grams.setdefault(gram, []).append(key)
    known = _known_players(owner, members)
    missing = [pk for pk, _ in known if pk not in names_of]
    names_of.update(Player.objects.filter(pk__in=missing).values_list("pk", "display_name") if missing else [])
    result = {}
    for name in names:
        chosen: dict[int, str] = {}

        def offer(pks, reason, chosen=chosen):
            for pk in pks:
                if pk not in chosen and len(chosen) < MAX_CANDIDATES:
                    chosen[pk] = reason

        key = _fold(name)
        offer(exact.get(name, []), "exact")
        offer(case.get(name.casefold(), []), "case")
        offer(folded.get(key, []), "accent")
        for similar in difflib.get_close_matches(key, _shortlist(key, grams), n=MAX_CANDIDATES, cutoff=SIMILAR_CUTOFF):
            offer(folded[similar], "similar")
        ranked = sorted(known, key=lambda item: -difflib.SequenceMatcher(None, key, _fold(names_of[item[0]])).ratio())
        for reason in ("you", "played", "directs"):
            offer([pk for pk, why in ranked if why == reason], reason)
        result[name] = [{"player": pk, "reason": reason} for pk, reason in chosen.items()]
    return result


def _members(job: ImportJob):
    return hooks.context_members(_context_values(job.context, job.owner)) if job.context else None


def _collect_names(job_id: int) -> None:
    """Once every file is checked: the players' names of the checked files with their likely
    players (the job waits for its mapping), or the job is done when no file is left to write."""
    with transaction.atomic():
        job = locked(ImportJob.objects.select_related("owner").filter(pk=job_id)).first()
        if job is None or job.status not in (ImportJob.Status.QUEUED, ImportJob.Status.RUNNING) or job.mapped_at:
            return
        if job.files.filter(status=ImportFile.Status.PENDING).exists():
            return
        counts: dict[str, int] = {}
        for parsed in job.files.filter(status=ImportFile.Status.CHECKED).order_by("pk").values_list("parsed", flat=True):
            for name in dict.fromkeys(parsed["players"]):
                counts[name] = counts.get(name, 0) + 1
        if not counts:
            job.status, job.finished_at = ImportJob.Status.DONE, timezone.now()
            job.save(update_fields=["status", "finished_at"])
            return
        try:
            members = _members(job)
        except DomainError:
            members = Player.objects.none()  # the event is gone: no player of it may be chosen
        candidates = import_candidates(owner=job.owner, names=list(counts), members=members)
        job.names = [{"name": name, "matches": counts[name], "candidates": candidates[name]} for name in counts]
        job.status, job.progressed_at = ImportJob.Status.MAPPING, timezone.now()
        job.save(update_fields=["names", "status", "progressed_at"])


def _refuse(message: str, name: str) -> DomainError:
    # The mapping's keys are the names: the name is the field refused (the API's "errors" key).
    return DomainError(message, code="bad_mapping", field=name, name=name)


def import_job_map(*, job_id: int, user, mapping: dict, dispatch: bool = True) -> ImportJob:
    """Map each name of a job waiting for its players to a player id, "guest" (a new guest player
    of that name) or "skip" (the files it plays in are not imported), then send the job on to
    write its matches (the outbox row of ``import_job_run_task``, unless ``dispatch`` is False).

    Raises Http404 for a job ``user`` may not see; Conflict when the job is not waiting for its
    players; DomainError naming the name (``name``) for a name missing or unknown, a choice that
    is none of these, an unknown player, a player outside the job's context (not an entrant of
    its event), or two names of one file mapped to the same player. Nothing is saved then.
    """
    with transaction.atomic():
        job = locked(ImportJob.objects.select_related("owner").filter(pk=job_id)).first()
        if job is None or not getattr(user, "is_authenticated", False) or not (user.is_staff or job.owner_id == user.pk):
            raise Http404("no such import")
        if job.status != ImportJob.Status.MAPPING:
            raise Conflict(gettext("this import is not waiting for its players"), code="not_mapping")
        if not isinstance(mapping, dict):
            raise DomainError(gettext("give each name a player, \"guest\" or \"skip\""), code="bad_mapping",
                              field="mapping")
        names = [entry["name"] for entry in job.names]
        for name in mapping:
            if name not in names:
                raise _refuse(gettext("%(name)s is not a name of this import") % {"name": name}, str(name))
        clean: dict[str, int | str] = {}
        for name in names:
            if name not in mapping:
                raise _refuse(gettext("choose a player for %(name)s, a guest player, or to skip it")
                              % {"name": name}, name)
            choice = mapping[name]
            if isinstance(choice, str) and choice.strip().isdigit():
                choice = int(choice)
            if choice in ("guest", "skip") or (isinstance(choice, int) and not isinstance(choice, bool) and choice > 0):
                clean[name] = choice
            else:
                raise _refuse(gettext("%(name)s: choose a player, \"guest\" or \"skip\"") % {"name": name}, name)
        ids = {choice for choice in clean.values() if isinstance(choice, int)}
        existing = set(Player.objects.filter(pk__in=ids).values_list("pk", flat=True)) if ids else set()
        members = _members(job)
        allowed = (set(members.filter(pk__in=ids).values_list("pk", flat=True))
                   if members is not None and ids else existing)
        for name, choice in clean.items():
            if isinstance(choice, int) and choice not in existing:
                raise _refuse(gettext("%(name)s: there is no such player") % {"name": name}, name)
            if isinstance(choice, int) and choice not in allowed:
                raise _refuse(gettext("%(name)s: the player chosen has not entered this event") % {"name": name},
                              name)
        for parsed in job.files.filter(status=ImportFile.Status.CHECKED).values_list("parsed", flat=True):
            first, second = (clean[name] for name in parsed["players"])
            if isinstance(first, int) and first == second:
                raise _refuse(gettext("%(first)s and %(second)s play each other: they cannot be the same player")
                              % {"first": parsed["players"][0], "second": parsed["players"][1]},
                              parsed["players"][1])
        job.mapping, job.mapped_at = clean, timezone.now()
        job.status, job.progressed_at = ImportJob.Status.QUEUED, timezone.now()
        job.save(update_fields=["mapping", "mapped_at", "status", "progressed_at"])
        audit_record(actor=user, action="import.mapped", object_type="matches.ImportJob", object_id=job.pk,
                     tournament_id=job.context.get("event"), after={"mapping": clean})
        if dispatch:
            outbox_enqueue(tasks_imports.import_job_run_task, job.pk)
    return job


def import_job_suggested_mapping(job: ImportJob) -> dict:
    """The mapping the page offers first: each name to its player of exactly that name when
    there is one, else a new guest player."""
    return {entry["name"]: next((c["player"] for c in entry["candidates"] if c["reason"] == "exact"), "guest")
            for entry in job.names}


# --- running a job ---------------------------------------------------------------------------


def _finish(job_id: int) -> None:
    waiting = ImportFile.objects.filter(job=OuterRef("pk"), status__in=(ImportFile.Status.PENDING,
                                                                        ImportFile.Status.CHECKED))
    ImportJob.objects.filter(pk=job_id).exclude(status=ImportJob.Status.DONE).exclude(Exists(waiting)).update(
        status=ImportJob.Status.DONE, finished_at=timezone.now()
    )


def import_job_run(*, job_id: int) -> ImportJob:
    """Run the job's step. Before its mapping: check its pending files one by one (each in its
    own transaction), then collect the players' names (the job waits for its mapping, or is done
    when no file is left to write). Once mapped: write its checked files one by one, then mark
    it done. Safe to run twice or concurrently: files already processed are skipped, and a job
    that is done or waiting for its mapping is returned unchanged. Raises
    ImportJob.DoesNotExist for an unknown job and OperationalError (transient: retry).
    """
    ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(
        status=ImportJob.Status.RUNNING, progressed_at=timezone.now())
    job = ImportJob.objects.get(pk=job_id)
    if job.status in (ImportJob.Status.DONE, ImportJob.Status.MAPPING):
        return job
    if job.mapped_at is None:
        pending = job.files.filter(status=ImportFile.Status.PENDING).order_by("pk").values_list("pk", flat=True)
        for file_id in list(pending):
            import_file_check(file_id=file_id)
        _collect_names(job_id)
    else:
        checked = job.files.filter(status=ImportFile.Status.CHECKED).order_by("pk").values_list("pk", flat=True)
        for file_id in list(checked):
            import_file_process(file_id=file_id)
        _finish(job_id)
    job.refresh_from_db()
    return job


@transaction.atomic
def import_job_abandon(*, job_id: int, message: str) -> ImportJob:
    """Give up on a job whose task cannot go on (retries exhausted): its files not yet written
    fail with ``message`` and the job is done. Files already processed keep their result."""
    failed = ImportFile.objects.filter(
        job_id=job_id, status__in=(ImportFile.Status.PENDING, ImportFile.Status.CHECKED),
    ).update(status=ImportFile.Status.FAILED, error={"line": None, "game": None, "message": message}, content=b"",
             parsed=None)
    ImportJob.objects.filter(pk=job_id).update(done=F("done") + failed)
    _finish(job_id)
    return ImportJob.objects.get(pk=job_id)


def import_jobs_sweep(*, now=None) -> tuple[int, int]:
    """Find the jobs queued or running without progress for IMPORT_STALL_SECONDS (their worker
    died, or their message was lost with Redis) and send each again through the outbox; it resumes
    at its first file not processed. A running job already sent again IMPORT_MAX_REDISPATCH times
    is abandoned instead: its remaining files fail with a reason and it is done (a queued job is
    never abandoned for waiting). A job waiting for its mapping waits for a person: left alone.
    Returns (sent again, abandoned).

    Each job is claimed by a conditional update of its ``progressed_at`` (two sweepers at once
    never both send it), in the same transaction as its outbox row. A job only slow, not dead, may
    be sent twice: harmless, a file is processed once whoever runs it.
    """
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.IMPORT_STALL_SECONDS)
    stalled = (ImportJob.objects.exclude(status=ImportJob.Status.DONE).filter(progressed_at__lt=limit)
               .exclude(status=ImportJob.Status.MAPPING)
               .order_by("progressed_at").values_list("pk", "progressed_at", "redispatched", "status")[:100])
    sent = abandoned = 0
    for job_id, progressed_at, redispatched, status in stalled:
        # Only a job that started and stopped counts towards the bound: a queued job may just be
        # waiting behind another import on a busy worker, and sending it again is harmless.
        tries = redispatched + 1 if status == ImportJob.Status.RUNNING else redispatched
        with transaction.atomic():
            claimed = (ImportJob.objects.filter(pk=job_id, progressed_at=progressed_at)
                       .exclude(status__in=(ImportJob.Status.DONE, ImportJob.Status.MAPPING))
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
    """The job with its files (without their bytes nor what checking kept of them: only their
    players' names and, once imported, their games' count, as ``players`` and ``games``), for
    its owner or staff.

    Raises Http404 for anyone else, so that a job's existence is not revealed.
    """
    # A checked file keeps its games' logs until its match is written: a page polled every second
    # reads only the two keys it shows, not thousands of moves a file. The games' count is read as
    # text cast to an integer: a key's JSON inside a CASE loses what tells Django's JSONField that
    # SQLite already gave the number decoded (it would decode it again and fail).
    files = Prefetch("files", queryset=ImportFile.objects.defer("content", "parsed").annotate(
        players=KeyTransform("players", "parsed"),
        games=Case(When(status=ImportFile.Status.IMPORTED,
                        then=Cast(KeyTextTransform("games", "parsed"), IntegerField())),
                   default=None, output_field=IntegerField()),
    ).order_by("pk"))
    job = ImportJob.objects.prefetch_related(files).filter(pk=job_id).first()
    if job is None or not getattr(user, "is_authenticated", False) or not (user.is_staff or job.owner_id == user.pk):
        raise Http404("no such import")
    return job


def import_job_names(*, job_id: int, user) -> tuple[ImportJob, dict[int, Player]]:
    """The job (without its files) and the players its names may be, by id, for its owner or
    staff: two queries, however many names. Raises Http404 for anyone else."""
    job = ImportJob.objects.filter(pk=job_id).first()
    if job is None or not getattr(user, "is_authenticated", False) or not (user.is_staff or job.owner_id == user.pk):
        raise Http404("no such import")
    ids = {candidate["player"] for entry in job.names for candidate in entry["candidates"]}
    return job, Player.objects.in_bulk(ids) if ids else {}


def import_job_percent(job: ImportJob) -> int:
    """How far the job's step is, 0..100: its files checked until it is mapped, then its files
    done (a job of no files is complete)."""
    if not job.total or job.status == ImportJob.Status.DONE:
        return 100
    count = job.done if job.mapped_at else job.checked
    return min(100, count * 100 // job.total)


def import_job_progress_text(job: ImportJob) -> str:
    """How far the job's step is, as a sentence."""
    if job.mapped_at:
        return ngettext("%(done)s of %(total)s file imported", "%(done)s of %(total)s files imported",
                        job.total) % {"done": job.done, "total": job.total}
    return ngettext("%(done)s of %(total)s file checked", "%(done)s of %(total)s files checked",
                    job.total) % {"done": job.checked, "total": job.total}


def import_file_summary(file: ImportFile) -> tuple[list[str], int | None]:
    """The file's players' names and, once imported, its games' count: from the annotations of
    :func:`import_job_get` when there (no query), else from ``parsed``."""
    if "parsed" not in file.get_deferred_fields():
        parsed = file.parsed or {}
        games = parsed.get("games") if file.status == ImportFile.Status.IMPORTED else None
        return list(parsed.get("players") or []), games
    return list(getattr(file, "players", None) or []), getattr(file, "games", None)


def import_file_result(file: ImportFile) -> str:
    """What became of the file, as a sentence: accepted with its match, refused with the reason
    naming the file, game and line, and so on."""
    players, games = import_file_summary(file)
    if file.status == ImportFile.Status.IMPORTED:
        return ngettext("Accepted: one match of %(games)s game.", "Accepted: one match of %(games)s games.",
                        games or 0) % {"games": games or 0}
    if file.status == ImportFile.Status.DUPLICATE:
        return gettext("This match was imported before.")
    if file.status == ImportFile.Status.SKIPPED:
        return gettext("Not imported: you chose to skip a player of this match.")
    if file.status == ImportFile.Status.CHECKED and len(players) == 2:
        return gettext("%(first)s against %(second)s") % {"first": players[0], "second": players[1]}
    if file.status == ImportFile.Status.FAILED:
        error = file.error or {}
        values = {"name": file.name, "line": error.get("line"), "game": error.get("game"),
                  "message": error.get("message", "")}
        if values["line"] and values["game"]:
            return gettext("Refused: %(name)s, game %(game)s, line %(line)s: %(message)s") % values
        if values["line"]:
            return gettext("Refused: %(name)s, line %(line)s: %(message)s") % values
        if values["game"]:
            return gettext("Refused: %(name)s, game %(game)s: %(message)s") % values
        return gettext("Refused: %(name)s: %(message)s") % values
    return gettext("Waiting to be checked.")


# The task module imports this one (the task wraps ``import_job_run``): bound last, once this
# module's functions exist, whichever of the two is imported first.
from .. import tasks_imports  # noqa: E402
