"""End to end, a match's analysis: a real 3-point match (../shared/data/mat), reported with its file and
confirmed through the services, analysed at 0-ply in process; its page shows both sides' PR, and a
visitor steps with "Next blunder" to each blunder the stepper marks, reading the best play and the
equity lost. In Arabic, on a phone (390 px), the page reads right to left and nothing is wider than
the window.

Needs /usr/bin/chromium. The screenshots go to ``E2E_SCREENSHOT_DIR``, or to a new temporary folder
(``pytest -s`` prints each path).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest

from analysis.services import match_analysis_request, match_analysis_run
from tests.analysis.conftest import confirm_with_file
from tests.analysis.test_pages import catalogs as catalogs
from tests.e2e.test_languages_layout import OVERFLOW_JS
from tests.e2e.test_report_flow import chromium, new_page
from tests.matches.factories_api import make_cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def analysed():
    """The cast's 3-point match with a real file's games, analysed at 0-ply; its row and blunders."""
    cast = make_cast(length=3)
    confirm_with_file(cast.match, cast.alice, cast.bob)
    match_analysis_request(cast.match, actor=cast.organiser, plies=0)
    row = match_analysis_run(cast.match.pk)
    assert row.status == "done"
    blunders = [(game["number"], d) for game in row.result["games"] for d in game["decisions"]
                if d["mark"] == "blunder"]
    assert len(blunders) >= 2
    return cast.match, row, blunders


@pytest.mark.usefixtures("catalogs")
def test_a_visitor_reads_both_prs_and_steps_to_each_marked_blunder(live_server, analysed):
    from playwright.sync_api import expect

    match, row, blunders = analysed
    folder = Path(os.environ.get("E2E_SCREENSHOT_DIR") or tempfile.mkdtemp(prefix="crawford-analysis-"))
    with chromium() as browser:
        page = new_page(browser, live_server.url)
        page.goto(f"/matches/{match.pk}/")
        sides = page.locator("table.analysis-sides tbody tr")
        expect(sides).to_have_count(2)
        expect(sides.nth(0).locator("th")).to_have_text("Alice")
        expect(sides.nth(0).locator("td.pr")).to_have_text(f"{row.pr0:.2f}")
        expect(sides.nth(1).locator("th")).to_have_text("Bob")
        expect(sides.nth(1).locator("td.pr")).to_have_text(f"{row.pr1:.2f}")
        expect(page.locator(".analysis-depth")).to_contain_text("0-ply")

        stepper = page.get_by_role("navigation", name="Step through the game")
        for number, decision in blunders[:2]:
            stepper.get_by_role("link", name="Next blunder").click()
            expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/\?game={number}&moment={decision['index']}#board$"))
            mark = page.locator(".move-mark-blunder")
            expect(mark).to_have_count(1)
            expect(mark).to_contain_text(f"best {decision['best']}")
            expect(mark).to_contain_text(f"equity lost {decision['loss']:.3f}")
            expect(mark).to_contain_text(f"played {decision['played']}")
        expect(stepper.get_by_role("link", name="Previous blunder")).to_be_visible()
        page.screenshot(path=str(folder / "analysis-blunder-en-390.png"), full_page=True)

        # Arabic, on the phone: right to left, the section and the mark in Arabic, nothing overflows.
        page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
        number, decision = blunders[1]
        # (Not the address shown, which a goto would only scroll to: the page is asked for again.)
        page.goto(f"/matches/{match.pk}/?game={number}&moment={decision['index']}")
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        expect(page.locator("#analysis-title")).to_have_text("تحليل GNU Backgammon")
        expect(page.locator(".move-mark-blunder")).to_contain_text("خطأ فادح")
        expect(page.get_by_role("link", name=re.compile("الخطأ الفادح السابق"))).to_be_visible()
        path = folder / "analysis-blunder-ar-390.png"
        page.screenshot(path=str(path), full_page=True)
        print(f"screenshot: {path}")
        found = page.evaluate(OVERFLOW_JS)
        assert found["scrollWidth"] <= found["innerWidth"], found
        assert found["out"] == [], found
        page.context.close()
