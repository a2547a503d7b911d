"""Processing one file of an import job: checking it (:func:`import_file_check`: what it holds
kept in its row, nothing else written) and, once the importer has mapped its players' names,
writing its match (:func:`import_file_process`), each in its own transaction and once."""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from audit.services import audit_record
from core.errors import DomainError
from core.locking import locked
from core.text import db_safe
from engine.actions import action_to_dict
from engine.errors import EngineError
from engine.formats.mat_check import MatCheck, check_mat
from engine.formats.mat_write import write_mat
from engine.scores import capped_score, final_score_problem

from ... import errors, hooks
from ...models import Game, ImportFile, ImportJob, Match, Player, Report
from ..logs import mat_read
from ..matches import MatchDate, match_create, match_rules, match_summary, player_create, side_name
from .upload import context_values

logger = logging.getLogger(__name__)
_LINE_PREFIX = re.compile(r"^(?:game [0-9]+, )?line [0-9]+: ")


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
    values = context_values(job.context, owner) if job.context else {}
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
