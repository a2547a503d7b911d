"""The round desk page (/events/<id>/desk/): who may see it, each form through its service, a refusal
re-rendered with its 4xx status and the line or row it concerns (nothing saved), a correction's
confirmation step, open disputes first, and a query count that does not grow with the event."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.models import Match, Player
from rulings.services.disputes import dispute_open
from tests.tournaments.factories import cast, closed, drawn, enter, make_organiser, player, snapshot
from tournaments.models import Entry, Pairing, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga():
    return make_organiser()


def login(client, user):
    client.force_login(user)
    return client


def desk_url(tournament, name="desk", *args):
    return reverse(f"tournaments:{name}", args=[tournament.pk, *args])


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_only_the_organiser_and_staff_see_the_desk(client, olga):
    tournament, (alice, *_rest) = drawn(4, organiser=olga)
    assert client.get(desk_url(tournament)).status_code == 302
    assert login(client, alice.user).get(desk_url(tournament)).status_code == 403
    page = login(client, olga).get(desk_url(tournament))
    assert page.status_code == 200
    assert "Round desk" in text(page)
    assert desk_url(tournament) in text(client.get(reverse("tournaments:manage", args=[tournament.pk])))


def test_paste_check_in_all_and_draw_from_the_desk(client, olga):
    tournament = closed(organiser=olga, format=Tournament.Format.SWISS, swiss_rounds=2)
    cast(2)
    login(client, olga)
    response = client.post(desk_url(tournament, "desk_paste"), {"paste-names": "alice\nBob\nNew Person\n"})
    assert response.status_code == 302
    page = text(client.get(desk_url(tournament)))
    assert "2 known players are entered. 1 new guest player is created and entered: New Person." in page
    assert client.post(desk_url(tournament, "desk_check_in"), {"all": "1"}).status_code == 302
    assert set(Entry.objects.filter(tournament=tournament).values_list("status", flat=True)) == {"checked_in"}
    assert client.post(desk_url(tournament, "desk_draw"), {}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_a_refused_paste_line_is_named_on_the_page_and_nothing_is_saved(client, olga):
    tournament = closed(organiser=olga)
    before, players = snapshot(tournament), Player.objects.count()
    response = login(client, olga).post(desk_url(tournament, "desk_paste"), {"paste-names": "Ann\nBen\nann"})
    assert response.status_code == 400
    assert "line 3: ann is already on line 1" in text(response)
    assert snapshot(tournament) == before and Player.objects.count() == players


def test_seeds_and_chosen_check_in_from_the_desk(client, olga):
    tournament = closed(organiser=olga, seeding=Tournament.Seeding.ORGANISER)
    entries = enter(tournament, cast(3), checked_in=False)
    login(client, olga)
    response = client.post(desk_url(tournament, "desk_seeds"), {f"seed-{entries[0].pk}": "2",
                                                                 f"seed-{entries[1].pk}": "2"})
    assert response.status_code == 400
    assert "Alice and Bob both have seed 2" in text(response)
    assert client.post(desk_url(tournament, "desk_seeds"), {f"seed-{entries[0].pk}": "2",
                                                             f"seed-{entries[1].pk}": "1"}).status_code == 302
    assert list(Entry.objects.filter(tournament=tournament).order_by("pk").values_list("seed", flat=True)) == [2, 1, None]
    assert client.post(desk_url(tournament, "desk_check_in"), {"entries": [entries[2].pk]}).status_code == 302
    assert list(Entry.objects.filter(tournament=tournament).order_by("pk").values_list("status", flat=True)) == [
        "entered", "entered", "checked_in"]
    assert client.post(desk_url(tournament, "desk_check_in"), {}).status_code == 400


def _first_match(tournament) -> Match:
    return Match.objects.select_related("side0__player_a", "side1__player_a").filter(
        pairing__tournament=tournament).order_by("pairing__key").first()


def test_a_row_enters_a_result_then_a_correction_is_confirmed_first(client, olga):
    tournament, _players = drawn(4, organiser=olga, format=Tournament.Format.SWISS, swiss_rounds=2)
    match = _first_match(tournament)
    login(client, olga)
    url = desk_url(tournament, "desk_result", match.pk)
    n = match.length
    assert client.post(url, {"score0": str(n), "score1": str(n)}).status_code == 400  # no match ends so
    assert client.post(url, {"score0": str(n), "score1": ""}).status_code == 400
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    assert client.post(url, {"score0": str(n), "score1": "2"}).status_code == 302
    match.refresh_from_db()
    assert (match.status, match.score0, match.score1) == (Match.Status.CONFIRMED, n, 2)
    # A correction shows what it changes and waits for the confirmation.
    preview = client.post(url, {"score0": "3", "score1": str(n)})
    assert preview.status_code == 200 and "Confirm the correction" in text(preview)
    match.refresh_from_db()
    assert (match.score0, match.score1) == (n, 2)
    assert client.post(url, {"score0": "3", "score1": str(n), "confirm": "1", "expected": ""}).status_code == 302
    match.refresh_from_db()
    assert (match.score0, match.score1, match.winner) == (3, n, 1)


def test_a_refused_row_keeps_what_was_typed_and_names_the_match(client, olga):
    tournament, _players = drawn(4, organiser=olga, format=Tournament.Format.SWISS, swiss_rounds=2)
    match = _first_match(tournament)
    response = login(client, olga).post(desk_url(tournament, "desk_result", match.pk), {"score0": "0", "score1": "0"})
    assert response.status_code == 400
    page = text(response)
    assert f"{match.side0.name} v {match.side1.name}:" in page
    assert page.count('value="0"') >= 2 and "refused" in page


def test_tables_are_numbered_and_the_rounds_page_lists_them(client, olga):
    tournament, _players = drawn(8, organiser=olga, format=Tournament.Format.SWISS, swiss_rounds=3)
    login(client, olga)
    assert client.post(desk_url(tournament, "desk_tables"), {"number": "1"}).status_code == 302
    tables = list(Match.objects.filter(pairing__tournament=tournament).order_by("pairing__key")
                  .values_list("table", flat=True))
    assert sorted(tables, key=int) == ["1", "2", "3", "4"]
    page = text(client.get(reverse("tournaments:rounds", args=[tournament.pk])))
    assert '<th scope="col">Table</th>' in page
    match = _first_match(tournament)
    response = client.post(desk_url(tournament, "desk_tables"), {f"table-{match.pk}": "2"})
    assert response.status_code == 400 and "cannot both play at table 2" in text(response)


def test_the_next_round_starts_from_the_desk_once_every_result_is_in(client, olga):
    tournament, _players = drawn(4, organiser=olga, format=Tournament.Format.SWISS, swiss_rounds=2)
    login(client, olga)
    assert client.post(desk_url(tournament, "desk_pair")).status_code == 409
    for match in Match.objects.filter(pairing__tournament=tournament):
        client.post(desk_url(tournament, "desk_result", match.pk), {"score0": str(match.length), "score1": "0"})
    assert "Start the next round" in text(client.get(desk_url(tournament)))
    assert client.post(desk_url(tournament, "desk_pair")).status_code == 302
    assert Pairing.objects.filter(tournament=tournament, round_number=2).count() == 2
    page = text(client.get(desk_url(tournament)))
    assert "Round 2" in page and "2 matches still to be confirmed." in page


def test_open_disputes_come_first_with_links(client, olga):
    tournament, (alice, *_rest) = drawn(4, organiser=olga, format=Tournament.Format.SWISS, swiss_rounds=2)
    match = Match.objects.filter(pairing__tournament=tournament, side0__player_a=alice).first() or \
        Match.objects.get(pairing__tournament=tournament, side1__player_a=alice)
    dispute = dispute_open(match_id=match.pk, user=alice.user, category="slow_play", statement="Too slow.")
    page = text(login(client, olga).get(desk_url(tournament)))
    assert 'Open disputes (<bdi dir="ltr">1</bdi>)' in page
    assert "The dispute on Alice v Carol, round 1" in page
    assert reverse("rulings:dispute", args=[dispute.pk]) in page
    assert page.index("Open disputes") < page.index("Round 1")


def desk_queries(client, count: int, olga) -> int:
    players = [player(f"d{count}x{i}", 2000.0 - i) for i in range(1, count + 1)]
    tournament, _ = drawn(count, organiser=olga, format=Tournament.Format.SWISS, swiss_rounds=3, players=players)
    first = Match.objects.filter(pairing__tournament=tournament).order_by("pk").first()
    client.post(desk_url(tournament, "desk_result", first.pk), {"score0": str(first.length), "score1": "1"})
    client.post(desk_url(tournament, "desk_tables"), {"number": "1"})
    with CaptureQueriesContext(connection) as queries:
        page = text(client.get(desk_url(tournament)))
    assert page.count('class="desk-row') == count // 2
    return len(queries)


def test_the_desk_takes_the_same_queries_for_8_and_32_players(client, olga):
    login(client, olga)
    assert desk_queries(client, 32, olga) == desk_queries(client, 8, olga)


def test_the_desk_before_the_draw_takes_the_same_queries_for_8_and_32_entrants(client, olga):
    login(client, olga)
    counts = []
    for count in (8, 32):
        tournament = closed(organiser=olga)
        enter(tournament, [player(f"e{count}x{i}") for i in range(count)], checked_in=False)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(desk_url(tournament)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
