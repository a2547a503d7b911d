"""A team's captain checks his team in from the event page (a team entry has no side)."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.factories import UserFactory
from tournaments.models import Entry

from .factories_teams import team_event

pytestmark = pytest.mark.django_db


def test_a_captain_checks_his_team_in_from_the_event_page(client):
    organiser = UserFactory(organiser=True)
    tournament, _, teams = team_event(organiser, draw=False)
    entry = teams[0].entry
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ENTERED)
    captain = teams[0].captain.user
    client.force_login(captain)
    response = client.post(reverse("tournaments:check_in", args=[tournament.pk]), {"entry": entry.pk})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN
    assert [str(m) for m in get_messages(response.wsgi_request)] == [f"{teams[0].name} is checked in."]
