"""A club's, a season's or a night's refused field is named as its form names it ("Last day"),
never by its name in the code (``ends_on``): in the service's message and in the API's ``detail``,
in the reader's language; the API's ``field`` and ``errors`` keep the name for machines."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from clubs.forms import ClubForm, NightForm, SeasonForm
from clubs.labels import CLUB_LABELS, NIGHT_LABELS, SEASON_LABELS
from clubs.services import club_update, night_open, season_create, season_update
from core.errors import DomainError
from tests.clubs.factories import SeasonFactory, club_cast
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

DAY = dt.date(2025, 6, 1)


@pytest.fixture
def cast():
    return club_cast()


@pytest.mark.parametrize(("form", "labels"), [(ClubForm, CLUB_LABELS), (SeasonForm, SEASON_LABELS),
                                              (NightForm, NIGHT_LABELS)])
def test_the_labels_are_the_forms_own(form, labels):
    for name, label in labels.items():
        assert str(form.base_fields[name].label) == str(label), name


def test_a_season_that_ends_before_it_starts_is_refused_naming_the_last_day(cast):
    with translation.override("en"), pytest.raises(DomainError) as raised:
        season_create(club_id=cast.club.pk, user=cast.owner, name="Late", starts_on=DAY, ends_on=DAY - dt.timedelta(1))
    assert (raised.value.code, raised.value.details["field"]) == ("bad_season", "ends_on")
    assert raised.value.message == "Last day: the season ends before it starts"


def test_a_season_edit_of_an_unknown_field_quotes_it_as_sent(cast):
    season = SeasonFactory(club=cast.club, name="Spring")
    with translation.override("en"), pytest.raises(DomainError) as raised:
        season_update(club_id=cast.club.pk, season_id=season.pk, user=cast.owner, colour="red")
    assert raised.value.message == "“colour”: cannot be changed"


def test_a_club_and_a_night_name_their_fields_by_their_labels(cast):
    with translation.override("en"), pytest.raises(DomainError) as raised:
        club_update(club_id=cast.club.pk, user=cast.owner, city="x" * 121)
    assert raised.value.message == "City: at most 120 characters"
    with translation.override("en"), pytest.raises(DomainError) as raised:
        night_open(club_id=cast.club.pk, user=cast.owner, date=DAY, title="x" * 121)
    assert raised.value.message == "Title: at most 120 characters"


def test_the_refusal_names_the_field_in_the_readers_language(cast):
    with translation.override("ko"):
        label = str(SEASON_LABELS["ends_on"])
        with pytest.raises(DomainError) as raised:
            season_create(club_id=cast.club.pk, user=cast.owner, name="Late", starts_on=DAY,
                          ends_on=DAY - dt.timedelta(1))
    assert label != "Last day" and raised.value.message.startswith(f"{label}: ")
    assert "ends_on" not in raised.value.message


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_api_detail_names_the_last_day_and_its_errors_keep_the_field(cast, language):
    body = {"name": "S", "starts_on": "2025-06-01", "ends_on": "2025-05-01"}
    response = client_for(cast.owner).post(f"/api/v1/clubs/{cast.club.pk}/seasons/", body, format="json",
                                           HTTP_ACCEPT_LANGUAGE=language)
    with translation.override(language):
        label, message = str(SEASON_LABELS["ends_on"]), translation.gettext("the season ends before it starts")
    assert response.status_code == 400 and response.json()["errors"] == {"ends_on": [message]}
    assert response.json()["detail"] == f"{label}: {message}" and "ends_on" not in response.json()["detail"]
