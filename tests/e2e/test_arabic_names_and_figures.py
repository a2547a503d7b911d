"""End to end, in Arabic on a phone (390 px): an event's standings show a tied place as "=3" and a
points difference as "\u22122" (the minus sign drawn left of the digit, as written, not after it), and a
dispute's header keeps the two Latin names of its match apart, each in its own isolate
(U+2068 … U+2069), so that they do not read as one run of four words. And the new-event form asks
the match lengths of each flight of the format chosen in words, not as typed flight keywords.

Needs /usr/bin/chromium (see test_report_flow for the browser's set-up).
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from rulings.services.disputes import dispute_open
from tests.e2e.test_report_flow import chromium, new_page
from tests.factories import MatchFactory, PlayerFactory, UserFactory
from tests.tournaments.factories import drawn, make_organiser, play, player
from tournaments.models import Pairing, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH = 390
FSI, PDI, MINUS = "\u2068", "\u2069", "\u2212"

#: Each standings row's place and points difference: its text, the direction of the element that
#: holds it and whether that element isolates it, and where its first and last characters are drawn.
STANDINGS_JS = """() => {
  const drawn = (cell) => {
    const node = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT).nextNode(), range = document.createRange();
    const at = (i) => { range.setStart(node, i); range.setEnd(node, i + 1); return range.getBoundingClientRect().left; };
    return {text: cell.textContent.trim(), direction: getComputedStyle(node.parentElement).direction,
            isolated: node.parentElement !== cell && getComputedStyle(node.parentElement).unicodeBidi === "isolate",
            first: at(0), last: at(node.data.length - 1)};
  };
  return [...document.querySelectorAll("table.standings tbody tr")].map((row) => {
    const cells = row.querySelectorAll("td");
    return {place: drawn(cells[0]), difference: drawn(cells[cells.length - 1])};
  });
}"""

#: The dispute header's match: its text as read, and for each name the left and right edges where
#: it is drawn and the characters on either side of it in the text.
HEADER_JS = """(names) => {
  const link = document.querySelector("dl.facts dd a");
  const node = [...link.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.data.includes(names[0]));
  const range = document.createRange();
  const spans = names.map((name) => {
    const start = node.data.indexOf(name);
    range.setStart(node, start); range.setEnd(node, start + name.length);
    const rects = [...range.getClientRects()];
    return {before: node.data[start - 1] || "", after: node.data[start + name.length] || "", lines: rects.length,
            left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right))};
  });
  return {text: link.textContent, direction: getComputedStyle(link).direction, spans};
}"""

WIDTH_JS = "() => ({scrollWidth: document.documentElement.scrollWidth, dir: document.documentElement.dir})"


@pytest.fixture
def pages(olga_organiser) -> dict[str, str]:
    """A Swiss of four after round 1, both matches won 5-3 (two winners level on everything, two
    losers 2 points down), and a dispute between two Latin-named players."""
    tournament, _players = drawn(4, organiser=olga_organiser, format=Tournament.Format.SWISS)
    for key in ("swiss-1-1", "swiss-1-2"):
        match = Pairing.objects.select_related("match__side0__player_a").get(tournament=tournament, key=key).match
        play(tournament, key, match.side0.player_a, loser_points=match.length - 2)
    # Anna reads the site in Arabic: her profile's language, which outranks any cookie.
    anna = PlayerFactory(user=UserFactory(username="annalee", preferred_language="ar"), display_name="Anna Lee")
    bob = PlayerFactory(user=UserFactory(username="bobstone"), display_name="Bob Stone")
    match = MatchFactory(length=7, side0__player_a=anna, side1__player_a=bob)
    dispute = dispute_open(match_id=match.pk, user=match.side0.player_a.user, category="conduct", statement="Loud.")
    client = Client()
    client.force_login(anna.user)  # her session, handed to the browser
    return {"standings": reverse("tournaments:standings", args=[tournament.pk]), "dispute": f"/rulings/disputes/{dispute.pk}/",
            "session": client.cookies[settings.SESSION_COOKIE_NAME].value}


@pytest.fixture
def olga_organiser():
    return player("olga").user


def test_arabic_standings_and_a_dispute_header_read_as_written_at_390_px(live_server, pages):
    with chromium() as browser:
        page = new_page(browser, live_server.url)
        page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": pages["session"], "url": live_server.url}])
        page.goto(pages["standings"])
        rows = page.evaluate(STANDINGS_JS)
        standings_width = page.evaluate(WIDTH_JS)
        page.goto(pages["dispute"])
        header = page.evaluate(HEADER_JS, ["Anna Lee", "Bob Stone"])
        dispute_width = page.evaluate(WIDTH_JS)
        page.context.close()

    assert standings_width == {"scrollWidth": WIDTH, "dir": "rtl"} or (
        standings_width["dir"] == "rtl" and standings_width["scrollWidth"] <= WIDTH), standings_width
    assert dispute_width["dir"] == "rtl" and dispute_width["scrollWidth"] <= WIDTH, dispute_width

    places = [row["place"]["text"] for row in rows]
    differences = [row["difference"]["text"] for row in rows]
    assert places == ["=1", "=1", "=3", "=3"], places
    assert differences == ["+2", "+2", f"{MINUS}2", f"{MINUS}2"], differences
    for row in rows:
        for figure in (row["place"], row["difference"]):
            # Read left to right inside the right-to-left table: the sign is drawn left of the digit.
            assert figure["direction"] == "ltr" and figure["isolated"] and figure["first"] < figure["last"], figure

    assert header["direction"] == "rtl"
    first, second = header["spans"]
    # Each name stands in its own isolate, on one line, and the first side reads first: on the right.
    assert (first["before"], first["after"], second["before"], second["after"]) == (FSI, PDI, FSI, PDI), header
    assert first["lines"] == second["lines"] == 1, header
    assert first["left"] > second["right"], header


#: The match-length fields the new-event form shows, by name.
SHOWN_JS = """() => [...document.querySelectorAll("input[data-formats]")]
  .filter((input) => input.offsetParent !== null).map((input) => input.name)"""


@pytest.fixture
def organiser_session() -> str:
    client = Client()
    client.force_login(make_organiser())
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def test_the_new_event_form_shows_the_match_lengths_of_the_format_chosen_in_words(live_server, organiser_session):
    with chromium() as browser:
        page = new_page(browser, live_server.url)
        page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": organiser_session,
                                   "url": live_server.url}])
        page.goto(reverse("tournaments:new"))
        elimination = page.evaluate(SHOWN_JS)
        page.get_by_label("Format", exact=True).select_option("swiss")
        swiss = page.evaluate(SHOWN_JS)
        page.get_by_label("Format", exact=True).select_option("double_elimination")
        page.get_by_label("Match lengths of the losers' bracket", exact=True).fill("5 7")
        page.get_by_label("Format", exact=True).select_option("round_robin")
        filled = page.evaluate(SHOWN_JS)
        visible_text = page.locator("form.stacked").inner_text()
        width = page.evaluate(WIDTH_JS)
        page.context.close()

    paid_main = ["payouts_main_pool", "payouts_main_places"]
    paid_flights = [f"payouts_{flight}_{part}" for flight in ("consolation", "last_chance") for part in ("pool", "places")]
    assert elimination == ["lengths_main", "lengths_consolation", "lengths_last_chance", "lengths_playoff",
                           *paid_main, *paid_flights]
    assert swiss == ["lengths_main", "lengths_playoffs", *paid_main]  # a Swiss pays only its placings
    assert filled == ["lengths_main", "lengths_losers", *paid_main]  # a field already filled stays in sight
    assert "Token" not in visible_text  # the hidden token field has no label
    assert width["scrollWidth"] <= WIDTH, width
