"""End to end: a dispute from the match page to the appeal's decision, in a real browser against a
live server (see test_report_flow for the browser's set-up). Alice opens a dispute about Bob's
conduct, Otto (the director) warns Bob, Bob appeals, Otto names the committee, two of its members
vote to overturn, and Alice sees the decision.
"""

import re

import pytest

from rulings.models import Appeal, Dispute, Ruling
from tests.e2e.test_report_flow import chromium, new_page, sign_in, sign_out
from tests.factories import MatchFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    for name in ("jon", "kim", "lee"):
        UserFactory(username=name)
    return MatchFactory(
        length=5, organiser__username="otto",
        side0__player_a__display_name="Alice", side0__player_a__user__username="alice",
        side1__player_a__display_name="Bob", side1__player_a__user__username="bob",
    )


def test_a_dispute_is_ruled_appealed_and_overturned_by_the_committee(live_server, match):
    with chromium() as browser:
        dispute_to_decision(new_page(browser, live_server.url), f"/matches/{match.pk}/")

    dispute = Dispute.objects.get()
    ruling = Ruling.objects.get()
    appeal = Appeal.objects.get()
    assert (dispute.category, dispute.status, dispute.opened_by.username) == ("conduct", "decided", "alice")
    assert (ruling.outcome, ruling.params, ruling.status) == ("warning", {"side": 1}, "overturned")
    assert (appeal.appellant.username, appeal.decision) == ("bob", "overturn")
    assert sorted(appeal.votes.values_list("member__username", flat=True)) == ["jon", "kim"]


def dispute_to_decision(page, detail: str) -> None:
    from playwright.sync_api import expect

    sign_in(page, "alice")
    page.goto(detail)
    page.get_by_role("link", name="Open a dispute", exact=True).click()
    page.get_by_label("Category").select_option("conduct")
    page.get_by_label("What happened").fill("Bob rolled before I had picked up my dice, twice.")
    page.get_by_role("button", name="Open the dispute").click()
    expect(page.get_by_role("status")).to_contain_text("Your dispute is open")
    expect(page.locator(".status")).to_have_text("Open, awaiting a ruling")
    dispute_url = re.sub(r"^https?://[^/]+", "", page.url)
    sign_out(page)

    sign_in(page, "otto")
    page.goto("/rulings/")
    page.get_by_role("link", name="Conduct").click()
    # The form shows only the details of the chosen outcome (static/rulings.js).
    page.get_by_label("Outcome").select_option("penalty_points")
    expect(page.get_by_label("Penalty points")).to_be_visible()
    page.get_by_label("Outcome").select_option("warning")
    expect(page.get_by_label("Penalty points")).to_be_hidden()
    expect(page.get_by_label("Corrected play")).to_be_hidden()
    page.get_by_label("Side", exact=True).select_option("1")
    page.get_by_label("Rule applied").fill("RULES 9: conduct, a warning")
    page.get_by_label("Reasoning").fill("A premature roll, twice.")
    page.get_by_role("button", name="Record the ruling").click()
    expect(page.get_by_role("status")).to_contain_text("Ruling recorded: Bob is warned.")
    sign_out(page)

    sign_in(page, "bob")
    page.goto(dispute_url)
    expect(page.get_by_text("You may appeal until")).to_be_visible()
    page.get_by_label("Why the ruling is wrong").fill("She had picked them up both times.")
    page.get_by_role("button", name="Lodge the appeal").click()
    expect(page.get_by_role("status")).to_contain_text("Your appeal is lodged")
    appeal_url = re.sub(r"^https?://[^/]+", "", page.url)
    sign_out(page)

    sign_in(page, "otto")
    page.goto(appeal_url)
    page.get_by_label("Committee members", exact=True).fill("jon, kim, lee")  # usernames, as ever
    page.get_by_role("button", name="Name the committee").click()
    expect(page.locator("ul.committee li")).to_have_count(3)
    sign_out(page)

    for member in ("jon", "kim"):
        sign_in(page, member)
        page.goto(appeal_url)
        page.get_by_label("Decision").select_option("overturn")
        page.get_by_role("button", name="Vote").click()
        expect(page.get_by_role("status")).to_contain_text("Your vote is recorded.")
        sign_out(page)

    sign_in(page, "alice")
    page.goto(appeal_url)
    expect(page.locator("dd.decision")).to_contain_text("Ruling overturned")
    expect(page.get_by_role("heading", name="Votes")).to_have_count(0)
    page.context.close()
