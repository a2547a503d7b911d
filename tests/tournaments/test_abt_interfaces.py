"""The ABT-style modified Swiss and the FIDE tie-breaks on the pages and the API: who is still
in contention in an ABT-style modified Swiss (tournaments/draw/abt.py) and its playoffs on the
standings page and GET /api/v1/tournaments/{id}/contention/; the director's start from the round
page and POST /api/v1/tournaments/{id}/playoffs/; the FIDE tie-breaks said in a sentence; the
Swiss settings refused after the draw (409 naming the field)."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.matches.factories_api import client_for
from tests.tournaments.factories import drawn, make_organiser, play, player, snapshot
from tournaments.labels import rule_label
from tournaments.models import Pairing, Tournament
from tournaments.services import tournament_pair_next_round

pytestmark = pytest.mark.django_db

THREE_PAID = {"main": {"pool": 10000, "percentages": [50, 30, 20]}}


def page(client, name: str, tournament: Tournament) -> tuple[int, str]:
    response = client.get(reverse(f"tournaments:{name}", args=[tournament.pk]))
    return response.status_code, html.unescape(response.content.decode())


def modified_swiss(olga, count=4, players=None, rounds=2):
    return drawn(count, organiser=olga, players=players, format="swiss", swiss_rounds=rounds, abt_playoffs=True,
                 payouts=THREE_PAID)


def round_two_over(tournament, four, *, automatic=True, monkeypatch=None):
    alice, bob, carol, _dave = four
    play(tournament, "swiss-1-1", alice)
    play(tournament, "swiss-1-2", bob)
    tournament_pair_next_round(tournament_id=tournament.pk, user=tournament.organiser)
    if not automatic:
        from tournaments.services import advance

        monkeypatch.setattr(advance, "playoffs_after_round", lambda *args, **kwargs: False)
    play(tournament, "swiss-2-1", alice)
    play(tournament, "swiss-2-2", carol)


@pytest.fixture
def olga():
    return make_organiser()


def test_abt_standings_page_says_who_can_still_win_and_who_can_still_cash(client, olga):
    """ABT rule: after round 1 of 2 with 3 paid places, nobody has more wins than a 0-1 player can
    reach (a tie is still a chance): everyone can still win. After round 2 of 3 (2-0, 1-1, 1-1,
    0-2), the 0-2 player can reach 1 win only: Alice already has more, so he can still cash (one
    player above him, three places paid) but no longer win."""
    tournament, four = modified_swiss(olga)
    play(tournament, "swiss-1-1", four[0])
    play(tournament, "swiss-1-2", four[1])
    status, text = page(client, "standings", tournament)
    assert status == 200
    assert "Still in contention" in text and "After round 1 of 2, with 3 paid places." in text
    assert "Can still win: Alice, Bob, Carol, Dave" in text
    assert "Can still cash, but no longer win: -" in text
    assert "Players out of the money: 0." in text
    longer, four = modified_swiss(olga, players=four, rounds=3)
    play(longer, "swiss-1-1", four[0])
    play(longer, "swiss-1-2", four[1])
    tournament_pair_next_round(tournament_id=longer.pk, user=olga)
    play(longer, "swiss-2-1", four[0])
    play(longer, "swiss-2-2", four[2])
    _status, text = page(client, "standings", longer)
    assert "After round 2 of 3, with 3 paid places." in text
    assert "Can still win: Alice, Bob, Carol" in text and "Can still cash, but no longer win: Dave" in text


def test_abt_standings_page_shows_the_playoffs_once_they_start(client, olga):
    """ABT three-player playoff: Alice (seed 1) has a bye into the final, Bob plays Carol; Bob and
    Carol are shown as could-cash-but-no-longer-win."""
    tournament, four = modified_swiss(olga)
    round_two_over(tournament, four)
    status, text = page(client, "standings", tournament)
    assert status == 200 and "The Swiss stopped after round 2" in text
    assert "Could still cash but no longer win the Swiss when it stopped: Bob, Carol" in text
    assert "Alice: a bye into the next round" in text and "Bob v Carol" in text
    assert "Still in contention" not in text
    _status, rounds = page(client, "rounds", tournament)
    assert "(playoffs)" in rounds and "Alice: a bye into the next round" in rounds
    assert "Bye (counts as a win): Alice" not in rounds
    play(tournament, "playoffs-1-2", four[2])
    _status, text = page(client, "standings", tournament)
    assert "Alice v Carol" in text
    play(tournament, "playoffs-2-1", four[2])
    _status, text = page(client, "standings", tournament)
    assert "Carol wins the playoffs." in text


def test_abt_a_plain_swiss_page_shows_no_contention(client, olga):
    tournament, _ = drawn(4, organiser=olga, format="swiss", swiss_rounds=2)
    _status, text = page(client, "standings", tournament)
    assert "Still in contention" not in text and "Playoffs" not in text


def field(count: int, prefix: str):
    return [player(f"{prefix}{i}", 2000.0 - 10 * i) for i in range(1, count + 1)]


def contention_queries(client, olga, count: int) -> int:
    tournament, _ = modified_swiss(olga, count, players=field(count, f"c{count}x"), rounds=4)
    for p in Pairing.objects.filter(tournament=tournament, match__isnull=False).select_related(
            "match__side0__player_a")[: count // 4]:
        play(tournament, p.key, p.match.side0.player_a)
    with CaptureQueriesContext(connection) as queries:
        status, text = page(client, "standings", tournament)
    assert status == 200 and "Can still win:" in text
    return len(queries)


def test_abt_standings_page_takes_the_same_queries_for_4_and_16_entrants(client, olga):
    """The contention is read with the table (the event's entries and pairings), whatever its size."""
    client.force_login(olga)
    assert contention_queries(client, olga, 16) == contention_queries(client, olga, 4)


@pytest.mark.parametrize(("tiebreaks", "shown"), [("fide", True), ("standard", False)])
def test_fide_tiebreak_option_is_said_in_a_sentence_on_the_standings_page(client, olga, tiebreaks, shown):
    """FIDE's virtual opponent for byes and unplayed rounds, strict direct encounter."""
    tournament, _ = drawn(4, organiser=olga, format="swiss", swiss_tiebreaks=tiebreaks)
    _status, text = page(client, "standings", tournament)
    fide = ("a bye or a round not played counts in the Buchholz as a game against a virtual opponent" in text
            and "the direct encounter decides only when every tied player has met every other" in text)
    assert fide is shown
    assert ("then Buchholz, median-Buchholz and head-to-head" in text) is not shown


def test_abt_director_starts_the_playoffs_from_the_round_page(client, olga, monkeypatch):
    """ABT rule, by the director: the round is over and three can cash for three places."""
    tournament, four = modified_swiss(olga)
    round_two_over(tournament, four, automatic=False, monkeypatch=monkeypatch)
    _status, anonymous = page(client, "rounds", tournament)
    assert "Start the playoffs" not in anonymous
    client.force_login(olga)
    _status, text = page(client, "rounds", tournament)
    assert "Start the playoffs" in text
    response = client.post(reverse("tournaments:playoffs_start", args=[tournament.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:rounds", args=[tournament.pk])
    assert Pairing.objects.filter(tournament=tournament, flight="playoffs").count() == 2
    again = client.post(reverse("tournaments:playoffs_start", args=[tournament.pk]))
    assert again.status_code == 409 and "the playoffs are drawn" in html.unescape(again.content.decode())


# --- the API ------------------------------------------------------------------------------------


def api(tournament, action: str) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/{action}/"


def test_abt_api_contention_while_the_swiss_goes_on_and_once_the_playoffs_start(olga):
    """ABT rule: the same contention as the page; then the playoffs' seeds and matches."""
    tournament, four = modified_swiss(olga)
    play(tournament, "swiss-1-1", four[0])
    body = client_for().get(api(tournament, "contention")).data
    assert (body["played"], body["rounds"], body["complete"], body["paid"]) == (1, 2, False, 3)
    assert sorted(e["name"] for e in body["can_win"]) == ["Alice", "Bob", "Carol", "Dave"]
    assert body["due"] is False and body["started"] is False and body["matches"] == []
    play(tournament, "swiss-1-2", four[1])
    tournament_pair_next_round(tournament_id=tournament.pk, user=olga)
    play(tournament, "swiss-2-1", four[0])
    play(tournament, "swiss-2-2", four[2])
    body = client_for().get(api(tournament, "contention")).data
    assert body["started"] is True and body["stopped_after"] == 2
    assert [e["name"] for e in body["seeds"]] == ["Alice", "Bob", "Carol"]
    assert [e["name"] for e in body["stopped_cash_only"]] == ["Bob", "Carol"]
    bye, semi, final = body["matches"]
    assert bye["bye"] is True and bye["top"]["name"] == "Alice" and bye["bottom"] is None
    assert (semi["top"]["name"], semi["bottom"]["name"]) == ("Bob", "Carol") and semi["match_id"]
    assert final["round"] == final["rounds"] == 2 and final["top"]["name"] == "Alice" and final["bottom"] is None
    assert final["match_id"] is None and body["champion"] is None


def test_abt_api_contention_is_404_for_an_event_that_is_no_modified_swiss(olga):
    tournament, _ = drawn(4, organiser=olga, format="swiss", swiss_rounds=2)
    response = client_for().get(api(tournament, "contention"))
    assert response.status_code == 404


def test_abt_api_director_starts_the_playoffs_and_others_may_not(olga, monkeypatch):
    """ABT rule through the API: only the event's director; a body is refused; then 409 once started."""
    tournament, four = modified_swiss(olga)
    round_two_over(tournament, four, automatic=False, monkeypatch=monkeypatch)
    before = snapshot(tournament)
    assert client_for(four[0].user).post(api(tournament, "playoffs"), {}, format="json").status_code == 403
    assert client_for().post(api(tournament, "playoffs"), {}, format="json").status_code == 401
    refused = client_for(olga).post(api(tournament, "playoffs"), {"seeds": [1]}, format="json")
    assert refused.status_code == 400
    assert snapshot(tournament) == before
    response = client_for(olga).post(api(tournament, "playoffs"), {}, format="json")
    assert response.status_code == 200 and [e["name"] for e in response.data["seeds"]] == ["Alice", "Bob", "Carol"]
    again = client_for(olga).post(api(tournament, "playoffs"), {}, format="json")
    assert again.status_code == 409 and again.data["code"] == "playoffs_started"


def test_abt_api_start_is_409_while_more_can_cash_than_are_paid(olga):
    tournament, four = modified_swiss(olga)
    play(tournament, "swiss-1-1", four[0])
    play(tournament, "swiss-1-2", four[1])
    response = client_for(olga).post(api(tournament, "playoffs"), {}, format="json")
    assert response.status_code == 409 and response.data["code"] == "not_time_for_playoffs"


@pytest.mark.parametrize(("field", "value"), [("swiss_pairing", "top_down"), ("swiss_tiebreaks", "fide"),
                                              ("abt_playoffs", False)])
def test_fide_and_abt_settings_patched_after_the_first_draw_are_409_naming_the_field(olga, field, value):
    """The FIDE and modified Swiss settings: the rounds were paired, ranked and counted by them."""
    tournament, _ = modified_swiss(olga)
    response = client_for(olga).patch(f"/api/v1/tournaments/{tournament.pk}/", {field: value}, format="json")
    assert response.status_code == 409 and response.data["code"] == "not_editable"
    assert response.data["field"] == field and response.data["detail"].startswith(f"{rule_label(field)}: ")
