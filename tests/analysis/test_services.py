"""analysis.services: a request (each refusal, nothing written on one), the run (to done at 0-ply,
throttled progress), idempotence (a second delivery of a done run), a re-request replacing the
first, a stale run queued again, the depth from the event or the settings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from analysis import gnubg_adapter, services
from analysis.compute import AnalysisNotWritable
from analysis.gnubg_reader import AnalysisMismatch
from analysis.models import MatchAnalysis
from analysis.services import match_analysis_request, match_analysis_run
from analysis.texts import FAILURES, failure_text
from core.errors import Conflict, DomainError, NotAllowed
from core.models import OutboxTask
from matches.models import Game, Match
from tests.analysis.conftest import confirm_with_file, same_verdict
from tests.tournaments.factories import drawn, player
from tournaments.models import EventMatch

pytestmark = pytest.mark.django_db
TASK = "analysis.tasks.match_analysis_task"


def analysis_rows(match) -> list[OutboxTask]:
    return list(OutboxTask.objects.filter(task=TASK, args__0=match.pk).order_by("pk"))


# --- refusals --------------------------------------------------------------------------------------


def test_a_match_without_games_is_refused_and_nothing_is_written(cast):
    with pytest.raises(Conflict) as refused:
        match_analysis_request(cast.match, actor=cast.organiser)
    assert refused.value.code == "no_game_logs"
    assert not MatchAnalysis.objects.exists() and not analysis_rows(cast.match)


def test_without_gnubg_the_analysis_is_not_offered(played, monkeypatch):
    MatchAnalysis.objects.all().delete()
    monkeypatch.setattr(gnubg_adapter, "available", lambda: False)
    with pytest.raises(Conflict) as refused:
        match_analysis_request(played.match, actor=played.organiser)
    assert refused.value.code == "analysis_unavailable"
    assert not MatchAnalysis.objects.exists()


@pytest.mark.parametrize("role", ["alice", "bob", "carol", "other_organiser"])
def test_only_the_matchs_director_may_ask(played, role):
    before = MatchAnalysis.objects.get(pk=played.match.pk).generation
    with pytest.raises(NotAllowed) as refused:
        match_analysis_request(played.match, actor=played.user(role))
    assert refused.value.code == "not_match_director"
    assert MatchAnalysis.objects.get(pk=played.match.pk).generation == before


@pytest.mark.parametrize("plies", [3, -1, True, "2"])
def test_a_depth_other_than_0_1_or_2_is_refused(played, plies):
    with pytest.raises(DomainError) as refused:
        match_analysis_request(played.match, actor=played.organiser, plies=plies)
    assert (refused.value.code, refused.value.details["field"]) == ("bad_plies", "plies")
    assert len(analysis_rows(played.match)) == 1  # only the confirmation's


def test_an_unknown_match_is_does_not_exist(cast):
    with pytest.raises(Match.DoesNotExist):
        match_analysis_request(cast.match.pk + 1000, actor=cast.staff)


# --- the request ----------------------------------------------------------------------------------


def test_the_director_or_staff_ask_and_the_task_is_written_in_the_outbox(played):
    for actor, generation in ((played.organiser, 2), (played.staff, 3)):
        row = match_analysis_request(played.match.pk, actor=actor, plies=0)
        assert (row.status, row.plies, row.generation, row.requested_by) == ("queued", 0, generation, actor)
    assert [row.args for row in analysis_rows(played.match)] == [[played.match.pk, 1], [played.match.pk, 2],
                                                                 [played.match.pk, 3]]
    assert {row.queue for row in analysis_rows(played.match)} == {"analysis"}
    # A person's request is in the director's log (the confirmation's own queueing, the system's, is not).
    from audit.models import AuditEntry
    asked = AuditEntry.objects.filter(action="match.analysis_requested", match_id=played.match.pk).order_by("pk")
    assert [(e.actor_id, e.after) for e in asked] == [(played.organiser.pk, {"plies": 0, "generation": 2}),
                                                      (played.staff.pk, {"plies": 0, "generation": 3})]


def test_the_depth_is_the_events_else_the_settings(cast, settings):
    settings.ANALYSIS_PLIES = 1
    confirm_with_file(cast.match, cast.alice, cast.bob)
    assert MatchAnalysis.objects.get(pk=cast.match.pk).plies == 1
    tournament, _ = drawn(2, players=[player("dave"), player("erin")], organiser=cast.organiser)
    tournament.analysis_plies = 0
    tournament.save(update_fields=["analysis_plies"])
    EventMatch.objects.create(match=cast.match, tournament=tournament)
    assert match_analysis_request(cast.match, actor=cast.staff).plies == 0
    assert match_analysis_request(cast.match, actor=cast.staff, plies=2).plies == 2  # the director's choice


def test_the_site_runs_no_deeper_than_its_maximum(cast, settings):
    """Without a broker the task runs in the confirming request: a laptop (ANALYSIS_MAX_PLIES 0)
    analyses at 0-ply whatever the event or the director asks, and the row says so."""
    settings.ANALYSIS_PLIES, settings.ANALYSIS_MAX_PLIES = 2, 0
    confirm_with_file(cast.match, cast.alice, cast.bob)
    assert MatchAnalysis.objects.get(pk=cast.match.pk).plies == 0
    assert match_analysis_request(cast.match, actor=cast.staff, plies=2).plies == 0
    settings.ANALYSIS_MAX_PLIES = 1
    assert match_analysis_request(cast.match, actor=cast.staff, plies=2).plies == 1


# --- the run --------------------------------------------------------------------------------------


def test_the_run_analyses_every_decision_and_stores_each_sides_summary(played):
    match_analysis_request(played.match, actor=played.organiser, plies=0)
    row = match_analysis_run(played.match.pk)
    assert row.status == "done" and row.analysed_at is not None and row.attempt == 1
    assert row.done == row.total > 0
    result = row.result
    assert (result["version"], result["plies"], result["settings"]["depth"]) == (2, 0, "0-ply")
    assert len(result["games"]) == Game.objects.filter(match=played.match).count()
    for side in (0, 1):
        stats = result["sides"][side]
        assert row.side(side) == {name: stats[name] for name in ("decisions", "unforced", "equity_lost", "error_rate",
                                                                 "pr", "errors", "blunders")}
        assert stats["equity_lost"] >= 0
        if stats["unforced"]:
            assert row.side(side)["pr"] == pytest.approx(500 * stats["equity_lost"] / stats["unforced"])
    decisions = [d for game in result["games"] for d in game["decisions"]]
    # total counts every decision looked at (a no-double far from doubling is looked at, not listed)
    assert sum(result["sides"][s]["decisions"] for s in (0, 1)) == len(decisions) <= row.total
    assert all(d["loss"] >= 0 for d in decisions)


def test_progress_is_written_at_most_every_interval_and_at_the_end(played, settings, monkeypatch):
    match_analysis_request(played.match, actor=played.organiser, plies=0)
    writes = []
    real = services._Progress.write

    def counted(self, done, total):
        writes.append(done)
        real(self, done, total)

    monkeypatch.setattr(services._Progress, "write", counted)
    settings.ANALYSIS_PROGRESS_SECONDS = 3600
    row = match_analysis_run(played.match.pk)
    assert writes == [0, row.total]  # the count, then the last decision: nothing between
    settings.ANALYSIS_PROGRESS_SECONDS = 0
    writes.clear()
    match_analysis_request(played.match, actor=played.organiser, plies=0)
    match_analysis_run(played.match.pk)
    # gnubg reports each game as it finishes it: the decisions of the games done so far.
    games = Game.objects.filter(match=played.match).count()
    assert 2 < len(writes) <= games + 1 and writes[0] == 0 and writes[-1] == row.total
    assert writes == sorted(set(writes))


def test_a_second_delivery_of_a_done_run_changes_nothing(played):
    match_analysis_request(played.match, actor=played.organiser, plies=0)
    first = match_analysis_run(played.match.pk, generation=2)
    again = match_analysis_run(played.match.pk, generation=2)
    assert (again.status, again.attempt, again.analysed_at, again.result) == (
        "done", first.attempt, first.analysed_at, first.result)


def test_a_re_request_replaces_the_first_and_the_older_run_changes_nothing(played):
    match_analysis_request(played.match, actor=played.organiser, plies=0)
    done = match_analysis_run(played.match.pk, generation=2)
    again = match_analysis_request(played.match, actor=played.organiser, plies=0)
    assert (again.generation, again.status, again.result, again.pr0, again.done) == (3, "queued", None, None, 0)
    assert match_analysis_run(played.match.pk, generation=2).status == "queued"  # the old delivery: nothing
    replaced = match_analysis_run(played.match.pk, generation=3)
    assert (replaced.status, replaced.generation) == ("done", 3)
    assert same_verdict(replaced, done)  # the same games, the same verdict
    assert MatchAnalysis.objects.count() == 1


def test_a_run_overtaken_by_a_new_request_stops_at_its_next_progress_write(played, settings, monkeypatch):
    settings.ANALYSIS_PROGRESS_SECONDS = 0
    match_analysis_request(played.match, actor=played.organiser, plies=0)
    real = services._Progress.write
    seen = []

    def overtaken(self, done, total):
        seen.append(done)
        if len(seen) == 2:  # as gnubg finishes the first game
            MatchAnalysis.objects.filter(pk=self.row.pk).update(generation=self.row.generation + 1,
                                                                status="queued", done=0)
        real(self, done, total)

    monkeypatch.setattr(services._Progress, "write", overtaken)
    row = match_analysis_run(played.match.pk)
    assert len(seen) == 2 and (row.status, row.result) == ("queued", None)  # no game analysed after it


def test_a_stale_run_is_discarded_and_queued_again_for_the_games_as_they_are(played, monkeypatch):
    match_analysis_request(played.match, actor=played.organiser, plies=0)
    real = services.analyse_match

    def games_changed_meanwhile(*args, **kwargs):
        result = real(*args, **kwargs)
        # A ruling replays the last game from another log while the run works (no request made).
        game = Game.objects.filter(match=played.match).order_by("-number").first()
        Game.objects.filter(pk=game.pk).update(log=game.log[:-1])
        return result

    monkeypatch.setattr(services, "analyse_match", games_changed_meanwhile)
    row = match_analysis_run(played.match.pk, generation=2)
    assert (row.status, row.generation, row.result) == ("queued", 3, None)
    assert analysis_rows(played.match)[-1].args == [played.match.pk, 3]


def test_a_match_whose_games_are_gone_fails_with_a_reason(played):
    Game.objects.filter(match=played.match).delete()
    row = match_analysis_run(played.match.pk, generation=1)
    assert (row.status, row.failure_code) == ("failed", "games_gone")


def test_gnubg_missing_on_the_worker_fails_the_run_with_a_reason(played, monkeypatch):
    def missing(*args, **kwargs):
        raise services.AnalysisUnavailable("gnubg is not installed")

    monkeypatch.setattr(services, "analyse_match", missing)
    row = match_analysis_run(played.match.pk, generation=1)
    assert (row.status, row.failure_code, row.result) == ("failed", "analysis_unavailable", None)
    assert match_analysis_run(played.match.pk, generation=1).status == "failed"  # done with for good


@pytest.mark.parametrize("refusal", [AnalysisMismatch("game 2, move 7: GNU Backgammon's play does not give the "
                                                      "engine's position"),
                                     AnalysisNotWritable("the match cannot be written for GNU Backgammon")])
def test_a_match_gnubg_reads_otherwise_or_cannot_be_given_fails_with_its_own_reason(played, monkeypatch, refusal):
    def refuse(*args, **kwargs):
        raise refusal

    monkeypatch.setattr(services, "analyse_match", refuse)
    row = match_analysis_run(played.match.pk, generation=1)
    assert (row.status, row.failure_code, row.failure) == ("failed", refusal.code, str(refusal))
    # What a person reads is the reason's sentence, not "gnubg is not installed".
    assert failure_text(row.failure_code) == str(FAILURES[refusal.code]) != str(FAILURES["analysis_unavailable"])


@pytest.mark.parametrize(("plies", "lowered_from", "outcome"), [
    (1, None, ("done", 0, 1, "")),  # run again one ply lower
    (0, 1, ("failed", 0, 1, "time_limit")),  # lowered already: killed again, it fails
    (0, None, ("failed", 0, None, "time_limit")),  # nothing lower than 0-ply
])
def test_a_run_killed_at_the_hard_time_limit_runs_again_one_ply_lower_once(played, settings, plies, lowered_from,
                                                                           outcome):
    killed = timezone.now() - timedelta(seconds=settings.ANALYSIS_TIME_LIMIT + 1)
    MatchAnalysis.objects.filter(pk=played.match.pk).update(status="running", attempt=1, plies=plies,
                                                            lowered_from=lowered_from, started_at=killed)
    row = match_analysis_run(played.match.pk, generation=1)
    assert (row.status, row.plies, row.lowered_from, row.failure_code) == outcome
    assert match_analysis_run(played.match.pk, generation=1).status == outcome[0]  # a redelivery: as it is


def test_a_run_redelivered_within_the_time_limit_runs(played):
    MatchAnalysis.objects.filter(pk=played.match.pk).update(status="running", attempt=1, started_at=timezone.now())
    assert match_analysis_run(played.match.pk, generation=1).status == "done"
