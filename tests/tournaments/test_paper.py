"""Paper: the draw sheet, the scoresheets and the results sheet of a round, and
a match's scoresheet, rendered to PDF by the routes and read back with pypdf: page count, page size
and text (Latin, Romanian diacritics, Korean and Arabic names included)."""

from __future__ import annotations

import io
import unicodedata

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from matches.models import Match, Player
from tests.tournaments.factories import drawn, override
from tests.tournaments.test_draw_queries import event
from tournaments.models import Entry, Pairing, Tournament
from tournaments.services import tournament_draw

pytestmark = pytest.mark.django_db

A4_LANDSCAPE = (842, 595)
LETTER_LANDSCAPE = (792, 612)
SPECIAL = ("Ștefan Țăranu", "Mihăiță Câmpeanu", "김민준", "محمد علي")


def _pdf(response) -> PdfReader:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("inline; filename=")
    return PdfReader(io.BytesIO(response.content))


def _text(page) -> str:
    return unicodedata.normalize("NFKC", page.extract_text())


def _size(page) -> tuple[int, int]:
    return round(float(page.mediabox.width)), round(float(page.mediabox.height))


def big_event(organiser, size: int = 64) -> Tournament:
    """A drawn single elimination of ``size`` with a consolation flight for the first round's
    losers; four players renamed in Romanian, Korean and Arabic."""
    tournament = event(size, organiser, consolation_rounds=1, lengths={"main": [5, 5, 7], "consolation": 3})
    players = list(Player.objects.filter(pk__in=Entry.objects.filter(tournament=tournament).values("side__player_a"))
                   .order_by("display_name")[:len(SPECIAL)])
    for who, name in zip(players, SPECIAL, strict=True):
        who.display_name = name
        who.save(update_fields=["display_name"])
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    return tournament


def _first_round_names(tournament: Tournament) -> set[str]:
    names = set()
    for p in Pairing.objects.filter(tournament=tournament, flight="main", round_number=1).select_related(
            "entry0__side__player_a", "entry1__side__player_a"):
        names |= {e.side.player_a.display_name for e in (p.entry0, p.entry1) if e is not None}
    return names


def _draw_url(tournament: Tournament, paper: str | None = None) -> str:
    url = reverse("tournaments:paper_draw", args=[tournament.pk])
    return f"{url}?paper={paper}" if paper else url


@pytest.mark.parametrize(("paper", "size"), [("a4", A4_LANDSCAPE), ("letter", LETTER_LANDSCAPE), (None, A4_LANDSCAPE)])
def test_the_draw_sheet_of_64_players_with_a_consolation_flight_prints_every_flight_and_name(organiser, paper, size):
    tournament = big_event(organiser)
    reader = _pdf(Client().get(_draw_url(tournament, paper)))
    # The main flight: 32 first-round matches, two sections of 16 (rounds 1-6 each); the
    # consolation flight: 16 first-round matches, one page (rounds 1-5).
    assert len(reader.pages) == 3
    assert {_size(page) for page in reader.pages} == {size}
    texts = [_text(page) for page in reader.pages]
    everything = "\n".join(texts)
    names = _first_round_names(tournament)
    assert len(names) == 64
    missing = [name for name in names if name not in everything and unicodedata.normalize("NFKC", name) not in everything]
    arabic = [name for name in missing if any("\u0600" <= c <= "\u06ff" for c in name)]
    assert missing == arabic  # every Latin, Romanian and Korean name as text
    for name in arabic:  # Arabic is shaped and laid out right to left: its letters are all there
        assert all(word in everything or word[::-1] in everything for word in name.split())
    assert "Main flight" in texts[0] and "Main flight" in texts[1] and "Consolation flight" in texts[2]
    for number, text in enumerate(texts, 1):
        assert f"Page {number} of 3" in text
        assert tournament.name in text
    assert "Section 1 of 2" in texts[0] and "Section 2 of 2" in texts[1]
    assert "Round 1" in texts[0] and "Round of 16" in texts[0] and "Final" in texts[1] and "5 pt" in texts[0]


def test_the_draw_sheet_reads_a_fixed_number_of_queries_whatever_the_size(organiser):
    counts = []
    for size in (16, 64):
        tournament = big_event(organiser, size)
        with CaptureQueriesContext(connection) as queries:
            _pdf(Client().get(_draw_url(tournament)))
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 6


