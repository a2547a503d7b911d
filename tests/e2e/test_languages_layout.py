"""End to end: the pages a player reads at the table, in a real browser (see test_report_flow for
the browser's set-up), in English, Arabic and Korean, on a phone (390 px) and a desktop (1280 px):
the demo's finished bracket, a match from a real match file stepped to a moment of its first game,
a dispute about that moment and the demo's chouette table.

In Arabic the page reads right to left (``dir="rtl"``) and its layout mirrors; in Korean and
English it reads left to right. In every language nothing is wider than the window (only the
bracket scrolls sideways, in its own container), and the board and the bracket are never mirrored:
they stay as a player sees them, point 1 where it is in English and the first round on the left.

Needs /usr/bin/chromium (apt package ``chromium``). The screenshots go to ``E2E_SCREENSHOT_DIR``, or
to a new temporary folder; each path is printed (``pytest -s`` shows them).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from django.urls import reverse

from demo.people import DEMO_PASSWORD, ORGANISER_USERNAME
from demo.services import demo_data_load
from matches.models import Game
from rulings.services.disputes import dispute_open
from tests.demo.helpers import copy_small
from tests.e2e.test_report_flow import STEP_TIMEOUT_MS, chromium

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"en": "ltr", "ar": "rtl", "ko": "ltr"}
WIDTHS = (390, 1280)

#: For every element whose box passes the window's sides: its tag, class and box, unless it sits in a
#: container that scrolls or clips sideways (the bracket's own scroller) or is hidden for sight.
OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const clipped = (el) => {
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(node).overflowX)) return true;
    }
    return false;
  };
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || el.closest(".visually-hidden")) continue;
    if ((box.left < -0.5 || box.right > width + 0.5) && !clipped(el)) {
      out.push(`${el.tagName.toLowerCase()}.${el.getAttribute("class") || ""} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  return {scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth, width, out: out.slice(0, 10)};
}"""

#: Where point 1's and point 12's numbers sit across the board (0: its left edge, 1: its right edge).
BOARD_JS = """(board) => {
  const box = board.getBoundingClientRect();
  const at = (n) => {
    const label = [...board.querySelectorAll("text.point-number")].find((t) => t.textContent === String(n));
    const b = label.getBoundingClientRect();
    return (b.left + b.width / 2 - box.left) / box.width;
  };
  return {direction: getComputedStyle(board.closest(".board-view")).direction, one: at(1), twelve: at(12)};
}"""

#: The rating chart's direction and where its value labels end (they are anchored at their end).
CHART_JS = """(figure) => {
  const svg = figure.querySelector("svg").getBoundingClientRect();
  return {direction: getComputedStyle(figure).direction,
          rights: [...figure.querySelectorAll("text.tick-y")].map((t) => t.getBoundingClientRect().right - svg.left)};
}"""

#: The bracket's round names from left to right as drawn, and its scroller's direction and position.
BRACKET_JS = """(scroller) => {
  const names = [...scroller.querySelectorAll("text.round-name")].map((t) => t.getBoundingClientRect())
    .map((box) => [box.left, box.right]);
  const svg = scroller.querySelector("svg").getBoundingClientRect();
  return {direction: getComputedStyle(scroller).direction, scrollLeft: scroller.scrollLeft,
          lefts: names.map((n) => n[0] - svg.left),
          inside: names.every((n) => n[0] >= svg.left - 0.5 && n[1] <= svg.right + 0.5)};
}"""


@pytest.fixture
def pages(tmp_path) -> dict[str, str]:
    """The demo (with three real match files) and a dispute about a moment of a file match's first
    game; the pages' addresses (the fifth: a player of that match, with his rating chart)."""
    folder = tmp_path / "mat"
    folder.mkdir()
    loaded = demo_data_load(folder=copy_small(folder))
    game = Game.objects.filter(match__in=loaded.matches, number=1).order_by("match_id").first()
    match = game.match
    party = match.side0.player_a.user
    dispute = dispute_open(match_id=match.pk, user=party, category="illegal_move",
                           statement="The play 13/7 8/7 was not legal here.", game_number=1, move_number=4)
    bracket_event = next(t for t in loaded.tournaments if t.format == "single_elimination")
    session = loaded.chouette_demo.session
    return {
        "bracket": reverse("tournaments:bracket", args=[bracket_event.pk]),
        "match": f"{reverse('matches:detail', args=[match.pk])}?game=1&moment=3#board",
        "dispute": f"/rulings/disputes/{dispute.pk}/",
        "chouette": reverse("chouette:table", args=[session.club.slug, session.pk]),
        "player": reverse("matches:player", args=[match.side0.player_a.pk]),
    }


