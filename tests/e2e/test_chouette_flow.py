"""End to end: a real browser (Debian's Chromium, headless, driven by Playwright; the launch arguments,
step timeouts and watchdog of test_report_flow) against a live server. Otis, the club's organiser,
keeps the chouette table page open on a tablet and runs a four-player table: the roll-off (with a tie
rerolled), three games entered as quick results — one with a crew member dropping the Box's double,
one where the Captain beats the Box and boxes next. Ann, the owner, then ends the session from her
own device, and Otis's tablet, which polls the table's version, reloads itself to the settlement. The
ledger the page shows is checked against the engine's own sums of the same games.

Needs /usr/bin/chromium (apt package ``chromium``). Set ``E2E_SCREENSHOT_DIR`` to keep screenshots
of the table page.
"""

from __future__ import annotations

import os
import re
from decimal import Decimal
from pathlib import Path

import pytest

from chouette.models import ChouetteSession, ChouetteStep
from engine.chouette import (
    ChouetteSettings,
    chouette_next_lineup,
    chouette_settle,
    game_from_json,
    ledger_add,
    lineup_from_rolloff,
    settle_up,
)
from tests.chouette.factories import ids
from tests.clubs.factories import club_cast
from tests.e2e.test_report_flow import STEP_TIMEOUT_MS, chromium, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

STAKE = Decimal("2.50")


def screenshot(page, name: str) -> None:
    folder = os.environ.get("E2E_SCREENSHOT_DIR")
    if folder:
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def tablet(browser, base_url: str):
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_TIMEOUT_MS)
    context = browser.new_context(base_url=base_url, viewport={"width": 1024, "height": 768})
    context.set_default_timeout(STEP_TIMEOUT_MS)
    context.set_default_navigation_timeout(STEP_TIMEOUT_MS)
    return context.new_page()


#: The three games as entered: who won, the level, and each member's cube (face, how his game ended);
#: a member left out was not doubled and played to the end.
GAMES = [
    # Otis boxes, Ann captains. The Box doubles everyone: Max drops, Mia and Ann take; the Box wins.
    ("box", 1, {"ann": (2, "played"), "mia": (2, "played"), "max": (1, "member_dropped")}),
    # Otis still boxes, Mia captains and wins a gammon: she is the Box next (Jacoby: only turned cubes count it).
    ("team", 2, {"mia": (2, "played")}),
    # Mia boxes, Max captains; Ann drops the Box's double, Otis takes it; the Box wins.
    ("box", 1, {"ann": (1, "member_dropped"), "otis": (2, "played")}),
]
WINNERS = {"box": "The Box", "team": "The team"}
LEVELS = {1: "Single", 2: "Gammon", 3: "Backgammon"}
ENDS = {"played": "played to the end", "member_dropped": "dropped"}


def test_an_organiser_runs_a_four_player_chouette_from_a_tablet_and_the_ledger_is_the_engines(live_server):
    cast = club_cast()
    p = ids(cast)
    names = {p[key]: key.title() for key in ("ann", "otis", "mia", "max")}

    with chromium() as browser:
        page = tablet(browser, live_server.url)
        shown = run_the_table(page)
        # Ann ends the session from her own device; Otis's tablet sees the table change and reloads.
        other = tablet(browser, live_server.url)
        end_the_session(other, page.url)
        shown["settlement"] = settlement_seen(page)
        other.context.close()
        page.context.close()

    # The engine's own account of the same games, from the same roll-off.
    settings = ChouetteSettings(jacoby=True, beavers=False, box_partner_from=None)
    lineup = lineup_from_rolloff([[(p["ann"], 6), (p["otis"], 6), (p["mia"], 4), (p["max"], 2)],
                                  [(p["ann"], 3), (p["otis"], 5)]])
    ledger: dict = {}
    for winner, level, cubes in GAMES:
        record = {"winner": winner, "level": level,
                  "cubes": [{"player": p[name], "value": value, "end": end} for name, (value, end) in cubes.items()]}
        game = game_from_json(record, lineup)
        ledger = ledger_add(ledger, chouette_settle(lineup, game, settings))
        lineup = chouette_next_lineup(lineup, game, settings)
    expected = [(names[player], points, points * STAKE) for player, points in ledger.items()]
    assert shown["ledger"] == expected
    assert shown["after_box_change"][:2] == ["Box Mia", "Captain Max"]
    assert shown["lineup"] == [names[lineup.box], names[lineup.captain], *(names[m] for m in lineup.crew)]
    assert shown["settlement"] == [f"{names[payer]} pays {names[payee]} {points * STAKE} EUR"
                                   for payer, payee, points in settle_up(ledger)]

    session = ChouetteSession.objects.get()
    assert (session.status, session.stake) == ("ended", STAKE)
    assert list(session.steps.values_list("number", "kind")) == [(1, "start"), (2, "game"), (3, "game"), (4, "game")]
    assert set(ChouetteStep.objects.values_list("recorded_by__username", flat=True)) == {"otis"}


