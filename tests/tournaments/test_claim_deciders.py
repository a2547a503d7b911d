"""A claim of a player is decided by staff, or by a director of an event or club the player played
in who did not put the player there himself and has no tie to the claimant: one person with two
accounts cannot hand himself a player he entered in his own event."""

from __future__ import annotations

import pytest

from clubs.services.clubs import club_create
from clubs.services.members import membership_accept, membership_invite
from engine.match import MatchRules
from matches.models import Player, PlayerClaim
from matches.services.matches import match_create, player_create
from tests.factories import UserFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import player

pytestmark = pytest.mark.django_db


def _ok(response, status=200):
    assert response.status_code == status, response.content.decode()[:500]
    return response.json()


@pytest.fixture
def pim():
    """A player known only from imported files: no account."""
    return player_create(display_name="Pim")


def _claim(user, pim) -> int:
    body = _ok(client_for(user).post(f"/api/v1/players/{pim.pk}/claim/", {"statement": "this is me"},
                                     format="json"), 201)
    return body["id"]


def _deciding(user) -> set[int]:
    return {row["id"] for row in client_for(user).get("/api/v1/claims/").json() if row["may_decide"]}


def test_the_organiser_who_entered_the_player_cannot_approve_a_second_accounts_claim(pim):
    amy, ben = UserFactory(username="amy"), player("ben").user
    client = client_for(amy)
    club = _ok(client.post("/api/v1/clubs/", {"name": "Amy's Backroom"}, format="json"), 201)
    event = _ok(client.post("/api/v1/tournaments/", {"name": "Amy Open", "club": club["id"]}, format="json"), 201)
    _ok(client.post(f"/api/v1/tournaments/{event['id']}/open/", {}, format="json"))
    _ok(client.post(f"/api/v1/tournaments/{event['id']}/entries/", {"player_ids": [pim.pk]}, format="json"), 201)
    claim = _claim(ben, pim)

    assert claim not in _deciding(amy)
    response = client.post(f"/api/v1/claims/{claim}/approve/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "not_a_director")
    pim.refresh_from_db()
    assert pim.user_id is None and PlayerClaim.objects.get(pk=claim).status == PlayerClaim.Status.REQUESTED

    stan = UserFactory(username="stan", staff=True)
    assert claim in _deciding(stan)
    _ok(client_for(stan).post(f"/api/v1/claims/{claim}/approve/", {}, format="json"))
    assert Player.objects.get(pk=pim.pk).user_id == ben.pk


def test_a_director_who_did_not_enter_the_player_decides_unless_the_claimant_is_tied_to_him(pim):
    kim = UserFactory(username="kim")
    club = club_create(user=kim, name="Harbour")
    lee = player("lee")
    membership_invite(club_id=club.pk, user=kim, username=lee.user.username)
    membership_accept(club_id=club.pk, user=lee.user)
    # Lee, a member, records his club match against Pim: Kim runs the club, but did not enter Pim.
    match_create(created_by=lee.user, sides=([lee], [pim]), rules=MatchRules(3), context={"club": club})
    ben = player("ben").user
    claim = _claim(ben, pim)
    assert claim in _deciding(kim)

    # Ben asks to join Kim's club: tied to her, she may no longer decide his claim.
    _ok(client_for(ben).post(f"/api/v1/clubs/{club.pk}/memberships/request/", {}, format="json"))
    assert claim not in _deciding(kim)
    assert client_for(kim).post(f"/api/v1/claims/{claim}/approve/", {}, format="json").status_code == 403

    # And Lee, who created the match with Pim, directs nothing: he may not decide it either.
    assert claim not in _deciding(lee.user)


def test_a_club_manager_who_created_the_players_match_cannot_decide_his_claim(pim):
    kim = UserFactory(username="kim")
    club = club_create(user=kim, name="Harbour")
    match_create(created_by=kim, sides=([kim.player], [pim]), rules=MatchRules(3), context={"club": club})
    claim = _claim(player("ben").user, pim)
    assert claim not in _deciding(kim)
    assert client_for(kim).post(f"/api/v1/claims/{claim}/approve/", {}, format="json").status_code == 403