def test_the_scoresheets_of_round_one_are_a_page_per_match_with_players_length_and_crawford(organiser):
    tournament = big_event(organiser)
    url = reverse("tournaments:paper_scoresheets", args=[tournament.pk, 1])
    reader = _pdf(Client().get(url))
    assert len(reader.pages) == 32  # the consolation's first round waits for its players
    pairings = {frozenset(e.side.player_a.display_name for e in (p.entry0, p.entry1))
                for p in Pairing.objects.filter(tournament=tournament, flight="main", round_number=1)
                .select_related("entry0__side__player_a", "entry1__side__player_a")}
    seen = set()
    for page in reader.pages:
        text = _text(page)
        assert "Match to 5 points" in text and "Crawford rule: on" in text and "Crawford" in text
        assert "Signature of" in text and "Main flight, Round 1" in text
        found = frozenset(name for pair in pairings for name in pair if name in text)
        seen.add(found)
    latin = {pair for pair in pairings if not any("\u0600" <= c <= "\u06ff" for name in pair for c in name)}
    assert latin <= seen
    with CaptureQueriesContext(connection) as queries:
        _pdf(Client().get(url + "?paper=letter"))
    assert len(queries) <= 6


def test_the_results_sheet_of_a_round_lists_its_matches(organiser):
    tournament = big_event(organiser, 16)
    key = Pairing.objects.filter(tournament=tournament, flight="main", round_number=1).order_by("pk").first().key
    played = override(tournament, key, Match.objects.get(pairing__tournament=tournament, pairing__key=key)
                      .side1.player_a, loser_points=2)
    winner = played.side1.player_a.display_name
    reader = _pdf(Client().get(reverse("tournaments:paper_results", args=[tournament.pk, 1])))
    text = "\n".join(_text(page) for page in reader.pages)
    lines = [line.strip() for line in text.splitlines()]
    at = next(i for i, line in enumerate(lines) if line in ("5-2", "2-5"))  # the score, top first...
    assert lines[at + 1] == winner and winner in lines[at - 2:at]  # ...between the players and the winner
    assert "Results of round 1" in text and "Main flight, Round of 16" in text and "Winner" in text
    assert "Consolation flight" in text
    for name in _first_round_names(tournament):
        if not any("\u0600" <= c <= "\u06ff" for c in name):
            assert name in text


def test_a_round_the_event_lacks_and_a_paper_not_offered_are_refused(organiser):
    tournament = big_event(organiser, 16)
    client = Client()
    assert client.get(reverse("tournaments:paper_results", args=[tournament.pk, 9])).status_code == 404
    assert client.get(reverse("tournaments:paper_scoresheets", args=[tournament.pk, 9])).status_code == 404
    bad = client.get(_draw_url(tournament, "a3"))
    assert bad.status_code == 400 and b"paper" in bad.content
    assert client.post(_draw_url(tournament)).status_code == 405


def test_a_drafts_sheets_are_its_organisers_only(organiser, another_organiser):
    draft = Tournament.objects.create(name="Draft cup", organiser=organiser)
    url = _draw_url(draft)
    assert Client().get(url).status_code == 404
    other = Client()
    other.force_login(another_organiser)
    assert other.get(url).status_code == 404
    mine = Client()
    mine.force_login(organiser)
    assert mine.get(url).status_code == 404  # nothing drawn yet: no sheet


def test_a_swiss_rounds_sheets(organiser):
    tournament, players = drawn(6, format=Tournament.Format.SWISS, swiss_rounds=3, organiser=organiser)
    client = Client()
    assert client.get(_draw_url(tournament)).status_code == 404  # no bracket
    reader = _pdf(client.get(reverse("tournaments:paper_scoresheets", args=[tournament.pk, 1])))
    assert len(reader.pages) == 3
    results = "\n".join(_text(p) for p in _pdf(client.get(reverse("tournaments:paper_results",
                                                                      args=[tournament.pk, 1]))).pages)
    assert "Round 1" in results
    assert all(p.display_name in results for p in players)


def test_a_matchs_scoresheet(organiser):
    tournament = big_event(organiser, 16)
    match = Pairing.objects.filter(tournament=tournament, flight="main", round_number=1).select_related(
        "match__side0__player_a", "match__side1__player_a").first().match
    reader = _pdf(Client().get(reverse("matches:scoresheet", args=[match.pk]) + "?paper=letter"))
    assert len(reader.pages) == 1 and _size(reader.pages[0]) == (612, 792)
    text = _text(reader.pages[0])
    for side in (match.side0, match.side1):
        if not any("\u0600" <= c <= "\u06ff" for c in side.name):
            assert side.name in text
    assert "Match to 5 points" in text and "Crawford" in text and tournament.name in text


