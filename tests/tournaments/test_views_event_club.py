"""The new-event page puts the event on a club's calendar: it offers the clubs the organiser owns
or organises, and nothing else is taken."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Membership
from tests.factories import UserFactory
from tests.tournaments.test_views import new_event_data
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_an_organiser_puts_a_new_event_on_a_club_he_runs_and_only_those_are_offered():
    olga = UserFactory(username="olga", organiser=True)
    mine, theirs, joined = (Club.objects.create(name=name, slug=name.lower()) for name in ("North", "South", "East"))
    Membership.objects.create(club=mine, user=olga, role="organiser", status="active")
    Membership.objects.create(club=joined, user=olga, role="member", status="active")
    client = Client()
    client.force_login(olga)
    form = html.unescape(client.get(reverse("tournaments:new")).content.decode())
    # Only the club field's options are read: another field's number may equal a club's id.
    offered = form.split('name="club"')[1].split("</select>")[0]
    assert f'<option value="{mine.pk}">North</option>' in offered
    assert "South" not in offered and "East" not in offered
    assert f'value="{theirs.pk}"' not in offered and f'value="{joined.pk}"' not in offered
    refused = client.post(reverse("tournaments:new"), new_event_data(club=str(theirs.pk)))
    assert refused.status_code == 400 and not Tournament.objects.exists()
    response = client.post(reverse("tournaments:new"), new_event_data(club=str(mine.pk)))
    assert response.status_code == 302 and Tournament.objects.get().club == mine
