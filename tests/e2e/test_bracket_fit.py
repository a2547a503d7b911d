"""End to end: brackets that fit the window, in a real browser (see test_report_flow for its set-up)
at 390, 1280 and 1920 px, in English and Arabic: the bracket page, the projector, the embedded bracket and a round robin's
standings with its crosstable are never wider than the window (the drawing zooms or scrolls in its
own box); the zoom buttons and keys work; the projector's drawing fits the screen whole.

Needs /usr/bin/chromium. The screenshots go to ``E2E_SCREENSHOT_DIR``, or to a new temporary
folder; each path is printed (``pytest -s`` shows them).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from django.urls import reverse

from tests.e2e.test_report_flow import STEP_TIMEOUT_MS, chromium
from tests.tournaments.factories import drawn, play, player
from tournaments.models import Pairing, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 1280, 1920)

WIDTH_JS = """() => ({scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth})"""
SVG_JS = """(box) => {
  const svg = box.querySelector("svg").getBoundingClientRect(), own = box.getBoundingClientRect();
  return {svg: svg.width, svgHeight: svg.height, svgBottom: svg.bottom, box: box.clientWidth, boxRight: own.right,
          natural: parseFloat(box.querySelector("svg").getAttribute("width")), innerHeight: window.innerHeight};
}"""


@pytest.fixture
def events() -> dict[str, str]:
    players = [player(f"Fit{i}", 2000.0 - 10 * i) for i in range(1, 17)]
    bracket, _ = drawn(16, players=players, consolation_rounds=1)
    for pairing in Pairing.objects.filter(tournament=bracket, round_number=1, flight="main",
                                          match__isnull=False).select_related("match__side0__player_a"):
        play(bracket, pairing.key, pairing.match.side0.player_a)
    league, _ = drawn(5, players=[player(f"Robin{i}", 1800.0 - i) for i in range(1, 6)],
                      format=Tournament.Format.ROUND_ROBIN)
    return {
        "bracket": reverse("tournaments:bracket", args=[bracket.pk]),
        "projector": reverse("tournaments:projector", args=[bracket.pk]) + "?seconds=600",
        "embed": reverse("tournaments:embed_bracket", args=[bracket.pk]),
        "standings": reverse("tournaments:standings", args=[league.pk]),
        "rounds": reverse("tournaments:rounds", args=[league.pk]),
    }


def screenshot_folder() -> Path:
    folder = Path(os.environ.get("E2E_SCREENSHOT_DIR") or tempfile.mkdtemp(prefix="crawford-brackets-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_bracket_pages_fit_every_width_and_zoom(live_server, events):
    from playwright.sync_api import expect

    folder = screenshot_folder()
    problems, zoomed = [], {}
    with chromium() as browser:
        for width in WIDTHS:
            context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": 900})
            context.set_default_timeout(STEP_TIMEOUT_MS)
            page = context.new_page()
            expect.set_options(timeout=STEP_TIMEOUT_MS)
            for language in ("ar", "en"):  # right to left too; English last, for the zoom below
                page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
                for name, url in events.items():
                    page.goto(url)
                    page.wait_for_load_state("load")
                    path = folder / f"{name}-{language}-{width}.png"
                    page.screenshot(path=str(path), full_page=name != "projector")
                    print(f"screenshot: {path}")
                    found = page.evaluate(WIDTH_JS)
                    if found["scrollWidth"] > found["innerWidth"]:
                        problems.append((name, language, width, found))
                    if name == "projector":
                        fit = page.locator(".projector-bracket").evaluate(SVG_JS)
                        # The whole flight on the screen: no wider than its box, no lower than the window.
                        if fit["svg"] > fit["box"] + 1 or fit["svgBottom"] > fit["innerHeight"] + 1:
                            problems.append((name, language, width, "drawing off the screen", fit))
            # The zoom of the bracket page: its buttons, then its keys.
            page.goto(events["bracket"])
            tools = page.locator(".bracket-tools").first
            expect(tools).to_be_visible()
            box = page.locator(".bracket-scroll").first
            before = box.evaluate(SVG_JS)
            tools.get_by_role("button", name="Zoom in").click()
            after_in = box.evaluate(SVG_JS)
            tools.get_by_role("button", name="Fit to width").click()
            fitted = box.evaluate(SVG_JS)
            tools.get_by_role("button", name="Actual size").click()
            actual = box.evaluate(SVG_JS)
            box.focus()
            page.keyboard.press("-")
            after_key = box.evaluate(SVG_JS)
            zoomed[width] = (before, after_in, fitted, actual, after_key)
            if page.evaluate(WIDTH_JS)["scrollWidth"] > width:
                problems.append(("bracket zoomed", width, page.evaluate(WIDTH_JS)))
            context.close()
    assert problems == []
    for width, (before, after_in, fitted, actual, after_key) in zoomed.items():
        assert after_in["svg"] > before["svg"], width
        assert abs(fitted["svg"] - fitted["box"]) <= 1, width
        assert abs(actual["svg"] - actual["natural"]) <= 1, width
        assert after_key["svg"] < actual["svg"], width
        # Where the flight fits at its own size it is shown whole; on a phone it stays readable (80%).
        if before["natural"] <= before["box"]:
            assert abs(before["svg"] - before["natural"]) <= 1, width
        else:
            assert before["svg"] >= 0.8 * before["natural"] - 1 or abs(before["svg"] - before["box"]) <= 1, width
