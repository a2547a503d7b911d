"""Texts the application wrote in English and stored are data now, worded where they are read in the
reader's language: a contested report keeps the contesting side's words apart
(``Report.contest_statement``, labelled "Contested: ..." on the page), and a claim refused because
its player was given to another claim keeps a code (``PlayerClaim.reason_code``), read in the
reader's language on the page, in the API and in the claimant's email. The migration moves the old
rows both ways."""

from __future__ import annotations

import copy
import importlib

import pytest
from django.apps import apps
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from audit.describe import describe
from audit.models import AuditEntry
from matches.models import PlayerClaim, Report
from matches.services.claims import claim_approve, claim_request
from matches.services.notifications import claim_notify
from matches.services.reporting import claim_make, match_contest, match_report
from tests.matches.claims_world import user
from tests.matches.factories_api import client_for, make_cast
from tests.matches.test_claims import world  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db

migration = importlib.import_module("matches.migrations.0015_i15texts_texts_to_data")
GIVEN_KO = "이 선수는 다른 사용자의 신청에 배정되었습니다."
GIVEN_EN = "The player was given to another user's claim."


# --- a contested report ---------------------------------------------------------------------------


def test_a_contest_keeps_the_contesting_side_s_words_apart_and_the_page_labels_them_in_korean():
    cast = make_cast()
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None), statement="Mine.")
    match_contest(match_id=match.pk, user=cast.bob, statement="It was 3-5.")
    report = Report.objects.get(match=match)
    assert (report.statement, report.contest_statement) == ("Mine.", "It was 3-5.")
    cast.bob.preferred_language = "ko"
    cast.bob.save(update_fields=["preferred_language"])
    page = client_for(cast.bob, auth="session").get(reverse("matches:detail", args=[match.pk])).content.decode()
    assert "이의 제기: It was 3-5." in page and "Contested: " not in page
    body = client_for(cast.bob).get(f"/api/v1/matches/{match.pk}/").json()
    [live] = body["reports"]
    assert (live["statement"], live["contest_statement"]) == ("Mine.", "It was 3-5.")


def test_the_migration_moves_the_contest_out_of_the_statement_and_back():
    cast = make_cast()
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    report = Report.objects.get(match=match)
    old = {"Mine.\n\nContested: It was 3-5.": ("Mine.", "It was 3-5."),
           "Contested: It was 3-5.": ("", "It was 3-5."),
           "Contested without the label's colon and space": None}
    for statement, expected in old.items():
        Report.objects.filter(pk=report.pk).update(statement=statement, contest_statement="")
        migration.texts_to_data(apps, None)
        report.refresh_from_db()
        assert (report.statement, report.contest_statement) == (expected or (statement, ""))
        migration.data_to_texts(apps, None)
        report.refresh_from_db()
        assert (report.statement, report.contest_statement) == (statement, "")


# --- a claim refused because the player was given to another ---------------------------------------


@pytest.fixture
def given_to_another(world):  # noqa: F811
    """charlotte's claim of charlot1, refused when charles's was approved."""
    other = user("charlotte")
    theirs = claim_request(player_id=world["charlot"].pk, user=other)
    claim = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    claim_approve(claim_id=claim.pk, user=world["otto"])
    theirs.refresh_from_db()
    return theirs


def test_the_refusal_keeps_a_code_not_english(given_to_another):
    assert (given_to_another.reason, given_to_another.reason_code) == ("", "given_to_another")
    with translation.override("ko"):
        assert given_to_another.reason_text == GIVEN_KO
    with translation.override("en"):
        assert given_to_another.reason_text == GIVEN_EN


def test_the_api_words_the_refusal_in_the_client_s_language(given_to_another):
    client = client_for(given_to_another.user)
    [row] = client.get("/api/v1/claims/", HTTP_ACCEPT_LANGUAGE="ko").json()
    assert row["status"] == "refused" and row["reason"] == GIVEN_KO
    [row] = client.get("/api/v1/claims/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert row["reason"] == GIVEN_EN


def test_the_claims_page_words_the_refusal_in_the_reader_s_language(given_to_another):
    claimant = given_to_another.user
    claimant.preferred_language = "ko"
    claimant.save(update_fields=["preferred_language"])
    client = Client()
    client.force_login(claimant)
    page = client.get(reverse("matches:claims")).content.decode()
    assert GIVEN_KO in page and GIVEN_EN not in page


def test_the_refusal_email_is_in_the_claimant_s_language(given_to_another):
    claimant = given_to_another.user
    claimant.preferred_language = "ko"
    claimant.email = "charlotte@example.org"
    claimant.save(update_fields=["preferred_language", "email"])
    mail.outbox.clear()
    assert claim_notify(claim_id=given_to_another.pk) == 1
    [message] = mail.outbox
    assert GIVEN_KO in message.body and GIVEN_EN not in message.body


def test_the_audit_log_words_the_refusal_in_the_reader_s_language(given_to_another):
    entry = AuditEntry.objects.get(action="claim.refused", object_id=given_to_another.pk)
    assert entry.after["reason_code"] == "given_to_another"
    with translation.override("ko"):
        assert GIVEN_KO in describe(entry)
    # An entry from before the code kept the English text: it reads in the reader's language too.
    older = copy.copy(entry)  # entries are never changed: an unsaved copy as one written then
    older.after = {key: value for key, value in entry.after.items() if key != "reason_code"} | {"reason": GIVEN_EN}
    with translation.override("ko"):
        assert GIVEN_KO in describe(older) and GIVEN_EN not in describe(older)


def test_a_refusal_has_a_reason_or_a_code(world):  # noqa: F811
    claim = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerClaim.objects.filter(pk=claim.pk).update(status="refused", decided_at=timezone.now())
    PlayerClaim.objects.filter(pk=claim.pk).update(status="refused", decided_at=timezone.now(),
                                                   reason_code="given_to_another")


def test_the_migration_turns_the_english_reason_into_the_code_and_back(given_to_another, world):  # noqa: F811
    director_s = PlayerClaim.objects.create(user=user("chuck"), player=world["dave"], status="refused",
                                            reason="Not him.", decided_at=timezone.now())
    PlayerClaim.objects.filter(pk=given_to_another.pk).update(reason=GIVEN_EN, reason_code="")
    migration.texts_to_data(apps, None)
    rows = dict(PlayerClaim.objects.filter(status="refused").values_list("pk", "reason_code"))
    assert rows == {given_to_another.pk: "given_to_another", director_s.pk: ""}
    assert PlayerClaim.objects.get(pk=given_to_another.pk).reason == ""
    migration.data_to_texts(apps, None)
    assert PlayerClaim.objects.get(pk=given_to_another.pk).reason == GIVEN_EN
    assert PlayerClaim.objects.get(pk=director_s.pk).reason == "Not him."
