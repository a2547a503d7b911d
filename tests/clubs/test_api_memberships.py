"""The clubs API: clubs, and memberships as every role of the club's cast sees them."""

from __future__ import annotations

import pytest

from clubs.models import Club, Membership
from tests.clubs.factories import club_cast, snapshot
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return club_cast()


def who(cast, role):
    return {"owner": cast.owner, "organiser": cast.organiser, "member": cast.members[0], "requester": cast.requester,
            "invitee": cast.invitee, "outsider": cast.outsider, "anonymous": None}[role]


def url(cast, tail=""):
    return f"/api/v1/clubs/{cast.club.pk}/{tail}"


# --- clubs -------------------------------------------------------------------------------------------


def test_anyone_lists_the_clubs_with_their_member_counts(cast):
    body = client_for(None).get("/api/v1/clubs/").json()
    assert [(c["name"], c["member_count"]) for c in body["results"]] == [("Crawford Club", 4)]


def test_the_club_detail_is_public_lists_members_with_ratings_and_shows_no_email(cast):
    response = client_for(None).get(url(cast))
    assert response.status_code == 200
    body = response.json()
    assert [(m["display_name"], m["role"]) for m in body["members"]] == [
        ("Ann", "owner"), ("Otis", "organiser"), ("Max", "member"), ("Mia", "member")]
    assert body["my_role"] is None and body["members"][0]["rating"] == 1500.0
    assert "@" not in response.content.decode()


def test_the_detail_tells_a_user_his_own_role_or_status(cast):
    assert client_for(cast.organiser).get(url(cast)).json()["my_role"] == "organiser"
    body = client_for(cast.invitee).get(url(cast)).json()
    assert (body["my_role"], body["my_status"]) == (None, "invited")


def test_a_logged_in_user_creates_a_club_and_owns_it(cast):
    response = client_for(cast.outsider).post("/api/v1/clubs/", {"name": "Backgammon Lyon", "city": "Lyon"},
                                              format="json")
    assert response.status_code == 201, response.content
    assert response.json()["slug"] == "backgammon-lyon"
    assert Membership.objects.get(club__slug="backgammon-lyon").user == cast.outsider


@pytest.mark.parametrize(("body", "field"), [
    ({}, "name"), ({"name": ""}, "name"), ({"name": "A", "slug": "a"}, "slug"), ({"name": "A", "owner": 1}, "owner"),
    ({"name": ["A"]}, "name"), ({"name": "A", "open_to_requests": "perhaps"}, "open_to_requests"),
])
def test_a_bad_club_body_is_a_400_naming_the_field_and_creates_nothing(cast, body, field):
    response = client_for(cast.outsider).post("/api/v1/clubs/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert Club.objects.count() == 1


def test_creating_a_club_anonymously_is_a_401_and_a_name_in_use_a_409(cast):
    assert client_for(None).post("/api/v1/clubs/", {"name": "X"}, format="json").status_code == 401
    response = client_for(cast.outsider).post("/api/v1/clubs/", {"name": "Crawford Club"}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "name_taken")


@pytest.mark.parametrize(("role", "status"), [
    ("owner", 200), ("organiser", 403), ("member", 403), ("outsider", 403), ("anonymous", 401)])
def test_only_owners_edit_the_club(cast, role, status):
    response = client_for(who(cast, role)).patch(url(cast), {"city": "Paris"}, format="json")
    assert response.status_code == status
    assert Club.objects.get().city == ("Paris" if status == 200 else "Lyon")


def test_an_unknown_club_is_a_404():
    assert client_for(None).get("/api/v1/clubs/999999/").status_code == 404


# --- memberships ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("role", "status"), [
    ("owner", 200), ("organiser", 200), ("member", 403), ("outsider", 403), ("anonymous", 401)])
def test_the_membership_list_with_usernames_is_for_managers(cast, role, status):
    response = client_for(who(cast, role)).get(url(cast, "memberships/"))
    assert response.status_code == status
    if status == 200:
        assert {(m["username"], m["status"]) for m in response.json()} >= {("pat", "requested"), ("ivy", "invited")}
        assert "@" not in response.content.decode()