def screenshot_folder() -> Path:
    return Path(os.environ.get("E2E_SCREENSHOT_DIR") or tempfile.mkdtemp(prefix="crawford-languages-"))


def signed_in_page(browser, base_url: str, width: int):
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_TIMEOUT_MS)
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": 844})
    context.set_default_timeout(STEP_TIMEOUT_MS)
    context.set_default_navigation_timeout(STEP_TIMEOUT_MS)
    page = context.new_page()
    page.goto("/accounts/login/?next=/")  # "/" is the visitors' front page
    page.get_by_label("Username").fill(ORGANISER_USERNAME)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My matches")).to_be_visible()
    return page


def test_every_language_lays_out_the_players_pages_without_overflow_and_never_mirrors_the_board(live_server, pages):
    folder = screenshot_folder()
    seen: dict[tuple[str, int, str], dict] = {}
    with chromium() as browser:
        for width in WIDTHS:
            page = signed_in_page(browser, live_server.url, width)
            for language in LANGUAGES:
                # Django's LANGUAGE_COOKIE_NAME: the language a visitor chose, before Accept-Language.
                page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
                for name, url in pages.items():
                    page.goto(url)
                    page.wait_for_load_state("load")
                    path = folder / f"{name}-{language}-{width}.png"
                    page.screenshot(path=str(path), full_page=True)
                    print(f"screenshot: {path}")
                    seen[(language, width, name)] = measure(page, name)
            page.context.close()

    problems = [problem for (language, width, name), found in seen.items()
                for problem in check(found, seen[("en", width, name)], f"{name} in {language} at {width} px", language)]
    assert problems == []


def check(found: dict, english: dict, where: str, language: str) -> list:
    """What is wrong with one render, compared with the same page in English at the same width."""
    problems = []
    if (found["lang"], found["dir"]) != (language, LANGUAGES[language]):
        problems.append((where, "lang and dir", found["lang"], found["dir"]))
    overflow = found["overflow"]
    if overflow["scrollWidth"] > overflow["innerWidth"] or overflow["out"]:
        problems.append((where, "wider than the window", overflow))
    if "board" in found:
        board = found["board"]
        # The viewer's home board is bottom right: point 1 on the right, point 12 on the left, as in English.
        if not (board["direction"] == "ltr" and board["one"] > 0.75 and board["twelve"] < 0.25
                and abs(board["one"] - english["board"]["one"]) < 0.01):
            problems.append((where, "board mirrored", board, english["board"]))
    if "chart" in found:
        chart, english_rights = found["chart"], english["chart"]["rights"]
        if not (chart["direction"] == "ltr" and chart["rights"] and len(chart["rights"]) == len(english_rights)
                and all(abs(a - b) < 1 for a, b in zip(chart["rights"], english_rights, strict=True))):
            problems.append((where, "chart mirrored", chart, english["chart"]))
    if "bracket" in found:
        bracket = found["bracket"]
        lefts, english_lefts = bracket["lefts"], english["bracket"]["lefts"]
        if not ((bracket["direction"], bracket["scrollLeft"], bracket["inside"]) == ("ltr", 0, True)
                and len(lefts) >= 3 and lefts == sorted(lefts)
                and len(lefts) == len(english_lefts)
                and all(abs(a - b) < 1 for a, b in zip(lefts, english_lefts, strict=True))):
            problems.append((where, "bracket mirrored", bracket, english["bracket"]))
    return problems


def measure(page, name: str) -> dict:
    """What the page shows of its direction, its width and (where it has them) its board and bracket."""
    found = {
        "lang": page.evaluate("document.documentElement.lang"),
        "dir": page.evaluate("document.documentElement.dir"),
        "overflow": page.evaluate(OVERFLOW_JS),
    }
    if name in ("match", "dispute"):
        found["board"] = page.locator(".board-view svg.board").first.evaluate(BOARD_JS)
    if name == "player":
        found["chart"] = page.locator("figure.rating-chart").evaluate(CHART_JS)
    if name == "bracket":
        found["bracket"] = page.locator(".bracket-scroll").first.evaluate(BRACKET_JS)
    return found
