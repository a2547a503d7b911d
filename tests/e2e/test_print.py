"""End to end: the bracket page printed by Chromium (print media, saved as PDF with Playwright):
the site's header, navigation, language switcher, forms and the links to the printed sheets are
not printed, the page is black on white, the bracket shrinks to the paper's width instead of
scrolling, and the PDF holds the event's name and its players, with no link's address printed.

Needs /usr/bin/chromium (see test_report_flow for the browser's set-up)."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.e2e.test_report_flow import chromium, new_page
from tests.tournaments.factories import make_organiser
from tests.tournaments.test_paper import _first_round_names, big_event

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PRINTED_JS = """() => {
  const shown = (selector) => [...document.querySelectorAll(selector)].some((el) => getComputedStyle(el).display !== "none");
  const svg = document.querySelector(".bracket-scroll svg").getBoundingClientRect();
  return {header: shown("header.site"), nav: shown("nav.event-nav"), paper: shown(".paper-links"),
          forms: shown("form"), buttons: shown("button"), background: getComputedStyle(document.body).backgroundColor,
          colour: getComputedStyle(document.querySelector("h1")).color, svgWidth: svg.width,
          pageWidth: document.documentElement.clientWidth};
}"""


def test_the_bracket_page_prints_its_content_only_black_on_white_and_whole(live_server):
    tournament = big_event(make_organiser(), 16)
    names = _first_round_names(tournament)
    url = reverse("tournaments:bracket", args=[tournament.pk])
    with chromium() as browser:
        page = new_page(browser, live_server.url)
        page.goto(url)
        page.emulate_media(media="print")
        printed = page.evaluate(PRINTED_JS)
        pdf = page.pdf(format="A4", landscape=True, print_background=True)
    assert not printed["header"] and not printed["nav"] and not printed["paper"]
    assert not printed["forms"] and not printed["buttons"]
    assert printed["background"] in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    assert printed["colour"] == "rgb(0, 0, 0)"
    assert printed["svgWidth"] <= printed["pageWidth"] + 1  # shrunk to the paper, not cut
    reader = PdfReader(io.BytesIO(pdf))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert tournament.name in text
    assert "Sign in" not in text and "Language" not in text and "Print the draw sheet" not in text
    assert "/events/" not in text and "http" not in text  # no link's address printed
    latin = [n for n in names if n.isascii()]
    assert latin and all(n in text for n in latin)
