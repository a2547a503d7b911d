"""End to end: a director runs a 16-player Swiss of 4 rounds from the round desk only, in a real
browser (Debian's Chromium, headless, driven by Playwright; see test_report_flow for the set-up):
she pastes the 16 entrants (8 known players, 8 new guests), checks them all in, makes the draw, and
for each round numbers the tables, enters every result in the grid with the keyboard alone (the
first score has the focus; type, Tab, type, Enter) and starts the next round; then she corrects one
result, seeing the confirmation step first. The desk is photographed at 1280 and 390 px (under the
test's temporary folder, or ``E2E_SCREENSHOT_DIR``), and at 390 px, in English and in Arabic (right to
left), nothing is wider than the window. Meanwhile a visitor, in a second browser context, watches
each round's page: every result the desk confirms appears on it without a reload (static/js/live.js).

Needs /usr/bin/chromium (apt package ``chromium``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse

from matches.models import Match, Player
from tests.e2e.test_languages_layout import OVERFLOW_JS
from tests.e2e.test_report_flow import STEP_TIMEOUT_MS, chromium, sign_in
from tests.tournaments.factories import cast, closed, make_organiser
from tournaments.models import Entry, Pairing, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LENGTH = 5
GUESTS = ["Ana Ionescu", "Ben Okafor", "Chen Wei", "Dara Murphy", "Eli Cohen", "Femi Adeyemi", "Gus Berg",
          "Hana Sato"]


def folder(tmp_path: Path) -> Path:
    return Path(os.environ.get("E2E_SCREENSHOT_DIR") or tmp_path)


def page_at(browser, base_url: str, width: int):
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_TIMEOUT_MS)
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": 900})
    context.set_default_timeout(STEP_TIMEOUT_MS)
    context.set_default_navigation_timeout(STEP_TIMEOUT_MS)
    return context.new_page()


def test_a_director_runs_a_sixteen_player_swiss_of_four_rounds_from_the_round_desk(live_server, tmp_path):
    from playwright.sync_api import expect

    olga = make_organiser()
    known = cast(8)
    tournament = closed(organiser=olga, name="Desk Swiss", format=Tournament.Format.SWISS, swiss_rounds=4,
                        lengths={"rounds": LENGTH})
    desk = reverse("tournaments:desk", args=[tournament.pk])
    names = [p.display_name.upper() if i % 2 else p.display_name for i, p in enumerate(known)] + GUESTS
    shots = folder(tmp_path)
    with chromium() as browser:
        page = page_at(browser, live_server.url, 1280)
        sign_in(page, "olga")
        page.goto(desk)
        enter_check_in_and_draw(page, names)
        visitor = page_at(browser, live_server.url, 1280)  # another browser context: not signed in
        for number in range(1, 5):
            watch_round(visitor, tournament, number)
            play_round(page, number, shots)
            seen_live(visitor, number)
        visitor.context.close()
        corrected = correct_one_result(page)
        page.screenshot(path=str(shots / "desk-1280.png"), full_page=True)
        page.context.close()

        phone = page_at(browser, live_server.url, 390)
        sign_in(phone, "olga")
        phone.goto(desk)
        phone.screenshot(path=str(shots / "desk-390.png"), full_page=True)
        overflow = phone.evaluate(OVERFLOW_JS)
        phone.goto(f"{desk}?round=1")
        overflow_round = phone.evaluate(OVERFLOW_JS)
        phone.context.close()

        # In Arabic (chosen in the switcher) the desk reads right to left and still fits.
        arabic = page_at(browser, live_server.url, 390)
        sign_in(arabic, "olga")
        arabic.goto(desk)
        arabic.locator("#language-switcher").select_option("ar")
        arabic.locator("form.language button[type=submit]").click()
        expect(arabic.locator("html")).to_have_attribute("dir", "rtl")
        direction = arabic.evaluate("document.documentElement.dir")
        arabic.screenshot(path=str(shots / "desk-390-ar.png"), full_page=True)
        overflow_arabic = arabic.evaluate(OVERFLOW_JS)
        arabic.context.close()

    assert direction == "rtl"
    for found in (overflow, overflow_round, overflow_arabic):
        assert found["scrollWidth"] <= found["innerWidth"] and not found["out"], found
    assert (shots / "desk-1280.png").stat().st_size > 0 and (shots / "desk-390.png").stat().st_size > 0
    assert Entry.objects.filter(tournament=tournament, status=Entry.Status.CHECKED_IN).count() == 16
    assert Player.objects.filter(display_name__in=GUESTS, user__isnull=True).count() == 8
    matches = Match.objects.filter(event_link__tournament=tournament)
    assert matches.count() == 32 and not matches.exclude(status=Match.Status.CONFIRMED).exists()
    assert sorted(set(Pairing.objects.filter(tournament=tournament).values_list("round_number", flat=True))) == [1, 2, 3, 4]
    assert not matches.filter(table="").exists()
    match = Match.objects.get(pk=corrected)
    assert (match.score0, match.score1, match.winner) == (1, LENGTH, 1)


def enter_check_in_and_draw(page, names: list[str]) -> None:
    from playwright.sync_api import expect

    expect(page.get_by_role("heading", name="Round desk: Desk Swiss")).to_be_visible()
    page.get_by_label("Entrants, one name per line").fill("\n".join(names) + "\n\n")
    page.get_by_role("button", name="Enter these players").click()
    expect(page.get_by_role("status")).to_contain_text(
        "8 known players are entered. 8 new guest players are created and entered: Ana Ionescu, Ben Okafor")
    expect(page.get_by_role("heading", name="Entrants (16)")).to_be_visible()
    page.get_by_role("button", name="Check in all").click()
    expect(page.get_by_role("status")).to_contain_text("16 entrants are checked in.")
    expect(page.locator("td.entry-status", has_text="Checked in")).to_have_count(16)
    page.get_by_role("button", name="Make the draw").click()
    expect(page.get_by_role("status")).to_contain_text("The draw is made: the event is running.")


def play_round(page, number: int, shots: Path) -> None:
    """Number the tables, then enter the 8 results with the keyboard: the first score without a
    result has the focus after each save; the top player wins the odd tables, the other the even."""
    from playwright.sync_api import expect

    expect(page.get_by_role("heading", name=f"Round {number}", exact=True)).to_be_visible()
    page.get_by_role("button", name="Number the tables in board order").click()
    expect(page.get_by_role("status")).to_contain_text("8 tables are saved.")
    expect(page.locator("td.desk-table input").first).to_have_value("1")
    if number == 1:
        page.screenshot(path=str(shots / "desk-round-1-1280.png"), full_page=True)
    for place in range(8):
        first = page.locator("tr.desk-row input[name=score0]").nth(place)
        expect(first).to_be_focused()
        row = page.evaluate("document.activeElement.closest('tr').id")
        winner_first = place % 2 == 0
        page.keyboard.type(str(LENGTH if winner_first else 2))
        page.keyboard.press("Tab")
        page.keyboard.type(str(1 if winner_first else LENGTH))
        page.keyboard.press("Enter")
        expect(page.locator(f"#{row} td.desk-state")).to_have_text("Confirmed")
    expect(page.get_by_text("Every result of this round is confirmed.")).to_be_visible()
    if number < 4:
        page.get_by_role("button", name="Start the next round").click()
        expect(page.get_by_role("status")).to_contain_text(f"Round {number + 1} is paired.")
    else:
        expect(page.get_by_role("button", name="Start the next round")).to_have_count(0)
        expect(page.get_by_text("Every round is played")).to_be_visible()


def watch_round(visitor, tournament: Tournament, number: int) -> None:
    """The visitor opens round ``number``'s page (its pairings, no result yet) and marks the page,
    so that a reload would show (the mark would be gone)."""
    from playwright.sync_api import expect

    visitor.goto(reverse("tournaments:rounds", args=[tournament.pk]) + f"?round={number}")
    expect(visitor.get_by_role("heading", name=f"Round {number}", exact=True)).to_be_visible()
    expect(visitor.locator("#live-rounds table.pairings tbody tr")).to_have_count(8)
    expect(visitor.locator("#live-rounds tbody tr td:last-child bdi")).to_have_count(0)
    visitor.evaluate(f"window.watchedRound = {number}")


def seen_live(visitor, number: int) -> None:
    """Every result the desk confirmed in round ``number`` is on the visitor's page, its winner in
    bold, and the page was not reloaded."""
    from playwright.sync_api import expect

    scores = visitor.locator("#live-rounds tbody tr td:last-child bdi")
    expect(scores).to_have_count(8, timeout=20_000)
    assert set(scores.all_inner_texts()) <= {f"{LENGTH}-1", f"1-{LENGTH}", f"2-{LENGTH}", f"{LENGTH}-2"}
    expect(visitor.locator("#live-rounds tbody td strong")).to_have_count(8)
    assert visitor.evaluate("window.watchedRound") == number, "the visitor's page was reloaded"
    assert visitor.evaluate("window.crawfordLive.updates") >= 1


def correct_one_result(page) -> int:
    """The first table's result (the top player won 5-1) is corrected to 1-5: the desk shows what
    it changes first, then corrects it."""
    from playwright.sync_api import expect

    row = page.locator("tr.desk-row").first
    row_id = row.get_attribute("id")
    row.locator("input[name=score0]").fill("1")
    row.locator("input[name=score1]").fill(str(LENGTH))
    row.locator("input[name=score1]").press("Enter")
    expect(page.get_by_role("heading", name="Confirm the correction")).to_be_visible()
    expect(page.locator("p.correction-summary")).to_contain_text("instead of")
    page.get_by_role("button", name="Confirm the correction").click()
    expect(page.get_by_role("status")).to_contain_text("instead of")
    expect(page.locator(f"#{row_id} input[name=score0]")).to_have_value("1")
    return int(row_id.removeprefix("row-"))
