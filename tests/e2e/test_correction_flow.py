"""End to end: a real browser (Debian's Chromium, headless, as in test_report_flow) against a live
server. A director corrects a result of her running event from the match page so that the other
player won: before anything changes she is shown, in sentences, the later matches it resets in the
main and consolation flights (and those already played with the wrong player); she confirms, and
the bracket is reset as shown.

Needs /usr/bin/chromium (apt package ``chromium``); Playwright's own browsers are never used.
"""

import pytest

from audit.models import AuditEntry
from matches.models import Match
from tests.e2e.test_report_flow import chromium, new_page, sign_in
from tests.tournaments.factories import drawn, make_organiser, names, pairing, play

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_director_corrects_a_result_from_the_match_page_and_sees_the_cascade_before_confirming(live_server):
    olga = make_organiser()
    tournament, _players = drawn(8, organiser=olga, consolation_rounds=1,
                                lengths={"main": [5, 5, 7], "consolation": 3})
    for i in range(1, 5):
        row = pairing(tournament, f"main-1-{i}")
        play(tournament, row.key, row.entry0.side.player_a)
    play(tournament, "main-2-1", pairing(tournament, "main-2-1").entry0.side.player_a, loser_points=2)
    play(tournament, "consolation-1-1", pairing(tournament, "consolation-1-1").entry0.side.player_a)
    first = pairing(tournament, "main-1-1").match
    semi = pairing(tournament, "main-2-1")
    assert names(semi) == ("Alice", "Dave") and names(pairing(tournament, "consolation-1-1")) == ("Heidi", "Erin")
    events_before = Match.objects.filter(event_link__tournament=tournament).count()

    with chromium() as browser:
        page = new_page(browser, live_server.url)
        director_corrects(page, first.pk)
        page.context.close()

    first.refresh_from_db()
    assert (first.status, first.score0, first.score1) == (Match.Status.CONFIRMED, 1, 5)  # Heidi won
    assert names(pairing(tournament, "main-2-1")) == ("Heidi", "Dave")
    assert pairing(tournament, "main-2-1").match.status == Match.Status.SCHEDULED
    assert names(pairing(tournament, "consolation-1-1")) == ("Alice", "Erin")
    assert pairing(tournament, "consolation-1-1").match.status == Match.Status.SCHEDULED
    assert not Match.objects.filter(pk=semi.match_id).exists()
    assert Match.objects.filter(event_link__tournament=tournament).count() == events_before
    corrected = AuditEntry.objects.get(action="result.corrected", tournament_id=tournament.pk)
    assert [r["key"] for r in corrected.after["resets"]] == ["main-2-1", "consolation-1-1"]
    assert corrected.note == "The score sheet was read the wrong way round."


def director_corrects(page, match_id: int) -> None:
    from playwright.sync_api import expect

    sign_in(page, "olga")
    page.goto(f"/matches/{match_id}/")
    expect(page.get_by_role("heading", name="Alice v Heidi")).to_be_visible()
    page.get_by_role("link", name="Correct this result, seeing first which later matches of the event it resets").click()
    expect(page.get_by_role("heading", name="Correct the result of Alice v Heidi")).to_be_visible()
    page.get_by_label("Alice's score").fill("1")
    page.get_by_label("Heidi's score").fill("5")
    page.get_by_label("Why (kept in the audit log)").fill("The score sheet was read the wrong way round.")
    page.get_by_role("button", name="See what it changes").click()

    # Nothing has changed yet: the confirmation step lists the cascade in sentences.
    expect(page.get_by_role("heading", name="Confirm the correction")).to_be_visible()
    expect(page.locator(".correction-summary")).to_have_text("Heidi wins a quarter-final, Alice v Heidi, 5-1, instead of Alice.")
    cascade = page.locator("section.cascade li")
    expect(cascade).to_have_count(2)
    expect(cascade.nth(0)).to_have_text("A semi-final, Alice v Dave, which Alice won 5-2, is reset: its result is "
                                        "void and Heidi v Dave will be played instead.")
    expect(cascade.nth(1)).to_have_text("A semi-final of the consolation flight, Heidi v Erin, which Heidi won 3-0, is "
                                        "reset: its result is void and Alice v Erin will be played instead.")
    expect(page.locator("section.cascade-started")).to_contain_text("a semi-final: Alice v Dave")
    page.get_by_role("button", name="Confirm the correction").click()

    expect(page.get_by_role("heading", name="Alice v Heidi")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Heidi wins a quarter-final, Alice v Heidi, 5-1, instead of Alice. "
                                                       "2 later matches were reset.")
    expect(page.locator("dd.score")).to_contain_text("Heidi wins")
