"""End to end: an event's public pages are live (static/js/live.js polling tournaments:live). Two
viewers, each in a browser context of his own (a phone), keep the bracket of an elimination event
and the standings of a Swiss open; results are confirmed meanwhile through the reporting services
(both players report, the second report confirms: what the match page calls). Each result shows on
the viewer's page within seconds, and the page is never loaded again: one navigation, and the
marker the script set when the page loaded is still the same.

Needs /usr/bin/chromium (apt package ``chromium``).
"""

import threading

import pytest
from django.db import connection

from matches.models import Match
from tests.e2e.test_report_flow import chromium, new_page
from tests.tournaments.factories import drawn, play, player
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

#: A result shown within a few seconds, with the poll's 3 s and a busy machine's slack.
SHOWN_WITHIN_MS = 10_000


def in_thread(work):
    """Run ``work`` in a thread of its own: Playwright's sync API runs an event loop in this one, and
    Django's ORM refuses to run beside it. Re-raise what it raised."""
    failures = []

    def run():
        try:
            work()
        except BaseException as error:  # handed to the test below
            failures.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the confirmation did not finish"
    if failures:
        raise failures[0]


def winner_of(tournament: Tournament, key: str):
    """The first side's player of the match of pairing ``key``."""
    return Match.objects.select_related("side0__player_a").get(
        pairing__tournament=tournament, pairing__key=key).side0.player_a


def loaded_once(page) -> dict:
    return page.evaluate("""() => ({navigations: performance.getEntriesByType("navigation").length,
                                   loaded: window.crawfordLive && window.crawfordLive.loaded,
                                   updates: window.crawfordLive && window.crawfordLive.updates})""")


def test_the_bracket_and_the_standings_show_each_confirmed_result_without_a_reload(live_server):
    from playwright.sync_api import expect

    bracket_event, _ = drawn(4, players=[player(n) for n in ("alice", "bob", "carol", "dave")])
    swiss_event, _ = drawn(4, players=[player(n) for n in ("erin", "frank", "grace", "heidi")],
                           format=Tournament.Format.SWISS)
    bracket_winners = [winner_of(bracket_event, "main-1-1"), winner_of(bracket_event, "main-1-2")]
    swiss_winners = [winner_of(swiss_event, "swiss-1-1"), winner_of(swiss_event, "swiss-1-2")]

    with chromium() as browser:
        bracket_page = new_page(browser, live_server.url)  # each page a browser context of its own
        standings_page = new_page(browser, live_server.url)
        bracket_page.goto(f"/events/{bracket_event.pk}/bracket/")
        standings_page.goto(f"/events/{swiss_event.pk}/standings/")
        final = bracket_page.locator('g.cell[data-key="main-2-1"]')
        expect(final).not_to_contain_text(bracket_winners[0].display_name)
        wins = standings_page.locator("table.standings tbody tr")
        expect(wins.filter(has_text=swiss_winners[0].display_name).locator("td").nth(2)).to_have_text("0")
        before = {page: loaded_once(page) for page in (bracket_page, standings_page)}
        assert all(seen["navigations"] == 1 and seen["loaded"] for seen in before.values()), before

        for number in (0, 1):
            in_thread(lambda n=number: play(bracket_event, f"main-1-{n + 1}", bracket_winners[n]))
            expect(final).to_contain_text(bracket_winners[number].display_name, timeout=SHOWN_WITHIN_MS)
            in_thread(lambda n=number: play(swiss_event, f"swiss-1-{n + 1}", swiss_winners[n]))
            row = wins.filter(has_text=swiss_winners[number].display_name)
            expect(row.locator("td").nth(2)).to_have_text("1", timeout=SHOWN_WITHIN_MS)

        expect(bracket_page.locator(".live-note")).to_contain_text("Updated at")
        for page in (bracket_page, standings_page):
            after = loaded_once(page)
            assert after["navigations"] == 1 and after["loaded"] == before[page]["loaded"], (before[page], after)
            assert after["updates"] >= 2, after
            page.context.close()
