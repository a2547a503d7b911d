"""A match hidden from the lists (its players have not both consented to it) is hidden by its id
too: every route of one match, API and page, answers 404 to anonymous users and to signed-in
users who are neither a party, its director nor staff, exactly as for a match that does not exist;
the parties, its director and staff read it. Once both sides have consented it is public again."""

from __future__ import annotations

import pytest

from analysis.services import match_analysis_request, match_analysis_run
from clubs.services.clubs import club_create
from clubs.services.members import membership_accept, membership_invite
from matches.models import Match
from tests.analysis.conftest import confirm_with_file
from tests.factories import UserFactory
from tests.matches.factories_api import client_for, make_cast

pytestmark = pytest.mark.django_db

#: Every read of one match by its id: (API or page, path after the match's id).
READS = (
    "/api/v1/matches/{id}/",
    "/api/v1/matches/{id}/games/",
    "/api/v1/matches/{id}/games/1/",
    "/api/v1/matches/{id}/mat/",
    "/api/v1/matches/{id}/penalties/",
    "/api/v1/matches/{id}/analysis/",
    "/matches/{id}/",
    "/matches/{id}/?game=1&moment=3",
    "/matches/{id}/scoresheet.pdf",
    "/matches/{id}/analysis.json",
    "/matches/{id}/analysis/live/",
)

#: Writes of one match an outsider may not make: a hidden match answers him 404, not 403.
WRITES = (
    "/api/v1/matches/{id}/report/",
    "/api/v1/matches/{id}/confirm/",
    "/api/v1/matches/{id}/contest/",
    "/api/v1/matches/{id}/override/",
    "/api/v1/matches/{id}/consent/",
    "/api/v1/matches/{id}/penalties/",
    "/api/v1/matches/{id}/flag-fall/",
    "/api/v1/matches/{id}/clock/",
    "/matches/{id}/report/",
    "/matches/{id}/override/",
    "/rulings/matches/{id}/open/",
)

#: A body the route reads before it asks who sends it (else an empty one).
BODIES = {"/api/v1/matches/{id}/report/": {"score": [3, 0]}}


@pytest.fixture
def world():
    """The cast around a 3-point match played with a real file's games and analysed; then bob's
    consent taken back to pending, as for a match an organiser entered outside any event."""
    cast = make_cast(length=3)
    confirm_with_file(cast.match, cast.alice, cast.bob)
    match_analysis_request(cast.match, actor=cast.organiser, plies=0)
    match_analysis_run(cast.match.pk)
    Match.objects.filter(pk=cast.match.pk).update(consent1=Match.Consent.PENDING)
    return cast


def get(user, path: str):
    return client_for(user, auth="session").get(path)


@pytest.mark.parametrize("route", READS)
@pytest.mark.parametrize("role", ["anonymous", "carol", "other_organiser"])
def test_an_unconsented_match_is_not_found_by_its_id_for_outsiders(world, route, role):
    hidden = get(world.user(role), route.format(id=world.match.pk))
    missing = get(world.user(role), route.format(id=world.match.pk + 1000))
    assert hidden.status_code == missing.status_code == 404
    # The same answer, but for the id it names.
    assert hidden.content == missing.content.replace(str(world.match.pk + 1000).encode(), str(world.match.pk).encode())


@pytest.mark.parametrize("route", READS)
@pytest.mark.parametrize("role", ["alice", "bob", "organiser", "staff"])
def test_its_parties_director_and_staff_still_read_it(world, route, role):
    assert get(world.user(role), route.format(id=world.match.pk)).status_code == 200


@pytest.mark.parametrize("route", READS)
def test_once_both_sides_consented_everyone_reads_it(world, route):
    Match.objects.filter(pk=world.match.pk).update(consent1=Match.Consent.GIVEN)
    assert get(None, route.format(id=world.match.pk)).status_code == 200
    assert get(world.carol, route.format(id=world.match.pk)).status_code == 200


def test_a_player_whose_side_declined_still_reads_it(world):
    Match.objects.filter(pk=world.match.pk).update(consent1=Match.Consent.DECLINED)
    assert get(world.bob, f"/api/v1/matches/{world.match.pk}/").status_code == 200


def test_a_club_director_who_may_confirm_for_a_side_reads_it():
    """A director of a club all of a side's players belong to may confirm the match for that side
    (``consent_sides``): he reads the match he is asked about."""
    cast = make_cast(length=3)
    Match.objects.filter(pk=cast.match.pk).update(consent1=Match.Consent.PENDING)
    owner = UserFactory(username="clara", organiser=True)
    club = club_create(user=owner, name="Consent Club")
    membership_invite(club_id=club.pk, user=owner, username="bob")
    membership_accept(club_id=club.pk, user=cast.bob)
    assert get(owner, f"/api/v1/matches/{cast.match.pk}/").status_code == 200
    assert get(cast.carol, f"/api/v1/matches/{cast.match.pk}/").status_code == 404


@pytest.mark.parametrize("route", WRITES)
def test_an_outsiders_write_to_a_hidden_match_is_a_404_not_a_403(world, route):
    client = client_for(world.carol, auth="session")
    body = BODIES.get(route, {})
    hidden = client.post(route.format(id=world.match.pk), body, format="json")
    assert hidden.status_code == 404
    Match.objects.filter(pk=world.match.pk).update(consent1=Match.Consent.GIVEN)
    # Once public, the same request is refused as before: the outsider may not make it.
    assert client.post(route.format(id=world.match.pk), body, format="json").status_code in (400, 403)


def test_the_cached_detail_is_not_served_to_an_outsider(world):
    """The detail's bytes are kept per version: a party's read must not make them readable to
    anyone else."""
    path = f"/api/v1/matches/{world.match.pk}/"
    first = get(world.alice, path)
    assert first.status_code == 200
    assert client_for(None).get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 404
    assert get(None, path).status_code == 404
