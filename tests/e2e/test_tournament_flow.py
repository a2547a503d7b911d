"""End to end: a real browser (Debian's Chromium, headless, driven by Playwright; the same launch
arguments, step timeouts and watchdog as test_report_flow) against a live server. An organiser
runs an 8-player single elimination with a consolation flight from the new-event form to its final
placings.

Needs /usr/bin/chromium (apt package ``chromium``); Playwright's own browser downloads are never
used. Set ``E2E_SCREENSHOT_DIR`` to keep screenshots of the bracket page.
"""

import os
from pathlib import Path

import pytest

from matches.models import Match
from tests.e2e.test_report_flow import chromium, new_page, sign_in, sign_out
from tests.tournaments.factories import cast, make_organiser, play
from tournaments.models import Entry, Tournament
from tournaments.selectors.brackets import tournament_bracket

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def screenshot(page, name: str) -> None:
    folder = os.environ.get("E2E_SCREENSHOT_DIR")
    if folder:
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def play_every_ready_match(tournament: Tournament) -> int:
    """Play (through the reporting services: both players report, the second report confirms)
    every scheduled match of the bracket, the top player winning; return how many."""
    played = 0
    for flight in tournament_bracket(tournament=tournament).flights:
        for rnd in flight.rounds:
            for m in rnd.matches:
                if m.match_id and m.status == Match.Status.SCHEDULED:
                    play(tournament, m.key, Match.objects.get(pk=m.match_id).side0.player_a)
                    played += 1
    return played


def test_an_organiser_runs_an_eight_player_event_with_a_consolation_flight_to_its_final_placings(live_server):
    """Olga creates the event, opens entries, adds the 8 players (created beforehand), closes
    entries, checks each one in herself (entry_check_in lets the organiser do it), and makes the
    draw, all in the browser. Alice reports her first-round match and Heidi confirms it in the
    browser; to keep the test fast the other results are reported and confirmed by both players
    through the reporting services (the same code the match page calls). The bracket page shows the
    next round filled in, and, once every match is played and Olga finishes the event, the final
    placings across both flights."""
    olga = make_organiser()
    players = cast(8)  # alice (rated highest) ... heidi: the draw seeds by rating
    with chromium() as browser:
        page = new_page(browser, live_server.url)
        organiser_makes_the_draw(page, [p.display_name for p in players])
        alice_reports_and_heidi_confirms(page)
        page.context.close()

    tournament = Tournament.objects.get()
    assert (tournament.status, tournament.organiser, tournament.consolation_rounds) == (
        Tournament.Status.RUNNING, olga, 1)
    assert list(Entry.objects.filter(tournament=tournament).values_list("seed", flat=True).order_by("seed")) == list(
        range(1, 9))
    first = Match.objects.get(pairing__tournament=tournament, pairing__key="main-1-1")
    assert (first.status, first.score0 + first.score1, first.length) == (Match.Status.CONFIRMED, 7, 5)
    assert play_every_ready_match(tournament) == 3  # the rest of the first round

    with chromium() as browser:
        page = new_page(browser, live_server.url)
        bracket_shows_the_next_round(page, tournament.pk)
        page.context.close()

    while play_every_ready_match(tournament):
        pass
    assert Match.objects.filter(event_link__tournament=tournament).count() == 7 + 3  # main 4+2+1, consolation 2+1

    with chromium() as browser:
        page = new_page(browser, live_server.url)
        organiser_finishes_and_the_placings_show(page, tournament.pk)
        page.context.close()
    assert Tournament.objects.get().status == Tournament.Status.FINISHED


