"""The public reads of an event (/bracket/, /rounds/, /standings/, /placings/) and a player's
/my-next-match/; the bracket and standings keep the same query count for 16 and 256 players."""

import random
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Match
from matches.services.reporting import claim_make, match_override
from tests.factories import PlayerFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import (
    cast as make_players,
)
from tests.tournaments.factories import (
    closed,
    drawn,
    enter,
    make_organiser,
    override,
)
from tournaments.models import Tournament
from tournaments.services import tournament_draw, tournament_pair_next_round

pytestmark = pytest.mark.django_db


def url(tournament, action: str) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/{action}/"


@pytest.fixture
def cast():
    return SimpleNamespace(organiser=make_organiser(), players=make_players(8))


# --- bracket ----------------------------------------------------------------------------------------


def test_the_bracket_shows_every_flight_with_entrants_seeds_scores_and_winners(cast):
    alice = cast.players[0]
    tournament, _ = drawn(4, players=cast.players[:4], organiser=cast.organiser, consolation_rounds=1,
                          lengths={"main": [5, 7], "consolation": 3})
    override(tournament, "main-1-1", alice, loser_points=2)
    response = client_for().get(url(tournament, "bracket"))
    assert response.status_code == 200
    body = response.data  # the first flight's first round
    assert body["tournament_id"] == tournament.pk and body["finished"] is False
    assert [f["name"] for f in body["flights"]] == ["main", "consolation"]
    main, consolation = body["flights"]
    assert consolation["source"] == "main" and main["champion"] is None
    assert [(r["number"], r["length"], r["match_count"]) for r in main["rounds"]] == [(1, 5, 2), (2, 7, 1)]
    assert (body["flight"], body["round"], body["length"], body["count"]) == ("main", 1, 5, 2)
    first = {m["key"]: m for m in body["results"]}["main-1-1"]
    assert first["top"]["name"] == "Alice" and first["top"]["seed"] == 1 and first["bottom"]["seed"] == 4
    assert first["status"] == "confirmed" and first["score"] == [5, 2] and first["length"] == 5
    assert first["winner"] == first["top"]["id"] and first["match_id"] == Match.objects.get(pairing__key="main-1-1").pk
    [final] = client_for().get(url(tournament, "bracket"), {"round": 2}).data["results"]
    assert final["length"] == 7 and final["top"]["name"] == "Alice" and final["bottom"] is None
    assert final["bottom_from"] == "winner of main-1-2" and final["status"] == "waiting"
    consolation_first = client_for().get(url(tournament, "bracket"), {"flight": "consolation"}).data
    assert consolation_first["flight"] == "consolation" and consolation_first["results"][0]["length"] == 3


def test_a_swiss_has_no_bracket_and_nothing_before_the_draw(cast):
    swiss, _ = drawn(4, players=cast.players[:4], organiser=cast.organiser, format=Tournament.Format.SWISS)
    response = client_for().get(url(swiss, "bracket"))
    assert response.status_code == 409 and response.data["code"] == "not_a_bracket"
    response = client_for().get(url(closed(organiser=cast.organiser), "bracket"))
    assert response.status_code == 409 and response.data["code"] == "not_drawn"


# --- rounds, standings, placings ------------------------------------------------------------------------


def test_the_rounds_show_the_swiss_pairings_and_the_bye(cast):
    tournament, _ = drawn(5, players=cast.players[:5], organiser=cast.organiser, format=Tournament.Format.SWISS)
    response = client_for().get(url(tournament, "rounds"))
    assert response.status_code == 200
    first = response.data
    assert first["round"] == 1 and first["rounds"] == [1] and len(first["results"]) == 2 and first["count"] == 2
    assert first["bye"]["name"] == "Erin"  # the lowest seed
    board = first["results"][0]
    assert board["key"] == "swiss-1-1" and board["status"] == "scheduled" and board["match_id"] is not None


def test_the_standings_rank_by_wins_then_buchholz(cast):
    alice, bob = cast.players[:2]
    tournament, _ = drawn(4, players=cast.players[:4], organiser=cast.organiser, format=Tournament.Format.SWISS)
    override(tournament, "swiss-1-1", alice)
    override(tournament, "swiss-1-2", bob)
    response = client_for().get(url(tournament, "standings"))
    assert response.status_code == 200
    rows = response.json()["results"]
    assert [r["wins"] for r in rows] == [1, 1, 0, 0]
    assert {rows[0]["entrant"]["name"], rows[1]["entrant"]["name"]} == {"Alice", "Bob"}
    assert set(rows[0]) >= {"place", "shared", "buchholz", "median_buchholz", "points_difference", "played"}


