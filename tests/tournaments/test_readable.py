"""Big events readable: the rounds, the bracket (by flight and round), the entries and the standings
come a page at a time in the API and on the pages; the standings are kept as the bytes sent, with
an ETag (a client that has them gets a 304), under a key that moves with every committed change of
the event, so a confirmed result shows at once; the paged reads run the same queries whatever the
event's size."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Match
from tests.factories import PlayerFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import closed, enter, override, play, report_only
from tournaments.models import Pairing, Tournament
from tournaments.selectors.brackets import tournament_bracket
from tournaments.services import tournament_draw, tournament_pair_next_round

pytestmark = pytest.mark.django_db


def url(tournament: Tournament, action: str) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/{action}/"


def event(organiser, count: int, **rules) -> Tournament:
    tournament = closed(organiser=organiser, **rules)
    enter(tournament, PlayerFactory.create_batch(count))
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    return tournament


def swiss(organiser, count: int) -> Tournament:
    return event(organiser, count, format=Tournament.Format.SWISS)


def first_player_wins(tournament: Tournament, key: str) -> Match:
    """Both players report the match of ``key`` won by its first side: confirmed by the second
    report, through the reporting services."""
    match = Match.objects.select_related("side0__player_a").get(pairing__tournament=tournament, pairing__key=key)
    return play(tournament, key, match.side0.player_a)


def get(path: str, **query):
    return client_for().get(path, query)


# --- pagination: the API --------------------------------------------------------------------------


def test_the_standings_come_25_a_page_with_links_and_bounds(organiser):
    tournament = swiss(organiser, 30)
    first = get(url(tournament, "standings")).json()
    assert first["count"] == 30 and len(first["results"]) == 25 and first["previous"] is None
    assert first["next"].endswith("?page=2")
    second = get(url(tournament, "standings"), page=2).json()
    assert len(second["results"]) == 5 and second["next"] is None
    places = [r["entrant"]["id"] for r in first["results"] + second["results"]]
    assert places == [r["entrant"]["id"] for r in get(url(tournament, "standings"), page_size=100).json()["results"]]
    assert get(url(tournament, "standings"), page=3).status_code == 404
    refused = get(url(tournament, "standings"), page_size=101)
    assert refused.status_code == 400 and "page_size" in refused.json()["errors"]


def test_the_entries_come_a_page_at_a_time_in_seed_order(organiser):
    tournament = swiss(organiser, 30)
    first = get(url(tournament, "entries"), page_size=10).json()
    assert first["count"] == 30 and [e["seed"] for e in first["results"]] == list(range(1, 11))
    third = get(url(tournament, "entries"), page_size=10, page=3).json()
    assert [e["seed"] for e in third["results"]] == list(range(21, 31)) and third["next"] is None


def test_the_rounds_come_one_round_a_page_at_a_time(organiser):
    tournament = swiss(organiser, 9)  # 4 boards and a bye
    body = get(url(tournament, "rounds"), page_size=3).json()
    assert (body["round"], body["rounds"], body["count"]) == (1, [1], 4)
    assert [p["key"] for p in body["results"]] == ["swiss-1-1", "swiss-1-2", "swiss-1-3"]
    assert body["bye"] is not None and body["next"].endswith("page=2&page_size=3")
    rest = get(url(tournament, "rounds"), page_size=3, page=2).json()
    assert [p["key"] for p in rest["results"]] == ["swiss-1-4"] and rest["bye"] == body["bye"]
    for pairing in Pairing.objects.filter(tournament=tournament, match__isnull=False):
        first_player_wins(tournament, pairing.key)
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    latest = get(url(tournament, "rounds")).json()
    assert (latest["round"], latest["rounds"]) == (2, [1, 2])  # the last paired round unless asked
    earlier = get(url(tournament, "rounds"), round=1).json()
    assert earlier["round"] == 1 and all(p["status"] == "confirmed" for p in earlier["results"])
    assert all(p["score"] is not None and p["winner"] == p["top"]["id"] for p in earlier["results"])
    assert get(url(tournament, "rounds"), round=3).status_code == 404
    assert get(url(tournament, "rounds"), round="x").status_code == 400


def test_the_rounds_of_a_bracket_or_before_the_draw_are_empty(organiser):
    bracket = event(organiser, 4)
    assert get(url(bracket, "rounds")).json() == {"count": 0, "next": None, "previous": None, "round": None,
                                                  "rounds": [], "bye": None, "results": []}
    assert get(url(closed(organiser=organiser, format=Tournament.Format.SWISS), "rounds")).json()["round"] is None


def test_the_bracket_comes_by_flight_and_round_a_page_at_a_time(organiser):
    tournament = event(organiser, 64, consolation_rounds=1)
    body = get(url(tournament, "bracket")).json()
    assert (body["flight"], body["round"], body["count"], len(body["results"])) == ("main", 1, 32, 32)
    assert [f["name"] for f in body["flights"]] == ["main", "consolation"]
    assert [r["match_count"] for r in body["flights"][0]["rounds"]] == [32, 16, 8, 4, 2, 1]
    second = get(url(tournament, "bracket"), round=1, page=2, page_size=8).json()
    assert [m["key"] for m in second["results"]] == [f"main-1-{n}" for n in range(9, 17)]
    consolation = get(url(tournament, "bracket"), flight="consolation", round=2).json()
    assert consolation["flight"] == "consolation" and all(m["key"].startswith("consolation-2-")
                                                          for m in consolation["results"])
    unknown = get(url(tournament, "bracket"), flight="nowhere")
    assert unknown.status_code == 400 and "flight" in unknown.json()["errors"]
    past = get(url(tournament, "bracket"), round=7)
    assert past.status_code == 400 and "round" in past.json()["errors"]
    assert get(url(tournament, "bracket"), page=5).status_code == 404


def test_a_bracket_page_of_the_api_matches_the_whole_bracket(organiser):
    """The paged bracket shows what the whole one (tournaments.selectors.brackets.tournament_bracket) does."""
    tournament = event(organiser, 16, consolation_rounds=1)
    first_player_wins(tournament, "main-1-3")
    whole = tournament_bracket(tournament=tournament)
    for flight in whole.flights:
        for rnd in flight.rounds:
            body = get(url(tournament, "bracket"), flight=flight.name, round=rnd.number, page_size=128).json()
            assert [(m["key"], m["status"], m["winner"], m["score"] and tuple(m["score"]),
                     m["top"] and m["top"]["id"], m["bottom_from"]) for m in body["results"]] == [
                (m.key, m.status, m.winner, m.score, m.top and m.top.entry_id, m.bottom_from) for m in rnd.matches]


# --- the answers kept as sent, their ETag and 304 ---------------------------------------------------


def test_cached_standings_answer_304_to_their_etag_and_a_confirmation_changes_them_at_once(
        organiser, django_assert_max_num_queries):
    tournament = swiss(organiser, 8)
    first = get(url(tournament, "standings"))
    etag = first["ETag"]
    assert first.status_code == 200 and re.fullmatch(r'"[0-9a-f]{32}"', etag)
    with django_assert_max_num_queries(1):  # the event (its version); the answer is the cached bytes
        again = get(url(tournament, "standings"))
    assert again.content == first.content and again["ETag"] == etag
    with django_assert_max_num_queries(1):
        unchanged = client_for().get(url(tournament, "standings"), HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged["ETag"] == etag
    winner = first_player_wins(tournament, "swiss-1-1")  # reported by both sides: confirmed
    assert winner.status == Match.Status.CONFIRMED
    changed = client_for().get(url(tournament, "standings"), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert sorted(r["wins"] for r in changed.json()["results"]) == [0] * 7 + [1]


def test_the_cached_standings_pages_are_kept_apart(organiser):
    tournament = swiss(organiser, 30)
    first, second = get(url(tournament, "standings")), get(url(tournament, "standings"), page=2)
    assert first["ETag"] != second["ETag"] and len(second.json()["results"]) == 5
    assert get(url(tournament, "standings")).content == first.content


def test_the_rounds_and_the_bracket_answer_304_to_their_etag_until_a_match_changes(organiser):
    tournament = swiss(organiser, 8)
    first = get(url(tournament, "rounds"))
    assert client_for().get(url(tournament, "rounds"), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    first_player_wins(tournament, "swiss-1-1")
    assert client_for().get(url(tournament, "rounds"), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    bracket = event(organiser, 8)
    shown = get(url(bracket, "bracket"))
    assert client_for().get(url(bracket, "bracket"), HTTP_IF_NONE_MATCH=shown["ETag"]).status_code == 304
    override(bracket, "main-1-1", Match.objects.get(pairing__tournament=bracket, pairing__key="main-1-1")
             .side0.player_a)
    assert client_for().get(url(bracket, "bracket"), HTTP_IF_NONE_MATCH=shown["ETag"]).status_code == 200


def test_the_kept_bracket_shows_a_report_and_a_confirmation_at_once(organiser, django_assert_max_num_queries):
    """The bracket is kept by the event's version; a report moves no version, so the status of the
    matches to be played is read afresh."""
    tournament = event(organiser, 8)

    def first_match():
        return {m["key"]: m for m in get(url(tournament, "bracket")).json()["results"]}["main-1-1"]

    assert first_match()["status"] == "scheduled"
    with django_assert_max_num_queries(2):  # the event, the statuses of the matches to be played
        assert first_match()["status"] == "scheduled"
    match = Match.objects.get(pairing__tournament=tournament, pairing__key="main-1-1")
    report_only(tournament, "main-1-1", match.side0.player_a)
    assert first_match()["status"] == "reported"
    play(tournament, "main-1-1", match.side0.player_a)
    shown = first_match()
    assert shown["status"] == "confirmed" and shown["winner"] == shown["top"]["id"] and shown["score"] is not None
    semi = get(url(tournament, "bracket"), round=2).json()["results"][0]
    assert semi["top"]["id"] == shown["top"]["id"]


def test_a_round_shows_a_report_at_once_and_reads_two_queries_once_kept(organiser, django_assert_num_queries):
    tournament = swiss(organiser, 8)
    assert get(url(tournament, "rounds")).json()["results"][0]["status"] == "scheduled"
    with django_assert_num_queries(3):  # the event; the page's pairings with their matches, their entrants
        get(url(tournament, "rounds"))
    match = Match.objects.get(pairing__tournament=tournament, pairing__key="swiss-1-1")
    report_only(tournament, "swiss-1-1", match.side0.player_a)
    assert get(url(tournament, "rounds")).json()["results"][0]["status"] == "reported"


# --- query counts that do not grow with the event -------------------------------------------------


def queries(path: str, **query) -> int:
    client = client_for()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, query)
    assert response.status_code == 200, response.content
    return len(captured)


@pytest.mark.parametrize("action, query", [("rounds", {}), ("entries", {}), ("standings", {"page": 2})])
def test_the_paged_swiss_reads_run_the_same_queries_for_40_and_160_players(organiser, action, query):
    counts = {size: queries(url(swiss(organiser, size), action), **query) for size in (40, 160)}
    assert counts[40] == counts[160] <= 6, counts


def test_the_paged_bracket_runs_the_same_queries_for_32_and_256_entrants(organiser):
    counts = {size: queries(url(event(organiser, size, consolation_rounds=1), "bracket"), round=2)
              for size in (32, 256)}
    assert counts[32] == counts[256] <= 4, counts


# --- the pages --------------------------------------------------------------------------------------


def page_of(client, tournament: Tournament, name: str, **query) -> str:
    response = client.get(f"/events/{tournament.pk}/{name}/", query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_bracket_page_of_a_big_bracket_draws_a_section_of_four_rounds_with_links(client, organiser):
    tournament = event(organiser, 256)
    page = page_of(client, tournament, "bracket")
    # Round 1 has 128 matches: the first section shows 32 of them and the 16, 8 and 4 they feed.
    assert page.count('data-key="main-1-') == 32 and page.count('data-key="main-2-') == 16
    assert page.count('data-key="main-4-') == 4 and 'data-key="main-5-' not in page
    assert "?flight=main&amp;round=5" in page and "?flight=main&amp;round=1&amp;section=4" in page
    later = page_of(client, tournament, "bracket", flight="main", round=5)
    assert later.count('data-key="main-5-') == 8 and later.count('data-key="main-8-1"') == 1
    third = page_of(client, tournament, "bracket", flight="main", round=1, section=3)
    assert 'data-key="main-1-65"' in third and 'data-key="main-1-1"' not in third
    assert client.get(f"/events/{tournament.pk}/bracket/", {"flight": "nowhere"}).status_code == 404


def test_the_rounds_page_of_a_big_swiss_shows_one_round_a_page_at_a_time(client, organiser):
    tournament = swiss(organiser, 300)  # 150 boards
    page = page_of(client, tournament, "rounds")
    assert page.count("<tr>") == 100 + 1  # a hundred boards and the head
    assert f"/events/{tournament.pk}/rounds/?round=1&amp;page=2" in page
    rest = page_of(client, tournament, "rounds", round=1, page=2)
    assert rest.count("<tr>") == 50 + 1
    assert client.get(f"/events/{tournament.pk}/rounds/", {"round": 1, "page": 3}).status_code == 404


def test_the_standings_page_of_a_big_swiss_shows_a_hundred_places_a_page(client, organiser):
    tournament = swiss(organiser, 150)
    assert page_of(client, tournament, "standings").count("<tr class=") == 100
    second = page_of(client, tournament, "standings", page=2)
    assert second.count("<tr class=") == 50 and "Places 1-100" in second
    assert client.get(f"/events/{tournament.pk}/standings/", {"page": 3}).status_code == 404
