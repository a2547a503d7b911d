"""Club nights and seasons (clubs.services.nights, clubs.services.seasons)."""

from __future__ import annotations

import datetime as dt

import pytest

from audit.models import AuditEntry
from clubs.models import CheckIn, ClubNight, Season
from clubs.services import night_check_in, night_close, night_open, season_create, season_delete, season_update
from core.errors import Conflict, DomainError, NotAllowed
from tests.clubs.factories import ClubNightFactory, SeasonFactory, club_cast, snapshot

pytestmark = pytest.mark.django_db

DAY = dt.date(2025, 3, 4)


@pytest.fixture
def cast():
    return club_cast()


@pytest.fixture
def night(cast):
    return ClubNightFactory(club=cast.club, opened_by=cast.organiser)


def refused(cast, error, code, call, **kwargs):
    before = snapshot(cast.club)
    with pytest.raises(error) as caught:
        call(**kwargs)
    assert caught.value.code == code
    assert snapshot(cast.club) == before
    return caught.value


def actions(club) -> list[str]:
    return list(AuditEntry.objects.filter(club_id=club.pk).order_by("id").values_list("action", flat=True))


# --- nights ------------------------------------------------------------------------------------------


def test_an_organiser_opens_a_night(cast):
    night = night_open(club_id=cast.club.pk, user=cast.organiser, date=DAY, title=" Tuesday ")
    assert (night.date, night.title, night.status, night.opened_by) == (DAY, "Tuesday", "open", cast.organiser)
    assert actions(cast.club) == ["night.opened"]


def test_a_member_cannot_open_a_night(cast):
    refused(cast, NotAllowed, "not_club_manager", night_open, club_id=cast.club.pk, user=cast.members[0], date=DAY)


@pytest.mark.parametrize("date", [None, "2025-03-04", dt.datetime(2025, 3, 4, 20, 0)])
def test_a_night_without_a_date_is_refused(cast, date):
    error = refused(cast, DomainError, "bad_night", night_open, club_id=cast.club.pk, user=cast.owner, date=date)
    assert error.details["field"] == "date"


def test_a_member_checks_himself_in_and_checking_in_twice_changes_nothing(cast, night):
    first = night_check_in(club_id=cast.club.pk, night_id=night.pk, user=cast.members[0])
    assert first.player == cast.player(cast.members[0])
    assert night_check_in(club_id=cast.club.pk, night_id=night.pk, user=cast.members[0]).pk == first.pk
    assert actions(cast.club) == ["night.checked_in"]


def test_an_organiser_checks_a_member_in(cast, night):
    mia = cast.player(cast.members[0])
    assert night_check_in(club_id=cast.club.pk, night_id=night.pk, user=cast.organiser, player_id=mia.pk).player == mia


def test_a_member_cannot_check_in_someone_else(cast, night):
    refused(cast, NotAllowed, "not_club_manager", night_check_in, club_id=cast.club.pk, night_id=night.pk,
            user=cast.members[0], player_id=cast.player(cast.members[1]).pk)


def test_outsiders_requesters_and_invitees_cannot_check_in(cast, night):
    for user in (cast.outsider, cast.requester, cast.invitee):
        refused(cast, NotAllowed, "not_club_member", night_check_in, club_id=cast.club.pk, night_id=night.pk, user=user)


def test_an_organiser_cannot_check_in_a_player_who_is_not_a_member(cast, night):
    for user in (cast.outsider, cast.requester):
        refused(cast, DomainError, "unknown_player", night_check_in, club_id=cast.club.pk, night_id=night.pk,
                user=cast.organiser, player_id=cast.player(user).pk)


def test_nobody_checks_in_to_a_closed_night(cast, night):
    night_close(club_id=cast.club.pk, night_id=night.pk, user=cast.organiser)
    refused(cast, Conflict, "night_closed", night_check_in, club_id=cast.club.pk, night_id=night.pk,
            user=cast.members[0])


