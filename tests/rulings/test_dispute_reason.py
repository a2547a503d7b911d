"""An automatic score dispute's reason is data, worded where it is read in the reader's language
the dispute keeps the reported scores at odds and the player's own words apart; the
page and the API word "The reports disagree: 5-3 and 3-5" / "The report of 5-3 was contested" in
the reader's language, the scores left to right; the migration takes the old English prefix out of
the stored statements (and puts it back)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import translation

from matches.services.reporting import claim_make, match_contest, match_report
from rulings.models import Dispute
from rulings.services.disputes import dispute_open
from rulings.wording import dispute_reason
from tests.factories import MatchFactory
from tests.matches.factories_api import Cast, client_for, make_cast

pytestmark = pytest.mark.django_db

LRI, PDI = "\u2066", "\u2069"
migration = importlib.import_module("rulings.migrations.0006_i15texts_dispute_reason_data")


@pytest.fixture
def cast():
    return make_cast()


def another(n: int) -> Cast:
    """Another match, between two other players."""
    match = MatchFactory(side0__player_a__user__username=f"ana{n}", side1__player_a__user__username=f"ben{n}",
                         length=5)
    return Cast(match=match, alice=match.side0.player_a.user, bob=match.side1.player_a.user, carol=None,
                organiser=match.organiser, other_organiser=None, staff=None)


def disagreeing(cast, words: str = "I won the last game.") -> Dispute:
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (3, 5), None), statement=words)
    return Dispute.objects.get(match=match, automatic=True)


def contested(cast, words: str = "It was 3-5.") -> Dispute:
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_contest(match_id=match.pk, user=cast.bob, statement=words)
    return Dispute.objects.get(match=match, automatic=True)


def page_in(user, dispute: Dispute, language: str) -> str:
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    response = client_for(user, auth="session").get(reverse("rulings:dispute", args=[dispute.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_dispute_keeps_the_scores_and_the_player_s_words_apart(cast):
    dispute = disagreeing(cast)
    assert dispute.reported_scores == [[5, 3], [3, 5]] and dispute.statement == "I won the last game."
    dispute = contested(another(1))
    assert dispute.reported_scores == [[5, 3]] and dispute.statement == "It was 3-5."


def test_a_korean_reader_reads_the_reason_in_korean_and_no_english(cast):
    page = page_in(cast.bob, disagreeing(cast), "ko")
    assert "보고가 서로 다릅니다: 5-3 및 3-5" in page and "I won the last game." in page
    assert "the reports disagree" not in page.lower()


def test_a_contested_report_reads_in_korean_and_in_english(cast):
    dispute = contested(cast)
    assert "5-3 보고에 이의가 제기되었습니다" in page_in(cast.alice, dispute, "ko")
    english = page_in(cast.alice, dispute, "en")
    assert "The report of 5-3 was contested" in english and "is contested" not in english


def test_an_arabic_reader_reads_the_scores_left_to_right(cast):
    dispute = disagreeing(cast)
    with translation.override("ar"):
        reason = dispute_reason(True, dispute.reported_scores)
    assert f"{LRI}5-3{PDI}" in reason and f"{LRI}3-5{PDI}" in reason and "disagree" not in reason


def test_the_api_gives_the_reason_in_the_client_s_language_and_the_statement_as_written(cast):
    dispute = disagreeing(cast)
    response = client_for(cast.bob).get(reverse("api-dispute", args=[dispute.pk]), HTTP_ACCEPT_LANGUAGE="ko")
    assert response.status_code == 200
    body = response.json()
    assert body["reason"] == "보고가 서로 다릅니다: 5-3 및 3-5"
    assert body["statement"] == "I won the last game." and body["reported_scores"] == [[5, 3], [3, 5]]
    english = client_for(cast.bob).get(reverse("api-dispute", args=[dispute.pk]), HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["reason"] == "The reports disagree: 5-3 and 3-5"


def test_a_dispute_a_person_opened_has_no_reason(cast):
    dispute = dispute_open(match_id=cast.match.pk, user=cast.alice, category=Dispute.Category.CONDUCT,
                           statement="He rolled early.")
    body = client_for(cast.alice).get(reverse("api-dispute", args=[dispute.pk])).json()
    assert body["reason"] == "" and body["reported_scores"] is None and body["statement"] == "He rolled early."


def test_the_reason_is_read_only_in_the_api(cast):
    response = client_for(cast.bob).post(reverse("api-disputes"), {
        "match": cast.match.pk, "category": "conduct", "statement": "x", "reason": "mine"}, format="json")
    assert response.status_code == 400 and "reason" in response.json()["errors"]


def test_a_kept_dispute_without_scores_is_worded_from_the_live_reports(cast):
    dispute = contested(cast)
    Dispute.objects.filter(pk=dispute.pk).update(reported_scores=None)
    body = client_for(cast.bob).get(reverse("api-dispute", args=[dispute.pk]), HTTP_ACCEPT_LANGUAGE="ro").json()
    assert body["reason"] == "Raportul de 5-3 a fost contestat"


# --- the data migration -------------------------------------------------------------------------


def test_the_migration_takes_the_english_reason_out_of_the_old_statements_and_back(cast):
    dispute = disagreeing(cast)
    other = contested(another(1))
    bare = contested(another(2), words="")
    by_hand = dispute_open(match_id=cast.match.pk, user=cast.alice, category=Dispute.Category.CONDUCT,
                           statement="the reports disagree: 1-0 and 0-1. Not automatic.")
    old = {
        dispute.pk: "the reports disagree: 5-3 and 3-5. I won the last game.",
        other.pk: "the report of 5-3 is contested. It was 3-5.",
        bare.pk: "the report of 5-3 is contested.",
    }
    for pk, statement in old.items():
        Dispute.objects.filter(pk=pk).update(statement=statement, reported_scores=None)
    migration.reasons_to_data(apps, None)
    rows = {d.pk: (d.statement, d.reported_scores) for d in Dispute.objects.all()}
    assert rows[dispute.pk] == ("I won the last game.", [[5, 3], [3, 5]])
    assert rows[other.pk] == ("It was 3-5.", [[5, 3]])
    assert rows[bare.pk] == ("", [[5, 3]])
    assert rows[by_hand.pk] == ("the reports disagree: 1-0 and 0-1. Not automatic.", None)
    migration.reasons_to_text(apps, None)
    back = dict(Dispute.objects.filter(pk__in=old).values_list("pk", "statement"))
    assert back == old
