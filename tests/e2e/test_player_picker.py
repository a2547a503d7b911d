"""End to end: the player picker in a real browser (Debian's Chromium, headless, driven by
Playwright; the launch, timeouts and watchdog of test_report_flow). The organiser types part of a
name in the entrant picker, the suggestions come from the players API, she moves through them with
the arrow keys (the input keeps the focus and names the active one: aria-activedescendant), closes
the list with Escape, opens it again and chooses with Enter; the entrant is the player she chose.

Needs /usr/bin/chromium (apt package ``chromium``).
"""

import pytest

from matches.models import Player
from tests.e2e.test_report_flow import chromium, new_page, sign_in
from tests.tournaments.factories import closed, make_organiser, player
from tournaments.models import Entry, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_the_organiser_types_part_of_a_name_and_chooses_the_entrant_with_the_keyboard(live_server):
    tournament = closed(organiser=make_organiser(), status=Tournament.Status.OPEN, name="Picker Cup")
    stefan = player("stefan")
    Player.objects.filter(pk=stefan.pk).update(display_name="Ștefan Popescu", country="RO")
    stella = player("stella")
    Player.objects.filter(pk=stella.pk).update(display_name="Stella Ionescu", country="MD")
    player("bob")

    with chromium() as browser:
        page = new_page(browser, live_server.url)
        choose_the_entrant(page, tournament.pk)
        page.context.close()

    entry = Entry.objects.select_related("side__player_a").get(tournament=tournament)
    assert entry.side.player_a == stefan


def choose_the_entrant(page, tournament_id: int) -> None:
    from playwright.sync_api import expect

    sign_in(page, "olga")
    page.goto(f"/events/{tournament_id}/manage/")
    picker = page.get_by_role("combobox", name="Player")
    expect(picker).to_have_attribute("aria-expanded", "false")
    picker.press_sequentially("stef", delay=40)  # no accent typed: Ștefan is found all the same
    listbox = page.get_by_role("listbox")
    expect(listbox).to_be_visible()
    options = listbox.get_by_role("option")
    expect(options).to_have_count(1)
    expect(options.first).to_have_text("Ștefan Popescu (RO)")
    expect(picker).to_have_attribute("aria-expanded", "true")

    # Wider: "ste" fits Ștefan and Stella. Down twice, up once: the first one is active.
    picker.press("Backspace")
    expect(options).to_have_count(2)
    picker.press("ArrowDown")
    picker.press("ArrowDown")
    expect(options.nth(1)).to_have_attribute("aria-selected", "true")
    picker.press("ArrowUp")
    active = options.nth(0)
    expect(active).to_have_attribute("aria-selected", "true")
    expect(picker).to_have_attribute("aria-activedescendant", active.get_attribute("id"))
    expect(picker).to_be_focused()

    picker.press("Escape")  # the list closes; what was typed stays
    expect(listbox).to_be_hidden()
    expect(picker).to_have_attribute("aria-expanded", "false")
    expect(picker).to_have_value("ste")

    picker.press("ArrowDown")  # opens the list again, nothing active yet
    expect(options).to_have_count(2)
    for _ in range(options.all_text_contents().index("Ștefan Popescu (RO)") + 1):
        picker.press("ArrowDown")
    expect(listbox.get_by_role("option", selected=True)).to_have_text("Ștefan Popescu (RO)")
    picker.press("Enter")  # chooses; does not send the form
    expect(listbox).to_be_hidden()
    expect(picker).to_have_value("Ștefan Popescu")
    page.get_by_role("button", name="Add entrant").click()
    expect(page.get_by_role("status")).to_contain_text("Ștefan Popescu is entered.")
