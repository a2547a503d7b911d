"""Penalty points mid-match (RULES.md §9; §5, the Crawford game): every ruling on
a match with a mid-match penalty replays the match with it, so the penalty stays in the score,
between the same two games, and the Crawford game follows from it; an overturned ruling puts the
penalty back as it was."""

from __future__ import annotations

import pytest

from core.errors import DomainError
from matches.models import Match, MatchPenalty
from matches.services.logs import log_from_json
from matches.services.penalties import match_penalty_give
from matches.services.reporting import claim_make, match_report
from rulings.models import Dispute, Ruling
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make, ruling_revert
from tests.rulings.factories import make_cast, won
from tests.rulings.test_services_rulings import as_played_game_1

RULE = "RULES.md §9"
WHY = "The scoresheet and both players agree."

pytestmark = pytest.mark.django_db

#: 5-point match: game 1 to Alice (a gammon, 2-0); then Bob is given 2 penalty points (late after
#: the break): 4-0, so game 2 is the Crawford game (Bob 1: 4-1); Bob's gammon 4-3; Alice 5-3.
RECORD = [won(0, 2), won(1), won(1, 2), won(0)]
RECORDED = [(0, 0, False), (4, 0, True), (4, 1, False), (4, 3, False)]


@pytest.fixture
def cast():
    return make_cast()


def played_with_penalty(cast, games=RECORD, *, policy=None) -> Match:
    """The match played with Bob's penalty at 2-0, both sides reporting ``games``."""
    match = cast.match
    if policy:
        Match.objects.filter(pk=match.pk).update(move_policy=policy)
    match_penalty_give(match.pk, 1, 2, MatchPenalty.Reason.LATE, cast.organiser, score=(2, 0))
    match.refresh_from_db()
    log = log_from_json(games, match.rules(), start=match.start, penalties=match.penalties_at())
    for side in match.sides:
        match_report(match_id=match.pk, user=side.player_a.user, claim=claim_make(match, log.final_score, log))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert games_of(match) == RECORDED[: len(games)]
    return match


def games_of(match: Match) -> list[tuple]:
    """(score0 before, score1 before, Crawford) of each stored game."""
    return list(match.games.order_by("number").values_list("score0", "score1", "crawford"))


def rule(cast, outcome, params=None, **dispute):
    dispute.setdefault("category", Dispute.Category.OTHER)
    opened = dispute_open(match_id=cast.match.pk, user=cast.bob, statement="At the board.", **dispute)
    return ruling_make(dispute_id=opened.pk, user=cast.organiser, outcome=outcome, params=params or {}, rule=RULE,
                       reasoning=WHY)


def result(match) -> tuple:
    match.refresh_from_db()
    return match.status, match.score0, match.score1, match.winner


def penalty_at(match) -> list[tuple]:
    """Where each mid-match penalty now stands: the engine's score and the row's before, after,
    Crawford flag."""
    match.refresh_from_db()
    rows = [(p.score_before, p.score_after, p.crawford_next) for p in match.penalties.all()]
    return [tuple(p["score"]) for p in match.penalties_mid], rows


KEPT = ([(2, 0)], [((2, 0), (4, 0), True)])

CASES = [
    # label, policy, outcome, params, dispute, result, stored games (score before, Crawford), penalty
    ("an illegal play corrected", None, Ruling.Outcome.PLAY_CORRECTED,
     {"play": "8/5 6/5", "noticed_before_next_roll": True}, {"game_number": 1, "move_number": 2, "log": "g1"},
     ("confirmed", 5, 3, 0), RECORDED, KEPT),
    ("an illegal play condoned (responsible moves)", Match.MovePolicy.RESPONSIBLE, Ruling.Outcome.PLAY_CONDONED,
     {"noticed_before_next_roll": True}, {"game_number": 1, "move_number": 2, "log": "g1"},
     ("confirmed", 5, 3, 0), RECORDED, KEPT),
    ("an illegal play that stood (legal moves)", None, Ruling.Outcome.PLAY_CONDONED,
     {"noticed_before_next_roll": False}, {"game_number": 1, "move_number": 2, "log": "g1"},
     ("confirmed", 5, 3, 0), RECORDED, KEPT),
    # Game 3 void: 2-0, the penalty 4-0, the Crawford game 4-1, Alice 5-1.
    ("a later game voided", None, Ruling.Outcome.GAME_VOIDED, {}, {"game_number": 3},
     ("confirmed", 5, 1, 0), [(0, 0, False), (4, 0, True), (4, 1, False)], KEPT),
    # Game 1 void: the penalty now comes before the first game (2-0), Bob 2-1, 2-3, Alice 3-3: played on.
    ("the game before the penalty voided", None, Ruling.Outcome.GAME_VOIDED, {}, {"game_number": 1},
     ("in_play", None, None, None), [(2, 0, False), (2, 1, False), (2, 3, False)],
     ([(0, 0)], [((0, 0), (2, 0), False)])),
    ("the last game to be replayed", None, Ruling.Outcome.GAME_REPLAYED, {}, {"game_number": 4},
     ("in_play", None, None, None), RECORDED[:3], KEPT),
    # RULES 5 + 9: game 2 is the Crawford game only because of the penalty: its double is void.
    ("a Crawford-game double voided", None, Ruling.Outcome.CRAWFORD_DOUBLE_VOIDED, {},
     {"game_number": 2, "log": won(1, 1, doubled=True), "category": Dispute.Category.CRAWFORD_DOUBLE},
     ("confirmed", 5, 3, 0), RECORDED, KEPT),
    ("the result stands", None, Ruling.Outcome.STANDS, {}, {}, ("confirmed", 5, 3, 0), RECORDED, KEPT),
    ("the score corrected", None, Ruling.Outcome.SCORE_CORRECTED, {"score": [5, 4]}, {},
     ("confirmed", 5, 4, 0), [], KEPT),
    # The loser keeps the points the penalty gave him (RULES 9: an award keeps the score as it stood).
    ("the match awarded", None, Ruling.Outcome.MATCH_AWARDED, {"side": 1}, {}, ("confirmed", 4, 5, 1), [], KEPT),
]


