"""The report path in a constant number of queries: a first report, a confirmation and a
contest through the API, and a match's detail, each counted exactly so a regression fails.

Each count is the request's whole: the token's user (one query), what the service reads (the match
locked, then its live reports, sent together in one query), what it writes, and the answer
built from what it loaded (the sides' players read with the reports), not read again after the
write. The
test's own transaction turns the service's BEGIN and COMMIT into a SAVEPOINT and its RELEASE,
which are counted too. The same counts hold for a match of an event (its context is joined, not
read) and do not grow with the match's games.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import transaction
from django.db.transaction import TransactionManagementError
from django.urls import reverse

from core.locking import locked_one
from matches.models import Match, Report
from matches.services.logs import log_from_json
from matches.services.reporting import match_locked
from tests.factories import MatchFactory, PlayerFactory, SideFactory, TournamentFactory
from tests.matches.factories_api import client_for, json_games, make_cast
from tournaments.models import EventMatch

pytestmark = pytest.mark.django_db

SAVEPOINT = 2  # the service's transaction, inside the test's: SAVEPOINT and RELEASE SAVEPOINT

# auth, the lock, the reports seen after it (with the sides' players) and the new report's key (one
# query of three statements, core.prepared.statements_execute), then INSERT report, INSERT audit,
# UPDATE match and INSERT outbox sent together (core.bulk.writes_batched: one query of four)
FIRST_REPORT = 3 + SAVEPOINT
# auth, the lock, the reports seen and the report's key (one query), then sent together before the
# next read: INSERT report (agreed), INSERT audit (reported), UPDATE theirs (confirmed), UPDATE
# match, INSERT audit (result); the dispute the reports may have opened (rulings), then sent
# together at the end: 2 INSERT outbox (email, rating); the webhooks told of results looked for
# (webhooks: one query)
CONFIRMATION = 6 + SAVEPOINT
# auth, the lock and the reports seen (one query), UPDATE theirs (contested, statement), UPDATE
# match, the automatic dispute looked for, INSERT dispute, INSERT audit (dispute opened), INSERT outbox
CONTEST = 8 + SAVEPOINT
# a cached detail: the match's version; not cached: the match with its sides and contexts, the
# players (one query), games, reports
DETAIL_CACHED = 1
DETAIL = 1 + 4


def url(match: Match, action: str = "") -> str:
    return f"/api/v1/matches/{match.pk}/{action + '/' if action else ''}"


@pytest.fixture
def cast():
    return make_cast()


def reported(cast, score=(5, 3)):
    """The match reported by alice (side 0); bob's client, warmed up (his token exists)."""
    response = client_for(cast.alice).post(url(cast.match, "report"), {"score": list(score)}, format="json")
    assert response.status_code == 200, response.content
    return client_for(cast.bob)


def test_a_first_report_costs_a_constant_number_of_queries(cast, django_assert_num_queries):
    alice = client_for(cast.alice)
    with django_assert_num_queries(FIRST_REPORT):
        response = alice.post(url(cast.match, "report"), {"score": [5, 3], "statement": "close"}, format="json")
    assert response.status_code == 200, response.content
    assert (response.data["status"], response.data["reports"][0]["status"]) == ("reported", "pending")
    assert [p["display_name"] for p in response.data["side0"]["players"]] == [cast.match.side0.player_a.display_name]


def test_a_first_report_with_game_logs_costs_the_same(django_assert_num_queries):
    match = MatchFactory(length=3)
    alice = client_for(match.side0.player_a.user)
    games = json_games(3, 5)
    score = list(log_from_json(games, match.rules()).final_score)
    with django_assert_num_queries(FIRST_REPORT):
        response = alice.post(url(match, "report"), {"score": score, "games": games}, format="json")
    assert response.status_code == 200, response.content
    assert response.data["reports"][0]["with_games"] is True


def test_a_consultation_pairs_first_report_costs_the_same_and_names_both_players(django_assert_num_queries):
    pair = SideFactory(player_b=PlayerFactory())
    match = MatchFactory(side1=pair)
    bob = client_for(pair.player_b.user)  # the pair's second player reports for it
    with django_assert_num_queries(FIRST_REPORT):
        response = bob.post(url(match, "report"), {"score": [3, 5]}, format="json")
    assert response.status_code == 200, response.content
    assert [p["id"] for p in response.data["side1"]["players"]] == [pair.player_a_id, pair.player_b_id]
    assert response.data["side1"]["name"] == f"{pair.player_a.display_name} & {pair.player_b.display_name}"
    assert response.data["reports"][0]["side"] == 1


def test_a_first_report_on_an_events_match_costs_the_same(django_assert_num_queries):
    tournament = TournamentFactory()
    cast = make_cast()
    EventMatch.objects.create(match=cast.match, tournament=tournament)
    alice = client_for(cast.alice)
    with django_assert_num_queries(FIRST_REPORT):
        response = alice.post(url(cast.match, "report"), {"score": [5, 3]}, format="json")
    assert response.status_code == 200, response.content
    assert response.data["event"] == {"id": tournament.pk, "name": tournament.name}