def test_another_clubs_night_is_unknown_here(cast):
    elsewhere = ClubNightFactory(opened_by=cast.owner)
    before = snapshot(cast.club)
    with pytest.raises(ClubNight.DoesNotExist):
        night_check_in(club_id=cast.club.pk, night_id=elsewhere.pk, user=cast.members[0])
    assert snapshot(cast.club) == before and not CheckIn.objects.exists()


def test_an_organiser_closes_the_night_once(cast, night):
    closed = night_close(club_id=cast.club.pk, night_id=night.pk, user=cast.organiser)
    assert closed.status == "closed" and closed.closed_at is not None
    night_close(club_id=cast.club.pk, night_id=night.pk, user=cast.owner)
    assert actions(cast.club) == ["night.closed"]


def test_a_member_cannot_close_the_night(cast, night):
    refused(cast, NotAllowed, "not_club_manager", night_close, club_id=cast.club.pk, night_id=night.pk,
            user=cast.members[0])


# --- seasons -----------------------------------------------------------------------------------------


def test_an_organiser_creates_edits_and_deletes_a_season(cast):
    season = season_create(club_id=cast.club.pk, user=cast.organiser, name=" Spring ", starts_on=dt.date(2025, 3, 1),
                           ends_on=dt.date(2025, 5, 31))
    assert season.name == "Spring"
    season_update(club_id=cast.club.pk, season_id=season.pk, user=cast.owner, ends_on=dt.date(2025, 6, 30))
    season.refresh_from_db()
    assert season.ends_on == dt.date(2025, 6, 30)
    season_delete(club_id=cast.club.pk, season_id=season.pk, user=cast.organiser)
    assert not Season.objects.exists()
    assert actions(cast.club) == ["season.created", "season.updated", "season.deleted"]


def test_seasons_may_overlap(cast):
    season_create(club_id=cast.club.pk, user=cast.owner, name="2025", starts_on=dt.date(2025, 1, 1),
                  ends_on=dt.date(2025, 12, 31))
    season_create(club_id=cast.club.pk, user=cast.owner, name="Winter league", starts_on=dt.date(2025, 11, 1),
                  ends_on=dt.date(2026, 2, 28))
    assert Season.objects.filter(club=cast.club).count() == 2


@pytest.mark.parametrize(("fields", "field"), [
    ({"name": "", "starts_on": DAY, "ends_on": DAY}, "name"),
    ({"name": "x" * 81, "starts_on": DAY, "ends_on": DAY}, "name"),
    ({"name": "Late", "starts_on": DAY, "ends_on": DAY - dt.timedelta(days=1)}, "ends_on"),
    ({"name": "Undated", "starts_on": None, "ends_on": DAY}, "starts_on"),
])
def test_a_season_with_a_bad_name_or_dates_is_refused(cast, fields, field):
    error = refused(cast, DomainError, "bad_season", season_create, club_id=cast.club.pk, user=cast.owner, **fields)
    assert error.details["field"] == field


def test_a_season_name_is_used_once_per_club(cast):
    SeasonFactory(club=cast.club, name="Spring")
    refused(cast, Conflict, "season_name_taken", season_create, club_id=cast.club.pk, user=cast.owner, name="spring",
            starts_on=DAY, ends_on=DAY)


def test_members_cannot_touch_seasons_and_a_bad_edit_changes_nothing(cast):
    season = SeasonFactory(club=cast.club, name="Spring")
    refused(cast, NotAllowed, "not_club_manager", season_create, club_id=cast.club.pk, user=cast.members[0],
            name="Mine", starts_on=DAY, ends_on=DAY)
    refused(cast, NotAllowed, "not_club_manager", season_delete, club_id=cast.club.pk, season_id=season.pk,
            user=cast.outsider)
    refused(cast, DomainError, "bad_season", season_update, club_id=cast.club.pk, season_id=season.pk,
            user=cast.owner, starts_on=dt.date(2026, 1, 1))
    refused(cast, DomainError, "bad_season", season_update, club_id=cast.club.pk, season_id=season.pk,
            user=cast.owner, club=1)