def test_the_placings_of_a_played_out_bracket(cast):
    alice, bob = cast.players[:2]
    tournament, _ = drawn(4, players=cast.players[:4], organiser=cast.organiser)
    override(tournament, "main-1-1", alice)
    override(tournament, "main-1-2", bob)
    override(tournament, "main-2-1", bob)
    response = client_for().get(url(tournament, "placings"))
    assert response.status_code == 200
    assert [(p["label"], p["entrant"]["name"], p["flight"]) for p in response.data] == [
        ("1", "Bob", "main"), ("2", "Alice", "main"), ("3-4", "Carol", "main"), ("3-4", "Dave", "main")]


# --- my next match --------------------------------------------------------------------------------------


def test_a_player_sees_his_next_match(cast):
    alice, dave = cast.players[0], cast.players[3]
    tournament, _ = drawn(4, players=cast.players[:4], organiser=cast.organiser)
    response = client_for(alice.user).get(url(tournament, "my-next-match"))
    assert response.status_code == 200
    nxt = response.data["next_match"]
    assert nxt["key"] == "main-1-1" and nxt["opponent"]["name"] == "Dave" and nxt["status"] == "scheduled"
    override(tournament, "main-1-1", alice)
    nxt = client_for(alice.user).get(url(tournament, "my-next-match")).data["next_match"]
    assert nxt["key"] == "main-2-1" and nxt["opponent"] is None and nxt["waiting_for"] == "winner of main-1-2"
    assert client_for(dave.user).get(url(tournament, "my-next-match")).data == {"next_match": None}


def test_my_next_match_needs_a_player(cast):
    tournament, _ = drawn(2, players=cast.players[:2], organiser=cast.organiser)
    assert client_for().get(url(tournament, "my-next-match")).status_code == 401
    response = client_for(cast.organiser).get(url(tournament, "my-next-match"))
    assert response.status_code == 403 and response.data["code"] == "no_player"
    carol = cast.players[2]
    assert client_for(carol.user).get(url(tournament, "my-next-match")).data == {"next_match": None}


# --- query counts --------------------------------------------------------------------------------------


def _event(organiser, count: int, **rules) -> Tournament:
    tournament = closed(organiser=organiser, **rules)
    enter(tournament, PlayerFactory.create_batch(count))
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    return tournament


def _confirm_open_matches(tournament: Tournament, rng: random.Random) -> None:
    """The organiser confirms every open match of the event with a random winner."""
    for match in Match.objects.filter(event_link__tournament=tournament).exclude(status=Match.Status.CONFIRMED).select_related(
            "side0", "side1"):
        score = (match.length, 0) if rng.random() < 0.5 else (0, match.length)
        match_override(match_id=match.pk, user=tournament.organiser, claim=claim_make(match, score, None))


def _queries(path: str) -> tuple[int, int]:
    client = client_for()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, response.content
    return len(queries), response.json()["count"]


@pytest.mark.slow
def test_the_standings_run_the_same_queries_for_16_and_256_players(cast):
    rng = random.Random(16256)
    counts = {}
    for size in (16, 256):
        tournament = _event(cast.organiser, size, format=Tournament.Format.SWISS)
        _confirm_open_matches(tournament, rng)
        tournament_pair_next_round(tournament_id=tournament.pk, user=cast.organiser)
        _confirm_open_matches(tournament, rng)
        counts[size], rows = _queries(url(tournament, "standings"))
        assert rows == size
    assert counts[16] == counts[256] <= 4, counts


@pytest.mark.slow
def test_the_bracket_runs_the_same_queries_for_16_and_256_players(cast):
    rng = random.Random(256)
    counts = {}
    for size in (16, 256):
        tournament = _event(cast.organiser, size, consolation_rounds=1)
        _confirm_open_matches(tournament, rng)
        counts[size], _ = _queries(url(tournament, "bracket"))
    assert counts[16] == counts[256] <= 4, counts