def test_a_confirmation_costs_a_constant_number_of_queries(cast, django_assert_num_queries):
    bob = reported(cast)
    with django_assert_num_queries(CONFIRMATION):
        response = bob.post(url(cast.match, "confirm"), format="json")
    assert response.status_code == 200, response.content
    assert (response.data["status"], response.data["score"]) == ("confirmed", [5, 3])
    assert sorted(r["status"] for r in response.data["reports"]) == ["agreed", "confirmed"]


def test_a_confirmation_through_the_page_reads_the_match_only_through_the_service(cast, client,
                                                                                   django_assert_num_queries):
    reported(cast)
    client.force_login(cast.bob)
    # the session and its user, the user's player (a session's user comes without it), then the
    # confirmation's own queries less the token's; the page is redirected to, not rendered
    with django_assert_num_queries(2 + 1 + CONFIRMATION - 1):
        response = client.post(reverse("matches:confirm", args=[cast.match.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("matches:detail", args=[cast.match.pk])
    assert Match.objects.get(pk=cast.match.pk).status == Match.Status.CONFIRMED


def test_a_contest_costs_a_constant_number_of_queries(cast, django_assert_num_queries):
    bob = reported(cast)
    with django_assert_num_queries(CONTEST):
        response = bob.post(url(cast.match, "contest"), {"statement": "it was 3-5"}, format="json")
    assert response.status_code == 200, response.content
    assert response.data["status"] == "disputed"
    [theirs] = response.data["reports"]
    assert theirs["status"] == "contested" and theirs["contest_statement"] == "it was 3-5"


def test_the_answer_is_the_detail_as_read_afterwards(cast):
    """Built from what the service loaded, the answer is what a fresh read of the detail shows,
    and it is cached under the match's new version: the next read finds it."""
    bob = reported(cast)
    answer = bob.post(url(cast.match, "confirm"), format="json")
    cache.clear()
    fresh = client_for(None).get(url(cast.match))
    assert answer.json() == fresh.json()


def test_the_detail_after_a_write_is_read_from_the_cache(cast, django_assert_num_queries):
    alice = client_for(cast.alice)
    alice.post(url(cast.match, "report"), {"score": [5, 3]}, format="json")
    anonymous = client_for(None)
    with django_assert_num_queries(DETAIL_CACHED):
        response = anonymous.get(url(cast.match))
    assert response.status_code == 200 and response.data["status"] == "reported"


def test_match_detail_costs_a_constant_number_of_queries_whatever_its_games(django_assert_num_queries):
    anonymous = client_for(None)
    for seed in (1, 3):  # seven games, then one
        match = MatchFactory(length=5)
        alice = client_for(match.side0.player_a.user)
        games = json_games(5, seed)
        score = list(log_from_json(games, match.rules()).final_score)
        alice.post(url(match, "report"), {"score": score, "games": games}, format="json")
        client_for(match.side1.player_a.user).post(url(match, "confirm"), format="json")
        cache.clear()
        with django_assert_num_queries(DETAIL):
            response = anonymous.get(url(match))
        assert response.status_code == 200 and len(response.data["games"]) == len(games)
        with django_assert_num_queries(DETAIL_CACHED):
            assert anonymous.get(url(match)).json() == response.json()


def test_a_repeat_writes_nothing_and_answers_from_what_the_lock_read(cast, django_assert_num_queries):
    alice = client_for(cast.alice)
    first = alice.post(url(cast.match, "report"), {"score": [5, 3]}, format="json")
    # auth, the lock and the reports seen (one query: the repeat is seen under the lock, after the
    # first report's change), no write; the answer built from what was read
    with django_assert_num_queries(2 + SAVEPOINT):
        again = alice.post(url(cast.match, "report"), {"score": [5, 3]}, format="json")
    assert again.status_code == 200 and again.json() == first.json()
    assert Report.objects.filter(match=cast.match).count() == 1


def test_the_lock_built_once_reads_the_match_as_the_orm_does():
    tournament = TournamentFactory()
    cast = make_cast(length=7, penalty1=2)
    EventMatch.objects.create(match=cast.match, tournament=tournament)
    with transaction.atomic():
        for _ in range(2):  # built on the first call, run again on the second
            prepared = match_locked(cast.match.pk)
            orm = locked_one(Match.objects.with_side_ids(), pk=cast.match.pk)
            assert {f.attname: getattr(prepared, f.attname) for f in Match._meta.concrete_fields} == {
                f.attname: getattr(orm, f.attname) for f in Match._meta.concrete_fields}
            assert [(s.pk, s.player_a_id, s.player_b_id) for s in prepared.sides] == [
                (s.pk, s.player_a_id, s.player_b_id) for s in orm.sides]
            assert prepared.event_link.tournament.organiser_id == tournament.organiser_id
        with pytest.raises(Match.DoesNotExist):
            match_locked(cast.match.pk + 1000)


@pytest.mark.django_db(transaction=True)
def test_the_lock_built_once_is_refused_outside_a_transaction_as_the_orm_refuses_it():
    match = MatchFactory()
    with transaction.atomic():
        match_locked(match.pk)  # built
    with pytest.raises(TransactionManagementError):
        match_locked(match.pk)
