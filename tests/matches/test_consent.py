"""Consent for the record: a match outside any event or club, or imported with
a player's name, counts for his rating and shows on his page only once his side has confirmed it
(he, a director of an event or club he plays in, or staff); until then it is its creator's own."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.models import AuditEntry
from clubs.services.clubs import club_create
from clubs.services.members import membership_accept, membership_invite
from engine.match import MatchRules
from matches.models import Match, RatingChange
from matches.services.imports.jobs import import_job_run
from matches.services.imports.names import import_job_map
from matches.services.imports.upload import import_job_create
from matches.services.matches import match_create
from matches.services.ratings import match_rating_apply, ratings_catch_up, ratings_pending
from matches.services.reporting import Claim, match_override
from tests.factories import TournamentFactory, UserFactory
from tests.matches.factories_api import client_for, mat_text
from tests.matches.factories_ratings import run_tasks_inline
from tests.tournaments.factories import enter, player

pytestmark = pytest.mark.django_db

GIVEN, PENDING, DECLINED = Match.Consent.GIVEN, Match.Consent.PENDING, Match.Consent.DECLINED


@pytest.fixture
def dispatched(monkeypatch):
    return run_tasks_inline(monkeypatch)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks


@pytest.fixture
def alice():
    return player("alice", rating=1600)


@pytest.fixture
def bob():
    return player("bob", rating=1400)


@pytest.fixture
def olga():
    return UserFactory(username="olga", organiser=True)


@pytest.fixture
def otto():
    return UserFactory(username="otto", organiser=True)


def listed(user, player) -> set[int]:
    """The match ids the API lists for ``player`` and those his page shows, as ``user`` (None:
    anonymous) sees them."""
    api = {m["id"] for m in client_for(user).get("/api/v1/matches/", {"player": player.pk}).json()["results"]}
    client = Client()
    if user is not None:
        client.force_login(user)
    page = client.get(reverse("matches:player", args=[player.pk]))
    shown = {m.pk for m in Match.objects.all() if reverse("matches:detail", args=[m.pk]) in page.content.decode()}
    assert api == shown
    return api


def friendly_overridden(organiser, alice, bob) -> Match:
    """The second attack: an organiser's rated match between two players outside any event, its
    result set by him."""
    match = match_create(created_by=organiser, sides=([alice], [bob]), rules=MatchRules(5))
    match_override(match_id=match.pk, user=organiser, claim=Claim((5, 0)))
    match.refresh_from_db()
    return match


def consent(user, match, decision="confirm", **body):
    return client_for(user).post(f"/api/v1/matches/{match.pk}/consent/", {"decision": decision, **body},
                                 format="json")


# --- the two attacks ----------------------------------------------------------------------------


def test_an_import_naming_another_user_leaves_his_page_alone_until_he_confirms(bob):
    mallory = player("mallory")
    text, _score, _games = mat_text(5, seed=11, players=("Mallory", "Bob"))
    job = import_job_create(owner=mallory.user, files=[("m.mat", text.encode())], dispatch=False)
    import_job_run(job_id=job.pk)
    # The importer names who the players are (he may name any player: the consent protects him).
    import_job_map(job_id=job.pk, user=mallory.user, mapping={"Mallory": mallory.pk, "Bob": bob.pk}, dispatch=False)
    import_job_run(job_id=job.pk)
    match = Match.objects.get(source_hash__isnull=False)
    assert (match.side0.player_a, match.side1.player_a) == (mallory, bob)
    assert match.consents == (GIVEN, PENDING)  # the importer's own side only
    rating = bob.rating

    assert listed(None, bob) == set()
    assert listed(UserFactory(username="carol"), bob) == set()
    assert listed(mallory.user, bob) == {match.pk}  # the importer's own
    assert listed(UserFactory(username="stan", staff=True), bob) == {match.pk}
    client = Client()
    client.force_login(bob.user)
    page = client.get(reverse("matches:mine")).content.decode()
    assert "1 match names you and is not on your record until you confirm it." in page  # awaiting him

    assert consent(bob.user, match).status_code == 200
    assert listed(None, bob) == {match.pk}
    bob.refresh_from_db()
    assert bob.rating == rating and not RatingChange.objects.exists()  # imports are never rated


def test_an_organisers_override_outside_any_event_rates_only_once_both_players_confirm(olga, alice, bob, dispatched,
                                                                                       committed):
    match = friendly_overridden(olga, alice, bob)
    assert (match.status, match.rated, match.consents) == (Match.Status.CONFIRMED, True, (PENDING, PENDING))
    assert match_rating_apply(match_id=match.pk) == []
    assert list(ratings_pending()) == [] and ratings_catch_up() == 0
    assert listed(None, alice) == set()

    with committed(execute=True):
        assert consent(alice.user, match).status_code == 200
    assert not RatingChange.objects.exists()
    alice.refresh_from_db()
    assert alice.rating == 1600

    dispatched.clear()
    with committed(execute=True):
        response = consent(bob.user, match)
    assert response.status_code == 200 and response.json()["consent"] == ["given", "given"]
    assert [name for name, _ in dispatched].count("matches.tasks.match_rating_apply_task") == 1
    assert RatingChange.objects.filter(match=match).count() == 2
    alice.refresh_from_db()
    assert alice.rating > 1600
    assert listed(None, alice) == {match.pk}

    # Once: a repeat changes nothing and dispatches nothing.
    dispatched.clear()
    with committed(execute=True):
        assert consent(bob.user, match).status_code == 200
    assert dispatched == [] and RatingChange.objects.filter(match=match).count() == 2


def test_inside_an_event_the_directors_result_counts_at_once_for_entrants_who_accepted_it(olga, alice, bob,
                                                                                         dispatched, committed):
    event = TournamentFactory(organiser=olga)
    enter(event, [alice, bob])  # they signed up themselves
    match = match_create(created_by=olga, sides=([alice], [bob]), rules=MatchRules(5), context={"event": event})
    assert match.consents == (GIVEN, GIVEN)
    with committed(execute=True):
        match_override(match_id=match.pk, user=olga, claim=Claim((5, 0)))
    assert RatingChange.objects.filter(match=match).count() == 2


def test_players_who_report_and_confirm_consent_by_doing_so(olga, alice, bob, dispatched, committed):
    match = match_create(created_by=olga, sides=([alice], [bob]), rules=MatchRules(5))
    assert match.consents == (PENDING, PENDING)
    client_for(alice.user).post(f"/api/v1/matches/{match.pk}/report/", {"score": [5, 1]}, format="json")
    match.refresh_from_db()
    assert match.consents == (GIVEN, PENDING)
    with committed(execute=True):
        client_for(bob.user).post(f"/api/v1/matches/{match.pk}/confirm/", {}, format="json")
    match.refresh_from_db()
    assert match.consents == (GIVEN, GIVEN) and RatingChange.objects.filter(match=match).count() == 2


def test_a_player_who_creates_his_own_match_consents_for_his_side_only(alice, bob):
    match = match_create(created_by=alice.user, sides=([alice], [bob]), rules=MatchRules(5))
    assert match.consents == (GIVEN, PENDING)


# --- directors and staff --------------------------------------------------------------------------


def test_an_events_director_confirms_for_his_entrant_and_an_unrelated_organiser_cannot(olga, otto, alice, bob,
                                                                                        dispatched, committed):
    enter(TournamentFactory(organiser=otto), [alice])
    match = friendly_overridden(olga, alice, bob)

    assert consent(olga, match, side=0).status_code == 403  # she runs the match, but no event alice plays in
    response = consent(otto, match, side=1)  # bob is in none of otto's events
    assert (response.status_code, response.json()["code"]) == (403, "not_your_side")
    response = consent(otto, match)
    assert (response.status_code, response.json()["errors"]) == (400, {"side": [response.json()["detail"]]})
    assert consent(otto, match, side=0).status_code == 200
    match.refresh_from_db()
    assert match.consents == (GIVEN, PENDING)
    entry = AuditEntry.objects.get(action="match.consent_given", match_id=match.pk)
    assert (entry.actor_name, entry.after, entry.note) == ("otto", {"side": 0, "consent": "given"}, "by a director")

    with committed(execute=True):
        assert consent(UserFactory(username="stan", staff=True), match, side=1).status_code == 200
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_clubs_organiser_confirms_for_his_member(olga, alice, bob):
    owner = UserFactory(username="cleo", organiser=True)
    club = club_create(user=owner, name="Riverside")
    membership_invite(club_id=club.pk, user=owner, username=bob.user.username)
    match = friendly_overridden(olga, alice, bob)
    # Invited, not yet a member: he directs no side of it, so the match, still unconfirmed, is
    # hidden from him as from anyone (a 404, as for no match).
    assert consent(owner, match, side=1).status_code == 404
    membership_accept(club_id=club.pk, user=bob.user)
    assert consent(owner, match, side=1).status_code == 200
    assert consent(owner, match, side=0).status_code == 403


def test_a_club_vouches_for_its_members_sides_only(alice, bob):
    carol = player("carol")
    club = club_create(user=alice.user, name="Harbour")
    membership_invite(club_id=club.pk, user=alice.user, username=bob.user.username)
    membership_accept(club_id=club.pk, user=bob.user)
    between_members = match_create(created_by=alice.user, sides=([bob], [alice]), rules=MatchRules(3),
                                   context={"club": club})
    with_outsider = match_create(created_by=alice.user, sides=([bob], [carol]), rules=MatchRules(3),
                                 context={"club": club})
    assert between_members.consents == (GIVEN, GIVEN)
    assert with_outsider.consents == (GIVEN, PENDING)


def test_only_players_directors_and_staff_may_answer(olga, alice, bob):
    match = friendly_overridden(olga, alice, bob)
    assert client_for(None).post(f"/api/v1/matches/{match.pk}/consent/", {"decision": "confirm"},
                                 format="json").status_code == 401
    assert consent(player("carol").user, match).status_code == 404  # an unconfirmed match is hidden from her
    assert consent(alice.user, match, side=1).status_code == 403  # a player answers for his own side
    assert consent(alice.user, Match(pk=10**9)).status_code == 404
    response = consent(alice.user, match, "maybe")
    assert response.status_code == 400 and "decision" in response.json()["errors"]
    response = consent(alice.user, match, extra=1)
    assert response.status_code == 400 and response.json()["errors"] == {"extra": ["unknown field"]}
    match.refresh_from_db()
    assert match.consents == (PENDING, PENDING)


# --- declining ------------------------------------------------------------------------------------


def test_a_player_declines_and_the_match_leaves_his_record_but_stays_its_creators(olga, alice, bob):
    match = friendly_overridden(olga, alice, bob)
    assert consent(bob.user, match, "decline").status_code == 200
    match.refresh_from_db()
    assert match.consents == (PENDING, DECLINED)
    assert listed(bob.user, bob) == set()
    assert listed(olga, bob) == {match.pk}
    assert consent(bob.user, match, "decline").status_code == 200  # a repeat changes nothing
    assert AuditEntry.objects.filter(action="match.consent_declined", match_id=match.pk).count() == 1
    # A director or staff confirm; only the player declines.
    response = consent(UserFactory(username="stan", staff=True), match, "decline", side=0)
    assert (response.status_code, response.json()["code"]) == (403, "not_your_side")
    # He may change his mind; a side that confirmed cannot decline.
    assert consent(bob.user, match).status_code == 200
    response = consent(bob.user, match, "decline")
    assert (response.status_code, response.json()["code"]) == (409, "consent_given")


# --- the pages ------------------------------------------------------------------------------------


def test_the_match_page_asks_the_player_and_its_button_confirms(client, olga, alice, bob):
    match = friendly_overridden(olga, alice, bob)
    client.force_login(bob.user)
    page = client.get(reverse("matches:detail", args=[match.pk])).content.decode()
    assert reverse("matches:consent", args=[match.pk]) in page and 'value="decline"' in page
    response = client.post(reverse("matches:consent", args=[match.pk]), {"decision": "confirm"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.consents == (PENDING, GIVEN)
    client.force_login(player("carol").user)
    # Alice has not confirmed yet: the match is hidden from everyone else, its page and its form.
    assert client.get(reverse("matches:detail", args=[match.pk])).status_code == 404
    assert client.post(reverse("matches:consent", args=[match.pk]), {"decision": "confirm"}).status_code == 404
    Match.objects.filter(pk=match.pk).update(consent0=GIVEN)
    assert reverse("matches:consent", args=[match.pk]) not in client.get(
        reverse("matches:detail", args=[match.pk])).content.decode()
    assert client.post(reverse("matches:consent", args=[match.pk]), {"decision": "confirm"}).status_code == 403


def test_the_player_page_costs_the_same_queries_for_1_or_4_matches_whoever_looks(client, olga, alice, bob):
    url = reverse("matches:player", args=[alice.pk])

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    def counts() -> list[int]:
        client.logout()
        anonymous = count()
        client.force_login(alice.user)
        mine = count()
        client.force_login(olga)
        return [anonymous, mine, count()]

    consent(alice.user, friendly_overridden(olga, alice, bob))
    one = counts()
    for _ in range(3):
        consent(alice.user, friendly_overridden(olga, alice, bob))
    assert counts() == one
    assert one[1] == one[2]  # the viewer's player is a subquery: no query of its own
