"""Walk-in members (clubs.services.walkins): a club's owner or organiser adds someone without an
account as a member; the walk-in checks in to nights, sits at chouette tables, plays club matches
that count on the ladder, and when he claims his player his membership becomes his account's. Only
the club's owners and organisers add walk-ins; bad input is refused and nothing is saved."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from chouette.selectors import chouette_player_seated, club_players
from chouette.services import chouette_join, chouette_start
from clubs.models import HomeClub, Membership
from clubs.selectors import member_list, season_ladder
from clubs.services import membership_remove, membership_role_change, night_check_in
from clubs.services.walkins import membership_add_walk_in
from core.errors import Conflict, DomainError, NotAllowed
from engine.match import MatchRules
from matches.models import Match, Player
from matches.services.guests import invitation_accept
from matches.services.invitations import invitation_token
from matches.services.matches import MatchDate, match_create
from matches.services.reporting import Claim, match_override
from tests.clubs.factories import (
    ClubFactory,
    ClubNightFactory,
    MembershipFactory,
    SeasonFactory,
    club_cast,
    player_of,
    snapshot,
)
from tests.factories import UserFactory
from tests.matches.factories_api import client_for
from tests.matches.factories_ratings import run_tasks_inline

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return club_cast()


@pytest.fixture
def walter(cast):
    """Walter, added by Otis (the organiser) with his email address: his membership."""
    return membership_add_walk_in(club_id=cast.club.pk, user=cast.organiser, name="Walter",
                                  email="walter@example.com", country="nl")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_walk_in_is_an_active_member_by_his_guest_player_with_the_club_as_home(cast, walter):
    player = walter.player
    assert (walter.user_id, walter.status, walter.role, player.user_id) == (None, "active", "member", None)
    assert HomeClub.objects.get(player=player).club == cast.club
    rows = {row.display_name: row for row in member_list(club=cast.club)}
    assert rows["Walter"].player_id == player.pk and rows["Walter"].role == "member"
    assert AuditEntry.objects.filter(action="membership.walk_in", club_id=cast.club.pk).exists()
    assert player.invitations.get().email == "walter@example.com"


def test_the_database_keeps_a_walk_in_once_per_club_and_never_with_a_user_too(cast, walter):
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(club=cast.club, player=walter.player, status="active")
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(club=cast.club, status="active")
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(pk=walter.pk).update(role="organiser")


def test_a_walk_in_checks_in_sits_at_a_chouette_and_is_on_the_ladder(cast, walter):
    player = walter.player
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    assert night_check_in(club_id=cast.club.pk, night_id=night.pk, user=cast.organiser, player_id=player.pk)
    # The chouette's seat choices and its roll-off take him.
    assert (player.pk, "Walter") in club_players(club=cast.club)
    ann, otis = player_of(cast.owner), player_of(cast.organiser)
    session = chouette_start(club_id=cast.club.pk, user=cast.organiser, stake=Decimal("1"),
                             rolloff=[[[ann.pk, 6], [otis.pk, 5], [player.pk, 4]]])
    mia = player_of(cast.members[0])
    assert chouette_join(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, player_id=mia.pk)
    # A club match against a member: the club vouches for both sides, and the ladder counts it.
    season = SeasonFactory(club=cast.club, starts_on=dt.date(2025, 1, 1), ends_on=dt.date(2025, 12, 31))
    match = match_create(created_by=cast.organiser, sides=([player], [ann]), rules=MatchRules(5),
                         organiser=cast.organiser, when=MatchDate(played_on=dt.date(2025, 3, 4)),
                         context={"club": cast.club})
    assert (match.consent0, match.consent1) == (Match.Consent.GIVEN, Match.Consent.GIVEN)
    match_override(match_id=match.pk, user=cast.organiser, claim=Claim((5, 2)))
    ladder = {row.display_name: (row.place, row.won, row.lost) for row in season_ladder(season=season)}
    assert ladder == {"Walter": (1, 1, 0), "Ann": (2, 0, 1)}


def test_an_outsider_still_cannot_sit_at_the_table(cast, walter):
    xavier = player_of(cast.outsider)
    with pytest.raises(DomainError) as refused:
        chouette_start(club_id=cast.club.pk, user=cast.organiser, stake=Decimal("1"),
                       rolloff=[[[walter.player.pk, 6], [player_of(cast.owner).pk, 5], [xavier.pk, 4]]])
    assert refused.value.code == "unknown_player"


def verified(user, email: str = "walter@example.com"):
    """``user`` with ``email`` (Walter's invited address) among his verified addresses: the
    invitation's addressee."""
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=not user.emailaddress_set.exists())
    return user


def test_claiming_the_player_makes_the_membership_his_accounts(cast, walter):
    token = invitation_token(walter.player.invitations.get())
    user = verified(UserFactory(username="walter"))
    invitation_accept(token=token, user=user)
    walter.refresh_from_db()
    assert (walter.user, walter.player_id, walter.status) == (user, None, "active")
    assert [row.display_name for row in member_list(club=cast.club)].count("Walter") == 1
    assert AuditEntry.objects.get(action="membership.claimed").after["user"] == "walter"
    # He is a member by his account now: he checks himself in.
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    assert night_check_in(club_id=cast.club.pk, night_id=night.pk, user=user).player.display_name == "Walter"


