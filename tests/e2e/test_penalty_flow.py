"""End to end (penalty points, RULES.md §9 and §5): the director opens a 5-point match at 3-3,
gives one side a penalty point from the match page, and sees the score become 4-3 and the next
game marked as the Crawford game."""

import re

import pytest

from matches.models import Match, MatchPenalty
from matches.services.penalties import match_penalty_give
from tests.e2e.test_report_flow import chromium, new_page, sign_in
from tests.factories import MatchFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    match = MatchFactory(
        length=5, status=Match.Status.IN_PLAY, organiser__username="otto",
        side0__player_a__display_name="Alice", side0__player_a__user__username="alice",
        side1__player_a__display_name="Bob", side1__player_a__user__username="bob",
    )
    # Earlier in the match, at 2-3, Bob came back late from a break: 3-3.
    match_penalty_give(match.pk, 1, 1, "late", match.organiser, score=(2, 3))
    return match


def test_rules_9_a_mid_match_penalty_point_from_the_directors_page_moves_the_crawford_game(live_server, match):
    from playwright.sync_api import expect

    with chromium() as browser:
        page = new_page(browser, live_server.url)
        sign_in(page, "otto")
        page.goto(f"/matches/{match.pk}/")
        section = page.locator("#penalties")
        expect(section.locator(".penalty-standing")).to_contain_text("3-3")
        expect(section.locator(".crawford-next")).to_have_count(0)
        form = section.locator("form.penalty-form")
        expect(form.get_by_label("Score of Alice as it stands")).to_have_value("3")
        expect(form.get_by_label("Score of Bob as it stands")).to_have_value("3")
        form.get_by_label("Penalised player").select_option(label="Bob")
        form.get_by_label("Penalty points").fill("1")
        form.get_by_label("Why").select_option("slow_play")
        form.get_by_role("button", name="Give penalty points").click()
        expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/#penalties$"))
        expect(page.get_by_role("status")).to_contain_text("the score is 4-3; the next game is the Crawford game")
        expect(section.locator(".penalty-standing")).to_contain_text("4-3")
        expect(section.locator(".crawford-next")).to_have_text("The next game is the Crawford game.")
        expect(section.locator(".penalty-list li")).to_have_count(2)
        page.context.close()

    last = MatchPenalty.objects.filter(match=match).last()
    assert (last.side, last.score_before, last.score_after, last.crawford_next) == (1, (3, 3), (4, 3), True)
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY
