"""Creating and editing a club (clubs.services.clubs)."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from clubs.models import Club, Membership
from clubs.receivers import home_club_of
from clubs.services import club_create, club_update
from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Player
from tests.clubs.factories import club_cast, snapshot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_creator_of_a_club_becomes_its_owner_with_a_player_and_it_is_audited():
    user = UserFactory(username="quentin")
    club = club_create(user=user, name="  Backgammon Lyon ", city="Lyon")
    assert (club.name, club.slug, club.city) == ("Backgammon Lyon", "backgammon-lyon", "Lyon")
    membership = Membership.objects.get(club=club)
    assert (membership.user, membership.role, membership.status) == (user, "owner", "active")
    assert membership.joined_at is not None
    player = Player.objects.get(user=user)
    assert (player.display_name, home_club_of(player)) == ("quentin", club)
    assert list(AuditEntry.objects.filter(club_id=club.pk).values_list("action", flat=True).order_by("id")) == [
        "club.created", "membership.created"]


def test_a_second_club_whose_name_slugifies_the_same_gets_its_own_slug():
    user = UserFactory(username="quentin")
    first = club_create(user=user, name="Club Été")
    second = club_create(user=user, name="Club Ete!")
    assert (first.slug, second.slug) == ("club-ete", "club-ete-2")


def test_a_club_named_like_a_page_route_gets_another_slug():
    assert club_create(user=UserFactory(), name="New").slug == "new-2"


@pytest.mark.parametrize("name", ["", "   ", "x" * 121, None])
def test_a_club_without_a_proper_name_is_refused_and_nothing_is_created(name):
    with pytest.raises(DomainError) as caught:
        club_create(user=UserFactory(), name=name)
    assert caught.value.code == "bad_club"
    assert not Club.objects.exists() and not Membership.objects.exists()


def test_a_name_in_use_is_refused_whatever_its_case_and_nothing_is_created():
    cast = club_cast()
    before = Club.objects.count()
    with pytest.raises(Conflict) as caught:
        club_create(user=cast.outsider, name="CRAWFORD club")
    assert caught.value.code == "name_taken"
    assert Club.objects.count() == before


def test_an_anonymous_user_cannot_create_a_club():
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(NotAllowed):
        club_create(user=AnonymousUser(), name="Ghosts")
    assert not Club.objects.exists()


def test_an_owner_edits_the_club_and_the_slug_stays():
    cast = club_cast()
    club = club_update(club_id=cast.club.pk, user=cast.owner, name="Crawford Club Lyon", open_to_requests=False)
    club.refresh_from_db()
    assert (club.name, club.slug, club.open_to_requests) == ("Crawford Club Lyon", "crawford-club", False)
    assert AuditEntry.objects.filter(club_id=club.pk, action="club.updated").count() == 1


@pytest.mark.parametrize("who", ["organiser", "member", "outsider"])
def test_only_an_owner_edits_the_club_and_a_refusal_changes_nothing(who):
    cast = club_cast()
    user = cast.members[0] if who == "member" else getattr(cast, who)
    before = snapshot(cast.club)
    with pytest.raises(NotAllowed) as caught:
        club_update(club_id=cast.club.pk, user=user, name="Mine now")
    assert caught.value.code == "not_club_owner"
    assert snapshot(cast.club) == before


def test_editing_a_field_that_cannot_change_is_refused_and_changes_nothing():
    cast = club_cast()
    before = snapshot(cast.club)
    with pytest.raises(DomainError) as caught:
        club_update(club_id=cast.club.pk, user=cast.owner, slug="elsewhere", city="Paris")
    assert (caught.value.code, caught.value.details["field"]) == ("bad_club", "slug")
    assert snapshot(cast.club) == before
