"""Memberships (clubs.services.members): each action, and each refusal leaving every row as it was."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from clubs.models import Membership
from clubs.receivers import home_club_of
from clubs.services import (
    membership_accept,
    membership_approve,
    membership_decline,
    membership_invite,
    membership_leave,
    membership_remove,
    membership_request,
    membership_role_change,
)
from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Player
from tests.clubs.factories import ClubFactory, club_cast, snapshot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return club_cast()


def actions(club) -> list[str]:
    return list(AuditEntry.objects.filter(club_id=club.pk).order_by("id").values_list("action", flat=True))


def refused(cast, error, code, call, **kwargs):
    """``call(**kwargs)`` raises ``error`` with ``code`` and changes no row of the club."""
    before = snapshot(cast.club)
    with pytest.raises(error) as caught:
        call(**kwargs)
    assert caught.value.code == code
    assert snapshot(cast.club) == before
    return caught.value


# --- request, invite, accept ----------------------------------------------------------------------


def test_an_outsider_asks_to_join_and_asking_again_changes_nothing(cast):
    membership = membership_request(club_id=cast.club.pk, user=cast.outsider)
    assert (membership.status, membership.role) == ("requested", "member")
    again = membership_request(club_id=cast.club.pk, user=cast.outsider)
    assert again.pk == membership.pk
    assert actions(cast.club) == ["membership.requested"]


def test_a_club_closed_to_requests_refuses_them(cast):
    cast.club.open_to_requests = False
    cast.club.save()
    refused(cast, Conflict, "closed_to_requests", membership_request, club_id=cast.club.pk, user=cast.outsider)


def test_a_member_or_an_invited_user_cannot_ask_to_join(cast):
    refused(cast, Conflict, "already_member", membership_request, club_id=cast.club.pk, user=cast.members[0])
    refused(cast, Conflict, "already_pending", membership_request, club_id=cast.club.pk, user=cast.invitee)


def test_an_organiser_invites_a_user_by_username_and_inviting_again_changes_nothing(cast):
    membership = membership_invite(club_id=cast.club.pk, user=cast.organiser, username=" xavier ")
    assert (membership.user, membership.status, membership.invited_by) == (cast.outsider, "invited", cast.organiser)
    assert membership_invite(club_id=cast.club.pk, user=cast.owner, username="xavier").pk == membership.pk
    assert actions(cast.club) == ["membership.invited"]


def test_a_member_cannot_invite(cast):
    refused(cast, NotAllowed, "not_club_manager", membership_invite, club_id=cast.club.pk, user=cast.members[0],
            username="xavier")


@pytest.mark.parametrize("username", ["nobody", "", "   ", None, 12])
def test_inviting_an_unknown_user_is_refused(cast, username):
    error = refused(cast, DomainError, "unknown_user", membership_invite, club_id=cast.club.pk, user=cast.owner,
                    username=username)
    assert error.details["field"] == "username"


def test_inviting_a_member_or_a_user_who_asked_to_join_is_refused(cast):
    refused(cast, Conflict, "already_member", membership_invite, club_id=cast.club.pk, user=cast.owner, username="mia")
    refused(cast, Conflict, "already_pending", membership_invite, club_id=cast.club.pk, user=cast.owner, username="pat")


def test_the_invited_user_accepts_and_becomes_a_member_with_the_club_as_home_club(cast):
    membership = membership_accept(club_id=cast.club.pk, user=cast.invitee)
    assert (membership.status, membership.role) == ("active", "member")
    assert membership.joined_at is not None
    assert home_club_of(Player.objects.get(user=cast.invitee)) == cast.club
    assert membership_accept(club_id=cast.club.pk, user=cast.invitee).pk == membership.pk
    assert actions(cast.club) == ["membership.accepted"]


def test_accepting_without_an_invitation_is_refused(cast):
    refused(cast, Conflict, "not_pending", membership_accept, club_id=cast.club.pk, user=cast.requester)
    refused(cast, Conflict, "not_pending", membership_accept, club_id=cast.club.pk, user=cast.outsider)


def test_a_user_without_a_player_gets_one_when_he_joins():
    club = ClubFactory(name="Small", slug="small")
    owner = UserFactory(username="owl")
    Membership.objects.create(club=club, user=owner, role="owner", status="active")
    newcomer = UserFactory(username="newt", first_name="Newt", last_name="Scamander")
    membership_request(club_id=club.pk, user=newcomer)
    membership_approve(club_id=club.pk, membership_id=Membership.objects.get(user=newcomer).pk, user=owner)
    player = Player.objects.get(user=newcomer)
    assert (player.display_name, home_club_of(player)) == ("Newt Scamander", club)


# --- approve, decline ------------------------------------------------------------------------------


def test_an_owner_approves_a_request(cast):
    pending = cast.membership(cast.requester)
    membership = membership_approve(club_id=cast.club.pk, membership_id=pending.pk, user=cast.owner)
    assert membership.status == "active"
    assert membership_approve(club_id=cast.club.pk, membership_id=pending.pk, user=cast.owner).status == "active"
    assert actions(cast.club) == ["membership.approved"]


@pytest.mark.parametrize("who", ["organiser", "requester", "outsider"])
def test_only_an_owner_approves(cast, who):
    refused(cast, NotAllowed, "not_club_owner", membership_approve, club_id=cast.club.pk,
            membership_id=cast.membership(cast.requester).pk, user=getattr(cast, who))


def test_an_invitation_is_not_approved_by_an_owner(cast):
    refused(cast, Conflict, "not_pending", membership_approve, club_id=cast.club.pk,
            membership_id=cast.membership(cast.invitee).pk, user=cast.owner)


def test_another_clubs_membership_is_unknown_here(cast):
    other = club_cast(name="Other Club", owner=UserFactory(username="olaf"), organiser=UserFactory(username="opal"),
                      members=[], requester=UserFactory(username="percy"), invitee=UserFactory(username="iris"),
                      outsider=cast.outsider)
    refused(cast, DomainError, "unknown_membership", membership_approve, club_id=cast.club.pk,
            membership_id=other.membership(other.requester).pk, user=cast.owner)


def test_an_owner_declines_a_request_and_withdraws_an_invitation(cast):
    for user in (cast.requester, cast.invitee):
        membership_decline(club_id=cast.club.pk, membership_id=cast.membership(user).pk, user=cast.owner)
        assert not Membership.objects.filter(club=cast.club, user=user).exists()
    assert actions(cast.club) == ["membership.declined", "membership.declined"]


def test_declining_an_active_membership_is_refused(cast):
    refused(cast, Conflict, "not_pending", membership_decline, club_id=cast.club.pk,
            membership_id=cast.membership(cast.members[0]).pk, user=cast.owner)


# --- roles, removal, leaving -------------------------------------------------------------------------


def test_an_owner_makes_a_member_organiser_then_owner(cast):
    mia = cast.membership(cast.members[0])
    assert membership_role_change(club_id=cast.club.pk, membership_id=mia.pk, user=cast.owner,
                                  role="organiser").role == "organiser"
    assert membership_role_change(club_id=cast.club.pk, membership_id=mia.pk, user=cast.owner, role="owner").role == "owner"
    entry = AuditEntry.objects.filter(club_id=cast.club.pk).order_by("id").last()
    assert (entry.action, entry.before["role"], entry.after["role"], entry.actor_name) == (
        "membership.role_changed", "organiser", "owner", "ann")


def test_the_same_role_again_changes_nothing(cast):
    mia = cast.membership(cast.members[0])
    membership_role_change(club_id=cast.club.pk, membership_id=mia.pk, user=cast.owner, role="member")
    assert actions(cast.club) == []


def test_an_owner_steps_down_once_another_owner_exists(cast):
    mia = cast.membership(cast.members[0])
    membership_role_change(club_id=cast.club.pk, membership_id=mia.pk, user=cast.owner, role="owner")
    membership_role_change(club_id=cast.club.pk, membership_id=cast.membership(cast.owner).pk, user=cast.owner,
                           role="member")
    assert list(Membership.objects.filter(club=cast.club, role="owner").values_list("user__username", flat=True)) == ["mia"]


def test_the_last_owner_can_never_be_demoted_removed_or_leave(cast):
    own = cast.membership(cast.owner).pk
    refused(cast, Conflict, "last_owner", membership_role_change, club_id=cast.club.pk, membership_id=own,
            user=cast.owner, role="organiser")
    refused(cast, Conflict, "last_owner", membership_remove, club_id=cast.club.pk, membership_id=own, user=cast.owner)
    refused(cast, Conflict, "last_owner", membership_leave, club_id=cast.club.pk, user=cast.owner)


@pytest.mark.parametrize("role", ["captain", "", None, "OWNER"])
def test_an_unknown_role_is_refused(cast, role):
    refused(cast, DomainError, "bad_role", membership_role_change, club_id=cast.club.pk,
            membership_id=cast.membership(cast.members[0]).pk, user=cast.owner, role=role)


def test_an_organiser_changes_no_role_and_a_pending_membership_has_none_to_change(cast):
    refused(cast, NotAllowed, "not_club_owner", membership_role_change, club_id=cast.club.pk,
            membership_id=cast.membership(cast.members[0]).pk, user=cast.organiser, role="organiser")
    refused(cast, Conflict, "not_active", membership_role_change, club_id=cast.club.pk,
            membership_id=cast.membership(cast.requester).pk, user=cast.owner, role="organiser")


def test_an_owner_removes_a_member_whose_home_club_is_cleared(cast):
    mia = cast.members[0]
    membership_remove(club_id=cast.club.pk, membership_id=cast.membership(mia).pk, user=cast.owner)
    assert not Membership.objects.filter(club=cast.club, user=mia).exists()
    assert home_club_of(Player.objects.get(user=mia)) is None
    assert actions(cast.club) == ["membership.removed"]


def test_removing_is_for_owners_and_for_active_members(cast):
    refused(cast, NotAllowed, "not_club_owner", membership_remove, club_id=cast.club.pk,
            membership_id=cast.membership(cast.members[0]).pk, user=cast.organiser)
    refused(cast, Conflict, "not_active", membership_remove, club_id=cast.club.pk,
            membership_id=cast.membership(cast.requester).pk, user=cast.owner)


def test_a_member_leaves_a_requester_withdraws_and_an_invitee_declines(cast):
    for user in (cast.members[1], cast.requester, cast.invitee):
        membership_leave(club_id=cast.club.pk, user=user)
        assert not Membership.objects.filter(club=cast.club, user=user).exists()
    assert actions(cast.club) == ["membership.left"] * 3


def test_leaving_a_club_one_is_not_in_is_refused(cast):
    refused(cast, Conflict, "no_membership", membership_leave, club_id=cast.club.pk, user=cast.outsider)


def test_a_home_club_elsewhere_is_kept_when_leaving(cast):
    other = ClubFactory(name="Elsewhere", slug="elsewhere")
    player = Player.objects.get(user=cast.members[1])
    player.club = other
    player.save()
    membership_leave(club_id=cast.club.pk, user=cast.members[1])
    player.refresh_from_db()
    assert player.club == other
