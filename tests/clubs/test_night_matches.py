"""A member adds a match of the night from its page, between two of its checked-in players: a club
match of that night (it counts for the ladder once confirmed); bad choices are refused on the
page with a 400 and nothing is saved."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from clubs.services import night_check_in, night_open
from matches.models import Match
from tests.clubs.factories import club_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    cast = club_cast()
    night = night_open(club_id=cast.club.pk, user=cast.organiser, date=datetime.date(2026, 11, 29))
    for member in cast.members:
        night_check_in(club_id=cast.club.pk, night_id=night.pk, user=member)
    return cast, night


def page_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_member_adds_a_match_between_two_checked_in_players(night):
    cast, night_row = night
    mia, max_ = (cast.player(member) for member in cast.members)
    url = reverse("clubs:night_match", args=[cast.club.slug, night_row.pk])
    page = page_as(cast.members[0]).get(reverse("clubs:night", args=[cast.club.slug, night_row.pk])).content.decode()
    assert f'action="{url}"' in page and mia.display_name in page
    # The form offers two different players from the start.
    assert f'<option value="{max_.pk}" selected>' in page.split('name="side1"')[1].split("</select>")[0]
    response = page_as(cast.members[0]).post(url, {"side0": mia.pk, "side1": max_.pk, "length": 7})
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("matches:detail", args=[match.pk])
    assert (match.club_link.club, match.club_link.night, match.length, match.side0.player_a, match.side1.player_a) == (
        cast.club, night_row, 7, mia, max_)


@pytest.mark.parametrize("choice", [
    lambda mia, max_, outsider: {"side0": mia.pk, "side1": mia.pk, "length": 5},  # the same player twice
    lambda mia, max_, outsider: {"side0": mia.pk, "side1": outsider.pk, "length": 5},  # not checked in
    lambda mia, max_, outsider: {"side0": mia.pk, "side1": max_.pk, "length": 0},
    lambda mia, max_, outsider: {"side0": mia.pk, "side1": max_.pk},
])
def test_a_bad_match_is_refused_on_the_page_and_nothing_is_saved(night, choice):
    cast, night_row = night
    mia, max_ = (cast.player(member) for member in cast.members)
    url = reverse("clubs:night_match", args=[cast.club.slug, night_row.pk])
    response = page_as(cast.members[0]).post(url, choice(mia, max_, cast.player(cast.owner)))
    assert response.status_code == 400 and not Match.objects.exists()
    assert 'class="night-match"' in response.content.decode()


def test_an_outsider_cannot_add_a_match_to_a_night(night):
    cast, night_row = night
    mia, max_ = (cast.player(member) for member in cast.members)
    url = reverse("clubs:night_match", args=[cast.club.slug, night_row.pk])
    assert page_as(cast.outsider).post(url, {"side0": mia.pk, "side1": max_.pk, "length": 5}).status_code == 403
    assert not Match.objects.exists()
