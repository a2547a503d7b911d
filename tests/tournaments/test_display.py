"""An event away from the site: the projector page, the bracket embedded in a club's site
(the one page any site may frame), the bracket as SVG and PNG downloads, and a round robin's
crosstable and sitters-out; each page's queries do not grow with the event."""

from __future__ import annotations

import html
import io
import re
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image

from tests.tournaments.factories import drawn, make_another_organiser, make_organiser, play, player
from tournaments.crosstable import round_robin_tables
from tournaments.drawings.bracket_export import bracket_png, bracket_svg_file
from tournaments.drawings.bracket_svg import BracketCell, BracketRound
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def url(name: str, tournament: Tournament, **query) -> str:
    base = reverse(f"tournaments:{name}", args=[tournament.pk])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def text(response) -> str:
    return html.unescape(response.content.decode())


def field(count: int, prefix: str):
    return [player(f"{prefix}{i}", 2000.0 - 10 * i) for i in range(1, count + 1)]


@pytest.fixture
def olga():
    return make_organiser()


def _play_first_round(tournament: Tournament, flight: str = "main") -> None:
    for pairing in Pairing.objects.filter(tournament=tournament, round_number=1, flight=flight,
                                          match__isnull=False).select_related("match__side0__player_a"):
        play(tournament, pairing.key, pairing.match.side0.player_a)


# --- the projector -------------------------------------------------------------------------------


def test_the_projector_cycles_through_the_flights_and_the_matches_to_play_without_the_site_navigation(client, olga):
    tournament, _players = drawn(8, organiser=olga, consolation_rounds=1)
    _play_first_round(tournament)
    first = client.get(url("projector", tournament, seconds=20))
    page = text(first)
    assert first.status_code == 200
    assert 'class="site"' not in page and "Sign in" not in page  # no site navigation
    match = re.search(r'<meta http-equiv="refresh" content="(\d+);url=([^"]+)">', page)
    assert match and match.group(1) == "20" and "slide=2" in match.group(2) and "seconds=20" in match.group(2)
    assert "Main flight" in page and "<svg" in page and "Alice" in page
    titles = []
    for number in range(1, 6):
        shown = text(client.get(url("projector", tournament, slide=number)))
        titles.append(re.search(r'<p class="slide-title">([^<]+)', shown).group(1).strip())
    # The main flight, the consolation flight, the matches being played, then round again.
    assert titles[:3] == ["Main flight", "Consolation flight", "Matches to play"]
    assert titles[3] == titles[0]
    playing = text(client.get(url("projector", tournament, slide=3)))
    assert "Semi-finals" in playing and "Alice" in playing


def test_the_projector_of_a_swiss_shows_the_round_then_the_standings_and_bad_seconds_fall_back(client, olga):
    tournament, _ = drawn(6, organiser=olga, format=Tournament.Format.SWISS, swiss_rounds=3)
    pages = [text(client.get(url("projector", tournament, slide=n, seconds="x"))) for n in (1, 2)]
    assert "Round 1" in pages[0] and 'content="15;' in pages[0]
    assert "Standings" in pages[1] and "Alice" in pages[1]
    assert 'content="5;' in text(client.get(url("projector", tournament, seconds=1)))


# --- the embed and the frame headers -------------------------------------------------------------------


def test_only_the_embedded_bracket_may_be_framed(client, olga):
    tournament, _ = drawn(4, organiser=olga)
    embedded = client.get(url("embed_bracket", tournament))
    assert embedded.status_code == 200
    assert "X-Frame-Options" not in embedded
    assert embedded["Content-Security-Policy"] == "frame-ancestors *"
    page = text(embedded)
    assert "<svg" in page and "Alice" in page and '<base target="_top">' in page and 'class="site"' not in page
    for name in ("bracket", "projector", "detail", "standings"):
        other = client.get(url(name, tournament))
        assert other["X-Frame-Options"] == "DENY", name
        assert "frame-ancestors" not in other.get("Content-Security-Policy", ""), name


