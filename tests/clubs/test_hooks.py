"""What clubs asks of the apps on it (clubs.hooks), answered here by stand-ins so that the clubs side
is tested alone: the night's summary shows the chouette tables and each player's net result that
the registered answer gives, to members only, and without an answer it has no chouette section at
all; the club's navigation shows a registered link to the roles it is for."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.test import Client

from clubs import hooks
from clubs.selectors import night_summary
from tests.clubs.factories import ClubNightFactory, club_cast
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return club_cast()


@pytest.fixture
def night(cast):
    return ClubNightFactory(club=cast.club, opened_by=cast.organiser)


def answering(monkeypatch, provider):
    """Stand in for the chouette app's answer for the length of a test (None: nobody answers), then
    put its own back."""
    monkeypatch.setattr(hooks.night_chouettes, "_entries", {})
    if provider is not None:
        hooks.night_chouettes.connect(provider, name="tests.ledger")
    yield


@pytest.fixture
def ledger(cast, monkeypatch):
    """A chouette ledger answering one table, Mia +12.50 and Max -12.50, for any night."""
    mia, max_ = cast.player(cast.members[0]), cast.player(cast.members[1])
    table = hooks.NightChouette(
        id=7, name="Big table", title="Big table", status="open", status_label="Playing", stake=Decimal("2.50"),
        currency="EUR", started_at=dt.datetime(2026, 11, 29, 20, tzinfo=dt.UTC), ended_at=None, url="/tables/7/")
    yield from answering(monkeypatch, lambda night: hooks.NightChouettes(
        tables=(table,), totals={max_.pk: Decimal("-12.50"), mia.pk: Decimal("12.50")}))


@pytest.fixture
def no_ledger(monkeypatch):
    yield from answering(monkeypatch, None)


def test_the_summary_carries_the_tables_and_each_players_net_chouette_result_best_first(night, ledger):
    summary = night_summary(night=night)
    assert [(t.display_name, t.amount) for t in summary.chouette_totals] == [
        ("Mia", Decimal("12.50")), ("Max", Decimal("-12.50"))]
    assert [t.title for t in summary.chouettes] == ["Big table"]


def test_members_see_the_tables_and_the_amounts_and_nobody_else_does(cast, night, ledger):
    member = Client()
    member.force_login(cast.members[1])
    text = re.sub(r"</?bdi[^>]*>", "", member.get(f"/clubs/{cast.club.slug}/nights/{night.pk}/").content.decode())
    assert '<a href="/tables/7/">Big table</a>: Playing, 2.50 EUR a point' in text
    assert "+12.50" in text and "-12.50" in text
    body = client_for(cast.members[1]).get(f"/api/v1/clubs/{cast.club.pk}/nights/{night.pk}/").json()
    assert [(t["display_name"], t["amount"]) for t in body["chouette_totals"]] == [("Mia", "12.50"), ("Max", "-12.50")]
    assert [(c["id"], c["name"], c["status"], c["stake"]) for c in body["chouettes"]] == [
        (7, "Big table", "open", "2.50")]
    for user in (cast.outsider, cast.invitee):
        outsider = Client()
        outsider.force_login(user)
        response = outsider.get(f"/clubs/{cast.club.slug}/nights/{night.pk}/")
        assert response.status_code == 403 and "12.50" not in response.content.decode()
        assert client_for(user).get(f"/api/v1/clubs/{cast.club.pk}/nights/{night.pk}/").status_code == 403


def test_without_an_answer_the_summary_has_no_chouette_section_and_the_api_says_null(cast, night, no_ledger):
    summary = night_summary(night=night)
    assert (summary.chouettes, summary.chouette_totals) == ((), None)
    member = Client()
    member.force_login(cast.members[0])
    text = re.sub(r"</?bdi[^>]*>", "", member.get(f"/clubs/{cast.club.slug}/nights/{night.pk}/").content.decode())
    assert "<h2>Chouettes</h2>" not in text and "No chouette this night" not in text
    body = client_for(cast.members[0]).get(f"/api/v1/clubs/{cast.club.pk}/nights/{night.pk}/").json()
    assert (body["chouettes"], body["chouette_totals"]) == ([], None)


def test_a_registered_link_shows_in_the_club_navigation_to_the_roles_it_is_for(cast, monkeypatch):
    monkeypatch.setattr(hooks.club_links, "_entries", {})
    hooks.club_links.connect(hooks.ClubLink("Members' corner", "clubs:nights", members_only=True), name="tests.members")
    hooks.club_links.connect(hooks.ClubLink("Everyone's corner", "clubs:seasons"), name="tests.everyone")
    hooks.club_links.connect(hooks.ClubLink("Everyone's corner", "clubs:seasons"), name="tests.everyone")  # once
    assert len(hooks.club_links.entries()) == 2
    member = Client()
    member.force_login(cast.members[0])
    text = member.get(f"/clubs/{cast.club.slug}/").content.decode()
    assert f'<a href="/clubs/{cast.club.slug}/nights/">Members&#x27; corner</a>' in text
    assert text.count("Everyone&#x27;s corner") == 1
    public = Client().get(f"/clubs/{cast.club.slug}/").content.decode()
    assert "Members&#x27; corner" not in public and "Everyone&#x27;s corner" in public
