"""The club pages: what each visitor sees and may do, errors re-rendered with their 4xx status and
nothing saved, and nobody's email on any page."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from clubs.models import Club, ClubNight, Membership, Season
from tests.clubs.factories import ClubNightFactory, SeasonFactory, club_cast, club_match, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return club_cast()


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page(cast, tail=""):
    return f"/clubs/{cast.club.slug}/{tail}"


def emails(cast):
    return [u.email for u in (cast.owner, cast.organiser, *cast.members, cast.requester, cast.invitee, cast.outsider)]


def test_the_club_page_lists_members_with_rating_and_results_and_no_email(cast):
    club_match(cast, cast.owner, cast.members[0], (5, 2), rate=False)
    ClubNightFactory(club=cast.club, opened_by=cast.organiser, date=dt.date.today() + dt.timedelta(days=7),
                     title="Next Tuesday")
    response = browser().get(page(cast))
    text = re.sub(r"</?bdi[^>]*>", "", response.content.decode())  # the scores' left-to-right isolates
    assert response.status_code == 200
    assert "Ann" in text and "W 5-2 v Mia" in text and "L 2-5 v Ann" in text and "1500.0" in text
    assert "Next Tuesday" in text
    assert not [e for e in emails(cast) if e in text]


def test_the_club_page_offers_each_visitor_his_own_action(cast):
    assert "Ask to join" in browser(cast.outsider).get(page(cast)).content.decode()
    assert "Accept the invitation" in browser(cast.invitee).get(page(cast)).content.decode()
    assert "Withdraw the request" in browser(cast.requester).get(page(cast)).content.decode()
    assert "Leave the club" in browser(cast.members[0]).get(page(cast)).content.decode()
    assert "Manage members" in browser(cast.organiser).get(page(cast)).content.decode()
    assert "Manage members" not in browser(cast.members[0]).get(page(cast)).content.decode()


def test_a_user_creates_a_club_from_the_page_and_a_taken_name_is_a_409_that_saves_nothing(cast):
    response = browser(cast.outsider).post("/clubs/new/", {"name": "Lyon Backgammon", "open_to_requests": "on"})
    assert response.status_code == 302 and response["Location"] == "/clubs/lyon-backgammon/"
    response = browser(cast.outsider).post("/clubs/new/", {"name": "crawford club"})
    assert response.status_code == 409 and "already a club named" in response.content.decode()
    assert Club.objects.count() == 2


def test_joining_and_accepting_and_the_last_owner_leaving_from_the_pages(cast):
    assert browser(cast.outsider).post(page(cast, "join/")).status_code == 302
    assert Membership.objects.get(user=cast.outsider).status == "requested"
    assert browser(cast.invitee).post(page(cast, "accept/")).status_code == 302
    assert Membership.objects.get(user=cast.invitee).status == "active"
    before = snapshot(cast.club)
    response = browser(cast.owner).post(page(cast, "leave/"))
    assert response.status_code == 409 and "at least one owner" in response.content.decode()
    assert snapshot(cast.club) == before


def test_the_members_page_is_for_managers_and_only_owners_answer_requests(cast):
    assert browser().get(page(cast, "members/")).status_code == 302
    assert browser(cast.members[0]).get(page(cast, "members/")).status_code == 403
    text = browser(cast.organiser).get(page(cast, "members/")).content.decode()
    # The one asking to join is named by his display name: his username signs him in.
    assert cast.requester.display_name in text and f"<td>{cast.requester.username}</td>" not in text
    assert "Approve" not in text
    text = browser(cast.owner).get(page(cast, "members/")).content.decode()
    assert "Approve" in text and not [e for e in emails(cast) if e in text]
    pending = cast.membership(cast.requester)
    before = snapshot(cast.club)
    assert browser(cast.organiser).post(page(cast, f"members/{pending.pk}/"), {"action": "approve"}).status_code == 403
    assert snapshot(cast.club) == before
    assert browser(cast.owner).post(page(cast, f"members/{pending.pk}/"), {"action": "approve"}).status_code == 302
    assert cast.membership(cast.requester).status == "active"


def test_an_owner_changes_a_role_from_the_page_and_a_bad_action_is_a_400(cast):
    mia = cast.membership(cast.members[0])
    assert browser(cast.owner).post(page(cast, f"members/{mia.pk}/"), {"action": "role", "role": "organiser"}
                                    ).status_code == 302
    assert cast.membership(cast.members[0]).role == "organiser"
    before = snapshot(cast.club)
    for body in ({"action": "role"}, {"action": "promote"}, {}):
        assert browser(cast.owner).post(page(cast, f"members/{mia.pk}/"), body).status_code == 400
    assert snapshot(cast.club) == before


def test_inviting_an_unknown_user_from_the_page_is_a_400_naming_him(cast):
    before = snapshot(cast.club)
    response = browser(cast.organiser).post(page(cast, "members/invite/"), {"username": "ghost"})
    assert response.status_code == 400 and "there is no user" in response.content.decode()
    assert snapshot(cast.club) == before
    assert browser(cast.organiser).post(page(cast, "members/invite/"), {"username": "xavier"}).status_code == 302


def test_the_ladder_page_shows_the_rows_and_the_definition_and_managers_edit_the_season(cast):
    season = SeasonFactory(club=cast.club, name="Spring", starts_on=dt.date(2025, 3, 1), ends_on=dt.date(2025, 5, 31))
    club_match(cast, cast.owner, cast.organiser, (5, 3), played_on=dt.date(2025, 3, 4))
    text = browser().get(page(cast, f"seasons/{season.pk}/")).content.decode()
    assert "Ranked by wins, then points, then rating change" in text and "ladder.csv" in text
    assert "Edit the season" not in text
    response = browser(cast.organiser).post(page(cast, f"seasons/{season.pk}/"), {
        "action": "update", "name": "Spring", "starts_on": "2025-03-01", "ends_on": "2025-02-01"})
    assert response.status_code == 400
    assert Season.objects.get().ends_on == dt.date(2025, 5, 31)
    assert browser(cast.organiser).post(page(cast, f"seasons/{season.pk}/"), {"action": "delete"}).status_code == 302
    assert not Season.objects.exists()


def test_a_season_is_created_from_the_seasons_page(cast):
    response = browser(cast.owner).post(page(cast, "seasons/"), {"name": "Summer", "starts_on": "2025-06-01",
                                                                 "ends_on": "2025-08-31"})
    assert response.status_code == 302
    assert Season.objects.get().name == "Summer"


def test_a_night_is_opened_checked_into_and_closed_from_the_pages(cast):
    response = browser(cast.organiser).post(page(cast, "nights/"), {"date": "2025-03-04", "title": "Tuesday"})
    assert response.status_code == 302
    night = ClubNight.objects.get()
    assert browser(cast.members[0]).post(page(cast, f"nights/{night.pk}/check-in/")).status_code == 302
    assert browser(cast.organiser).post(page(cast, f"nights/{night.pk}/close/")).status_code == 302
    response = browser(cast.members[1]).post(page(cast, f"nights/{night.pk}/check-in/"))
    assert response.status_code == 409 and "closed" in response.content.decode()
    assert list(night.check_ins.values_list("player__display_name", flat=True)) == ["Mia"]


def test_the_night_summary_is_for_members_and_shows_matches_and_check_ins(cast):
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    club_match(cast, cast.owner, cast.members[0], (5, 2), night=night, rate=False)
    assert browser().get(page(cast, f"nights/{night.pk}/")).status_code == 302
    for user in (cast.outsider, cast.requester, cast.invitee):
        assert browser(user).get(page(cast, f"nights/{night.pk}/")).status_code == 403
    text = browser(cast.members[1]).get(page(cast, f"nights/{night.pk}/")).content.decode()
    assert "Ann v Mia" in text and "5-2" in text
    assert not [e for e in emails(cast) if e in text]


def test_unknown_clubs_seasons_and_nights_are_404(cast):
    assert browser().get("/clubs/no-such-club/").status_code == 404
    assert browser().get(page(cast, "seasons/999999/")).status_code == 404
    assert browser(cast.owner).get(page(cast, "nights/999999/")).status_code == 404
