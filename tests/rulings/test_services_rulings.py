"""Rulings: each outcome applied end to end (scores, game records, ratings, the bracket), each
refusal leaving every row as it was, undoing a ruling, and two directors racing on one dispute."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match, RatingChange, Report
from matches.services.logs import log_from_json
from matches.services.reporting import claim_make, match_report
from rulings.models import Appeal, Dispute, Ruling
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_apply, ruling_make, ruling_revert
from tests.concurrency import at_once
from tests.factories import MatchFactory, UserFactory
from tests.matches.factories_ratings import run_tasks_inline
from tests.rulings.factories import (
    ILLEGAL_PLAY,
    confirm_score,
    confirm_with_games,
    make_cast,
    move,
    roll,
    snapshot,
    stored_games,
    won,
)
from tests.tournaments.factories import drawn, entry_of, pairing, play, report_only
from tournaments.models import Entry, Tournament
from tournaments.services import tournament_pair_next_round

pytestmark = pytest.mark.django_db

RULE = "RULES.md §9"
WHY = "Both players and the spectator agree on what happened."

#: 5-point match, 5-2 for side 0: single, gammon to side 1, gammon, gammon.
RECORD = [won(0), won(1, 2), won(0, 2), won(0, 2)]


@pytest.fixture
def cast():
    return make_cast()


def dispute_on(match, user, **fields):
    fields.setdefault("category", Dispute.Category.OTHER)
    fields.setdefault("statement", "Something happened at the board.")
    return dispute_open(match_id=match.pk, user=user, **fields)


def rule_on(dispute, user, outcome, params=None, **fields):
    return ruling_make(dispute_id=dispute.pk, user=user, outcome=outcome, params={} if params is None else params,
                       rule=fields.get("rule", RULE), reasoning=fields.get("reasoning", WHY))


def result(match) -> tuple:
    match.refresh_from_db()
    return match.status, match.score0, match.score1, match.winner


def as_played_game_1() -> list[dict]:
    """Game 1 as it was really played: side 0 left the 1 of his 31 unplayed, and side 1 then
    resigned a gammon (the record says a single)."""
    return [roll(0), move(0, ILLEGAL_PLAY), {"type": "resign", "side": 1, "level": 2}, {"type": "accept", "side": 0}]


# --- who may rule, and on what ------------------------------------------------------------------


@pytest.mark.parametrize("role", ["alice", "bob", "carol", "other_organiser"])
def test_only_the_director_may_rule_and_a_refusal_changes_nothing(cast, role):
    dispute = dispute_on(cast.match, cast.bob)
    before = snapshot()
    with pytest.raises(NotAllowed) as refused:
        rule_on(dispute, cast.user(role), Ruling.Outcome.WARNING, {"side": 0})
    assert refused.value.code == "not_director"
    assert snapshot() == before


def test_a_staff_member_who_plays_the_match_may_not_rule_on_it(cast):
    cast.alice.is_staff = True
    cast.alice.save(update_fields=["is_staff"])
    dispute = dispute_on(cast.match, cast.bob)
    with pytest.raises(NotAllowed):
        rule_on(dispute, cast.alice, Ruling.Outcome.WARNING, {"side": 0})


def test_staff_may_rule(cast):
    dispute = dispute_on(cast.match, cast.bob)
    assert rule_on(dispute, cast.staff, Ruling.Outcome.WARNING, {"side": 0}).director == cast.staff


@pytest.mark.parametrize("status", [Dispute.Status.RULED, Dispute.Status.APPEALED, Dispute.Status.DECIDED])
def test_a_ruling_on_a_closed_dispute_is_refused_and_changes_nothing(cast, status):
    dispute = dispute_on(cast.match, cast.bob)
    Dispute.objects.filter(pk=dispute.pk).update(status=status)
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.SCORE_CORRECTED, {"score": [5, 0]})
    assert refused.value.code == "dispute_closed"
    assert snapshot() == before


@pytest.mark.parametrize(("outcome", "params", "field"), [
    ("reprimand", {}, "outcome"),
    (Ruling.Outcome.WARNING, [0], "params"),
    (Ruling.Outcome.WARNING, {}, "side"),
    (Ruling.Outcome.WARNING, {"side": 2}, "side"),
    (Ruling.Outcome.WARNING, {"side": True}, "side"),
    (Ruling.Outcome.WARNING, {"side": 0, "points": 1}, "points"),
    (Ruling.Outcome.SCORE_CORRECTED, {}, "score"),
    (Ruling.Outcome.SCORE_CORRECTED, {"score": [5, 5]}, "score"),
    (Ruling.Outcome.SCORE_CORRECTED, {"score": [4, 3]}, "score"),
    (Ruling.Outcome.SCORE_CORRECTED, {"score": "5-3"}, "score"),
    (Ruling.Outcome.STANDS, {"score": [5, 3]}, "score"),
    (Ruling.Outcome.PENALTY_POINTS, {"side": 0}, "points"),
    (Ruling.Outcome.PENALTY_POINTS, {"side": 0, "points": 1, "minutes_late": 5}, "points"),
    (Ruling.Outcome.PENALTY_POINTS, {"side": 0, "points": 0}, "points"),
    (Ruling.Outcome.PENALTY_POINTS, {"side": 0, "minutes_late": 4}, "minutes_late"),
    (Ruling.Outcome.PENALTY_POINTS, {"side": 0, "minutes_late": -5}, "minutes_late"),
    (Ruling.Outcome.PLAY_CORRECTED, {"game": 1, "move": 2, "play": "8/5 6/5"}, "noticed_before_next_roll"),
    (Ruling.Outcome.PLAY_CORRECTED, {"game": 1, "move": 2, "noticed_before_next_roll": True}, "play"),
    (Ruling.Outcome.PLAY_CORRECTED, {"game": 1, "move": 2, "play": "8/5 6/5", "noticed_before_next_roll": False},
     "noticed_before_next_roll"),
    (Ruling.Outcome.GAME_VOIDED, {"game": 0}, "game"),
    (Ruling.Outcome.GAME_VOIDED, {}, "game"),
])
def test_bad_params_are_refused_with_their_field_and_nothing_is_saved(cast, outcome, params, field):
    dispute = dispute_on(cast.match, cast.bob)
    before = snapshot()
    with pytest.raises(DomainError) as refused:
        rule_on(dispute, cast.organiser, outcome, params)
    assert (refused.value.code, refused.value.details["field"]) == ("bad_ruling", field)
    assert snapshot() == before


@pytest.mark.parametrize("field", ["rule", "reasoning"])
def test_a_ruling_names_its_rule_and_says_why(cast, field):
    dispute = dispute_on(cast.match, cast.bob)
    with pytest.raises(DomainError) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.WARNING, {"side": 0}, **{field: "  "})
    assert refused.value.details["field"] == field
    assert not Ruling.objects.exists()


# --- stands, corrected, awarded, warned ---------------------------------------------------------


def test_the_result_stands_unchanged_and_the_ruling_is_recorded_and_audited(cast):
    confirm_score(cast.match, (5, 3))
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.SCORE_DISAGREEMENT)
    other = dispute_on(cast.match, cast.alice, category=Dispute.Category.CONDUCT)
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.STANDS)
    assert result(cast.match) == ("confirmed", 5, 3, 0)
    assert (ruling.status, ruling.director, ruling.rule, ruling.params) == ("in_force", cast.organiser, RULE, {})
    assert ruling.changes["before"]["score"] == ruling.changes["after"]["score"] == [5, 3]
    dispute.refresh_from_db()
    other.refresh_from_db()
    assert (dispute.status, other.status) == ("ruled", "open")  # the match's other disputes stay open
    entry = AuditEntry.objects.get(action="ruling.made", object_id=ruling.pk)
    assert (entry.actor_id, entry.match_id, entry.note, entry.after["outcome"]) == (
        cast.organiser.pk, cast.match.pk, RULE, "stands")


def test_on_disputed_reports_the_director_says_which_result_stands(cast):
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (3, 5), None))
    dispute = Dispute.objects.get(match=match, automatic=True)
    with pytest.raises(DomainError) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.STANDS)
    assert refused.value.details["field"] == "score" and "5-3, 3-5" in refused.value.message
    with pytest.raises(DomainError):
        rule_on(dispute, cast.organiser, Ruling.Outcome.STANDS, {"score": [5, 1]})  # nobody reported that
    rule_on(dispute, cast.organiser, Ruling.Outcome.STANDS, {"score": [3, 5]})
    assert result(match) == ("confirmed", 3, 5, 1)
    assert Report.objects.get(match=match, status=Report.Status.CONFIRMED).side is None  # the override path


def test_a_corrected_score_moves_the_ratings_with_it(cast, monkeypatch, django_capture_on_commit_callbacks):
    run_tasks_inline(monkeypatch)
    alice, bob = cast.match.side0.player_a, cast.match.side1.player_a
    with django_capture_on_commit_callbacks(execute=True):
        confirm_score(cast.match, (5, 3))
    alice.refresh_from_db()
    assert alice.rating > 1500
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.SCORE_DISAGREEMENT)
    with django_capture_on_commit_callbacks(execute=True):
        ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.SCORE_CORRECTED, {"score": [3, 5]})
    assert result(cast.match) == ("confirmed", 3, 5, 1)
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.rating < 1500 < bob.rating
    assert RatingChange.objects.filter(match=cast.match).count() == 2  # the old change undone, the new one made
    assert ruling.changes["before"]["score"] == [5, 3] and ruling.changes["after"]["score"] == [3, 5]


def test_a_match_is_awarded_and_the_loser_keeps_his_penalty_points(cast):
    Match.objects.filter(pk=cast.match.pk).update(penalty0=1)
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.NO_SHOW)
    rule_on(dispute, cast.organiser, Ruling.Outcome.MATCH_AWARDED, {"side": 1})
    assert result(cast.match) == ("confirmed", 1, 5, 1)


def test_a_warning_is_recorded_and_changes_nothing_else(cast):
    dispute = dispute_on(cast.match, cast.alice, category=Dispute.Category.CONDUCT)
    before = snapshot()
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.WARNING, {"side": 1})
    after = snapshot()
    assert ruling.changes == {"before": None, "after": {"warning": {"side": 1, "name": "Bob"}}}
    assert (after["matches"], after["reports"], after["games"]) == (before["matches"], before["reports"],
                                                                    before["games"])


# --- the bracket follows, or refuses ------------------------------------------------------------


def _dave_wins(match, dave) -> list[int]:
    return [0, match.length] if match.side1.player_a_id == dave.pk else [match.length, 0]


def test_a_corrected_semi_final_puts_the_real_winner_in_the_final():
    tournament, (alice, bob, _carol, dave) = drawn(4)
    semi = play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    assert pairing(tournament, "main-2-1").match is not None  # Alice v Bob, not started
    dispute = dispute_on(semi, dave.user, category=Dispute.Category.SCORE_DISAGREEMENT)
    rule_on(dispute, tournament.organiser, Ruling.Outcome.SCORE_CORRECTED, {"score": _dave_wins(semi, dave)})
    final = pairing(tournament, "main-2-1")
    players = {final.match.side0.player_a_id, final.match.side1.player_a_id}
    assert players == {dave.pk, bob.pk}


def test_a_correction_the_played_bracket_refuses_is_refused_and_changes_nothing():
    tournament, (alice, bob, _carol, dave) = drawn(4)
    semi = play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    report_only(tournament, "main-2-1", alice)  # the final has started
    dispute = dispute_on(semi, dave.user, category=Dispute.Category.SCORE_DISAGREEMENT)
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        rule_on(dispute, tournament.organiser, Ruling.Outcome.SCORE_CORRECTED, {"score": _dave_wins(semi, dave)})
    assert (refused.value.code, refused.value.details["reason"]) == ("ruling_refused", "result_built_on")
    assert "the match Alice v Bob (the final)" in refused.value.message and "main-" not in refused.value.message
    assert snapshot() == before


# --- illegal plays ------------------------------------------------------------------------------


def test_an_illegal_play_noticed_in_time_is_corrected_and_the_score_follows(cast):
    confirm_with_games(cast.match, RECORD)
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.ILLEGAL_MOVE, game_number=1, move_number=2,
                         log=as_played_game_1())
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.PLAY_CORRECTED,
                     {"play": "8/5 6/5", "noticed_before_next_roll": True})
    assert ruling.params == {"game": 1, "move": 2, "play": "8/5 6/5", "noticed_before_next_roll": True,
                             "opponent_demands_replay": False}
    # Game 1 now counts its gammon: 2-0, 2-2, 4-2, and game 4 is the Crawford game: 6-2 in full,
    # shown capped at the length.
    assert result(cast.match) == ("confirmed", 5, 2, 0) and cast.match.full_score == (6, 2)
    assert stored_games(cast.match) == [(1, 0, 0, 0, 2), (2, 2, 0, 1, 2), (3, 2, 2, 0, 2), (4, 4, 2, 0, 2)]
    assert cast.match.games.get(number=1).log[1] == move(0)
    assert cast.match.games.get(number=4).crawford


def test_under_responsible_moves_an_illegal_play_the_opponent_accepts_is_condoned(cast):
    Match.objects.filter(pk=cast.match.pk).update(move_policy=Match.MovePolicy.RESPONSIBLE)
    confirm_with_games(cast.match, RECORD)
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.ILLEGAL_MOVE, game_number=1, move_number=2,
                         log=as_played_game_1())
    with pytest.raises(DomainError) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.PLAY_CONDONED,
                {"noticed_before_next_roll": True, "opponent_demands_replay": True})
    assert refused.value.details["field"] == "opponent_demands_replay"
    rule_on(dispute, cast.organiser, Ruling.Outcome.PLAY_CONDONED, {"noticed_before_next_roll": True})
    assert result(cast.match) == ("confirmed", 5, 2, 0) and cast.match.full_score == (6, 2)  # capped
    game = cast.match.games.get(number=1)
    assert game.log[1] == move(0, ILLEGAL_PLAY, condoned=True)
    assert [c["play"] for c in game.condoned] == [ILLEGAL_PLAY]


def test_rules_9_under_legal_moves_a_play_noticed_too_late_stands_in_the_record_as_stood(cast):
    """RULES.md §9 (a play that stands): the game keeps its verified log, the play marked stood."""
    confirm_with_games(cast.match, RECORD)
    dispute = dispute_on(cast.match, cast.bob, game_number=1, move_number=2, log=as_played_game_1())
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.PLAY_CONDONED, {"noticed_before_next_roll": False})
    assert ruling.params["stood"] is True
    assert result(cast.match) == ("confirmed", 5, 2, 0) and cast.match.full_score == (6, 2)
    game = cast.match.games.get(number=1)
    assert game.log[1] == {**move(0, ILLEGAL_PLAY), "stood": True}
    assert [c["play"] for c in game.stood] == [ILLEGAL_PLAY] and game.condoned == []


def test_a_play_ruling_needs_game_records(cast):
    confirm_score(cast.match, (5, 2))
    dispute = dispute_on(cast.match, cast.bob, game_number=1, move_number=2, log=as_played_game_1())
    with pytest.raises(Conflict) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.PLAY_CORRECTED,
                {"play": "8/5 6/5", "noticed_before_next_roll": True})
    assert "no game records; correct the score instead" in refused.value.message


def test_a_correction_that_is_itself_illegal_is_refused_on_the_play(cast):
    confirm_with_games(cast.match, RECORD)
    dispute = dispute_on(cast.match, cast.bob, game_number=1, move_number=2, log=as_played_game_1())
    with pytest.raises(DomainError) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.PLAY_CORRECTED,
                {"play": "13/9 6/5", "noticed_before_next_roll": True, "move": 2})
    assert (refused.value.details["field"], refused.value.details["reason"]) == ("play", "correction_illegal")


# --- games voided and replayed ------------------------------------------------------------------


def test_a_voided_game_is_removed_and_the_match_is_scored_without_it(cast):
    confirm_with_games(cast.match, [won(1, 2), won(0, 2), won(0), won(0, 2)])  # 5-2
    dispute = dispute_on(cast.match, cast.alice, game_number=1)
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.GAME_VOIDED)
    assert ruling.params == {"game": 1}
    assert result(cast.match) == ("confirmed", 5, 0, 0)
    assert stored_games(cast.match) == [(1, 0, 0, 0, 2), (2, 2, 0, 0, 1), (3, 3, 0, 0, 2)]


def test_a_replayed_game_reopens_the_match_and_takes_its_rating_back(cast, monkeypatch,
                                                                      django_capture_on_commit_callbacks):
    run_tasks_inline(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        confirm_with_games(cast.match, RECORD)
    alice = cast.match.side0.player_a
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.COCKED_DICE, game_number=4)
    rule_on(dispute, cast.organiser, Ruling.Outcome.GAME_REPLAYED)
    assert result(cast.match) == ("in_play", None, None, None)
    assert stored_games(cast.match) == [(1, 0, 0, 0, 1), (2, 1, 0, 1, 2), (3, 1, 2, 0, 2)]
    assert not Report.objects.filter(match=cast.match).exclude(status=Report.Status.SUPERSEDED).exists()
    alice.refresh_from_db()
    assert (alice.rating, alice.experience) == (1500.0, 0)
    assert not RatingChange.objects.filter(match=cast.match).exists()
    assert AuditEntry.objects.filter(action="match.reopened", match_id=cast.match.pk).exists()


def test_a_game_cannot_be_replayed_when_the_match_is_decided_without_it(cast):
    confirm_with_games(cast.match, [won(1, 2), won(0, 2), won(0), won(0, 2)])
    dispute = dispute_on(cast.match, cast.alice, game_number=1)
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.GAME_REPLAYED)
    assert "decided without game 1 (5-0)" in refused.value.message
    assert snapshot() == before


def test_a_replayed_semi_final_takes_the_unstarted_final_back_and_it_is_made_again_later():
    tournament, (alice, bob, _carol, dave) = drawn(4)
    semi = Match.objects.get(pairing__tournament=tournament, pairing__key="main-1-1")
    alice_side = 0 if semi.side0.player_a_id == alice.pk else 1
    confirm_with_games(semi, [won(alice_side, 3), won(1 - alice_side, 2), won(alice_side, 2)])
    play(tournament, "main-1-2", bob)
    assert pairing(tournament, "main-2-1").match is not None
    dispute = dispute_on(semi, dave.user, game_number=3)
    rule_on(dispute, tournament.organiser, Ruling.Outcome.GAME_REPLAYED)
    final = pairing(tournament, "main-2-1")
    assert final.match is None and (final.entry0_id, final.entry1_id) == (None, None)
    # The semi-final is played on and finished: the final is made again.
    semi.refresh_from_db()
    log = log_from_json([*semi.games.order_by("number").values_list("log", flat=True), won(1 - alice_side, 3)],
                        semi.rules())
    for side in semi.sides:
        match_report(match_id=semi.pk, user=side.player_a.user, claim=claim_make(semi, log.final_score, log))
    final = pairing(tournament, "main-2-1")
    assert {final.match.side0.player_a_id, final.match.side1.player_a_id} == {dave.pk, bob.pk}


SWISS = {"format": Tournament.Format.SWISS, "swiss_rounds": 3, "lengths": {"rounds": [3, 3, 3]}}


def _swiss_with_a_recorded_board():
    """A 4-player Swiss whose board swiss-1-1 was won by a backgammon (its record: one game) and
    swiss-1-2 by its top seed."""
    tournament, _ = drawn(4, **SWISS)
    board = pairing(tournament, "swiss-1-1")
    confirm_with_games(board.match, [won(0, 3)])
    other = pairing(tournament, "swiss-1-2")
    play(tournament, "swiss-1-2", other.entry0.side.player_a)
    return tournament, board.match


def test_a_replayed_swiss_game_reopens_the_board_while_the_next_round_is_not_paired():
    tournament, board = _swiss_with_a_recorded_board()
    dispute = dispute_on(board, tournament.organiser, game_number=1)
    rule_on(dispute, tournament.organiser, Ruling.Outcome.GAME_REPLAYED)
    assert result(board) == ("in_play", None, None, None)


def test_a_swiss_result_cannot_be_taken_back_once_the_next_round_is_paired_on_it():
    tournament, board = _swiss_with_a_recorded_board()
    tournament_pair_next_round(tournament_id=tournament.pk, user=tournament.organiser)
    dispute = dispute_on(board, tournament.organiser, game_number=1)
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        rule_on(dispute, tournament.organiser, Ruling.Outcome.GAME_REPLAYED)
    assert refused.value.details["reason"] == "result_built_on" and "round 2" in refused.value.message
    assert snapshot() == before


# --- a double in the Crawford game ---------------------------------------------------------------


def test_a_double_in_the_crawford_game_is_voided_and_the_game_scored_at_one(cast):
    Match.objects.filter(pk=cast.match.pk).update(length=3)
    confirm_with_games(cast.match, [won(0, 2), won(1), won(0)])  # 2-0, the Crawford game 2-1, 3-1
    as_played = won(1, 2, doubled=True)  # side 0 doubled, side 1 took and won a gammon: 8 points as played
    dispute = dispute_on(cast.match, cast.alice, category=Dispute.Category.CRAWFORD_DOUBLE, game_number=2,
                         log=as_played)
    rule_on(dispute, cast.organiser, Ruling.Outcome.CRAWFORD_DOUBLE_VOIDED)
    assert result(cast.match) == ("confirmed", 3, 2, 0)
    assert stored_games(cast.match) == [(1, 0, 0, 0, 2), (2, 2, 0, 1, 2), (3, 2, 2, 0, 1)]
    assert not any(a["type"] in ("double", "take") for a in cast.match.games.get(number=2).log)


def test_only_the_crawford_game_has_its_double_voided(cast):
    Match.objects.filter(pk=cast.match.pk).update(length=3)
    confirm_with_games(cast.match, [won(0, 2), won(1), won(0)])
    dispute = dispute_on(cast.match, cast.alice, game_number=1, log=won(0, 1, doubled=True))
    with pytest.raises(DomainError) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.CRAWFORD_DOUBLE_VOIDED)
    assert (refused.value.details["field"], refused.value.details["reason"]) == ("game", "not_crawford_game")


# --- penalty points -----------------------------------------------------------------------------


def test_late_arrival_points_are_the_match_start_and_the_reported_logs_replay_from_them(cast):
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.LATE_ARRIVAL)
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.PENALTY_POINTS, {"side": 0, "minutes_late": 12})
    assert ruling.params == {"side": 0, "minutes_late": 12, "points": 2}
    cast.match.refresh_from_db()
    assert (cast.match.penalty0, cast.match.penalty1, cast.match.status) == (0, 2, "scheduled")
    games = [won(1, 2), won(1)]  # 0-2 -> 0-4 -> the Crawford game -> 0-5
    assert log_from_json(games, cast.match.rules()).final_score == (0, 3)
    confirm_with_games(cast.match, games)
    assert result(cast.match) == ("confirmed", 0, 5, 1)
    assert stored_games(cast.match) == [(1, 0, 2, 1, 2), (2, 0, 4, 1, 1)]


def test_a_final_score_below_the_penalty_points_is_not_a_result(cast):
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.LATE_ARRIVAL)
    rule_on(dispute, cast.organiser, Ruling.Outcome.PENALTY_POINTS, {"side": 0, "points": 2})
    cast.match.refresh_from_db()
    with pytest.raises(DomainError) as refused:
        claim_make(cast.match, (5, 1), None)
    assert refused.value.code == "bad_score" and "2 penalty points" in refused.value.message


def test_the_event_sets_the_minutes_per_penalty_point():
    tournament, (alice, _bob, _carol, dave) = drawn(4, penalty_minutes_per_point=10)
    semi = pairing(tournament, "main-1-1").match
    dispute = dispute_on(semi, dave.user, category=Dispute.Category.LATE_ARRIVAL)
    side = 0 if semi.side0.player_a_id == alice.pk else 1
    rule_on(dispute, tournament.organiser, Ruling.Outcome.PENALTY_POINTS, {"side": side, "minutes_late": 25})
    semi.refresh_from_db()
    assert semi.start[1 - side] == 2


def test_penalty_points_past_half_the_length_lose_the_match(cast):
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.LATE_ARRIVAL)
    rule_on(dispute, cast.organiser, Ruling.Outcome.PENALTY_POINTS, {"side": 0, "points": 2})
    second = dispute_on(cast.match, cast.bob, category=Dispute.Category.LATE_ARRIVAL)
    ruling = rule_on(second, cast.organiser, Ruling.Outcome.PENALTY_POINTS, {"side": 0, "points": 1})
    assert ruling.params["match_lost"] is True
    assert result(cast.match) == ("confirmed", 0, 5, 1)


@pytest.mark.parametrize("state", ["confirmed", "reported"])
def test_penalty_points_are_refused_once_the_match_is_reported_or_finished(cast, state):
    if state == "confirmed":
        confirm_score(cast.match, (5, 2))
    else:
        match_report(match_id=cast.match.pk, user=cast.alice, claim=claim_make(cast.match, (5, 2), None))
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.LATE_ARRIVAL)
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.PENALTY_POINTS, {"side": 0, "points": 1})
    assert "correct the score or award the match" in refused.value.message
    assert snapshot() == before


# --- disqualification ---------------------------------------------------------------------------


def test_a_disqualified_player_is_withdrawn_and_his_match_forfeited_to_the_opponent():
    tournament, (alice, bob, _carol, dave) = drawn(4)
    semi = pairing(tournament, "main-1-1").match
    dispute = dispute_on(semi, dave.user, category=Dispute.Category.CONDUCT)
    side = 0 if semi.side0.player_a_id == alice.pk else 1
    ruling = rule_on(dispute, tournament.organiser, Ruling.Outcome.DISQUALIFICATION, {"side": side})
    assert entry_of(tournament, alice).status == Entry.Status.WITHDRAWN
    semi.refresh_from_db()
    assert (semi.status, semi.winner, semi.rated) == ("confirmed", 1 - side, False)
    assert ruling.changes["before"]["entry"]["status"] == "checked_in"
    play(tournament, "main-1-2", bob)
    final = pairing(tournament, "main-2-1")
    assert {final.match.side0.player_a_id, final.match.side1.player_a_id} == {dave.pk, bob.pk}


def test_a_disqualification_needs_an_event(cast):
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.CONDUCT)
    with pytest.raises(Conflict) as refused:
        rule_on(dispute, cast.organiser, Ruling.Outcome.DISQUALIFICATION, {"side": 0})
    assert "not part of an event" in refused.value.message


# --- undoing a ruling ---------------------------------------------------------------------------


def revert(ruling, actor):
    ruling.refresh_from_db()
    ruling_revert(ruling=ruling, actor=actor)


def test_undoing_a_corrected_score_brings_back_the_previous_result_and_its_games(cast):
    confirm_with_games(cast.match, RECORD)
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.SCORE_DISAGREEMENT)
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.SCORE_CORRECTED, {"score": [3, 5]})
    assert stored_games(cast.match) == []
    revert(ruling, cast.staff)
    assert result(cast.match) == ("confirmed", 5, 2, 0)
    assert [g[3:] for g in stored_games(cast.match)] == [(0, 1), (1, 2), (0, 2), (0, 2)]
    assert AuditEntry.objects.filter(action="ruling.reverted", object_id=ruling.pk).exists()


def test_undoing_a_result_that_stood_brings_back_the_disagreeing_reports(cast):
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (3, 5), None))
    dispute = Dispute.objects.get(match=match, automatic=True)
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.STANDS, {"score": [5, 3]})
    revert(ruling, cast.staff)
    assert result(match) == ("disputed", None, None, None)
    assert sorted(match.reports.exclude(status="superseded").values_list("side", "status")) == [
        (0, "contested"), (1, "contested")]


def test_undoing_a_replayed_game_brings_back_the_confirmed_result(cast):
    confirm_with_games(cast.match, RECORD)
    dispute = dispute_on(cast.match, cast.bob, game_number=4)
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.GAME_REPLAYED)
    revert(ruling, cast.staff)
    assert result(cast.match) == ("confirmed", 5, 2, 0)
    assert len(stored_games(cast.match)) == 4


def test_undoing_penalty_points_takes_them_off(cast):
    dispute = dispute_on(cast.match, cast.bob, category=Dispute.Category.LATE_ARRIVAL)
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.PENALTY_POINTS, {"side": 0, "points": 2})
    revert(ruling, cast.staff)
    cast.match.refresh_from_db()
    assert cast.match.start == (0, 0)


def test_undoing_a_disqualification_reinstates_the_entrant_and_his_match():
    tournament, (alice, _bob, _carol, dave) = drawn(4)
    semi = pairing(tournament, "main-1-1").match
    dispute = dispute_on(semi, dave.user, category=Dispute.Category.CONDUCT)
    side = 0 if semi.side0.player_a_id == alice.pk else 1
    ruling = rule_on(dispute, tournament.organiser, Ruling.Outcome.DISQUALIFICATION, {"side": side})
    revert(ruling, UserFactory(username="chair", staff=True))
    assert entry_of(tournament, alice).status == Entry.Status.CHECKED_IN
    semi.refresh_from_db()
    assert (semi.status, semi.score0, semi.rated) == ("scheduled", None, True)
    assert AuditEntry.objects.filter(action="entry.reinstated").exists()


def test_undoing_is_refused_once_a_later_match_built_on_the_ruling_has_started():
    tournament, (alice, bob, _carol, dave) = drawn(4)
    semi = play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    dispute = dispute_on(semi, dave.user, category=Dispute.Category.SCORE_DISAGREEMENT)
    ruling = rule_on(dispute, tournament.organiser, Ruling.Outcome.SCORE_CORRECTED, {"score": _dave_wins(semi, dave)})
    report_only(tournament, "main-2-1", dave)
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        revert(ruling, tournament.organiser)
    assert (refused.value.code, refused.value.details["reason"]) == ("revert_refused", "result_built_on")
    assert snapshot() == before


def test_undoing_is_refused_when_the_match_has_changed_since(cast):
    confirm_with_games(cast.match, RECORD)
    dispute = dispute_on(cast.match, cast.bob, game_number=4)
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.GAME_REPLAYED)
    log = log_from_json([*RECORD[:3], won(1, 3)], cast.match.rules())  # the replayed game went the other way
    confirm_with_games(cast.match, log.games)
    with pytest.raises(Conflict) as refused:
        revert(ruling, cast.staff)
    assert "changed since" in refused.value.message
    assert result(cast.match)[:3] == ("confirmed", 3, 5)


def test_a_ruling_not_in_force_is_not_undone(cast):
    dispute = dispute_on(cast.match, cast.bob)
    ruling = rule_on(dispute, cast.organiser, Ruling.Outcome.WARNING, {"side": 0})
    Ruling.objects.filter(pk=ruling.pk).update(status=Ruling.Status.OVERTURNED)
    with pytest.raises(Conflict):
        revert(ruling, cast.staff)


def test_a_second_ruling_in_force_on_one_dispute_is_refused(cast):
    dispute = dispute_on(cast.match, cast.bob)
    rule_on(dispute, cast.organiser, Ruling.Outcome.WARNING, {"side": 0})
    with pytest.raises(Conflict) as refused:
        ruling_apply(dispute=dispute, director=cast.staff, outcome=Ruling.Outcome.WARNING, params={"side": 1},
                     rule=RULE, reasoning=WHY)
    assert refused.value.code == "ruling_in_force"


def test_a_committee_replacing_a_ruling_decides_the_dispute(cast):
    dispute = dispute_on(cast.match, cast.bob)
    first = rule_on(dispute, cast.organiser, Ruling.Outcome.WARNING, {"side": 0})
    Ruling.objects.filter(pk=first.pk).update(status=Ruling.Status.REPLACED)
    appeal = Appeal.objects.create(ruling=first, appellant=cast.alice, side=0, grounds="I did nothing wrong.")
    dispute.refresh_from_db()
    second = ruling_apply(dispute=dispute, director=cast.staff, outcome=Ruling.Outcome.STANDS, params={}, rule=RULE,
                          reasoning=WHY, appeal=appeal)
    dispute.refresh_from_db()
    assert (second.appeal, second.status, dispute.status) == (appeal, "in_force", "decided")


# --- two directors at once ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_rulings_racing_on_one_dispute_make_exactly_one():
    match = MatchFactory(length=5)
    staff = UserFactory(staff=True)
    dispute = dispute_on(match, match.side1.player_a.user)
    outcomes = at_once([
        lambda: rule_on(dispute, match.organiser, Ruling.Outcome.MATCH_AWARDED, {"side": 0}),
        lambda: rule_on(dispute, staff, Ruling.Outcome.MATCH_AWARDED, {"side": 1}),
    ])
    assert sorted(outcomes) == ["dispute_closed", "done"]
    assert Ruling.objects.filter(dispute=dispute).count() == 1
    assert Report.objects.filter(match=match, status=Report.Status.CONFIRMED).count() == 1