def run_the_table(page) -> dict:
    """Otis starts the table and enters the games; returns what the page showed."""
    from playwright.sync_api import expect

    shown: dict = {}
    sign_in(page, "otis")
    page.goto("/clubs/crawford-club/")
    page.get_by_role("link", name="Chouettes").click()
    page.get_by_role("link", name="Start a chouette table").click()
    page.get_by_label("Name").fill("Big table")
    for name, dice in (("Ann", "6 3"), ("Otis", "6 5"), ("Mia", "4"), ("Max", "2")):
        page.get_by_label(f"{name}'s roll-off").fill(dice)
    page.get_by_label("Stake per point").fill("2.50")
    page.get_by_role("button", name="Start the table").click()

    expect(page.get_by_role("heading", name=re.compile("Big table"))).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("The table is set")
    seats = page.locator("ol.seats li")
    expect(seats).to_have_count(4)
    expect(seats.nth(0)).to_contain_text("Box")
    expect(seats.nth(0)).to_contain_text("Otis")
    expect(seats.nth(1)).to_contain_text("Captain")
    expect(seats.nth(1)).to_contain_text("Ann")

    boxes = ["Otis", "Mia", "Mia"]      # after each game
    captains = ["Mia", "Max", "Ann"]
    for number, (winner, level, cubes) in enumerate(GAMES, start=1):
        expect(page.get_by_role("heading", name=f"Record game {number}")).to_be_visible()
        page.get_by_label(WINNERS[winner], exact=True).check()
        page.get_by_label(LEVELS[level], exact=True).check()
        for name, (value, end) in cubes.items():
            page.get_by_label(f"{name.title()}'s cube", exact=True).select_option(str(value))
            page.get_by_label(f"How {name.title()}'s game ended", exact=True).select_option(label=ENDS[end])
        page.get_by_role("button", name="Record the game").click()
        expect(page.get_by_role("status")).to_contain_text(
            f"Game {number}: the {'Box' if winner == 'box' else 'team'} won a {LEVELS[level].lower()}. "
            f"Next: {boxes[number - 1]} is the Box, {captains[number - 1]} the Captain.")
        if number == 2:
            shown["after_box_change"] = [f"{seat.locator('.role').text_content()} {seat.locator('.name').text_content()}"
                                         for seat in seats.all()]
    screenshot(page, "chouette-table.png")

    shown["lineup"] = [seat.locator(".name").inner_text() for seat in seats.all()]
    expect(page.locator("tr.game")).to_have_count(3)
    expect(page.locator("#game-1")).to_contain_text("Max 1 dropped")
    shown["ledger"] = [
        (row.locator(".name").inner_text(), int(row.locator(".points").inner_text()),
         Decimal(row.locator(".money").inner_text()))
        for row in page.locator("table.ledger tbody tr").all()
    ]

    return shown


def end_the_session(page, table_url: str) -> None:
    from playwright.sync_api import expect

    sign_in(page, "ann")
    page.goto(table_url)
    page.get_by_role("button", name="End the session and settle").click()
    expect(page.get_by_role("status")).to_contain_text("The session is over")


def settlement_seen(page) -> list[str]:
    """What the first tablet shows once its poll has seen the table change (it reloads itself)."""
    from playwright.sync_api import expect

    expect(page.get_by_role("heading", name="Settlement")).to_be_visible()
    expect(page.get_by_role("button", name="Record the game")).to_have_count(0)
    screenshot(page, "chouette-settlement.png")
    return [" ".join(text.split("(")[0].split()) for text in page.locator("ul.settlement li").all_inner_texts()]
