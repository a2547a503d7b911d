"""The night's summary asks the chouette ledger (``clubs.selectors_chouette.chouette_night_totals``)
for each player's net result over the night's sessions, and shows the amounts to members only."""

from __future__ import annotations

import sys
import types
from decimal import Decimal

import pytest
from django.test import Client

from clubs.models import ChouetteSession
from clubs.selectors import night_summary
from tests.clubs.factories import ClubNightFactory, club_cast
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return club_cast()


@pytest.fixture
def night(cast):
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    ChouetteSession.objects.create(club=cast.club, night=night, name="Big table", created_by=cast.organiser)
    return night


@pytest.fixture
def ledger(cast, monkeypatch):
    """A chouette ledger answering Mia +12.50 and Max -12.50 for any night."""
    mia, max_ = cast.player(cast.members[0]), cast.player(cast.members[1])
    module = types.ModuleType("clubs.selectors_chouette")
    module.chouette_night_totals = lambda night: {mia.pk: Decimal("12.50"), max_.pk: Decimal("-12.50")}
    monkeypatch.setitem(sys.modules, "clubs.selectors_chouette", module)


def test_the_summary_carries_each_players_net_chouette_result_best_first(night, ledger):
    totals = night_summary(night=night).chouette_totals
    assert [(t.display_name, t.amount) for t in totals] == [("Mia", Decimal("12.50")), ("Max", Decimal("-12.50"))]


def test_members_see_the_amounts_and_nobody_else_does(cast, night, ledger):
    member = Client()
    member.force_login(cast.members[1])
    text = member.get(f"/clubs/{cast.club.slug}/nights/{night.pk}/").content.decode()
    assert "Big table" in text and "+12.50" in text and "-12.50" in text
    body = client_for(cast.members[1]).get(f"/api/v1/clubs/{cast.club.pk}/nights/{night.pk}/").json()
    assert [(t["display_name"], t["amount"]) for t in body["chouette_totals"]] == [("Mia", "12.50"), ("Max", "-12.50")]
    assert [c["name"] for c in body["chouettes"]] == ["Big table"]
    for user in (cast.outsider, cast.invitee):
        outsider = Client()
        outsider.force_login(user)
        response = outsider.get(f"/clubs/{cast.club.slug}/nights/{night.pk}/")
        assert response.status_code == 403 and "12.50" not in response.content.decode()
        assert client_for(user).get(f"/api/v1/clubs/{cast.club.pk}/nights/{night.pk}/").status_code == 403


def test_without_the_ledger_the_summary_lists_the_sessions_and_says_the_amounts_are_not_there(cast, night, monkeypatch):
    monkeypatch.setitem(sys.modules, "clubs.selectors_chouette", None)  # an import of it fails
    assert night_summary(night=night).chouette_totals is None
    member = Client()
    member.force_login(cast.members[0])
    text = member.get(f"/clubs/{cast.club.slug}/nights/{night.pk}/").content.decode()
    assert "Big table" in text and "not available yet" in text