def test_labels_follow_the_readers_language(organiser):
    tournament = big_event(organiser, 16)
    url = reverse("tournaments:paper_scoresheets", args=[tournament.pk, 1])
    english = _text(_pdf(Client().get(url)).pages[0])
    korean = "".join(_text(_pdf(Client(headers={"accept-language": "ko"}).get(url)).pages[0]).split())
    romanian = _text(_pdf(Client(headers={"accept-language": "ro"}).get(url)).pages[0])
    arabic = _pdf(Client(headers={"accept-language": "ar"}).get(url))
    assert "Signature of" in english and "Match to 5 points" in english
    assert "Signatureof" not in korean and "5점매치" in korean and "서명" in korean and "크로포드규칙" in korean
    assert "Semnătura lui" in romanian and "Meci la 5 puncte" in romanian and "Regula Crawford: da" in romanian
    assert "Signature of" not in _text(arabic.pages[0]) and len(arabic.pages) == 8


# --- the print stylesheet and the links to the sheets ------------------------------------------------


def _print_rules() -> str:
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static" / "crawford.css").read_text()
    start = css.index("@media print {\n")
    depth, end = 0, start
    for end in range(css.index("{", start), len(css)):
        depth += {"{": 1, "}": -1}.get(css[end], 0)
        if depth == 0:
            break
    return css[start:end + 1]


def test_the_print_stylesheet_hides_the_site_chrome_prints_black_on_white_and_does_not_cut_brackets():
    import re

    rules = " ".join(_print_rules().split())
    hidden = re.search(r"([^{}]*)\{ display: none !important; \}", rules)
    selectors = {s.strip() for s in hidden.group(1).split(",")}
    assert {"header.site", "nav", "nav.event-nav", "form", "button", "select", ".language", ".paper-links"} <= selectors
    assert "color: #000 !important" in rules and "background: #fff !important" in rules
    assert "a[href]::after { content: none !important; }" in rules  # no link targets printed
    assert re.search(r"svg\.bracket \{ break-inside: avoid; page-break-inside: avoid; \}", rules)
    assert ".bracket-scroll, .table-scroll { overflow: visible !important; }" in rules


def test_the_event_pages_link_the_stylesheet_and_the_sheets(organiser):
    tournament = big_event(organiser, 16)
    swiss, _players = drawn(4, format=Tournament.Format.SWISS, swiss_rounds=2, organiser=organiser)
    client = Client()
    for url in (reverse("tournaments:detail", args=[tournament.pk]), reverse("tournaments:bracket", args=[tournament.pk]),
                reverse("tournaments:rounds", args=[swiss.pk]), reverse("tournaments:standings", args=[swiss.pk])):
        page = client.get(url).content.decode()
        assert 'rel="stylesheet" href="/static/crawford.css"' in page, url
    bracket = client.get(reverse("tournaments:bracket", args=[tournament.pk])).content.decode()
    assert f'href="{_draw_url(tournament)}"' in bracket and "Print the draw sheet (PDF)" in bracket
    for number in (1, 4):  # a 16-player bracket: four rounds in the main flight
        assert reverse("tournaments:paper_scoresheets", args=[tournament.pk, number]) in bracket
        assert reverse("tournaments:paper_results", args=[tournament.pk, number]) in bracket
    rounds = client.get(reverse("tournaments:rounds", args=[swiss.pk])).content.decode()
    assert reverse("tournaments:paper_scoresheets", args=[swiss.pk, 1]) in rounds
    assert reverse("tournaments:paper_draw", args=[swiss.pk]) not in rounds
    match = Pairing.objects.filter(tournament=tournament).exclude(match=None).first().match
    detail = client.get(reverse("matches:detail", args=[match.pk])).content.decode()
    assert reverse("matches:scoresheet", args=[match.pk]) in detail


# --- fonts ---------------------------------------------------------------------------------------------


def _fonts(page) -> set[str]:
    return {str(font["/BaseFont"]).lstrip("/").split("+")[-1] for font in page["/Resources"]["/Font"].values()}


@pytest.mark.parametrize(("name", "font"), [("Ștefan Țăranu-Mîndrâ", "NotoSans-Regular"), ("김민준", "HYGothic-Medium"),
                                            ("محمد علي", "NotoSansArabic-Regular")])
def test_every_script_prints_in_its_own_font_as_text(name, font):
    from matches.paper import Scoresheet, scoresheets_pdf

    content = scoresheets_pdf([Scoresheet("Cupa României", "", (name, "Ana"), 7, True)])
    page = PdfReader(io.BytesIO(content)).pages[0]
    assert font in _fonts(page)
    text = _text(page)
    assert "Cupa României" in text and "Match to 7 points" in text
    if font == "NotoSansArabic-Regular":  # joined letters, drawn right to left: every word's letters are there
        assert all(word in text or word[::-1] in text for word in name.split())
    else:
        assert name in text
