"""Result reporting: a side reports, the other confirms or contests, the organiser overrides.

Every function here locks the match row (``select_for_update``) before it reads the reports, so
two reports racing are serialised; the database's ``report_one_confirmed_per_match`` constraint
guarantees there is never a second confirmed result even if a code path forgot the lock.
Side effects (emails, the rating update) are written in the task outbox with the change and sent
only after the transaction commits.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from core.bulk import key_statement, row_insert, row_update, writes_batched
from core.locking import locked
from core.outbox import outbox_enqueue
from core.prepared import prepared, statements_execute
from engine.errors import MatchError
from engine.scores import FinalScore, final_score
from matches.selectors.match import (
    match_live_reports,
    match_reports_seen_from,
    match_reports_seen_statement,
    match_snapshot,
    match_stored_games,
)

from .. import errors, hooks
from ..clocks import remaining_checked
from ..models import MAX_SCORE, Game, Match, Report
from ..tasks import match_notify_task
from .consent import consent_after_override, consent_by_side, rating_dispatch
from .logs import CheckedLog, log_agrees_with_score, log_from_json
from .matches import side_of_user
from .ratings import match_rating_correct, match_rating_revert


@dataclass(frozen=True)
class Claim:
    """What a report says: the final score (capped at the length: :func:`claim_make`) and,
    optionally, the checked game logs and the full score (the winner's points past the length)."""

    score: tuple[int, int]
    log: CheckedLog | None = None
    full: tuple[int, int] | None = None
    remaining: tuple[int, int] | None = None  # each side's time left on the clock (checked)

    @property
    def games(self) -> list | None:
        return self.log.games if self.log else None

    @property
    def full_score(self) -> tuple[int, int] | None:
        """The full score when known: the claim's, else its logs' (a match's, not a money
        session's: its totals are never capped)."""
        if self.full is not None:
            return self.full
        if self.log is not None and not self.log.replay.rules.is_money:
            return tuple(self.log.final_score)
        return None


@dataclass(frozen=True)
class Draft:
    """A result as a client sent it, not yet checked: the final score and, optionally, the game
    logs in the engine's JSON form. The service checks it (:meth:`claim`) only once the match is
    locked, the sender known to be a party and the report known not to be a repeat, so a repeat
    or an outsider never costs a replay of the logs."""

    score: tuple[int, int]
    games: list | None = None
    remaining: list | None = None  # each side's time left on the clock, seconds

    def claim(self, match: Match) -> Claim:
        """The checked claim (see :func:`claim_make`); raises DomainError and the engine's errors
        for logs that do not hold or do not agree with the score."""
        log = (log_from_json(self.games, match.rules(), start=match.start, penalties=match.penalties_at())
               if self.games is not None else None)
        return claim_make(match, self.score, log, remaining=self.remaining)


def user_runs_match(match: Match, user) -> bool:
    """The match's organiser, a director its contexts name (its event's organiser:
    ``hooks.directs``, read through the joins of ``match_locked`` / ``for_claims``), or staff;
    never one of its own players (a director who plays is a party: his results go through the
    other side or staff)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    if side_of_user(match, user) is not None:
        return False
    if match.organiser_id == user.pk:
        return True
    return hooks.directs(match, user)


def score_winner(match: Match, score: tuple[int, int]) -> int | None:
    """Check a claimed final score against the match; return the winning side.

    A money session takes any two whole numbers up to MAX_SCORE (and has no winner). A match's
    final score must be one its games can end at (``engine.scores``): one side at or past the
    length after a last game worth 1, 2 or 3 times the cube (no cube in the Crawford game), the
    other below it and not below the penalty points a ruling gave it (``Match.start``); the capped
    score (the winner with exactly the length) is such a score. Raises DomainError (``bad_score``,
    ``field`` "score", ``reason`` the engine's code) otherwise, with the engine's reason.
    """
    return _final(match, score).winner


def _final(match: Match, score: tuple[int, int]) -> FinalScore:
    if len(score) != 2 or any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= MAX_SCORE for s in score):
        raise errors.bad_score(_("a score is two whole numbers from 0 to %(max)s") % {"max": MAX_SCORE},
                               field="score")
    try:
        return final_score(match.rules(), score, start=match.start)
    except MatchError as error:
        # The engine's reason, translated (its templates are marked for translation); penalty
        # points that are no start of this match (bad_start) have no template.
        problem = getattr(error, "problem", None)
        if problem is not None and problem.code == "below_start":
            # The side by its players' names, not its number.
            message = _("%(name)s starts this match with %(start)s penalty points: %(score)s cannot be its final "
                        "score") % {**problem.values, "name": match.sides[problem.side].name}
        else:
            message = (_(problem.template) % problem.values if problem is not None else
                       _("the penalty points %(start)s are no start of this match") % {
                           "start": f"{match.start[0]}-{match.start[1]}"})
        raise errors.bad_score(message, field="score", side=error.details.get("side"),
                               reason=error.details.get("reason", error.code)) from None


def claim_make(match: Match, score: tuple[int, int], log: CheckedLog | None, *, remaining=None) -> Claim:
    """A checked claim: a final score the match can end at (:func:`score_winner`: never below the
    penalty points a ruling gave a side), that the logs, when given, really produce (as they are,
    or capped at the length). The claim holds the capped score, and the full score where the claim
    or the logs give it; ``remaining`` (each side's time left on the clock) only with the logs, for a
    match with a clock (``matches.clocks.remaining_checked``). Raises DomainError (``bad_score``,
    ``log_disagrees``, ``bad_clock``)."""
    score = (score[0], score[1])
    final = _final(match, score)
    if log is not None:
        log_agrees_with_score(log, score)
    full = final.full
    if log is not None and not match.is_money:
        full = tuple(log.final_score)
    return Claim(final.score, log, full, remaining_checked(match, remaining, with_log=log is not None))


def match_locked(match_id: int) -> Match:
    """The match row (its sides' player ids and its contexts joined: ``hooks.match_joins``), locked
    until the transaction ends: the lock every change of a match's result, disputes and rulings
    takes first. Raises Match.DoesNotExist, and TransactionManagementError outside a transaction.

    The query is compiled once per thread and set of contexts (``core.prepared``): building it
    with the ORM costs more CPU than PostgreSQL spends answering it, on the path of every report."""
    return _lock_query().one(match_id)


def _lock_query():
    return prepared("matches.lock", lambda: locked(Match.objects.with_side_ids()), hooks.match_joins())


def match_loaded(match_id: int, *, logs: bool = False, report_key: bool = False) -> Match:
    """:func:`match_locked`, with its live reports (``match.live``, kept as the change goes on; their
    logs only with ``logs``), whether it has stored games (``has_games``) and its sides' players
    (``seen_players``, for the answer): all that a report, a confirmation or a contest decides on,
    and what its answer shows, without reading the match or its reports again. The lock and the
    read after it go to PostgreSQL in one round trip (``core.prepared.statements_execute``), so
    the reports are the ones the lock holds still. With ``report_key`` (on PostgreSQL) the key of
    the report the change may insert is taken in the same round trip (``match.report_key``), so
    that its INSERT goes with the change's other writes. Raises Match.DoesNotExist."""
    lock = _lock_query()
    statements = [lock.statement(match_id), match_reports_seen_statement(match_id, logs=logs)]
    if report_key and connection.vendor == "postgresql":
        statements.append(key_statement(Report))
    with connection.cursor() as cursor:
        match_rows, seen_rows, *key = statements_execute(cursor, statements)
    match = lock.instance(match_rows)
    match.report_key = key[0][0][0] if key else None
    seen = match_reports_seen_from(seen_rows, logs=logs)
    for report in seen.reports:
        report.match = match
    match.live, match.has_games, match.seen_players = list(seen.reports), seen.has_games, seen.players
    match_live_reports(match)
    return match


def _has_logs(report: Report) -> bool:
    return report.with_games if hasattr(report, "with_games") else report.games is not None


def _same(report: Report, claim: Claim) -> bool:
    if report.score != claim.score:
        return False
    return claim.games is None or not _has_logs(report) or report.games == claim.games


def _apply_result(match: Match, claim: Claim, confirmed: Report, *, actor=None, action: str = "match.result_confirmed",
                  note: str = "", ruled_dispute: int | None = None, origin: dict | None = None) -> None:
    """Make ``confirmed`` the match's result: score, winner, status and games; audited (with the
    result's ``origin`` when no person decided it). The match's open automatic dispute is settled,
    unless it is ``ruled_dispute`` (a ruling records itself)."""
    before = match_snapshot(match, games=match_stored_games(match))
    match.score0, match.score1 = claim.score
    match.full_score0, match.full_score1 = claim.full_score or confirmed.full_score or (None, None)
    match.winner = score_winner(match, claim.score)
    match.status = Match.Status.CONFIRMED
    match.confirmed_at = timezone.now()
    # The confirmed report's clock times, when it gave them.
    match.clock_remaining0, match.clock_remaining1 = confirmed.clock_remaining0, confirmed.clock_remaining1
    row_update(match, ["score0", "score1", "full_score0", "full_score1", "winner", "status", "confirmed_at",
                       "clock_remaining0", "clock_remaining1", "updated_at"], later=True)
    games = confirmed.games if _has_logs(confirmed) else None
    if games is not None:
        replay = claim.log.replay if claim.log and claim.log.games == games else None
        if replay is None:
            replay = log_from_json(games, match.rules(), start=match.start, penalties=match.penalties_at()).replay
        _write_games(match, games, replay)
    actor = actor or confirmed.reporter
    audit_record(actor=actor, action=action, object_type="matches.Match", object_id=match.pk,
                 match_id=match.pk, **hooks.audit_ids(match), before=before,
                 after={**match_snapshot(match, games=match_stored_games(match)), **({"origin": origin} if origin else {})},
                 note=note)
    # In this same transaction: the match's automatic score dispute is settled (rulings), then an
    # event's draw advances (tournaments); a correction the event refuses (a later match built on
    # it has started) rolls the whole change back. See matches.hooks.
    hooks.result_confirmed.send(match=match, actor=actor, ruled_dispute=ruled_dispute)


def _write_games(match: Match, games: list, replay) -> None:
    """Replace the match's stored games with ``games`` (JSON logs) as ``replay`` checked them."""
    match.games.all().delete()
    match.stored_games = Game.objects.bulk_create(
        Game(
            match=match, number=checked.number, score0=checked.score[0], score1=checked.score[1],
            crawford=checked.crawford, winner=checked.result.winner, points=checked.result.points,
            cube=checked.result.cube, ending=checked.result.ending, log=games[checked.number - 1],
            condoned=[_condoned(c) for c in checked.replay.condoned],
            stood=[_condoned(c) for c in checked.replay.stood],
        )
        for checked in replay.games
    )


def _condoned(condoned) -> dict:
    return {"move": condoned.move, "side": condoned.side, "play": condoned.play, "rule": condoned.rule,
            "message": condoned.message}


def _after_commit(match: Match, event: str) -> None:
    # Written in the outbox in the change's own transaction, sent after it commits (core/outbox.py).
    outbox_enqueue(match_notify_task, match.pk, event)
    # Sent even before both players consented: the task then changes nothing, and the last
    # consent sends it again (matches.services.consent).
    if event == "confirmed" and match.rated:
        rating_dispatch(match.pk)


def _repeat(own: Report | None, score: tuple[int, int], games: list | None) -> bool:
    """Whether ``own`` (the user's live report) says exactly this: the score, and the games when
    both carry them."""
    if own is None or own.score != tuple(score):
        return False
    return games is None or not _has_logs(own) or own.games == games


@transaction.atomic
def match_report(*, match_id: int, user, claim: Claim | Draft, statement: str = "") -> Report:
    """A side reports the final result of a match (the organiser's report is an override).

    - same as the other side's live report: the match is confirmed;
    - different: the match is disputed (it lands in the organiser's queue);
    - no other report: the match waits for the other side's confirmation.
    A repeated identical report changes nothing; a side may replace its report until the match
    is confirmed. ``claim`` is a checked :class:`Claim`, or a :class:`Draft`, checked here once the
    user is known to be a party and the report not a repeat (raising what checking it raises).

    The match is locked and read once with its live reports, in one round trip: a client retrying
    the same report (timeouts, double clicks) is answered with the report already there, after the
    first one's change is committed; the returned report's ``match`` is the match as the change
    left it (``live``: its live reports). Raises Match.DoesNotExist, NotAllowed for anyone but the
    players and the organiser, Conflict when the match is already confirmed with another result.
    """
    # The writes whose keys nobody needs at once (the audit entry, the match, the outbox rows) go
    # to PostgreSQL together, in one round trip (core.bulk.writes_batched).
    with writes_batched():
        match = match_loaded(match_id, logs=claim.games is not None, report_key=True)
        own = next((r for r in match.live if r.reporter_id == getattr(user, "pk", None) and r.side is not None), None)
        if _repeat(own, claim.score, claim.games):
            return own
        side = side_of_user(match, user)
        if side is None:
            if user_runs_match(match, user):
                return override_result(match, user, _checked(match, claim), statement)
            raise errors.not_a_party()
        return _report(match, side, user, _checked(match, claim), statement)


def _checked(match: Match, claim: Claim | Draft) -> Claim:
    # A Claim built by hand (not by claim_make) is checked here too: its score must be one the
    # match can end at, and it is stored capped.
    if isinstance(claim, Draft):
        return claim.claim(match)
    return claim_make(match, claim.full or claim.score, claim.log, remaining=claim.remaining)


def _full_fields(claim: Claim) -> dict:
    full = claim.full_score or (None, None)
    remaining = claim.remaining or (None, None)
    return {"full_score0": full[0], "full_score1": full[1],
            "clock_remaining0": remaining[0], "clock_remaining1": remaining[1]}


def _report(match: Match, side: int, user, claim: Claim, statement: str, *, consent: bool = True) -> Report:
    """Side ``side`` of the loaded, locked ``match`` (``match_loaded``) reports ``claim``: see
    :func:`match_report`. Without ``consent`` (a director answering for a guest side) the side's
    consent is left as it is."""
    # A side that reports a result agrees the match is on its record (a refusal below rolls this
    # back with the rest).
    if (consent and consent_by_side(match, side, user, how="reported") and match.status == Match.Status.CONFIRMED
            and match.rated):
        rating_dispatch(match.pk)
    live = match_live_reports(match)
    mine = next((r for r in live if r.side == side), None)
    theirs = next((r for r in live if r.side == 1 - side), None)
    if match.status == Match.Status.CONFIRMED:
        if match.score0 == claim.score[0] and match.score1 == claim.score[1]:
            return mine or next(r for r in live if r.status == Report.Status.CONFIRMED)
        raise errors.already_confirmed()
    if mine is not None and _same(mine, claim):
        return mine
    if mine is not None:
        mine.status = Report.Status.SUPERSEDED
        row_update(mine, ["status"], later=True)
        live.remove(mine)
    # The new report is written with the status it ends with: only the other side's changes after.
    agrees = theirs is not None and _same(theirs, claim)
    if theirs is None:
        status = Report.Status.PENDING
    elif not agrees:
        status = Report.Status.CONTESTED
    elif _has_logs(theirs) or claim.games is None:
        status = Report.Status.AGREED  # theirs is confirmed: it carries the logs, or neither does
    else:
        status = Report.Status.CONFIRMED
    if status == Report.Status.CONFIRMED:
        # Demote before promoting: the partial unique index allows one confirmed row at a time.
        theirs.status = Report.Status.AGREED
        row_update(theirs, ["status"], later=True)
    # The report's INSERT and the match's UPDATE below are compiled once (core.bulk): on the path
    # of every report, save()'s machinery costs more than the rows. With its key taken with the
    # lock (report_key), the INSERT goes with the batch of the change's writes.
    key = getattr(match, "report_key", None)
    report = row_insert(Report(
        pk=key, match=match, side=side, reporter=user, score0=claim.score[0], score1=claim.score[1],
        **_full_fields(claim), winner=score_winner(match, claim.score), games=claim.games, statement=statement,
        status=status,
    ), later=key is not None)
    live.append(report)
    audit_record(actor=user, action="match.reported", object_type="matches.Report", object_id=report.pk,
                 match_id=match.pk, **hooks.audit_ids(match),
                 before={"score": list(mine.score)} if mine is not None else None,
                 after={"side": side, "score": list(claim.score), "games": len(claim.games or ())})
    # One email per change of the match's state: a side changing its report of a match that stays
    # reported, or stays disputed, tells no one again (the match page shows the reports as they are).
    was = match.status
    if theirs is None:
        match.status = Match.Status.REPORTED
        row_update(match, ["status", "updated_at"], later=True)
        if was != Match.Status.REPORTED:
            _after_commit(match, "reported")
    elif agrees:
        confirmed = report if status == Report.Status.CONFIRMED else theirs
        if confirmed is theirs:
            theirs.status = Report.Status.CONFIRMED
            row_update(theirs, ["status"], later=True)
        _apply_result(match, Claim(claim.score, claim.log if confirmed is report else None), confirmed, actor=user)
        _after_commit(match, "confirmed")
    else:
        theirs.status = Report.Status.CONTESTED
        row_update(theirs, ["status"], later=True)
        match.status = Match.Status.DISPUTED
        row_update(match, ["status", "updated_at"], later=True)
        _disputed(match, user, [list(theirs.score), list(report.score)], statement, news=was != Match.Status.DISPUTED)
    return report


@transaction.atomic
def match_confirm(*, match_id: int, user, score: tuple[int, int] | None = None) -> Report:
    """The other side confirms the pending report: the match is confirmed with that result (the
    confirming side's report agrees with it; see :func:`match_report`, whose answer this shares).

    A side none of whose players has an account (a walk-in, a guest player:
    :func:`side_cannot_answer`) can never confirm: a director who runs the match
    (:func:`user_runs_match`: its event's organiser, staff) confirms for it, with the same effects
    (the reporter's report is the result; the rating, the event's draw, the audit log and the
    emails follow as for any confirmation; the guest side's consent is not given by it). ``score``,
    when given, is the result the confirmer was shown: a pending report that says otherwise now is
    not confirmed.

    Raises Match.DoesNotExist; NotAllowed ``not_a_party`` for anyone else (a director too, when no
    report waits; ``side_has_account``: a director, for a side that confirms for itself);
    Conflict ``nothing_to_confirm``, ``report_changed`` (``score`` is not the pending report's),
    ``already_confirmed``.
    """
    with writes_batched():  # as a report's (see match_report)
        match = match_loaded(match_id, report_key=True)
        side = side_of_user(match, user)
        directed = side is None
        if directed:
            if not user_runs_match(match, user):
                raise errors.not_a_party()
            pending = next((r for r in match.live if r.status == Report.Status.PENDING and r.side is not None), None)
            # He answers only for a guest side a report waits for (or repeats the answer he gave).
            answered = next((r for r in match.live if r.reporter_id == user.pk and r.side is not None), None)
            if pending is None and answered is None:
                raise errors.not_a_party()
            side = 1 - pending.side if pending is not None else answered.side
            players = _side_players(match, side)
            if not side_cannot_answer(players):
                raise errors.side_has_account(" & ".join(p.display_name for p in players))
        theirs = next((r for r in match.live if r.side == 1 - side and r.status == Report.Status.PENDING), None)
        if theirs is None:
            if match.status == Match.Status.CONFIRMED:
                confirmed = next(r for r in match.live if r.status == Report.Status.CONFIRMED)
                if score is not None and tuple(score) != confirmed.score:
                    raise errors.already_confirmed()
                return confirmed
            raise errors.nothing_to_confirm()
        if score is not None and tuple(score) != theirs.score:
            raise errors.report_changed(theirs.score)
        claim = Claim((theirs.score0, theirs.score1))
        own = next((r for r in match.live if r.side == side), None)
        if _repeat(own, claim.score, None):
            return own
        return _report(match, side, user, claim, "", consent=not directed)


def side_cannot_answer(players) -> bool:
    """Whether a side of ``players`` (Player rows) can never confirm or contest a report itself:
    none of them has an account (walk-ins, guest players). A director confirms for it
    (:func:`match_confirm`)."""
    return all(player.user_id is None for player in players)


def _side_players(match: Match, side: int) -> list:
    """The players of side ``side`` of a match loaded by ``match_loaded`` (``seen_players``)."""
    chosen = match.sides[side]
    return [match.seen_players[pk] for pk in (chosen.player_a_id, chosen.player_b_id) if pk]


@transaction.atomic
def match_contest(*, match_id: int, user, statement: str = "") -> Match:
    """The other side contests the pending report: the match is disputed. Returns the match as
    the change left it (``live``: its live reports).

    Raises Match.DoesNotExist, NotAllowed for a non-player, Conflict when there is nothing
    pending to contest.
    """
    match = match_loaded(match_id)
    side = side_of_user(match, user)
    if side is None:
        raise errors.not_a_party()
    if match.status == Match.Status.CONFIRMED:
        raise errors.already_confirmed()
    theirs = next((r for r in match.live if r.side == 1 - side and r.status == Report.Status.PENDING), None)
    if theirs is None:
        if match.status == Match.Status.DISPUTED:
            return match
        raise errors.nothing_to_confirm()
    theirs.status = Report.Status.CONTESTED
    # The contesting side's words, kept apart from the reporter's (the pages label them).
    theirs.contest_statement = statement.strip()
    theirs.save(update_fields=["status", "contest_statement"])
    match.status = Match.Status.DISPUTED
    match.save(update_fields=["status", "updated_at"])
    _disputed(match, user, [list(theirs.score)], statement)
    return match


def _disputed(match: Match, user, scores: list[list[int]], statement: str, *, news: bool = True) -> None:
    """The match went to the director: its automatic dispute is opened (once, by rulings through
    ``hooks.result_disputed``) and, when it was not disputed before (``news``), the parties are told.
    ``scores``: the reported scores at odds (two that disagree, or the one contested); the
    dispute words the reason from them in its reader's language, ``statement`` is the user's own."""
    hooks.result_disputed.send(match=match, user=user, statement=statement.strip(), scores=scores)
    if news:
        _after_commit(match, "disputed")


@transaction.atomic
def match_override(*, match_id: int, user, claim: Claim, statement: str = "", origin: str = "",
                   origin_name: str = "") -> Report:
    """The organiser enters or overrides the result; the match is confirmed with it. The returned
    report's ``match`` is the match as the change left it (see :func:`match_report`). ``statement``
    is the director's own words; a result no person decided (a forfeit) says so by its ``origin``
    code (``Report.Origin``) and ``origin_name``, worded where it is read.

    Raises Match.DoesNotExist, NotAllowed for anyone but the match's organiser, its event's
    organiser or staff.
    """
    match = match_loaded(match_id)
    if not user_runs_match(match, user):
        raise errors.not_organiser()
    return override_result(match, user, _checked(match, claim), statement, origin=origin, origin_name=origin_name)


def override_result(match: Match, user, claim: Claim, statement: str, *, ruled_dispute: int | None = None,
                    origin: str = "", origin_name: str = "") -> Report:
    """Confirm ``claim`` (checked) as the result of the loaded, locked ``match``
    (:func:`match_loaded`) in the name of ``user``, a director: the organiser's result of
    :func:`match_override`, and the one a penalty ending the match or a ruling sets. Not a service
    of its own: it runs in its caller's transaction, after its caller's checks.

    The same result already confirmed by a director changes nothing (that report is returned).
    Otherwise the consents the director may not keep go back to pending and the rating follows
    the new winner (``consent_after_override``); every live report is superseded by a confirmed
    report of no side carrying ``statement`` (and ``origin``, ``origin_name`` for a result no
    person decided); stored games a result without logs no longer shows are removed; the result
    is applied and audited ``match.result_overridden`` (``ruled_dispute``: the dispute a ruling
    settles itself), and the players are told after the commit. Returns the confirmed report.
    A refusal of the event (a later match built on the result has started) rolls the caller's
    transaction back."""
    live = match_live_reports(match)
    current = next((r for r in live if r.status == Report.Status.CONFIRMED), None)
    if current is not None and current.side is None and _same(current, claim):
        return current
    withdrawn = consent_after_override(match, user)
    if match.status == Match.Status.CONFIRMED and match.rating_changes.exists():
        # A consent taken back leaves the match unrated (no winner for the ledger).
        match_rating_correct(match_id=match.pk, winner=None if withdrawn else score_winner(match, claim.score))
    if live:
        Report.objects.filter(pk__in=[r.pk for r in live]).update(status=Report.Status.SUPERSEDED)
    report = Report.objects.create(
        match=match, side=None, reporter=user, score0=claim.score[0], score1=claim.score[1],
        **_full_fields(claim), winner=score_winner(match, claim.score), games=claim.games, statement=statement,
        status=Report.Status.CONFIRMED, origin=origin, origin_name=origin_name,
    )
    live[:] = [report]
    if claim.games is None and match_stored_games(match):
        match.games.all().delete()
        match.stored_games = []
    _apply_result(match, claim, report, actor=user, action="match.result_overridden", note=statement,
                  ruled_dispute=ruled_dispute, origin={"code": origin, "name": origin_name} if origin else None)
    _after_commit(match, "confirmed")
    return report


@transaction.atomic
def match_reopen(*, match_id: int, actor, note: str = "", log: CheckedLog | None = None,
                 status: str = Match.Status.IN_PLAY, reports: dict[int, str] | None = None) -> Match:
    """Take a match's result back: the match is played on (a ruling had a game replayed) or is
    unconfirmed again as it was before (a ruling reverted). Rulings call it with the match
    locked, inside their transaction.

    - the rating change the result made is taken out of the ratings ledger, and the later
      changes of the players it touches recomputed without it (``match_rating_revert``);
    - score, winner and confirmation are cleared; the status becomes ``status`` (in play, or
      the unconfirmed status being restored);
    - every live report is superseded (the sides report the finished match again), except the
      reports named in ``reports`` (id -> status), which are brought back with that status;
    - ``log`` (checked game logs) replaces the stored games when given; otherwise they are kept;
    - audited ``match.reopened``; then ``hooks.result_reopened`` is sent in this transaction (in
      an event the draw is synced: a later match built on the result is reset, and one that has
      started refuses it, Conflict ``result_built_on``, which rolls the caller's whole
      transaction back).
    """
    if status == Match.Status.CONFIRMED or Report.Status.CONFIRMED in (reports or {}).values():
        raise ValueError("a reopened match has no confirmed result")
    match = match_locked(match_id)
    before = match_snapshot(match)
    if match.rating_changes.exists():
        match_rating_revert(match=match)
    live = match.reports.exclude(status=Report.Status.SUPERSEDED)
    live.exclude(pk__in=list(reports or ())).update(status=Report.Status.SUPERSEDED)
    for report_id, report_status in (reports or {}).items():
        Report.objects.filter(pk=report_id, match=match).update(status=report_status)
    match.score0 = match.score1 = match.winner = match.confirmed_at = None
    match.status = status
    match.save(update_fields=["score0", "score1", "winner", "status", "confirmed_at", "updated_at"])
    if log is not None:
        _write_games(match, log.games, log.replay)
    audit_record(actor=actor, action="match.reopened", object_type="matches.Match", object_id=match.pk,
                 match_id=match.pk, **hooks.audit_ids(match), before=before, after=match_snapshot(match), note=note)
    hooks.result_reopened.send(match=match, actor=actor)
    return match
