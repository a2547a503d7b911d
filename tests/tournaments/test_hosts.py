"""tournaments.hosts: an event's club comes from the app that hosts events (clubs connects it);
without one, no event has a club, none may be asked for, and the draw knows no home club."""

from __future__ import annotations

import pytest

from clubs.models import ClubEvent, Membership
from clubs.receivers import EVENT_HOST
from core.errors import DomainError, NotAllowed
from tests.clubs.factories import ClubFactory
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments import hooks, hosts
from tournaments.selectors.event import club_choices, tournament_get, tournament_list
from tournaments.services import EventRules, tournament_create

pytestmark = pytest.mark.django_db


def test_clubs_is_the_registered_host(django_assert_num_queries):
    assert hooks.event_hosts.entries() == [EVENT_HOST]
    club = ClubFactory(name="Riverside")
    event = TournamentFactory(club=club)
    with django_assert_num_queries(1):  # the club comes with the event
        assert tournament_get(event.pk).club == club
    assert [t.pk for t in tournament_list(club_id=club.pk)] == [event.pk]


def test_a_club_manager_puts_a_new_event_on_the_club_calendar_and_no_one_else():
    club = ClubFactory(name="Riverside")
    olga = UserFactory(organiser=True)
    with pytest.raises(NotAllowed) as refused:
        tournament_create(user=olga, rules=EventRules(name="Open", club_id=club.pk))
    assert refused.value.code == "not_club_manager" and not ClubEvent.objects.exists()
    Membership.objects.create(club=club, user=olga, role="organiser", status="active")
    assert club_choices(user=olga) == [(club.pk, "Riverside")]
    event = tournament_create(user=olga, rules=EventRules(name="Open", club_id=club.pk))
    assert ClubEvent.objects.get(tournament=event).club == club


def test_without_a_host_no_event_has_a_club_and_none_may_be_asked_for(monkeypatch):
    club = ClubFactory()
    event = TournamentFactory(club=club)
    player = PlayerFactory(club=club)
    monkeypatch.setattr(hooks.event_hosts, "_entries", {})
    olga = UserFactory(organiser=True)
    assert tournament_get(event.pk).club is None
    assert club_choices(user=olga) == [] and not tournament_list(club_id=club.pk).exists()
    assert hosts.player_clubs([player.pk]) == {}
    with pytest.raises(DomainError) as refused:
        tournament_create(user=olga, rules=EventRules(name="Open", club_id=club.pk))
    assert refused.value.code == "unknown_club"


def test_the_draw_reads_each_players_home_club_in_one_query(django_assert_num_queries):
    club = ClubFactory()
    home, away = PlayerFactory(club=club), PlayerFactory()
    with django_assert_num_queries(1):
        assert hosts.player_clubs([home.pk, away.pk]) == {home.pk: club.pk}
