"""Result reporting: report, confirm, contest, override, logs that must agree with the score."""

import random
import threading

import pytest
from django.db import connection

from core.errors import Conflict, DomainError, NotAllowed
from core.models import OutboxTask
from engine.actions import action_to_dict
from engine.errors import GameLogError
from engine.randomgame import random_match_games
from matches.models import Game, Match, Report
from matches.services.logs import log_from_json
from matches.services.reporting import Claim, claim_make, match_confirm, match_contest, match_override, match_report
from tests.factories import MatchFactory, UserFactory

pytestmark = pytest.mark.django_db


def json_games(length: int, seed: int) -> list[list[dict]]:
    return [[action_to_dict(a) for a in game] for game in random_match_games(random.Random(seed), length)]


@pytest.fixture
def match():
    return MatchFactory(length=5)


@pytest.fixture
def alice(match):
    return match.side0.player_a.user


@pytest.fixture
def bob(match):
    return match.side1.player_a.user


def test_it_waits_for_the_other_side_after_one_report(match, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        report = match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.score0 is None
    assert report.side == 0 and report.status == Report.Status.PENDING and report.winner == 0
    assert len(callbacks) == 1  # the email to the other side, after commit
    assert list(OutboxTask.objects.values_list("task", "args")) == [("matches.tasks.match_notify_task",
                                                                     [match.pk, "reported"])]


def test_it_confirms_when_the_other_side_confirms(match, alice, bob, django_capture_on_commit_callbacks):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    with django_capture_on_commit_callbacks() as callbacks:
        match_confirm(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert (match.status, match.score0, match.score1, match.winner) == (Match.Status.CONFIRMED, 5, 3, 0)
    statuses = sorted(match.reports.values_list("status", flat=True))
    assert statuses == [Report.Status.AGREED, Report.Status.CONFIRMED]
    assert len(callbacks) == 2  # the emails and the rating update
    assert list(OutboxTask.objects.values_list("task", "args"))[-2:] == [
        ("matches.tasks.match_notify_task", [match.pk, "confirmed"]), ("matches.tasks.match_rating_apply_task", [match.pk])]


def test_two_matching_reports_confirm(match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (2, 5), None))
    match_report(match_id=match.pk, user=bob, claim=claim_make(match, (2, 5), None))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner == 1


def test_a_mismatch_disputes_the_match(match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=bob, claim=claim_make(match, (3, 5), None))
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    assert set(match.reports.values_list("status", flat=True)) == {Report.Status.CONTESTED}


def test_contesting_disputes_the_match(match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match_contest(match_id=match.pk, user=bob, statement="I won the last game")
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    contested = match.reports.get()
    assert (contested.statement, contested.contest_statement) == ("", "I won the last game")


def test_a_repeated_identical_report_changes_nothing(match, alice):
    first = match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    again = match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    assert again.pk == first.pk and match.reports.count() == 1


def test_a_side_may_replace_its_report_before_confirmation(match, alice):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 4), None))
    live = match.reports.exclude(status=Report.Status.SUPERSEDED).get()
    assert live.score == (5, 4)


def test_it_refuses_a_report_from_someone_else(match):
    with pytest.raises(NotAllowed):
        match_report(match_id=match.pk, user=UserFactory(), claim=claim_make(match, (5, 3), None))
    assert not match.reports.exists()


def test_a_different_report_after_confirmation_is_a_conflict(match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match_confirm(match_id=match.pk, user=bob)
    with pytest.raises(Conflict):
        match_report(match_id=match.pk, user=bob, claim=claim_make(match, (3, 5), None))
    same = match_report(match_id=match.pk, user=bob, claim=claim_make(match, (5, 3), None))
    assert same.status in (Report.Status.CONFIRMED, Report.Status.AGREED)


def test_confirming_with_nothing_pending_is_a_conflict(match, bob):
    with pytest.raises(Conflict):
        match_confirm(match_id=match.pk, user=bob)


def test_the_organiser_overrides_a_disputed_result(match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=bob, claim=claim_make(match, (3, 5), None))
    report = match_override(match_id=match.pk, user=match.organiser, claim=claim_make(match, (5, 4), None))
    match.refresh_from_db()
    assert (match.status, match.score0, match.score1) == (Match.Status.CONFIRMED, 5, 4)
    assert report.side is None and report.status == Report.Status.CONFIRMED
    assert match.reports.filter(status=Report.Status.CONFIRMED).count() == 1


def test_a_player_cannot_override(match, alice):
    with pytest.raises(NotAllowed):
        match_override(match_id=match.pk, user=alice, claim=claim_make(match, (5, 0), None))


@pytest.mark.parametrize("score", [(5, 5), (3, 4), (0, 0), (-1, 5)])
def test_it_refuses_a_score_that_cannot_end_the_match(match, score):
    with pytest.raises(DomainError) as caught:
        claim_make(match, score, None)
    assert caught.value.code == "bad_score"


def test_a_log_is_stored_as_games_when_the_result_is_confirmed(match, alice, bob):
    games = json_games(5, seed=3)
    log = log_from_json(games, match.rules())
    score = log.final_score
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, score, log))
    match_confirm(match_id=match.pk, user=bob)
    stored = list(Game.objects.filter(match=match).order_by("number"))
    assert len(stored) == len(games) == len(log.replay.games)
    assert [g.points for g in stored] == [g.result.points for g in log.replay.games]
    assert [g.crawford for g in stored] == [g.crawford for g in log.replay.games]
    assert stored[0].log == games[0]


