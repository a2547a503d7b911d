"""A result no person reported (imported from a match file, a forfeit when an entrant withdrew) keeps
its origin as a code and a name (``Report.origin``, ``origin_name``), worded where it is read in the
reader's language: the match page, the API's ``origin_text`` and the audit log. The
migration turns the English sentences the application used to store into origins, and back."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import translation

from audit.describe import describe
from audit.models import AuditEntry
from matches.models import Report, report_origin_text
from tests.matches.factories_api import make_cast
from tests.tournaments.factories import drawn, entry_of, make_organiser, pairing
from tournaments.services import entry_withdraw

pytestmark = pytest.mark.django_db

migration = importlib.import_module("matches.migrations.0018_report_origin_data")


@pytest.fixture
def forfeited():
    """Carol withdrew after the draw: her open match (Bob v Carol) went to Bob by forfeit."""
    organiser = make_organiser()
    tournament, (_alice, _bob, carol, _dave) = drawn(4, organiser=organiser, lengths={"main": 7})
    entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, carol).pk, user=carol.user)
    return pairing(tournament, "main-1-2").match


def test_a_forfeit_keeps_its_origin_and_reads_in_the_readers_language(forfeited):
    report = forfeited.reports.get()
    assert (report.origin, report.origin_name, report.statement) == ("forfeit", "Carol", "")
    english = Client().get(reverse("matches:detail", args=[forfeited.pk])).content.decode()
    assert "Forfeit: Carol withdrew from the tournament." in english
    korean = Client(headers={"accept-language": "ko"}).get(reverse("matches:detail", args=[forfeited.pk]))
    page = korean.content.decode()
    with translation.override("ko"):
        expected = report_origin_text("forfeit", "Carol")
    assert expected != "Forfeit: Carol withdrew from the tournament." and expected in page
    assert "withdrew from the tournament" not in page
    [live] = Client(headers={"accept-language": "ko"}).get(f"/api/v1/matches/{forfeited.pk}/").json()["reports"]
    assert (live["origin"], live["origin_text"], live["statement"]) == ("forfeit", expected, "")


def test_the_audit_log_says_the_result_was_a_forfeit_in_the_readers_language(forfeited):
    entry = AuditEntry.objects.get(match_id=forfeited.pk, action="match.result_overridden")
    assert entry.after["origin"] == {"code": "forfeit", "name": "Carol"} and entry.note == ""
    with translation.override("en"):
        assert "set the result 7-0: a forfeit, Carol withdrew" in str(describe(entry))
    with translation.override("ro"):
        assert "Carol" in str(describe(entry)) and "a forfeit" not in str(describe(entry))


def test_a_persons_report_has_no_origin():
    cast = make_cast()
    from matches.services.reporting import claim_make, match_report

    report = match_report(match_id=cast.match.pk, user=cast.alice, claim=claim_make(cast.match, (5, 3), None),
                          statement="Close one.")
    assert (report.origin, report.origin_text, report.statement) == ("", "", "Close one.")


def test_the_migration_turns_the_stored_sentences_into_origins_and_back():
    cast = make_cast()
    from matches.services.reporting import claim_make, match_report

    report = match_report(match_id=cast.match.pk, user=cast.alice, claim=claim_make(cast.match, (5, 3), None))
    # (the organiser's result: side null, or a side's report)
    old = {(None, "Imported from club.zip/final.mat"): ("imported", "club.zip/final.mat", ""),
           (None, "Forfeit: Ana Pop withdrew from the tournament."): ("forfeit", "Ana Pop", ""),
           (0, "Imported from memory, I think"): ("", "", "Imported from memory, I think"),
           (None, "Forfeit: nobody withdrew, we just stopped"): ("", "", "Forfeit: nobody withdrew, we just stopped"),
           (None, "We played it at the bar."): ("", "", "We played it at the bar.")}
    for (side, statement), expected in old.items():
        Report.objects.filter(pk=report.pk).update(side=side, statement=statement, origin="", origin_name="")
        migration.statements_to_origins(apps, None)
        report.refresh_from_db()
        assert (report.origin, report.origin_name, report.statement) == expected
        migration.origins_to_statements(apps, None)
        report.refresh_from_db()
        assert (report.origin, report.origin_name, report.statement) == ("", "", statement)
