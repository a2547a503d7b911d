"""Disputes: who may open and answer one, what it may point at (a match, a game, a moment with its
Position ID), bad input refused with its field and nothing saved, the automatic dispute of a
mismatched report opened once and settled without a ruling when the result is then confirmed by
agreement or entered by the director (a ruling on it is still a ruling; the disputes opened by hand
stay open; a settled dispute takes no ruling and no answer), and a disputed match never deleted by a
bracket reset."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match
from matches.selectors.match import game_moments
from matches.services.reporting import claim_make, match_override, match_reopen, match_report
from rulings.models import Dispute, Ruling, Statement
from rulings.services.disputes import MAX_GAME_NUMBER, STATEMENT_MAX, dispute_answer, dispute_open
from rulings.services.rulings import ruling_make
from tests.rulings.factories import ILLEGAL_PLAY, confirm_with_games, make_cast, move, roll, snapshot, won
from tests.tournaments.factories import drawn, pairing, play

pytestmark = pytest.mark.django_db

START = "4HPwATDgc/ABMA"  # RULES.md §6: the starting position
AFTER_31 = "sGfwATDgc/ABMA"  # after 31 played 8/5 6/5, the other side on roll


@pytest.fixture
def cast():
    return make_cast()


@pytest.fixture
def recorded(cast):
    """Alice beat Bob 5-2, both reports carrying the three games."""
    confirm_with_games(cast.match, [won(0, 2), won(1, 2), won(0, 3)])
    return cast


def open_as(user, match, **fields):
    fields.setdefault("category", Dispute.Category.CONDUCT)
    fields.setdefault("statement", "He rolled before I had picked up my dice.")
    return dispute_open(match_id=match.pk, user=user, **fields)


# --- opening ------------------------------------------------------------------------------------


def test_a_player_opens_a_dispute_on_the_whole_match_and_it_is_audited(cast):
    dispute = open_as(cast.bob, cast.match, category=Dispute.Category.SLOW_PLAY, statement="  Alice took ages.  ")
    assert (dispute.status, dispute.side, dispute.opened_by, dispute.automatic) == ("open", 1, cast.bob, False)
    assert (dispute.game_number, dispute.move_number, dispute.position_id, dispute.statement) == (
        None, None, "", "Alice took ages.")
    entry = AuditEntry.objects.get(action="dispute.opened", object_id=dispute.pk)
    assert (entry.actor_id, entry.match_id, entry.after["category"]) == (cast.bob.pk, cast.match.pk, "slow_play")


@pytest.mark.parametrize("role", ["organiser", "staff"])
def test_the_director_or_staff_opens_a_dispute_with_no_side(cast, role):
    dispute = open_as(cast.user(role), cast.match)
    assert dispute.side is None and dispute.opened_by == cast.user(role)


@pytest.mark.parametrize("role", ["carol", "other_organiser"])
def test_anyone_else_may_not_open_a_dispute_and_nothing_is_saved(cast, role):
    before = snapshot()
    with pytest.raises(NotAllowed) as refused:
        open_as(cast.user(role), cast.match)
    assert refused.value.code == "not_a_party"
    assert snapshot() == before


@pytest.mark.parametrize(("fields", "field"), [
    ({"category": "bad_luck"}, "category"),
    ({"statement": "   "}, "statement"),
    ({"statement": "x" * (STATEMENT_MAX + 1)}, "statement"),
    ({"game_number": 0}, "game_number"),
    ({"game_number": MAX_GAME_NUMBER + 1}, "game_number"),
    ({"move_number": 3}, "move_number"),
    ({"game_number": 1, "move_number": 2}, "move_number"),
    ({"game_number": 1, "log": [{"type": "fly", "side": 0}]}, "log"),
    ({"game_number": 1, "log": "13/7 8/7"}, "log"),
    ({"game_number": 1, "log": won(0), "move_number": 6}, "move_number"),
    ({"game_number": 1, "log": won(0), "move_number": 0}, "move_number"),
])
def test_bad_input_is_refused_with_its_field_and_nothing_is_saved(cast, fields, field):
    before = snapshot()
    with pytest.raises(DomainError) as refused:
        open_as(cast.alice, cast.match, **fields)
    assert (refused.value.code, refused.value.details["field"]) == ("bad_dispute", field)
    assert snapshot() == before


def test_without_game_records_any_game_number_up_to_the_bound_is_taken(cast):
    assert open_as(cast.alice, cast.match, game_number=MAX_GAME_NUMBER).game_number == MAX_GAME_NUMBER


def test_a_game_the_records_do_not_have_is_refused(recorded):
    with pytest.raises(DomainError) as refused:
        open_as(recorded.alice, recorded.match, game_number=4)
    assert refused.value.details == {"field": "game_number", "game": 4}
    assert "games 1 to 3" in refused.value.message


def test_a_moment_stores_the_position_id_the_game_page_shows_for_it(recorded):
    match = Match.objects.get(pk=recorded.match.pk)
    game = match.games.get(number=2)
    first = open_as(recorded.bob, match, game_number=2, move_number=1)
    after_opening = open_as(recorded.bob, match, game_number=2, move_number=3)
    assert (first.position_id, after_opening.position_id) == (START, AFTER_31)
    moments = game_moments(match, game)
    assert after_opening.position_id == moments[after_opening.move_number - 1].position_id


def test_a_moment_past_the_end_of_the_recorded_game_is_refused(recorded):
    with pytest.raises(DomainError) as refused:
        open_as(recorded.bob, recorded.match, game_number=2, move_number=5)
    assert refused.value.details == {"field": "move_number", "game": 2, "move": 5}


def test_a_moment_of_the_game_as_played_is_found_in_its_log_even_past_an_illegal_play(cast):
    played = [roll(0), move(0, ILLEGAL_PLAY), {"type": "resign", "side": 1, "level": 1}, {"type": "accept", "side": 0}]
    dispute = open_as(cast.bob, cast.match, category=Dispute.Category.ILLEGAL_MOVE, game_number=1, move_number=2,
                      log=played)
    assert dispute.position_id == START and dispute.log == played
    with pytest.raises(DomainError) as refused:
        open_as(cast.bob, cast.match, game_number=1, move_number=3, log=played)
    assert refused.value.details["field"] == "log" and "dice" in refused.value.message


def test_a_moment_needs_a_record_or_the_game_as_played(cast):
    with pytest.raises(DomainError) as refused:
        open_as(cast.bob, cast.match, game_number=1, move_number=1)
    assert refused.value.details["field"] == "move_number" and "no record" in refused.value.message


def test_a_confirmed_match_can_still_be_disputed_and_keeps_its_result(recorded):
    open_as(recorded.bob, recorded.match, category=Dispute.Category.SCORE_DISAGREEMENT, game_number=3)
    recorded.match.refresh_from_db()
    assert (recorded.match.status, recorded.match.score0, recorded.match.score1) == ("confirmed", 5, 2)


# --- answering ----------------------------------------------------------------------------------


def test_the_other_player_and_the_director_answer_a_dispute(cast):
    dispute = open_as(cast.bob, cast.match)
    answer = dispute_answer(dispute_id=dispute.pk, user=cast.alice, text="I was only thinking.")
    note = dispute_answer(dispute_id=dispute.pk, user=cast.organiser, text="Noted; I will watch the next game.")
    assert [(s.side, s.author, s.text) for s in dispute.statements.all()] == [
        (0, cast.alice, "I was only thinking."), (None, cast.organiser, "Noted; I will watch the next game.")]
    assert AuditEntry.objects.filter(action="dispute.answered", object_id__in=[answer.pk, note.pk]).count() == 2


def test_an_outsider_may_not_answer_and_an_empty_answer_is_refused(cast):
    dispute = open_as(cast.bob, cast.match)
    with pytest.raises(NotAllowed):
        dispute_answer(dispute_id=dispute.pk, user=cast.carol, text="I saw it all.")
    with pytest.raises(DomainError) as refused:
        dispute_answer(dispute_id=dispute.pk, user=cast.alice, text="")
    assert refused.value.details["field"] == "text"
    assert not Statement.objects.exists()


def test_a_decided_dispute_takes_no_more_statements(cast):
    dispute = open_as(cast.bob, cast.match)
    Dispute.objects.filter(pk=dispute.pk).update(status=Dispute.Status.DECIDED)
    with pytest.raises(Conflict) as refused:
        dispute_answer(dispute_id=dispute.pk, user=cast.alice, text="One more thing.")
    assert refused.value.code == "dispute_decided"


# --- the automatic dispute ----------------------------------------------------------------------


def test_a_mismatched_report_opens_the_automatic_dispute_once(cast):
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (3, 5), None))
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (3, 5), None))  # a repeat
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 1), None))  # still disagrees
    dispute = Dispute.objects.get(match=match)
    assert (dispute.automatic, dispute.category, dispute.status) == (True, "score_disagreement", "open")
    # The reason is data (the scores at odds when it opened), the statement the player's words.
    assert dispute.reported_scores == [[5, 3], [3, 5]] and dispute.statement == ""
    assert AuditEntry.objects.filter(action="dispute.opened", match_id=match.pk).count() == 1


@pytest.fixture
def disagreeing_reports(cast):
    """Alice reports 5-3, Bob 3-5: the automatic score dispute is open."""
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (3, 5), None))


def automatic(cast) -> Dispute:
    return Dispute.objects.get(match=cast.match, automatic=True)


@pytest.mark.usefixtures("disagreeing_reports")
def test_the_reports_agreeing_after_all_settle_the_automatic_dispute(cast):
    conduct = dispute_open(match_id=cast.match.pk, user=cast.alice, category=Dispute.Category.CONDUCT,
                           statement="He shouted at the board.")
    assert automatic(cast).status == "open"
    match_report(match_id=cast.match.pk, user=cast.bob, claim=claim_make(cast.match, (5, 3), None))
    cast.match.refresh_from_db()
    assert cast.match.status == "confirmed"
    assert automatic(cast).status == "settled"
    conduct.refresh_from_db()
    assert conduct.status == "open"  # a dispute opened by hand waits for its ruling
    entry = AuditEntry.objects.get(action="dispute.settled")
    assert (entry.object_id, entry.actor_id, entry.after["score"]) == (automatic(cast).pk, cast.bob.pk, [5, 3])


@pytest.mark.usefixtures("disagreeing_reports")
def test_the_director_entering_the_result_settles_it(cast):
    match_override(match_id=cast.match.pk, user=cast.organiser, claim=claim_make(cast.match, (3, 5), None))
    assert automatic(cast).status == "settled"


@pytest.mark.usefixtures("disagreeing_reports")
def test_a_ruling_on_the_automatic_dispute_is_a_ruling_not_a_settlement(cast):
    ruling_make(dispute_id=automatic(cast).pk, user=cast.organiser, outcome=Ruling.Outcome.STANDS,
                params={"score": [3, 5]}, rule="RULES.md §9", reasoning="Bob's score sheet is signed by both.")
    assert automatic(cast).status == "ruled"
    assert not AuditEntry.objects.filter(action="dispute.settled").exists()


@pytest.mark.usefixtures("disagreeing_reports")
def test_a_settled_dispute_takes_no_ruling_and_no_answer(cast):
    match_override(match_id=cast.match.pk, user=cast.organiser, claim=claim_make(cast.match, (3, 5), None))
    dispute = automatic(cast)
    before = snapshot()
    with pytest.raises(Conflict) as ruled:
        ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome=Ruling.Outcome.STANDS, params={},
                    rule="RULES.md §9", reasoning="Late.")
    with pytest.raises(Conflict) as answered:
        dispute_answer(dispute_id=dispute.pk, user=cast.alice, text="But I won.")
    assert (ruled.value.code, answered.value.code) == ("dispute_closed", "dispute_decided")
    assert "settled" in answered.value.message and snapshot() == before


@pytest.mark.usefixtures("disagreeing_reports")
def test_disputing_again_opens_a_new_automatic_dispute(cast):
    match_override(match_id=cast.match.pk, user=cast.organiser, claim=claim_make(cast.match, (3, 5), None))
    first = automatic(cast)
    match_reopen(match_id=cast.match.pk, actor=cast.organiser)
    match_report(match_id=cast.match.pk, user=cast.alice, claim=claim_make(cast.match, (5, 1), None))
    match_report(match_id=cast.match.pk, user=cast.bob, claim=claim_make(cast.match, (1, 5), None))
    statuses = dict(Dispute.objects.filter(match=cast.match, automatic=True).values_list("pk", "status"))
    assert statuses[first.pk] == "settled" and sorted(statuses.values()) == ["open", "settled"]


# --- a bracket reset never deletes a disputed match --------------------------------------------


def test_a_bracket_reset_refuses_to_delete_a_disputed_match_instead_of_failing():
    tournament, (alice, bob, _carol, dave) = drawn(4)
    play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    final = pairing(tournament, "main-2-1").match
    dispute_open(match_id=final.pk, user=bob.user, category=Dispute.Category.NO_SHOW, statement="Alice is not here.")
    semi = pairing(tournament, "main-1-1").match
    dave_wins = (0, semi.length) if semi.side1.player_a_id == dave.pk else (semi.length, 0)
    with pytest.raises(Conflict) as refused:
        match_override(match_id=semi.pk, user=tournament.organiser, claim=claim_make(semi, dave_wins, None))
    assert refused.value.code == "result_built_on" and "dispute" in refused.value.message
    assert Match.objects.filter(pk=final.pk).exists()
