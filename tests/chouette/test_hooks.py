"""The chouette app's answers to clubs' hooks (chouette.receivers, connected in ChouetteConfig.ready()):
every club page's navigation links the club's tables for its members, and a night's summary (page
and API) lists the tables played at it, each linked to its page, with each player's net result."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from chouette.receivers import CLUB_LINK, night_chouettes
from clubs import hooks
from tests.chouette.factories import ids, play, quick, table
from tests.clubs.factories import ClubNightFactory
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db


def test_the_app_registers_its_link_and_its_night_answer():
    assert CLUB_LINK in hooks.club_links.entries()
    assert hooks.night_chouettes.get("chouette.tables") is night_chouettes


def test_the_club_navigation_links_the_tables_for_members_only(cast):
    link = f'<a href="{reverse("chouette:list", args=[cast.club.slug])}">Chouettes</a>'
    member = Client()
    member.force_login(cast.members[0])
    assert link in member.get(f"/clubs/{cast.club.slug}/").content.decode()
    outsider = Client()
    outsider.force_login(cast.outsider)
    assert link not in outsider.get(f"/clubs/{cast.club.slug}/").content.decode()
    assert link not in Client().get(f"/clubs/{cast.club.slug}/").content.decode()


def test_a_nights_summary_lists_its_tables_with_their_pages_and_the_players_net_results(cast):
    p = ids(cast)
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    session = table(cast, night_id=night.pk)
    play(cast, session, quick("box", cubes={p["otis"]: 2}))
    table(cast, name="Elsewhere")  # not at this night
    answer = night_chouettes(night)
    assert [(t.id, t.title, t.status_label, t.url) for t in answer.tables] == [
        (session.pk, "Big table", "Playing", f"/clubs/{cast.club.slug}/chouettes/{session.pk}/")]
    assert answer.totals == {p["ann"]: Decimal("10.00"), p["otis"]: Decimal("-5.00"), p["mia"]: Decimal("-2.50"),
                             p["max"]: Decimal("-2.50")}
    member = Client()
    member.force_login(cast.members[1])
    text = member.get(f"/clubs/{cast.club.slug}/nights/{night.pk}/").content.decode()
    assert f'<a href="/clubs/{cast.club.slug}/chouettes/{session.pk}/">Big table</a>: Playing' in text
    body = client_for(cast.members[1]).get(f"/api/v1/clubs/{cast.club.pk}/nights/{night.pk}/").json()
    assert [(c["id"], c["name"], c["stake"], c["currency"]) for c in body["chouettes"]] == [
        (session.pk, "Big table", "2.50", "EUR")]
    assert [(t["display_name"], t["amount"]) for t in body["chouette_totals"]] == [
        ("Ann", "10.00"), ("Max", "-2.50"), ("Mia", "-2.50"), ("Otis", "-5.00")]
