"""audit_record_many: many entries in one INSERT, each the entry audit_record would write."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from audit.models import AuditEntry
from audit.services import audit_record, audit_record_many
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

FIELDS = ("actor_id", "actor_name", "action", "object_type", "object_id", "tournament_id", "match_id", "club_id",
          "before", "after", "note")


def test_each_entry_is_the_one_audit_record_writes_in_the_order_given(django_assert_num_queries):
    user = UserFactory(username="olga")
    entries = [
        {"action": "match.created", "object_type": "matches.Match", "object_id": 7, "match_id": 7, "tournament_id": 3,
         "after": {"sides": ['O"Brien', "Ann \\ Bo"], "when": datetime.date(2026, 12, 1), "fee": Decimal("2.50"),
                   "score": (None, 1)}},
        {"action": "pairing.reset", "object_type": "tournaments.Pairing", "object_id": 2**40, "club_id": 9,
         "before": {"key": "main-1-1"}, "note": "reset with pairing main-1-1"},
        {"action": "round.paired", "object_type": "tournaments.Round"},
    ]
    with django_assert_num_queries(1):
        assert audit_record_many(actor=user, entries=entries) == 3
    many = list(AuditEntry.objects.order_by("id").values(*FIELDS, "at"))
    for entry in entries:
        audit_record(actor=user, **entry)
    one_by_one = list(AuditEntry.objects.order_by("id").values(*FIELDS))[3:]
    assert [{k: row[k] for k in FIELDS} for row in many] == one_by_one
    assert many[0]["after"]["sides"] == ['O"Brien', "Ann \\ Bo"] and many[0]["after"]["fee"] == "2.50"
    assert many[1]["before"] == {"key": "main-1-1"} and many[0]["before"] is None
    assert len({row["at"] for row in many}) == 1 and many[0]["at"] is not None


def test_the_system_acts_when_there_is_no_actor_and_nothing_is_written_for_no_entries(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert audit_record_many(actor=None, entries=[]) == 0
    audit_record_many(actor=None, entries=[{"action": "match.created", "object_type": "matches.Match"}])
    entry = AuditEntry.objects.get()
    assert (entry.actor_id, entry.actor_name, entry.note) == (None, "system", "")