def organiser_makes_the_draw(page, names: list[str]) -> None:
    from playwright.sync_api import expect

    sign_in(page, "olga")
    page.get_by_role("link", name="Tournaments", exact=True).click()
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name", exact=True).fill("Club Cup")
    page.get_by_label("Format", exact=True).select_option("single_elimination")
    page.get_by_label("Match lengths of the main flight", exact=True).fill("5 5 7")
    page.get_by_label("Match lengths of the consolation flight", exact=True).fill("3")
    page.get_by_label("Consolation flight", exact=True).fill("1")
    page.get_by_role("button", name="Create event").click()
    expect(page.get_by_role("heading", name="Manage Club Cup")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Event “Club Cup” created.")

    page.get_by_role("button", name="Open entries").click()
    expect(page.locator("strong.status")).to_have_text("Entries open")
    for name in names:
        page.get_by_label("Player", exact=True).fill(name)  # the player picker: the server finds him by name
        page.get_by_role("button", name="Add entrant").click()
        expect(page.get_by_role("status")).to_contain_text(f"{name} is entered.")
    expect(page.get_by_role("heading", name="Entries (8)")).to_be_visible()
    page.get_by_role("button", name="Close entries").click()
    expect(page.locator("strong.status")).to_have_text("Entries closed, check-in")
    for name in names:
        page.get_by_role("button", name=f"Check in {name}").click()
        expect(page.get_by_role("status")).to_contain_text(f"{name} is checked in.")
    expect(page.locator("td.entry-status", has_text="Checked in")).to_have_count(8)
    page.get_by_role("button", name="Make the draw").click()
    expect(page.get_by_role("status")).to_contain_text("The draw is made: the event is running.")
    expect(page.locator("strong.status")).to_have_text("Running")
    screenshot(page, "manage.png")

    page.get_by_role("link", name="Bracket").click()
    expect(page.get_by_role("heading", name="Main flight")).to_be_visible()
    expect(page.get_by_role("heading", name="Consolation flight")).to_be_visible()
    expect(page.locator('g.cell[data-key="main-1-1"]')).to_contain_text("Alice")
    expect(page.locator('g.cell[data-key="main-1-1"]')).to_contain_text("Heidi")
    sign_out(page)


def alice_reports_and_heidi_confirms(page) -> None:
    from playwright.sync_api import expect

    sign_in(page, "alice")
    page.goto("/events/mine/")
    expect(page.locator("ul.next-matches")).to_contain_text("against Heidi")
    page.goto("/events/")
    page.get_by_role("link", name="Club Cup").click()
    expect(page.get_by_role("heading", name="Your next match")).to_be_visible()
    screenshot(page, "detail.png")
    page.get_by_role("link", name="match page").click()
    expect(page.get_by_role("heading", name="Alice v Heidi")).to_be_visible()
    page.get_by_label("Alice's score").fill("5")
    page.get_by_label("Heidi's score").fill("2")
    page.get_by_role("button", name="Report result").click()
    expect(page.get_by_role("status")).to_contain_text("Your report of 5-2 is saved; waiting for Heidi to confirm.")
    sign_out(page)

    sign_in(page, "heidi")
    page.locator("tr.waiting").get_by_role("link", name="Alice v Heidi").click()
    page.get_by_role("button", name="Confirm 5-2").click()
    expect(page.get_by_role("status")).to_contain_text("Result confirmed: 5-2.")
    sign_out(page)


def bracket_shows_the_next_round(page, tournament_id: int) -> None:
    from playwright.sync_api import expect

    page.goto(f"/events/{tournament_id}/bracket/")
    semi = page.locator('g.cell[data-key="main-2-1"]')
    expect(semi).to_contain_text("Alice")
    expect(semi.locator("text.name")).to_have_count(2)  # both semi-finalists known
    expect(page.locator('g.cell[data-key="main-1-1"] text.winner').first).to_have_text("Alice")
    # Heidi lost in the first round: she drops into the consolation flight.
    expect(page.locator('g.cell[data-key^="consolation-1-"]', has_text="Heidi")).to_have_count(1)
    expect(page.get_by_role("heading", name="Final placings")).to_have_count(0)
    screenshot(page, "bracket-round-2.png")


def organiser_finishes_and_the_placings_show(page, tournament_id: int) -> None:
    from playwright.sync_api import expect

    sign_in(page, "olga")
    page.goto(f"/events/{tournament_id}/manage/")
    page.get_by_role("button", name="Finish event").click()
    expect(page.get_by_role("status")).to_contain_text("The event is finished: its placings are final.")
    page.get_by_role("link", name="Bracket").click()
    expect(page.get_by_role("heading", name="Final placings")).to_be_visible()
    rows = page.locator("table.placings tbody tr")
    expect(rows.first).to_contain_text("Alice")
    expect(rows.first.locator("td").first).to_have_text("1")
    expect(page.locator("table.placings")).to_contain_text("Consolation flight")
    expect(page.locator("p.champion").first).to_contain_text("Winner: Alice")
    screenshot(page, "bracket-final.png")
    sign_out(page)
