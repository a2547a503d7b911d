"""End to end: Alice reports her match against Bob with the game logs; Bob, in a real browser, reads
the reported games on the confirm form, steps through the reported board move by move and to
another game, then confirms. The harness (Debian's Chromium, timeouts, watchdog) is
tests/e2e/test_report_flow.py's."""

import re

import pytest

from engine.scores import capped_score
from matches.models import Match
from matches.services.logs import log_from_json
from matches.services.reporting import Draft, match_report
from tests.e2e.test_report_flow import chromium, new_page, sign_in
from tests.factories import MatchFactory
from tests.matches.factories_api import json_games

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEED = 1  # a 5-point random match of seven games


@pytest.fixture
def reported():
    match = MatchFactory(
        length=5,
        side0__player_a__display_name="Alice", side0__player_a__user__username="alice",
        side1__player_a__display_name="Bob", side1__player_a__user__username="bob",
    )
    games = json_games(5, SEED)
    # The result as it is shown and stored: capped at the match length (the log's full score kept).
    score = capped_score(match.length, log_from_json(games, match.rules()).final_score)
    match_report(match_id=match.pk, user=match.side0.player_a.user, claim=Draft(tuple(score), games))
    return match, score, len(games)


def test_bob_steps_through_the_reported_board_then_confirms(live_server, reported):
    match, score, count = reported
    detail = f"/matches/{match.pk}/"
    shown = f"{score[0]}-{score[1]}"
    with chromium() as browser:
        page = new_page(browser, live_server.url)
        step_and_confirm(page, detail, shown, count)

    match.refresh_from_db()
    assert (match.status, match.score0, match.score1) == (Match.Status.CONFIRMED, *score)
    assert match.games.count() == count


def step_and_confirm(page, detail: str, shown: str, count: int) -> None:
    from playwright.sync_api import expect

    sign_in(page, "bob")
    page.goto(detail)
    expect(page.get_by_role("heading", name=f"Alice reported {shown}")).to_be_visible()
    games = page.locator("ol.reported-games li")
    expect(games).to_have_count(count)
    expect(games.first).to_contain_text("Game 1: ")
    board = page.locator("#report-board")
    expect(board).to_contain_text("Game 1, moment 0 of")
    first_id = board.locator("code").inner_text()

    stepper = page.get_by_role("navigation", name="Step through the reported game")
    stepper.locator('a[rel="next"]').click()
    expect(page).to_have_url(re.compile(r"report_game=1&report_moment=1#report-board$"))
    expect(page.locator("#report-board")).to_contain_text("Game 1, moment 1 of")
    stepper.locator('a[rel="next"]').click()
    expect(page.locator("#report-board")).to_contain_text("Game 1, moment 2 of")
    # Two moments on, a play has been made: the position is no longer the start's.
    expect(page.locator("#report-board code")).not_to_have_text(first_id)
    stepper.locator('a[rel="prev"]').click()
    expect(page.locator("#report-board")).to_contain_text("Game 1, moment 1 of")

    page.locator("ol.reported-games li").nth(1).get_by_role("link").click()
    expect(page.locator("#report-board")).to_contain_text("Game 2, moment 0 of")
    expect(page.locator("ol.reported-games li").nth(1)).to_have_attribute("aria-current", "true")
    stepper.get_by_role("link", name="End »").click()
    expect(page.locator("#report-board .next-action")).to_contain_text("end of game 2")

    page.get_by_role("button", name=f"Confirm {shown}").click()
    expect(page.locator("ul.messages")).to_contain_text(f"Result confirmed: {shown}.")
    expect(page.locator(".status")).to_have_text("Confirmed")
    expect(page.locator("ol.reported-games")).to_have_count(0)
    page.context.close()
