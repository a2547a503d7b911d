"""Penalty points given mid-match (RULES.md §9): the service
(matches.services.penalties.match_penalty_give)."""

import pytest

from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match, MatchPenalty
from matches.services.penalties import match_penalty_give
from tests.factories import MatchFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    return MatchFactory(length=5, status=Match.Status.IN_PLAY)


@pytest.mark.parametrize(
    ("label", "score", "side", "points", "after", "crawford", "winner"),
    [
        ("RULES.md §9+§5: 3-3, 1 against side 1 -> 4-3, the Crawford game next", (3, 3), 1, 1, (4, 3), True, None),
        ("RULES.md §9: 1-1, 1 against side 0 -> 1-2, no Crawford game", (1, 1), 0, 1, (1, 2), False, None),
        ("RULES.md §9: 3-3 -> 3-4 -> Crawford for side 1", (3, 3), 0, 1, (3, 4), True, None),
        ("RULES.md §9+§5: 4-4 is double match point: 4-3 + 1 -> 4-4, no Crawford", (4, 3), 0, 1, (4, 4), False, None),
        ("RULES.md §5: a penalty to the length ends the match", (4, 2), 1, 1, (5, 2), False, 0),
        ("RULES.md §9: 3 of 5 is more than half the length: the match is lost", (0, 0), 0, 3, (0, 3), False, 1),
    ],
)
def test_rules_9_a_director_gives_penalty_points_between_games(match, label, score, side, points, after, crawford,
                                                                winner):
    penalty = match_penalty_give(match.pk, side, points, "late", match.organiser, score=score)
    assert penalty.score_after == after, label
    match.refresh_from_db()
    if winner is None:
        assert penalty.crawford_next is crawford and not penalty.ended_match
        assert match.status == Match.Status.IN_PLAY
    else:
        assert penalty.ended_match
        assert (match.status, match.winner) == (Match.Status.CONFIRMED, winner)
        assert match.reports.get(status="confirmed").side is None
    entry = AuditEntry.objects.get(action="match.penalty_given", match_id=match.pk)
    assert entry.after["after"] == list(after) and entry.before == {"score": list(score)}


def test_rules_9_penalties_add_up_to_more_than_half_the_length(match):
    match_penalty_give(match.pk, 0, 1, "late", match.organiser, score=(1, 0))
    match_penalty_give(match.pk, 0, 1, "slow_play", match.organiser, score=(2, 2))
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY
    last = match_penalty_give(match.pk, 0, 1, "other", match.organiser)  # at 2-3, the score the last one left
    assert last.score_before == (2, 3) and last.ended_match
    match.refresh_from_db()
    assert (match.status, match.winner, match.score0, match.score1) == (Match.Status.CONFIRMED, 1, 2, 5)


def test_rules_9_the_starting_penalty_points_count_towards_the_total():
    match = MatchFactory(length=5, penalty1=2)  # a ruling gave side 0 two points at the start: 0-2
    penalty = match_penalty_give(match.pk, 0, 1, "late", match.organiser)
    assert penalty.score_before == (0, 2) and penalty.ended_match


def test_a_match_point_score_before_leaves_the_crawford_game_to_the_games(match):
    penalty = match_penalty_give(match.pk, 0, 1, "late", match.organiser, score=(4, 1))
    assert penalty.score_after == (4, 2) and penalty.crawford_next is None


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"side": 2}, "side"),
        ({"points": 0}, "points"),
        ({"points": 6}, "points"),
        ({"reason": "rude"}, "reason"),
        ({"score": (5, 0)}, "score"),
        ({"score": (1,)}, "score"),
    ],
)
def test_bad_figures_are_refused_on_their_field_and_nothing_is_saved(match, kwargs, field):
    args = {"side": 1, "points": 1, "reason": "late", **kwargs}
    with pytest.raises(DomainError) as caught:
        match_penalty_give(match.pk, args["side"], args["points"], args["reason"], match.organiser,
                           score=kwargs.get("score"))
    assert caught.value.details["field"] == field
    assert not MatchPenalty.objects.exists() and not AuditEntry.objects.filter(action="match.penalty_given").exists()


def test_a_score_below_the_last_penalty_is_refused(match):
    match_penalty_give(match.pk, 1, 1, "late", match.organiser, score=(2, 2))
    with pytest.raises(DomainError) as caught:
        match_penalty_give(match.pk, 1, 1, "late", match.organiser, score=(1, 2))
    assert caught.value.details["field"] == "score" and "3-2" in caught.value.message


def test_only_whoever_runs_the_match_gives_penalty_points(match):
    for user in (match.side0.player_a.user, UserFactory(organiser=True)):
        with pytest.raises(NotAllowed):
            match_penalty_give(match.pk, 1, 1, "late", user)
    assert match_penalty_give(match.pk, 1, 1, "late", UserFactory(staff=True)).points == 1


def test_a_finished_match_or_a_money_session_takes_no_penalty():
    finished = MatchFactory(length=5, status=Match.Status.CONFIRMED, score0=5, score1=0, winner=0)
    with pytest.raises(Conflict):
        match_penalty_give(finished.pk, 1, 1, "late", finished.organiser)
    money = MatchFactory(money=True)
    with pytest.raises(DomainError) as caught:
        match_penalty_give(money.pk, 1, 1, "late", money.organiser)
    assert caught.value.code == "penalty_money"


def test_rules_9_a_log_reported_after_a_mid_match_penalty_replays_with_it(match):
    """RULES.md §9 + §5: given at 3-3 (4-3 after it), the reported log's seventh game is the
    Crawford game and the logs give the claimed 5-3."""
    from engine.actions import action_to_dict
    from matches.services.reporting import Draft, match_report
    from tests.engine.test_game import log
    from tests.engine.test_match import resigned

    match_penalty_give(match.pk, 1, 1, "late", match.organiser, score=(3, 3))
    games = [[action_to_dict(a) for a in log(resigned(side, 1))] for side in (0, 1, 0, 1, 0, 1, 0)]
    match.refresh_from_db()
    report = match_report(match_id=match.pk, user=match.side0.player_a.user, claim=Draft((5, 3), games))
    assert report.games == games
    assert report.match.status == Match.Status.REPORTED
    with pytest.raises(DomainError):  # without the penalty the logs give 4-3
        match_report(match_id=MatchFactory(length=5).pk, user=UserFactory(), claim=Draft((5, 3), games))