def test_the_whole_path_of_a_newcomer_request_then_approval(cast):
    response = client_for(cast.outsider).post(url(cast, "memberships/request/"), {}, format="json")
    assert (response.status_code, response.json()["status"]) == (200, "requested")
    membership_id = response.json()["id"]
    response = client_for(cast.owner).post(url(cast, f"memberships/{membership_id}/approve/"), format="json")
    assert (response.status_code, response.json()["status"]) == (200, "active")


def test_an_invitation_then_its_acceptance(cast):
    response = client_for(cast.organiser).post(url(cast, "memberships/invite/"), {"username": "xavier"}, format="json")
    assert (response.status_code, response.json()["status"], response.json()["invited_by"]) == (200, "invited", "otis")
    response = client_for(cast.outsider).post(url(cast, "memberships/accept/"), format="json")
    assert (response.status_code, response.json()["status"]) == (200, "active")


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"username": "nobody"}, 400, "unknown_user"), ({}, 400, "invalid"), ({"username": "mia"}, 409, "already_member"),
    ({"username": "xavier", "role": "owner"}, 400, "invalid"),
])
def test_bad_invitations_are_refused_and_change_nothing(cast, body, status, code):
    before = snapshot(cast.club)
    response = client_for(cast.owner).post(url(cast, "memberships/invite/"), body, format="json")
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert snapshot(cast.club) == before


@pytest.mark.parametrize(("role", "status"), [
    ("owner", 200), ("organiser", 403), ("member", 403), ("requester", 403), ("anonymous", 401)])
def test_only_owners_change_roles(cast, role, status):
    target = cast.membership(cast.members[0])
    before = snapshot(cast.club)
    response = client_for(who(cast, role)).post(url(cast, f"memberships/{target.pk}/role/"), {"role": "organiser"},
                                                format="json")
    assert response.status_code == status
    if status != 200:
        assert snapshot(cast.club) == before


def test_the_last_owner_demoting_himself_is_a_409_and_changes_nothing(cast):
    before = snapshot(cast.club)
    response = client_for(cast.owner).post(url(cast, f"memberships/{cast.membership(cast.owner).pk}/role/"),
                                           {"role": "member"}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "last_owner")
    response = client_for(cast.owner).post(url(cast, "memberships/leave/"), format="json")
    assert (response.status_code, response.json()["code"]) == (409, "last_owner")
    assert snapshot(cast.club) == before


@pytest.mark.parametrize("body", [{"role": "captain"}, {}, {"role": None}, ["owner"]])
def test_a_bad_role_body_is_a_400(cast, body):
    before = snapshot(cast.club)
    response = client_for(cast.owner).post(url(cast, f"memberships/{cast.membership(cast.members[0]).pk}/role/"),
                                           body, format="json")
    assert response.status_code == 400
    assert snapshot(cast.club) == before


def test_decline_remove_and_leave_answer_204(cast):
    owner = client_for(cast.owner)
    assert owner.post(url(cast, f"memberships/{cast.membership(cast.requester).pk}/decline/")).status_code == 204
    assert owner.post(url(cast, f"memberships/{cast.membership(cast.members[0]).pk}/remove/")).status_code == 204
    assert client_for(cast.members[1]).post(url(cast, "memberships/leave/")).status_code == 204
    assert set(Membership.objects.values_list("user__username", flat=True)) == {"ann", "otis", "ivy"}


def test_an_unknown_membership_is_a_400_naming_it_and_a_body_on_an_action_is_refused(cast):
    response = client_for(cast.owner).post(url(cast, "memberships/999999/approve/"))
    assert (response.status_code, response.json()["code"]) == (400, "unknown_membership")
    response = client_for(cast.outsider).post(url(cast, "memberships/request/"), {"role": "owner"}, format="json")
    assert response.status_code == 400 and not Membership.objects.filter(user=cast.outsider).exists()


def test_a_get_on_an_action_is_a_405(cast):
    assert client_for(cast.owner).get(url(cast, "memberships/request/")).status_code == 405