def test_the_embed_of_a_flight_the_bracket_lacks_is_404_and_of_a_swiss_says_it_has_no_bracket(client, olga):
    tournament, _ = drawn(4, organiser=olga)
    assert client.get(url("embed_bracket", tournament, flight="nowhere")).status_code == 404
    swiss, _ = drawn(4, organiser=olga, format=Tournament.Format.SWISS, players=field(4, "sw"))
    assert "This event has no bracket" in text(client.get(url("embed_bracket", swiss)))


# --- the downloads -------------------------------------------------------------------------------------------


def test_the_bracket_downloads_as_an_svg_file_with_every_flight_and_the_players_names(client, olga):
    tournament, _ = drawn(8, organiser=olga, consolation_rounds=1)
    _play_first_round(tournament)
    response = client.get(url("bracket_svg", tournament))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert response["Content-Disposition"].startswith("attachment;") and ".svg" in response["Content-Disposition"]
    root = ET.fromstring(response.content)
    assert root.tag == f"{SVG}svg"
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert {"Alice", "Bob", "Heidi", "Main flight", "Consolation flight", "Final"} <= texts
    assert not any(a.get("href") for a in root.iter(f"{SVG}a"))  # a file links nowhere


def test_the_bracket_downloads_as_a_png_image_that_decodes(client, olga):
    tournament, _ = drawn(8, organiser=olga)
    response = client.get(url("bracket_png", tournament))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png" and ".png" in response["Content-Disposition"]
    image = Image.open(io.BytesIO(response.content))
    image.load()
    assert image.format == "PNG"
    # Three rounds of 236-unit columns, drawn at twice the size: wide and tall enough to read.
    assert 1400 <= image.width <= 2000 and 500 <= image.height <= 1500
    assert len(image.convert("L").getcolors(256)) > 10  # something is drawn, not a blank page


def test_a_big_png_is_drawn_smaller_not_refused():
    cells = tuple(BracketCell(str(i), (f"P{2 * i}", f"P{2 * i + 1}")) for i in range(512))
    data = bracket_png([("Main", [BracketRound("Round 1", 7, cells)])])
    image = Image.open(io.BytesIO(data))
    assert image.width * image.height <= 24_000_000 and image.height > 10_000


def test_the_svg_file_escapes_names():
    rounds = [BracketRound("Final", 5, (BracketCell("m", ("<Zoë & Co>", "Ștefan")),))]
    root = ET.fromstring(bracket_svg_file([("Main <flight>", rounds)], title="A & B").encode())
    assert {"<Zoë & Co>", "Ștefan", "Main <flight>"} <= {t.text for t in root.iter(f"{SVG}text")}


def test_the_downloads_of_an_event_without_a_bracket_are_404(client, olga):
    swiss, _ = drawn(4, organiser=olga, format=Tournament.Format.SWISS)
    assert client.get(url("bracket_svg", swiss)).status_code == 404
    assert client.get(url("bracket_png", swiss)).status_code == 404


def test_the_bracket_page_links_the_projector_the_downloads_and_the_embed_code(client, olga):
    tournament, _ = drawn(4, organiser=olga)
    page = text(client.get(url("bracket", tournament)))
    for name in ("projector", "bracket_svg", "bracket_png", "embed_bracket"):
        assert url(name, tournament) in page, name
    assert 'class="bracket-tools"' in page and "Fit to width" in page


# --- a round robin: crosstable and sitters-out --------------------------------------------------------------