@pytest.mark.parametrize(("label", "policy", "outcome", "params", "dispute", "expected", "games", "penalty"), CASES,
                         ids=[case[0] for case in CASES])
def test_rules_9_a_ruling_on_a_match_with_a_mid_match_penalty_keeps_the_penalty_and_its_crawford_game(
    cast, label, policy, outcome, params, dispute, expected, games, penalty,
):
    match = played_with_penalty(cast, policy=policy)
    dispute = {**dispute, "log": as_played_game_1()} if dispute.get("log") == "g1" else dispute
    ruling = rule(cast, outcome, params, **dispute)
    assert result(match) == expected, label
    if games or outcome in (Ruling.Outcome.SCORE_CORRECTED, Ruling.Outcome.MATCH_AWARDED):
        assert games_of(match) == games, label
    assert penalty_at(match) == penalty, label
    # RULES 9, appeals: overturned, the match and its penalty are as they were.
    ruling.refresh_from_db()
    ruling_revert(ruling=ruling, actor=cast.staff)
    assert result(match) == ("confirmed", 5, 3, 0), label
    assert games_of(match) == RECORDED, label
    assert penalty_at(match) == KEPT, label


def test_rules_9_without_its_penalty_game_2_is_no_crawford_game_and_its_double_stands(cast):
    # The contrast of the Crawford case above: game 2 at 2-0, with no penalty before it.
    match = cast.match
    log = log_from_json([won(0, 2), won(1), won(0, 2), won(0)], match.rules())
    for side in match.sides:
        match_report(match_id=match.pk, user=side.player_a.user, claim=claim_make(match, log.final_score, log))
    with pytest.raises(DomainError) as refused:
        rule(cast, Ruling.Outcome.CRAWFORD_DOUBLE_VOIDED, {}, game_number=2, log=won(1, 1, doubled=True))
    assert refused.value.details["reason"] == "not_crawford_game"


def test_rules_9_penalty_points_ruled_after_a_mid_match_penalty_are_given_at_the_score_as_it_stands(cast):
    # 2-1, Alice penalised 1 (2-2); the director rules Bob 2 points late: 4-2, the Crawford game next.
    match = cast.match
    match_penalty_give(match.pk, 0, 1, MatchPenalty.Reason.SLOW_PLAY, cast.organiser, score=(2, 1))
    ruling = rule(cast, Ruling.Outcome.PENALTY_POINTS, {"side": 1, "points": 2}, category=Dispute.Category.LATE_ARRIVAL)
    assert ruling.params == {"side": 1, "points": 2, "mid_match": True}
    assert penalty_at(match) == ([(2, 1), (2, 2)], [((2, 1), (2, 2), False), ((2, 2), (4, 2), True)])
    assert match.start == (0, 0) and match.status == Match.Status.SCHEDULED
    ruling.refresh_from_db()
    ruling_revert(ruling=ruling, actor=cast.staff)
    assert penalty_at(match) == ([(2, 1)], [((2, 1), (2, 2), False)])


def test_rules_9_penalty_points_ruled_that_pass_half_the_length_with_the_mid_match_ones_lose_the_match(cast):
    match = cast.match
    match_penalty_give(match.pk, 1, 2, MatchPenalty.Reason.LATE, cast.organiser, score=(0, 0))
    rule(cast, Ruling.Outcome.PENALTY_POINTS, {"side": 1, "points": 1}, category=Dispute.Category.LATE_ARRIVAL)
    assert result(match) == ("confirmed", 5, 0, 0)