def test_a_log_that_disagrees_with_the_claimed_score_is_refused(match):
    log = log_from_json(json_games(5, seed=3), match.rules())
    wrong = (log.final_score[1], log.final_score[0])
    with pytest.raises(DomainError) as caught:
        claim_make(match, wrong, log)
    assert caught.value.code == "log_disagrees"


def test_a_log_with_an_illegal_play_names_game_move_and_side(match):
    games = json_games(5, seed=3)
    games[0][1]["play"] = "24/1"
    with pytest.raises(GameLogError) as caught:
        log_from_json(games, match.rules())
    details = caught.value.details
    assert details["game"] == 1 and details["move"] == 1 and details["rule"] == "wrong_steps"
    assert details["side"] == games[0][0]["side"]


def test_a_double_in_the_crawford_game_is_refused():
    match = MatchFactory(length=3)
    # Game 1: side 1 resigns a gammon (2 points): 2-0 in a 3-point match, so game 2 is Crawford.
    opening = [{"type": "roll", "side": 0, "dice": [3, 1]}, {"type": "move", "side": 0, "play": "8/5 6/5"}]
    games = [
        [*opening, {"type": "resign", "side": 1, "level": 2}, {"type": "accept", "side": 0}],
        [*opening, {"type": "double", "side": 1, "value": 2}],
    ]
    with pytest.raises(GameLogError) as caught:
        log_from_json(games, match.rules())
    assert caught.value.details["rule"] == "crawford" and caught.value.details["game"] == 2


def _race(match: Match, calls) -> list[Exception]:
    """Run ``calls`` (functions of nothing) at the same moment, each on its own connection."""
    barrier = threading.Barrier(len(calls))
    failures: list[Exception] = []

    def run(call):
        try:
            barrier.wait()
            call()
        except Exception as error:  # collected and asserted by the caller
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


@pytest.mark.django_db(transaction=True)
def test_two_reports_racing_never_give_two_confirmed_results():
    # Both sides report the same result at the same moment, three times over; the row lock
    # serialises them and the partial unique index would refuse a second confirmed report anyway.
    for _ in range(3):
        match = MatchFactory(length=5)
        users = [match.side0.player_a.user, match.side1.player_a.user]
        calls = [lambda user=user, pk=match.pk: match_report(match_id=pk, user=user, claim=Claim((5, 2)))
                 for user in users]
        assert not _race(match, calls)
        match.refresh_from_db()
        assert match.status == Match.Status.CONFIRMED
        assert match.reports.filter(status=Report.Status.CONFIRMED).count() == 1


def test_a_player_who_created_his_own_match_cannot_override_it():
    from engine.match import MatchRules
    from matches.services.matches import match_create

    match = MatchFactory(length=5)
    alice, bob = match.side0.player_a, match.side1.player_a
    own = match_create(created_by=alice.user, sides=([alice], [bob]), rules=MatchRules(5))
    assert own.organiser is None
    with pytest.raises(NotAllowed):
        match_override(match_id=own.pk, user=alice.user, claim=claim_make(own, (5, 0), None))
    assert not own.reports.exists()


def test_an_organiser_who_plays_in_a_match_is_a_party_not_its_director():
    match = MatchFactory(length=5)
    match.organiser = match.side0.player_a.user
    match.save()
    with pytest.raises(NotAllowed):
        match_override(match_id=match.pk, user=match.organiser, claim=claim_make(match, (5, 0), None))


def test_a_repeated_report_reads_once_and_writes_nothing(match, alice, django_assert_num_queries):
    first = match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    # the service's savepoint and its release, and the lock with the reports seen (one query)
    with django_assert_num_queries(3):
        again = match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    assert again.pk == first.pk
