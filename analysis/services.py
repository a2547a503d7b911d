"""Every change of a match's analysis: requested (by a director, or on its own after a result
with game logs is confirmed or a match file imported), run by the ``analysis`` queue's task, and
failed with a reason.

The row (:class:`~analysis.models.MatchAnalysis`, one per match) moves queued -> running -> done
or failed. A request writes it queued, or puts it back to queued with the next ``generation``
(result cleared), and writes the task in the outbox in the same transaction, under the match's
lock (``matches.services.reporting.match_locked``, core/locking.py). What a player's own
match-file imports queue by themselves is capped (``ANALYSIS_UPLOADS_PER_DAY`` a rolling day,
counted by ``queued_for``) and sent at :data:`UPLOADS_PRIORITY`, behind a director's requests,
confirmations and an event's own imports (:func:`match_analysis_queue_if_needed`); it keeps that
place when it is queued again (a stale run, a lowered one, the sweeper). The task runs
:func:`match_analysis_run` for that generation:

- a run of an older generation, or of a row done or failed, changes nothing (a second delivery of
  a done run, a run a re-request replaced);
- a run claims the row (running, ``attempt`` one more; a row left running longer than the hard
  time limit, its worker killed there, runs again one ply lower, once: ``lowered_from``; then it
  fails ``time_limit``) and analyses the games as they are then,
  outside any transaction (minutes at 2-ply), writing its progress at most every
  ``ANALYSIS_PROGRESS_SECONDS`` by a conditional update on (generation, attempt): once a
  re-request or a later attempt has taken the row, the next progress write finds nothing and the
  run stops there;
- the result is stored under the match's lock after checking that the games analysed are still
  the match's (their fingerprint, ``games_hash``). A *stale* run (a correction, a ruling, a
  replayed game changed the games while it ran, and nothing queued a new analysis) is discarded
  and the analysis queued again for the games as they are now: a result always describes the
  games the match holds;
- a run stopped at the soft time limit is queued again one ply lower, once, the same way
  (:func:`match_analysis_time_limit`); a run whose worker died (no progress for
  ``ANALYSIS_STALL_SECONDS``) is sent again by the sweeper (:func:`match_analyses_sweep`), at most
  ``ANALYSIS_MAX_REDISPATCH`` times, then fails ``worker_lost``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from core.errors import Conflict, DomainError, NotAllowed
from core.locking import locked
from core.models import OutboxTask
from core.outbox import PRIORITY_FIRST, PRIORITY_LAST, outbox_enqueue
from engine.actions import actions_from_json
from engine.errors import EngineError
from matches import hooks as match_hooks
from matches.models import Game, Match
from matches.services.reporting import match_locked, user_runs_match

from . import gnubg_adapter
from .compute import AnalysisUnavailable, analyse_match, decisions_total
from .hooks import plies_for
from .models import SIDE_FIELDS, MatchAnalysis

logger = logging.getLogger(__name__)

#: The task a request writes in the outbox (analysis/tasks.py), named: tasks import this module.
TASK = "analysis.tasks.match_analysis_task"
PLIES = (0, 1, 2)
#: The priority of the analyses a player's own uploads queue (``MatchAnalysis.queued_for``): served
#: after every other (a director's request, a confirmation's, an event's import's), which keep the
#: outbox's first.
UPLOADS_PRIORITY = PRIORITY_LAST


class Superseded(Exception):
    """The run's row was taken by a newer request or attempt: the run stops, changing nothing."""


@dataclass(frozen=True)
class ReplayInput:
    """What ``analysis.compute`` takes, as the match's own replay builds it (``match.rules()``, the
    games' logs, ``match.start``, ``match.penalties_at()``), and its fingerprint."""

    rules: object
    games: list
    start: tuple[int, int]
    penalties: list
    fingerprint: str