def test_a_claim_by_someone_who_had_asked_to_join_keeps_one_active_membership(cast, walter):
    token = invitation_token(walter.player.invitations.get())
    pat = cast.requester
    Player.objects.filter(user=pat).delete()  # his own player is empty: no side, no record
    invitation_accept(token=token, user=verified(pat))
    memberships = list(Membership.objects.filter(club=cast.club, user=pat))
    assert [(m.pk, m.status) for m in memberships] == [(walter.pk, "active")]


def test_a_claim_by_a_member_keeps_his_own_membership(cast, walter):
    token = invitation_token(walter.player.invitations.get())
    mia = cast.members[0]
    Player.objects.filter(user=mia).delete()
    invitation_accept(token=token, user=verified(mia))
    assert not Membership.objects.filter(pk=walter.pk).exists()
    assert Membership.objects.get(club=cast.club, user=mia).status == "active"
    assert mia.player.display_name == "Walter"


def test_a_walk_in_gets_no_role_until_he_claims_his_player_and_is_removed_like_any_member(cast, walter):
    before = snapshot(cast.club)
    with pytest.raises(Conflict) as refused:
        membership_role_change(club_id=cast.club.pk, membership_id=walter.pk, user=cast.owner, role="organiser")
    assert refused.value.code == "walk_in_role" and "Walter" in refused.value.message
    assert snapshot(cast.club) == before
    membership_remove(club_id=cast.club.pk, membership_id=walter.pk, user=cast.owner)
    assert not Membership.objects.filter(pk=walter.pk).exists()
    assert not HomeClub.objects.filter(player_id=walter.player_id).exists()


# --- who may, and bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["member", "requester", "outsider", "staff", "another club's owner"])
def test_only_the_clubs_owners_and_organisers_add_walk_ins(cast, who):
    user = {"member": cast.members[0], "requester": cast.requester, "outsider": cast.outsider,
            "staff": UserFactory(username="stan", staff=True),
            "another club's owner": MembershipFactory(owner=True).user}[who]
    before, players = snapshot(cast.club), Player.objects.count()
    with pytest.raises(NotAllowed):
        membership_add_walk_in(club_id=cast.club.pk, user=user, name="Walter")
    assert signed_in(user).post(reverse("clubs:add_walk_in", args=[cast.club.slug]),
                                {"walkin-name": "Walter"}).status_code == 403
    api = client_for(user).post(reverse("api-club-membership-walk-in", args=[cast.club.pk]), {"name": "Walter"},
                                format="json")
    assert api.status_code == 403
    assert snapshot(cast.club) == before and Player.objects.count() == players


@pytest.mark.parametrize(("fields", "field"), [
    ({"walkin-name": " "}, "name"),
    ({"walkin-name": "Walter", "walkin-email": "walter@@example.com"}, "email"),
    ({"walkin-name": "Walter", "walkin-country": "9"}, "country"),
])
def test_the_page_refuses_bad_input_with_its_field_and_saves_nothing(cast, fields, field):
    before, players = snapshot(cast.club), Player.objects.count()
    answer = signed_in(cast.owner).post(reverse("clubs:add_walk_in", args=[cast.club.slug]), fields)
    assert answer.status_code == 400 and field in answer.context["walkin_form"].errors
    assert snapshot(cast.club) == before and Player.objects.count() == players


def test_the_members_page_offers_the_walk_in_form_and_adds_him(cast, monkeypatch, django_capture_on_commit_callbacks):
    run_tasks_inline(monkeypatch)
    client = signed_in(cast.organiser)
    assert 'name="walkin-name"' in client.get(reverse("clubs:members", args=[cast.club.slug])).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(reverse("clubs:add_walk_in", args=[cast.club.slug]),
                             {"walkin-name": "Walter", "walkin-email": "walter@example.com"})
    assert answer.status_code == 302
    assert "Walter" in client.get(reverse("clubs:members", args=[cast.club.slug])).content.decode()
    assert [m.to for m in mail.outbox] == [["walter@example.com"]]


