"""End to end: a real browser (Debian's Chromium, headless, driven by Playwright) against a live
server. Alice reports her match against Bob, Bob confirms, both see the confirmed result.

Needs /usr/bin/chromium (apt package ``chromium``); Playwright's own browser downloads are never
used. Every browser step has a timeout, and a watchdog ends the run if the driver itself wedges,
so the test cannot hang CI.
"""

import faulthandler
import re
from contextlib import contextmanager
from pathlib import Path

import pytest

from matches.models import Match, Report
from tests.factories import MatchFactory

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
STEP_TIMEOUT_MS = 15_000
WATCHDOG_SECONDS = 180
PASSWORD = "pass-word-123"  # tests.factories.UserFactory's password

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    return MatchFactory(
        length=5,
        side0__player_a__display_name="Alice", side0__player_a__user__username="alice",
        side1__player_a__display_name="Bob", side1__player_a__user__username="bob",
    )


@contextmanager
def chromium():
    """A headless Chromium. Playwright's sync API runs an event loop in this thread, so Django's
    ORM refuses to run inside this block: set up data before it and check the database after."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install -y chromium"
    # If the Playwright driver itself stops answering, its timeouts cannot fire: dump every
    # thread's stack and end the run rather than hang CI.
    faulthandler.dump_traceback_later(WATCHDOG_SECONDS, exit=True)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
                                                 timeout=30_000)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        faulthandler.cancel_dump_traceback_later()


def new_page(browser, base_url: str):
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_TIMEOUT_MS)
    context = browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844})  # a phone
    context.set_default_timeout(STEP_TIMEOUT_MS)
    context.set_default_navigation_timeout(STEP_TIMEOUT_MS)
    return context.new_page()


def sign_in(page, username: str) -> None:
    from playwright.sync_api import expect

    page.goto("/accounts/login/?next=/")  # "/" is the visitors' front page
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My matches")).to_be_visible()


def sign_out(page) -> None:
    from playwright.sync_api import expect

    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()


def test_alice_reports_bob_confirms_and_both_see_the_confirmed_result(live_server, match):
    detail = f"/matches/{match.pk}/"
    with chromium() as browser:
        report_and_confirm(new_page(browser, live_server.url), detail)

    match.refresh_from_db()
    assert (match.status, match.score0, match.score1, match.winner) == (Match.Status.CONFIRMED, 5, 3, 0)
    assert sorted(match.reports.values_list("status", flat=True)) == [Report.Status.AGREED, Report.Status.CONFIRMED]


def report_and_confirm(page, detail: str) -> None:
    from playwright.sync_api import expect

    sign_in(page, "alice")
    page.get_by_role("link", name="Alice v Bob").click()
    expect(page).to_have_url(re.compile(re.escape(detail) + "$"))
    page.get_by_label("Alice's score").fill("5")
    page.get_by_label("Bob's score").fill("3")
    page.get_by_role("button", name="Report result").click()
    expect(page.get_by_role("status")).to_contain_text("Your report of 5-3 is saved; waiting for Bob to confirm.")
    expect(page.locator(".status")).to_have_text("Reported, awaiting confirmation")
    sign_out(page)

    sign_in(page, "bob")
    expect(page.get_by_text("1 match waiting for your confirmation")).to_be_visible()
    row = page.locator("tr.waiting")
    expect(row).to_contain_text("Waiting for your confirmation")
    row.get_by_role("link", name="Alice v Bob").click()
    expect(page.get_by_role("heading", name="Alice reported 5-3")).to_be_visible()
    page.get_by_role("button", name="Confirm 5-3").click()
    expect(page.get_by_role("status")).to_contain_text("Result confirmed: 5-3.")
    expect(page.locator(".status")).to_have_text("Confirmed")
    expect(page.locator("dd.score")).to_have_text("5-3 (Alice wins)")
    sign_out(page)

    sign_in(page, "alice")
    expect(page.locator("tr.waiting")).to_have_count(0)
    page.goto(detail)
    expect(page.locator(".status")).to_have_text("Confirmed")
    expect(page.locator("dd.score")).to_have_text("5-3 (Alice wins)")
    page.context.close()
