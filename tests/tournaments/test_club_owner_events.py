"""A club's owner is an organiser for his club's events: without the organiser role he creates an
event on his club's calendar (service, API, page) and runs it as its organiser, and nothing else:
no event without a club, none on another club's calendar, none once he no longer owns the club.
A club's organiser (a member's role, not the owner) gets nothing of the kind."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import ClubEvent, Membership
from core.errors import NotAllowed
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.factories import UserFactory
from tests.matches.factories_api import client_for
from tests.tournaments.test_views import new_event_data
from tournaments.models import Tournament
from tournaments.selectors.event import club_choices
from tournaments.services import EventRules, tournament_create, tournament_open_entries
from tournaments.services.events import may_create_events

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann():
    """A player (no organiser role) who owns North, organises East and is a member of West."""
    return UserFactory(username="ann")


@pytest.fixture
def clubs(ann):
    north, east, west, south = (ClubFactory(name=name) for name in ("North", "East", "West", "South"))
    MembershipFactory(club=north, user=ann, owner=True)
    MembershipFactory(club=east, user=ann, organiser=True)
    MembershipFactory(club=west, user=ann)
    return {"north": north, "east": east, "west": west, "south": south}


def test_a_club_owner_creates_and_runs_his_clubs_event_without_the_role(ann, clubs):
    assert ann.role == "player" and not ann.is_organiser and may_create_events(ann)
    event = tournament_create(user=ann, rules=EventRules(name="North Cup", club_id=clubs["north"].pk))
    assert event.organiser == ann and ClubEvent.objects.get(tournament=event).club == clubs["north"]
    assert tournament_open_entries(tournament_id=event.pk, user=ann).status == Tournament.Status.OPEN


@pytest.mark.parametrize("where", [None, "east", "west", "south"])
def test_a_club_owner_creates_no_event_off_his_clubs_calendar(ann, clubs, where):
    club_id = clubs[where].pk if where else None
    with pytest.raises(NotAllowed) as refused:
        tournament_create(user=ann, rules=EventRules(name="Elsewhere", club_id=club_id))
    assert refused.value.code == "club_events_only" and refused.value.details["field"] == "club"
    assert not Tournament.objects.exists() and not ClubEvent.objects.exists()


def test_he_runs_no_other_event_of_his_club(ann, clubs):
    otto = UserFactory(username="otto", organiser=True)
    MembershipFactory(club=clubs["north"], user=otto, organiser=True)
    theirs = tournament_create(user=otto, rules=EventRules(name="Otto's Cup", club_id=clubs["north"].pk))
    with pytest.raises(NotAllowed) as refused:
        tournament_open_entries(tournament_id=theirs.pk, user=ann)
    assert refused.value.code == "not_organiser"


def test_a_clubs_organiser_or_a_former_owner_creates_nothing(ann, clubs):
    bob = UserFactory(username="bob")
    MembershipFactory(club=clubs["north"], user=bob, organiser=True)
    Membership.objects.filter(club=clubs["north"], user=ann).update(role=Membership.Role.MEMBER)
    for user in (ann, bob):
        assert not may_create_events(user) and club_choices(user=user) == []
        with pytest.raises(NotAllowed) as refused:
            tournament_create(user=user, rules=EventRules(name="North Cup", club_id=clubs["north"].pk))
        assert refused.value.code == "not_an_organiser"
    assert not Tournament.objects.exists()


def test_the_api_lets_him_create_his_clubs_event_only(ann, clubs):
    client = client_for(ann)
    refused = client.post("/api/v1/tournaments/", {"name": "Open"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "club_events_only"
    assert refused.json()["errors"] == {"club": [refused.json()["detail"]]}
    other = client.post("/api/v1/tournaments/", {"name": "Open", "club": clubs["south"].pk}, format="json")
    assert other.status_code == 403 and not Tournament.objects.exists()
    made = client.post("/api/v1/tournaments/", {"name": "North Cup", "club": clubs["north"].pk}, format="json")
    assert made.status_code == 201, made.json()
    assert Tournament.objects.get().organiser == ann and made.json()["club"]["id"] == clubs["north"].pk
    nobody = client_for(UserFactory(username="carl")).post("/api/v1/tournaments/", {"name": "Open"}, format="json")
    assert nobody.status_code == 403 and nobody.json()["code"] == "not_an_organiser"


def test_the_new_event_page_offers_him_only_the_clubs_he_owns_and_asks_for_one(ann, clubs):
    client = Client()
    client.force_login(ann)
    assert 'href="/events/new/"' in client.get(reverse("tournaments:list")).content.decode()
    page = html.unescape(client.get(reverse("tournaments:new")).content.decode())
    # Only the club field's options are read: another field's number may equal a club's id.
    offered = page.split('name="club"')[1].split("</select>")[0]
    assert f'<option value="{clubs["north"].pk}">North</option>' in offered
    assert "No club" not in offered and f'value="{clubs["east"].pk}"' not in offered
    missing = client.post(reverse("tournaments:new"), new_event_data())
    assert missing.status_code == 400 and not Tournament.objects.exists()
    assert "choose the club the event is on" in html.unescape(missing.content.decode())
    response = client.post(reverse("tournaments:new"), new_event_data(club=str(clubs["north"].pk)))
    event = Tournament.objects.get()
    assert response.status_code == 302 and event.organiser == ann and event.club == clubs["north"]
    assert client.get(reverse("tournaments:manage", args=[event.pk])).status_code == 200


def test_a_player_without_a_club_still_gets_a_403_from_the_new_event_page():
    client = Client()
    client.force_login(UserFactory(username="carl"))
    assert client.get(reverse("tournaments:new")).status_code == 403
