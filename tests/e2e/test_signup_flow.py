"""End to end: a real browser (Debian's Chromium, headless, driven by Playwright; the launch
arguments, step timeouts and watchdog of test_report_flow) against a live server. A newcomer signs
up, follows the verification link of the email (the test reads Django's in-memory outbox: the
live server sends through the task outbox, run at once as a worker would), signs in with his email
address, enters an open event; once the organiser has made the draw, he reports his first match.

Needs /usr/bin/chromium (apt package ``chromium``); Playwright's own browser downloads are never
used. Set ``E2E_SCREENSHOT_DIR`` to keep screenshots of the sign-up, verification, sign-in and
account pages.
"""

from __future__ import annotations

import re
import time

import pytest
from django.core import mail

from accounts.models import User
from matches.models import Match, Player, Report
from tests.e2e.test_report_flow import chromium, new_page
from tests.e2e.test_tournament_flow import screenshot
from tests.factories import TournamentFactory
from tests.matches.factories_ratings import run_tasks_inline
from tests.tournaments.factories import enter, make_organiser, player
from tournaments.models import Entry, Tournament
from tournaments.services import entry_check_in, tournament_close_entries, tournament_draw

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-and-good-password"
EMAIL = "isaac@example.org"


def wait_for_email(count: int, seconds: float = 15) -> None:
    """Until the outbox holds ``count`` emails (the live server's thread sends them after its commit)."""
    deadline = time.monotonic() + seconds
    while len(mail.outbox) < count:
        assert time.monotonic() < deadline, f"{count} email(s) expected, {len(mail.outbox)} sent"
        time.sleep(0.05)


def sign_in_by_email(page) -> None:
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    screenshot(page, "signin.png")
    page.get_by_label("Username or email").fill(EMAIL)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My matches")).to_be_visible()


def test_a_newcomer_signs_up_verifies_enters_an_open_event_and_reports_his_match(live_server, monkeypatch):
    run_tasks_inline(monkeypatch)
    mail.outbox.clear()
    olga = make_organiser()
    event = TournamentFactory(name="Friday open", organiser=olga, status=Tournament.Status.OPEN)
    enter(event, [player("Gottfried")], checked_in=False)

    with chromium() as browser:
        page = new_page(browser, live_server.url)
        signs_up_and_verifies(page)
        sign_in_by_email(page)
        enters(page, event)
        page.context.close()

    newton = User.objects.get(username="newton")
    assert Player.objects.get(user=newton).display_name == "Isaac Newton"
    assert Entry.objects.filter(tournament=event, side__player_a__user=newton).exists()

    tournament_close_entries(tournament_id=event.pk, user=olga)
    for entry in Entry.objects.filter(tournament=event):
        entry_check_in(tournament_id=event.pk, entry_id=entry.pk, user=olga)
    tournament_draw(tournament_id=event.pk, user=olga)
    match = Match.objects.get(pairing__tournament=event)

    with chromium() as browser:
        page = new_page(browser, live_server.url)
        sign_in_by_email(page)
        reports(page, match.pk)
        page.context.close()

    report = Report.objects.get(match=match)
    newton_side = 0 if match.side0.player_a.user_id == newton.pk else 1
    assert report.reporter == newton and (report.score0, report.score1)[newton_side] == 5
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED


def signs_up_and_verifies(page) -> None:
    from playwright.sync_api import expect

    page.goto("/accounts/login/?next=/")  # "/" is the visitors' front page
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    screenshot(page, "signup.png")
    page.get_by_label("Username", exact=True).fill("newton")
    page.get_by_label("Display name").fill("Isaac Newton")
    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()

    wait_for_email(1)
    assert mail.outbox[0].to == [EMAIL]
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", mail.outbox[0].body).group(1)
    page.goto(link)
    expect(page.get_by_text(f"Is {EMAIL} your email address?")).to_be_visible()
    screenshot(page, "verify.png")
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("status")).to_contain_text(f"{EMAIL} is confirmed.")


def enters(page, event: Tournament) -> None:
    from playwright.sync_api import expect

    page.goto(f"/events/{event.pk}/")
    expect(page.get_by_role("heading", name="Friday open")).to_be_visible()
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("status")).to_contain_text("You are entered. Check in when the entries close.")
    page.goto("/accounts/email/")
    screenshot(page, "account.png")


def reports(page, match_id: int) -> None:
    from playwright.sync_api import expect

    page.goto(f"/matches/{match_id}/")
    page.get_by_label("Isaac Newton's score").fill("5")
    page.get_by_label("Gottfried's score").fill("2")
    page.get_by_role("button", name="Report result").click()
    # The score reads in the match's side order, which the draw decides.
    expect(page.get_by_role("status")).to_contain_text(
        re.compile(r"Your report of (5-2|2-5) is saved; waiting for Gottfried to confirm\."))