def games_fingerprint(match: Match, logs: list) -> str:
    """The sha256 of what an analysis depends on: the match's rules, starting score, mid-match
    penalties and the games' logs. Two equal fingerprints give the same analysis."""
    payload = json.dumps({"rules": repr(match.rules()), "start": list(match.start), "penalties": match.penalties_mid,
                          "games": logs}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


def _logs(match: Match) -> list:
    stored = getattr(match, "stored_games", None)
    if stored and all("log" not in game.get_deferred_fields() for game in stored):
        return [game.log for game in sorted(stored, key=lambda game: game.number)]
    return list(Game.objects.filter(match=match).order_by("number").values_list("log", flat=True))


def replay_input(match: Match, logs: list | None = None) -> ReplayInput:
    """The match's games as ``analysis.compute`` takes them. Raises the engine's GameLogError for a
    log that does not read (never for a stored one: it was checked when stored)."""
    logs = _logs(match) if logs is None else logs
    return ReplayInput(match.rules(), [actions_from_json(log) for log in logs], match.start, match.penalties_at(),
                       games_fingerprint(match, logs))


def _plies(match: Match, plies) -> int:
    if plies is None:
        return _capped(plies_for(match))
    if isinstance(plies, bool) or plies not in PLIES:
        raise DomainError(_("the depth of the analysis is 0, 1 or 2 plies"), code="bad_plies", field="plies")
    return _capped(plies)


def _capped(plies: int) -> int:
    """``plies``, or the site's deepest (settings.ANALYSIS_MAX_PLIES: 0 where tasks run in the
    request, with no broker) when it is shallower: the row says the depth really used."""
    return min(plies, settings.ANALYSIS_MAX_PLIES)


def _priority(row: MatchAnalysis) -> int:
    """The priority of ``row``'s task: last for what a player's uploads queued, else first."""
    return UPLOADS_PRIORITY if row.queued_for_id is not None else PRIORITY_FIRST


def _enqueue(row: MatchAnalysis) -> None:
    outbox_enqueue(TASK, row.pk, row.generation, priority=_priority(row))


def _queue(match: Match, *, plies: int, fingerprint: str, actor=None, queued_for: int | None = None) -> MatchAnalysis:
    """Write the match's analysis queued for ``plies`` (a new row, or the next generation of the
    existing one, its result cleared) and its task in the outbox, at the priority of a player's
    uploads when ``queued_for`` (his user's id) is given. The match is locked by the caller."""
    now = timezone.now()
    row = locked(MatchAnalysis.objects.filter(pk=match.pk)).first()
    if row is None:
        row = MatchAnalysis(match=match, generation=1)
    else:
        row.generation += 1
    row.status, row.plies, row.attempt, row.games_hash = MatchAnalysis.Status.QUEUED, plies, 0, fingerprint
    row.lowered_from = None
    row.done = row.total = 0
    row.result, row.engine, row.failure_code, row.failure = None, "", "", ""
    row.requested_by = actor if getattr(actor, "is_authenticated", False) else None
    row.queued_for_id = queued_for
    row.requested_at, row.started_at, row.progressed_at, row.analysed_at = now, None, None, None
    for side in (0, 1):
        for name in SIDE_FIELDS:
            setattr(row, f"{name}{side}", None)
    row.save()
    _enqueue(row)
    return row


def match_analysis_request(match, *, actor=None, plies: int | None = None) -> MatchAnalysis:
    """Queue the analysis of ``match`` (a Match or its id) at ``plies`` (0, 1 or 2; by default its
    event's depth, else ``CRAWFORD_ANALYSIS_PLIES``), replacing any earlier one (its result is
    cleared until the new run is done), in one transaction under the match's lock; its task is
    written in the outbox (sent on the ``analysis`` queue after the commit).

    ``actor`` None is the service itself (a confirmation, an import); a person must direct the
    match (its organiser, its event's organiser, staff: ``user_runs_match``).

    Raises Match.DoesNotExist; NotAllowed ``not_match_director``; Conflict ``analysis_unavailable``
    (GNU Backgammon is not installed here) and ``no_game_logs`` (the match has no recorded games);
    DomainError ``bad_plies``. Nothing is written when it raises.
    """
    match_id = match if isinstance(match, int) else match.pk
    with transaction.atomic():
        match = match_locked(match_id)
        if actor is not None and not user_runs_match(match, actor):
            raise NotAllowed(_("only the match's director may ask for its analysis"), code="not_match_director")
        if not gnubg_adapter.available():
            raise Conflict(_("the analysis is not available here: GNU Backgammon is not installed"),
                           code="analysis_unavailable")
        logs = _logs(match)
        if not logs:
            raise Conflict(_("this match has no recorded games to analyse; a result reported with game logs or a "
                             ".mat file stores them"), code="no_game_logs")
        row = _queue(match, plies=_plies(match, plies), fingerprint=games_fingerprint(match, logs), actor=actor)
        if actor is not None:
            # A person's request replaces whatever analysis the match had: the director's log keeps it.
            audit_record(actor=actor, action="match.analysis_requested", object_type="matches.Match",
                         object_id=match.pk, match_id=match.pk, **match_hooks.audit_ids(match),
                         after={"plies": row.plies, "generation": row.generation})
        return row


def uploads_queued_today(user_id: int, *, now=None) -> int:
    """How many analyses ``user_id``'s own uploads queued by themselves in the 24 hours before
    ``now`` (rows still ``queued_for`` him: a later request by a director or a confirmation takes
    one off him); one range of the ``analysis_queued_for`` index."""
    since = (now or timezone.now()) - timedelta(days=1)
    return MatchAnalysis.objects.filter(queued_for_id=user_id, requested_at__gte=since).count()


def match_analysis_queue_if_needed(match: Match, *, uploaded_by=None) -> MatchAnalysis | None:
    """Inside a change of ``match`` (locked by the caller: a confirmation, an import): queue its
    analysis unless gnubg is absent, the match has no games, or its analysis is already queued,
    running or done for the same games at the same depth. Returns the row queued, else None.

    ``uploaded_by``: the player (a user) whose own match-file import this is (not staff's, not an
    event's own: the caller tells). His uploads queue at most ``ANALYSIS_UPLOADS_PER_DAY`` analyses
    a rolling day (:func:`uploads_queued_today`); past that nothing is queued (None: the match
    keeps whatever analysis it had, none for a new one, and its director may ask for one). What
    they queue is recorded against him (``queued_for``) and sent at :data:`UPLOADS_PRIORITY`,
    behind every other analysis."""
    if not gnubg_adapter.available():
        return None
    logs = _logs(match)
    if not logs:
        return None
    plies, fingerprint = _capped(plies_for(match)), games_fingerprint(match, logs)
    current = MatchAnalysis.objects.filter(pk=match.pk).values_list("status", "plies", "games_hash").first()
    if current is not None and current[0] != MatchAnalysis.Status.FAILED and current[1:] == (plies, fingerprint):
        return None
    if uploaded_by is not None and uploads_queued_today(uploaded_by.pk) >= settings.ANALYSIS_UPLOADS_PER_DAY:
        logger.info("match %s imported by user %s is not analysed on its own: %s analyses of his uploads today",
                    match.pk, uploaded_by.pk, settings.ANALYSIS_UPLOADS_PER_DAY)
        return None
    return _queue(match, plies=plies, fingerprint=fingerprint,
                  queued_for=None if uploaded_by is None else uploaded_by.pk)


# --- the run ----------------------------------------------------------------------------------------


def _claim(match_id: int, generation: int | None) -> tuple[MatchAnalysis, ReplayInput] | MatchAnalysis | None:
    """Take the row for a run: (row, what to analyse), or the row as it is when there is nothing
    to run (another generation's, done or failed), or None when it does not exist."""
    with transaction.atomic():
        row = locked(MatchAnalysis.objects.filter(pk=match_id)).first()
        if row is None or (generation is not None and row.generation != generation):
            return row
        if row.status in (MatchAnalysis.Status.DONE, MatchAnalysis.Status.FAILED):
            return row
        now = timezone.now()
        if (row.status == MatchAnalysis.Status.RUNNING and row.started_at is not None
                and now - row.started_at >= timedelta(seconds=settings.ANALYSIS_TIME_LIMIT)
                and not _lowered(row)):
            # Its last run was killed at the hard time limit (the task went back to the queue) and
            # has been lowered once already: running it again would be killed again.
            _failed(row, "time_limit", f"its run was stopped at the hard time limit ({settings.ANALYSIS_TIME_LIMIT} s)")
            return row
        match = Match.objects.get(pk=match_id)
        logs = _logs(match)
        if not logs:
            _failed(row, "games_gone", "the match has no recorded games")
            return row
        replay = replay_input(match, logs)
        row.status, row.attempt, row.games_hash = MatchAnalysis.Status.RUNNING, row.attempt + 1, replay.fingerprint
        row.started_at = row.progressed_at = now
        row.done = 0
        row.save(update_fields=["status", "attempt", "games_hash", "started_at", "progressed_at", "done", "plies",
                                "lowered_from"])
        return row, replay


def _lowered(row: MatchAnalysis) -> bool:
    """Lower a run that ran out of time by one ply, once (``lowered_from`` keeps the depth asked
    for): whether it was lowered (False at 0-ply, or lowered already). Saved by the caller."""
    if row.plies == 0 or row.lowered_from is not None:
        return False
    logger.warning("analysis of match %s ran out of time at %s-ply: run again at %s-ply", row.pk, row.plies,
                   row.plies - 1)
    row.lowered_from, row.plies = row.plies, row.plies - 1
    return True


class _Progress:
    """The run's progress callback: one conditional UPDATE at most every ``ANALYSIS_PROGRESS_SECONDS``
    (and the last decision's), on the row's (generation, attempt); raises Superseded once another
    request or attempt has the row."""

    def __init__(self, row: MatchAnalysis):
        self.row, self.every = row, settings.ANALYSIS_PROGRESS_SECONDS
        self.last = time.monotonic()

    def write(self, done: int, total: int) -> None:
        updated = MatchAnalysis.objects.filter(
            pk=self.row.pk, generation=self.row.generation, attempt=self.row.attempt,
            status=MatchAnalysis.Status.RUNNING,
        ).update(done=min(done, total), total=total, progressed_at=timezone.now())
        if not updated:
            raise Superseded()
        self.last = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        if done >= total or time.monotonic() - self.last >= self.every:
            self.write(done, total)


def match_analysis_run(match_id: int, *, generation: int | None = None) -> MatchAnalysis | None:
    """Run the analysis of match ``match_id`` queued as ``generation`` (None: whichever is queued)
    and store its result and each side's summary; see the module's docstring for what a second
    delivery, a re-request and a stale run do. Returns the row as the run left it (None when the
    match has no analysis).

    A failure that another try would not mend is stored on the row (status failed, with its code:
    ``analysis_unavailable``, ``engine_error``, ``games_gone``) and returned. Raises what is worth
    a retry (the database's OperationalError and InterfaceError) and anything unexpected, the row
    left running for the task to retry or fail (:func:`match_analysis_fail`).
    """
    claimed = _claim(match_id, generation)
    if not isinstance(claimed, tuple):
        return claimed
    row, replay = claimed
    progress = _Progress(row)
    try:
        total = decisions_total(replay.rules, replay.games, start=replay.start, penalties=replay.penalties)
        progress.write(0, total)
        analysis = analyse_match(replay.rules, replay.games, start=replay.start, penalties=replay.penalties,
                                 plies=row.plies, progress=progress, processes=settings.ANALYSIS_PROCESSES)
    except Superseded:
        return MatchAnalysis.objects.filter(pk=match_id).first()
    except AnalysisUnavailable as error:  # gnubg missing, off the main thread, or reading a game otherwise
        return match_analysis_fail(match_id, generation=row.generation, code=error.code, message=str(error))
    except EngineError as error:
        return match_analysis_fail(match_id, generation=row.generation, code="engine_error",
                                   message=f"{error.code}: {error}")
    return _store(row, replay, analysis.to_json())


def _store(row: MatchAnalysis, replay: ReplayInput, result: dict) -> MatchAnalysis | None:
    """Write a finished run's result, under the match's lock, unless the row was taken meanwhile
    (discarded) or the games changed (discarded and queued again for the games as they are)."""
    with transaction.atomic():
        try:
            match = match_locked(row.pk)
        except Match.DoesNotExist:
            return None
        current = locked(MatchAnalysis.objects.filter(pk=row.pk)).first()
        if current is None or (current.generation, current.attempt, current.status) != (
                row.generation, row.attempt, MatchAnalysis.Status.RUNNING):
            return current
        logs = _logs(match)
        if not logs:
            _failed(current, "games_gone", "the match's games were removed while it was analysed")
            return current
        fingerprint = games_fingerprint(match, logs)
        if fingerprint != replay.fingerprint:
            logger.info("analysis of match %s was stale (its games changed while it ran): queued again", row.pk)
            # The same request for the games as they are now: its requester, and its place behind
            # the others when a player's uploads queued it.
            return _queue(match, plies=current.plies, fingerprint=fingerprint, actor=current.requested_by,
                          queued_for=current.queued_for_id)
        sides = result.get("sides") or [{}, {}]
        current.status, current.result = MatchAnalysis.Status.DONE, result
        current.engine = str(result.get("engine", ""))[:64]
        current.done = current.total = max(current.total, current.done)
        current.analysed_at = current.progressed_at = timezone.now()
        for side in (0, 1):
            stats = sides[side]
            current_values = {
                "decisions": int(stats.get("decisions", 0)), "unforced": int(stats.get("unforced", 0)),
                "equity_lost": float(stats.get("equity_lost", 0.0)), "error_rate": float(stats.get("error_rate", 0.0)),
                "pr": float(stats.get("pr", 0.0)), "errors": int(stats.get("errors", 0)),
                "blunders": int(stats.get("blunders", 0)),
            }
            for name, value in current_values.items():
                setattr(current, f"{name}{side}", value)
        current.save()
        return current


def _failed(row: MatchAnalysis, code: str, message: str) -> None:
    row.status, row.failure_code, row.failure = MatchAnalysis.Status.FAILED, code, message[:2000]
    row.progressed_at = timezone.now()
    row.save(update_fields=["status", "failure_code", "failure", "progressed_at"])


def match_analysis_fail(match_id: int, *, generation: int, code: str, message: str) -> MatchAnalysis | None:
    """Mark the analysis of ``generation`` failed with ``code`` (worded for people by
    ``analysis.texts.failure_text``) and ``message`` (the detail, in English), unless it is done or
    a newer request replaced it; returns the row as it is then."""
    with transaction.atomic():
        row = locked(MatchAnalysis.objects.filter(pk=match_id)).first()
        if row is None or row.generation != generation or row.status == MatchAnalysis.Status.DONE:
            return row
        _failed(row, code, message)
        return row


def match_analysis_time_limit(match_id: int, *, generation: int) -> MatchAnalysis | None:
    """The run of ``generation`` stopped at the soft time limit: queue it again one ply lower, once
    (the same generation, ``lowered_from`` keeping the depth asked for), else fail it
    ``time_limit``; unless it is done or a newer request replaced it. Returns the row as it is then."""
    with transaction.atomic():
        row = locked(MatchAnalysis.objects.filter(pk=match_id)).first()
        if row is None or row.generation != generation or row.status == MatchAnalysis.Status.DONE:
            return row
        if not _lowered(row):
            _failed(row, "time_limit", f"stopped after {settings.ANALYSIS_SOFT_TIME_LIMIT} s")
            return row
        row.status, row.done, row.progressed_at = MatchAnalysis.Status.QUEUED, 0, timezone.now()
        row.save(update_fields=["status", "done", "progressed_at", "plies", "lowered_from"])
        _enqueue(row)
        return row


def match_analyses_sweep(*, now=None) -> tuple[int, int]:
    """Find the analyses running without progress for ``ANALYSIS_STALL_SECONDS`` (their worker died:
    a run writes its progress every ``ANALYSIS_PROGRESS_SECONDS``) and send each again through the
    outbox, for the same generation: the next run takes the row over (one attempt more). One whose
    generation has run ``ANALYSIS_MAX_REDISPATCH`` + 1 times fails ``worker_lost`` instead. Returns
    (sent again, failed).

    Each row is claimed by a conditional update of its ``progressed_at`` (two sweepers at once never
    both send it), in the same transaction as its outbox row; its earlier outbox rows of that
    generation are marked done, so a late redelivery of theirs changes nothing."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.ANALYSIS_STALL_SECONDS)
    stalled = (MatchAnalysis.objects.filter(status=MatchAnalysis.Status.RUNNING, progressed_at__lt=limit)
               .order_by("progressed_at")
               .values_list("pk", "generation", "attempt", "progressed_at", "queued_for_id")[:100])
    sent = failed = 0
    for match_id, generation, attempt, progressed_at, queued_for in stalled:
        with transaction.atomic():
            claimed = MatchAnalysis.objects.filter(pk=match_id, generation=generation, attempt=attempt,
                                                   status=MatchAnalysis.Status.RUNNING,
                                                   progressed_at=progressed_at).update(progressed_at=now)
            if not claimed:
                continue
            if attempt > settings.ANALYSIS_MAX_REDISPATCH:
                logger.warning("analysis of match %s stopped %s times without finishing: failed", match_id, attempt)
                row = MatchAnalysis.objects.get(pk=match_id)
                _failed(row, "worker_lost", f"its worker stopped {attempt} times before it finished")
                failed += 1
                continue
            logger.warning("analysis of match %s made no progress since %s: sent again", match_id, progressed_at)
            OutboxTask.objects.filter(task=TASK, args=[match_id, generation], done_at=None).update(
                done_at=now, last_error="sent again by the analyses' sweeper: its worker stopped")
            _enqueue(MatchAnalysis(pk=match_id, generation=generation, queued_for_id=queued_for))
            sent += 1
    return sent, failed
