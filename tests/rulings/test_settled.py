"""The automatic score dispute that disagreeing reports open is settled without a ruling when the
match's result is then confirmed by agreement or entered by the director; a ruling on it is still
a ruling; the disputes opened by hand stay open; a settled dispute takes no ruling and no answer."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from core.errors import Conflict
from matches.services.reporting import claim_make, match_override, match_report
from rulings.models import Dispute, Ruling
from rulings.services.disputes import dispute_answer, dispute_open
from rulings.services.rulings import ruling_make
from tests.rulings.factories import make_cast, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    cast = make_cast()
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (3, 5), None))
    return cast


def automatic(cast) -> Dispute:
    return Dispute.objects.get(match=cast.match, automatic=True)


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


def test_the_director_entering_the_result_settles_it(cast):
    match_override(match_id=cast.match.pk, user=cast.organiser, claim=claim_make(cast.match, (3, 5), None))
    assert automatic(cast).status == "settled"


def test_a_ruling_on_the_automatic_dispute_is_a_ruling_not_a_settlement(cast):
    ruling_make(dispute_id=automatic(cast).pk, user=cast.organiser, outcome=Ruling.Outcome.STANDS,
                params={"score": [3, 5]}, rule="RULES.md §9", reasoning="Bob's score sheet is signed by both.")
    assert automatic(cast).status == "ruled"
    assert not AuditEntry.objects.filter(action="dispute.settled").exists()


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


def test_disputing_again_opens_a_new_automatic_dispute(cast):
    match_override(match_id=cast.match.pk, user=cast.organiser, claim=claim_make(cast.match, (3, 5), None))
    first = automatic(cast)
    from matches.services.reporting import match_reopen

    match_reopen(match_id=cast.match.pk, actor=cast.organiser)
    match_report(match_id=cast.match.pk, user=cast.alice, claim=claim_make(cast.match, (5, 1), None))
    match_report(match_id=cast.match.pk, user=cast.bob, claim=claim_make(cast.match, (1, 5), None))
    statuses = dict(Dispute.objects.filter(match=cast.match, automatic=True).values_list("pk", "status"))
    assert statuses[first.pk] == "settled" and sorted(statuses.values()) == ["open", "settled"]