def test_the_api_adds_a_walk_in_member_and_lists_him_without_an_email(cast):
    client = client_for(cast.owner)
    answer = client.post(reverse("api-club-membership-walk-in", args=[cast.club.pk]),
                         {"name": "Walter", "email": "walter@example.com"}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert (body["username"], body["name"], body["status"], body["role"]) == (None, "Walter", "active", "member")
    assert body["player_id"] == Player.objects.get(display_name="Walter").pk
    listed = client.get(reverse("api-club-memberships", args=[cast.club.pk]))
    assert listed.status_code == 200 and "Walter" in listed.content.decode()
    assert "walter@example.com" not in listed.content.decode() + answer.content.decode()
    bad = client.post(reverse("api-club-membership-walk-in", args=[cast.club.pk]), {"name": ""}, format="json")
    assert bad.status_code == 400 and "name" in bad.json()["errors"]


def test_a_users_empty_player_with_a_chouette_seat_is_kept_and_the_claim_refused(cast, walter):
    mia = cast.members[0]
    mia_player = player_of(mia)
    chouette_start(club_id=cast.club.pk, user=cast.organiser, stake=Decimal("1"),
                   rolloff=[[[player_of(cast.owner).pk, 6], [player_of(cast.organiser).pk, 5], [mia_player.pk, 4]]])
    with pytest.raises(Conflict) as refused:
        invitation_accept(token=invitation_token(walter.player.invitations.get()), user=mia)
    assert refused.value.code == "user_holds_player" and "chouette games" in refused.value.message
    assert Player.objects.filter(pk=mia_player.pk, user=mia).exists()


def test_a_die_is_not_taken_for_a_player_who_sat(cast):
    # The roll-off is [player, die] pairs: an id equal to some die's value is not a seat.
    seated = [player_of(u).pk for u in (cast.owner, cast.organiser, cast.members[0])]
    chouette_start(club_id=cast.club.pk, user=cast.organiser, stake=Decimal("1"),
                   rolloff=[[[seated[0], 6], [seated[1], 5], [seated[2], 4]]])
    assert all(chouette_player_seated(pk) for pk in seated)
    assert not any(chouette_player_seated(die) for die in (4, 5, 6) if die not in seated)
    assert not chouette_player_seated(player_of(cast.members[1]).pk)


# --- a known name is that player (matches.services.walkins) -----------------------------------------------


def test_a_walk_in_with_a_walk_in_members_name_is_refused_as_a_member_already_and_makes_no_player(cast, walter):
    before, players = snapshot(cast.club), Player.objects.count()
    with pytest.raises(Conflict) as refused:
        membership_add_walk_in(club_id=cast.club.pk, user=cast.organiser, name="walter")
    assert refused.value.code == "already_member"
    page = signed_in(cast.organiser).post(reverse("clubs:add_walk_in", args=[cast.club.slug]), {"walkin-name": "Walter"})
    assert page.status_code == 409 and "Walter is already a member of this club" in page.content.decode()
    api = client_for(cast.owner).post(reverse("api-club-membership-walk-in", args=[cast.club.pk]), {"name": "Walter"},
                                      format="json")
    assert api.status_code == 409 and api.json()["code"] == "already_member"
    assert snapshot(cast.club) == before and Player.objects.count() == players


def test_a_walk_in_with_another_clubs_walk_ins_name_makes_that_guest_a_member_here(cast, walter):
    southside = ClubFactory(name="Southside")
    MembershipFactory(club=southside, user=cast.organiser, organiser=True)
    membership = membership_add_walk_in(club_id=southside.pk, user=cast.organiser, name="Walter", country="NL")
    assert (membership.player, membership.status, membership.walk_in.created) == (walter.player, "active", False)
    assert Player.objects.filter(display_name="Walter").count() == 1
    assert HomeClub.objects.get(player=walter.player).club == cast.club  # his first club stays his home


def test_a_walk_in_with_the_name_of_a_player_with_an_account_invites_him_to_join(cast):
    players = Player.objects.count()
    page = signed_in(cast.organiser).post(reverse("clubs:add_walk_in", args=[cast.club.slug]),
                                          {"walkin-name": "xavier"}, follow=True)
    assert "Xavier already has an account: he is invited to join the club." in page.content.decode()
    membership = Membership.objects.get(club=cast.club, user=cast.outsider)
    assert (membership.status, membership.player_id) == ("invited", None) and Player.objects.count() == players
    with pytest.raises(Conflict) as refused:
        membership_add_walk_in(club_id=cast.club.pk, user=cast.organiser, name="Mia")
    assert refused.value.code == "already_member" and "Mia is already a member" in refused.value.message


def test_a_namesake_member_needs_his_own_detail_and_the_confirmation_on_the_page_and_in_the_api(cast, walter):
    client = signed_in(cast.organiser)
    url = reverse("clubs:add_walk_in", args=[cast.club.slug])
    before, players = snapshot(cast.club), Player.objects.count()
    refused = client.post(url, {"walkin-name": "Walter", "walkin-country": "BE"})
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Walter (NL, Crawford Club)" in page and 'name="walkin-confirm_namesake"' in page
    assert snapshot(cast.club) == before and Player.objects.count() == players
    assert client.post(url, {"walkin-name": "Walter", "walkin-country": "BE",
                             "walkin-confirm_namesake": "on"}).status_code == 302
    api = client_for(cast.owner).post(reverse("api-club-membership-walk-in", args=[cast.club.pk]), {
        "name": "Walter", "email": "walter@example.com", "confirm_namesake": True}, format="json")
    assert api.status_code == 400 and api.json()["code"] == "namesake_not_distinct"  # the first Walter's address
    api = client_for(cast.owner).post(reverse("api-club-membership-walk-in", args=[cast.club.pk]), {
        "name": "Walter", "email": "walter.two@example.com", "confirm_namesake": True}, format="json")
    assert api.status_code == 201, api.content
    walters = Player.objects.filter(display_name="Walter")
    assert walters.count() == 3 and Membership.objects.filter(club=cast.club, player__in=walters).count() == 3