def test_a_five_player_round_robin_has_a_crosstable_and_one_player_sitting_out_each_round(client, olga):
    tournament, players = drawn(5, organiser=olga, format=Tournament.Format.ROUND_ROBIN)
    alice, bob = players[0], players[1]
    first = Pairing.objects.filter(tournament=tournament, round_number=1).select_related(
        "match__side0__player_a", "match__side1__player_a").first()
    winner = first.match.side0.player_a
    play(tournament, first.key, winner, loser_points=2)
    (table,) = round_robin_tables(tournament=tournament)
    assert len(table.entrants) == 5 and len(table.sit_outs) == 5
    # Each round one player sits out, and each player exactly once.
    assert all(len(sitting) == 1 for sitting in table.sit_outs.values())
    assert sorted(e.name for sitting in table.sit_outs.values() for e in sitting) == sorted(
        p.display_name for p in players)
    rows = {row.entrant.name: row for row in table.rows}
    assert rows[alice.display_name].cells[0] is None  # the diagonal
    loser = first.match.side1.player_a
    order = [e.name for e in table.entrants]
    won = rows[winner.display_name].cells[order.index(loser.display_name)]
    lost = rows[loser.display_name].cells[order.index(winner.display_name)]
    assert (won.won, lost.won, won.mine, won.theirs, lost.mine, lost.theirs) == (
        True, False, first.match.length, 2, 2, first.match.length)
    assert rows[winner.display_name].wins == 1
    assert bob.display_name in order

    standings = text(client.get(url("standings", tournament)))
    assert "Crosstable" in standings and f"{first.match.length}-2" in standings and f"2-{first.match.length}" in standings
    rounds = text(client.get(url("rounds", tournament)))
    assert rounds.count("Sitting out this round (no match):") == 5
    sitting = table.sit_outs[1][0].name
    assert re.search(r"Round 1</h2>.*?Sitting out this round \(no match\): " + sitting, rounds, re.S)
    one = text(client.get(url("rounds", tournament, round=2)))
    assert f"Sitting out this round (no match): {table.sit_outs[2][0].name}" in one


# --- query counts ------------------------------------------------------------------------------------


def _queries(client, path: str) -> int:
    client.get(path)  # the cache filled, as on every later showing
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize("name", ["projector", "embed_bracket", "bracket_svg", "bracket_png"])
def test_the_bracket_pages_take_the_same_queries_for_4_and_16_entrants(client, olga, name):
    counts = []
    for count in (4, 16):
        tournament, _ = drawn(count, organiser=olga, consolation_rounds=1, players=field(count, f"{name}{count}x"))
        _play_first_round(tournament)
        counts.append([_queries(client, url(name, tournament, slide=n)) for n in (1, 2, 3)])
    assert counts[0] == counts[1]


@pytest.mark.parametrize("format", [Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN])
def test_the_projector_and_the_round_robin_pages_take_the_same_queries_for_5_and_15_entrants(client, olga, format):
    counts = []
    for count in (5, 15):
        tournament, _ = drawn(count, organiser=olga, format=format, players=field(count, f"{format}{count}y"))
        counts.append([_queries(client, url("projector", tournament, slide=n)) for n in (1, 2, 3)]
                      + [_queries(client, url(name, tournament)) for name in ("standings", "rounds")])
    assert counts[0] == counts[1]


def test_the_projector_shows_a_big_flight_in_parts_from_the_round_being_played(client, olga):
    tournament, _ = drawn(64, organiser=olga, players=field(64, "big"))
    titles = [re.search(r'<p class="slide-title">([^<]+)', text(client.get(url("projector", tournament, slide=n))))
              .group(1).strip() for n in (1, 2)]
    assert titles == ["Main flight, part 1 of 2", "Main flight, part 2 of 2"]
    first = text(client.get(url("projector", tournament, slide=1)))
    # Four rounds from the first, of the first round its first 16 matches.
    assert "Round 1" in first and "Quarter-finals" in first and "Semi-finals" not in first
    assert first.count('class="cell ') == 16 + 8 + 4 + 2
    _play_first_round(tournament)
    moved = text(client.get(url("projector", tournament, slide=1)))
    assert "Round 1" not in moved and "Semi-finals" in moved
    assert '<p class="slide-title">Main flight <small' in moved  # round 2: 16 matches, one part


@pytest.mark.parametrize("name", ["tournaments:projector", "tournaments:embed_bracket", "tournaments:bracket_svg",
                                  "tournaments:bracket_png"])
def test_a_drafts_displays_are_its_organisers_alone(client, olga, name):
    draft = Tournament.objects.create(name="Draft cup", organiser=olga)
    url = reverse(name, args=[draft.pk])
    assert client.get(url).status_code == 404
    client.force_login(make_another_organiser())
    assert client.get(url).status_code == 404
    client.force_login(olga)
    # Her own draft: the projector and the embed show it (no bracket drawn yet); the downloads have nothing.
    assert client.get(url).status_code == (200 if name in ("tournaments:projector", "tournaments:embed_bracket") else 404)
