"""Re-entry (buy-back) into the main through the API and the director's pages:
the setting sent and read back, ``POST .../entries/{id}/reenter/`` and its refusals, the manage
page's "Re-enter" button (only beside a first-round loser who may re-enter now), and "(re-entry)"
beside the entrant on the entries list and the bracket.

The event: six players by rating in a bracket of eight (Alice and Bob have byes); Dave beat Erin
in main-1-2, Carol-Frank (main-1-4) is still to play."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.matches.factories_api import client_for
from tests.tournaments.factories import drawn, make_another_organiser, make_organiser, play, player, snapshot
from tests.tournaments.test_reentry import first, named
from tournaments.models import Entry, Pairing, Tournament
from tournaments.selectors.desk import desk_view

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    tournament, players = drawn(6, reentries=1)
    play(tournament, "main-1-2", players[3])  # Dave beats Erin
    return named((tournament, players))


def reenter_url(tournament: Tournament, entry: Entry | int) -> str:
    entry_id = entry if isinstance(entry, int) else entry.pk
    return f"/api/v1/tournaments/{tournament.pk}/entries/{entry_id}/reenter/"


def page(response) -> str:
    return html.unescape(response.content.decode())


# --- API ---------------------------------------------------------------------------------------------


def test_the_api_sets_the_re_entries_allowed_and_reads_them_back():
    organiser = make_organiser()
    client = client_for(organiser)
    response = client.post("/api/v1/tournaments/", {"name": "Buy-back Cup", "reentries": 1}, format="json")
    assert response.status_code == 201, response.content
    assert client.get(f"/api/v1/tournaments/{response.data['id']}/").data["rules"]["reentries"] == 1
    refused = client.post("/api/v1/tournaments/", {"name": "Cup", "reentries": 1, "consolation_rounds": 1}, format="json")
    assert refused.status_code == 400 and (refused.data["code"], refused.data["field"]) == ("bad_rules", "reentries")
    too_many = client.post("/api/v1/tournaments/", {"name": "Cup", "reentries": 2}, format="json")
    assert too_many.status_code == 400 and "reentries" in too_many.data["errors"]
    assert too_many.data["detail"].startswith("Re-entry (buy-back): ")  # its label; its name stays in "errors"


def test_the_director_re_enters_a_first_round_loser_through_the_api(event):
    tournament, who = event
    response = client_for(tournament.organiser).post(reenter_url(tournament, first(tournament, who.erin)), format="json")
    assert response.status_code == 201, response.content
    again = Entry.objects.get(tournament=tournament, reentry_of__isnull=False)
    assert response.data == {
        "id": again.pk, "name": "Erin (re-entry)", "seed": 7, "players": [{"id": who.erin.pk, "display_name": "Erin"}],
        "status": "checked_in", "late": False, "roller": None, "division": "", "reentry_of": first(tournament, who.erin).pk,
    }
    listed = client_for(tournament.organiser).get(f"/api/v1/tournaments/{tournament.pk}/entries/").data["results"]
    assert [e["reentry_of"] for e in listed if e["id"] == again.pk] == [first(tournament, who.erin).pk]


@pytest.mark.parametrize(("caller", "status", "code"), [
    (None, 401, "not_authenticated"),
    ("player", 403, "not_organiser"),
    ("other", 403, "not_organiser"),
])
def test_only_the_director_re_enters_through_the_api(event, caller, status, code):
    tournament, who = event
    user = {None: None, "player": who.erin.user, "other": make_another_organiser()}[caller]
    before = snapshot(tournament)
    response = client_for(user).post(reenter_url(tournament, first(tournament, who.erin)), format="json")
    assert (response.status_code, response.data["code"]) == (status, code)
    assert snapshot(tournament) == before


def test_the_api_refuses_a_re_entry_with_its_reason_and_changes_nothing(event):
    tournament, who = event
    before = snapshot(tournament)
    response = client_for(tournament.organiser).post(reenter_url(tournament, first(tournament, who.dave)), format="json")
    assert response.status_code == 409
    assert (response.data["code"], response.data["reason"]) == ("reentry_refused", "not_a_first_round_loser")
    assert "Dave cannot re-enter: Dave did not lose a match of the main's first round" in response.data["detail"]
    assert snapshot(tournament) == before


def test_the_api_refuses_a_re_entry_the_event_does_not_allow():
    tournament, players = drawn(6)
    play(tournament, "main-1-2", players[3])
    response = client_for(tournament.organiser).post(reenter_url(tournament, first(tournament, players[4])),
                                                     format="json")
    assert (response.status_code, response.data["code"]) == (409, "reentry_off")


def test_the_api_refuses_a_body_an_unknown_entry_and_an_unknown_event(event):
    tournament, who = event
    client = client_for(tournament.organiser)
    body = client.post(reenter_url(tournament, first(tournament, who.erin)), {"seed": 8}, format="json")
    assert body.status_code == 400 and "seed" in str(body.data)
    unknown = client.post(reenter_url(tournament, 10**9), format="json")
    assert (unknown.status_code, unknown.data["code"]) == (400, "unknown_entry")
    missing = client.post(f"/api/v1/tournaments/{10**9}/entries/1/reenter/", format="json")
    assert missing.status_code == 404
    assert client.get(reenter_url(tournament, first(tournament, who.erin))).status_code == 405
    assert not Entry.objects.filter(tournament=tournament, reentry_of__isnull=False).exists()


# --- pages -------------------------------------------------------------------------------------------


def manage_page(client, tournament: Tournament):
    return client.get(reverse("tournaments:manage", args=[tournament.pk]))


def test_the_manage_page_shows_re_enter_only_beside_a_first_round_loser_who_may(event, client):
    tournament, who = event
    client.force_login(tournament.organiser)
    shown = page(manage_page(client, tournament))
    assert shown.count('class="inline entry-reenter-form"') == 1
    assert f'name="entry" value="{first(tournament, who.erin).pk}">\n                <button type="submit" class="secondary" ' \
           f'aria-label="Re-enter Erin into the main">Re-enter</button>' in shown


def test_no_re_enter_button_where_the_event_does_not_allow_it_or_the_first_round_is_over(client):
    tournament, players = drawn(6)
    play(tournament, "main-1-2", players[3])
    client.force_login(tournament.organiser)
    assert "entry-reenter-form" not in page(manage_page(client, tournament))
    allowed, players = drawn(6, players=[player(f"other{i}", 1900.0 - i) for i in range(6)], reentries=1)
    play(allowed, "main-1-2", players[3])
    play(allowed, "main-1-4", players[2])
    client.force_login(allowed.organiser)
    assert "entry-reenter-form" not in page(manage_page(client, allowed))


def test_the_director_re_enters_from_the_manage_page_and_sees_it_on_the_entries_and_the_bracket(event, client):
    tournament, who = event
    client.force_login(tournament.organiser)
    response = client.post(reverse("tournaments:manage_reenter", args=[tournament.pk]),
                           {"entry": first(tournament, who.erin).pk})
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:manage", args=[tournament.pk])
    shown = page(client.get(response["Location"]))
    assert "Erin has re-entered the main as seed 7." in shown
    assert '<small class="reentry">(re-entry)</small>' in shown
    assert "entry-reenter-form" not in shown  # she has re-entered: no second button
    bracket = page(client.get(reverse("tournaments:bracket", args=[tournament.pk])))
    assert "Erin (re-entry)" in bracket


def test_a_refused_re_entry_from_the_page_says_why_and_changes_nothing(event, client):
    tournament, who = event
    client.force_login(tournament.organiser)
    before = snapshot(tournament)
    response = client.post(reverse("tournaments:manage_reenter", args=[tournament.pk]),
                           {"entry": first(tournament, who.carol).pk})
    assert response.status_code == 409
    assert "Carol cannot re-enter: Carol did not lose a match of the main's first round" in page(response)
    assert snapshot(tournament) == before


def test_the_manage_page_asks_the_same_queries_with_re_entry_allowed_whatever_the_losers(client):
    """Re-entry allowed: the buttons cost the event's entries and pairings once, not a query per loser."""
    counts = []
    for size in (6, 12):
        tournament, _ = drawn(size, players=[player(f"n{size}x{i}", 1900.0 - i) for i in range(size)], reentries=1)
        for key in ("main-1-2", "main-1-4"):
            p = Pairing.objects.select_related("entry0__side").get(tournament=tournament, key=key)
            if p.match_id:
                play(tournament, key, p.entry0.side.player_a)
        client.force_login(tournament.organiser)
        with CaptureQueriesContext(connection) as queries:
            assert manage_page(client, tournament).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_re_entered_players_next_match_is_his_re_entrys(event):
    tournament, who = event
    url = f"/api/v1/tournaments/{tournament.pk}/my-next-match/"
    assert client_for(who.erin.user).get(url).data == {"next_match": None}  # she lost main-1-2
    client_for(tournament.organiser).post(reenter_url(tournament, first(tournament, who.erin)), format="json")
    nxt = client_for(who.erin.user).get(url).data["next_match"]
    assert (nxt["key"], nxt["entrant"]["name"], nxt["opponent"]["name"]) == ("main-1-3", "Erin (re-entry)", "Bob")


def test_the_round_desk_names_each_of_a_re_entered_players_entries_in_its_own_match(event, client):
    tournament, who = event
    client_for(tournament.organiser).post(reenter_url(tournament, first(tournament, who.erin)), format="json")
    rows = {row.key: (row.name0, row.name1) for r in desk_view(tournament=tournament, number=1).rounds for row in r.rows}
    assert rows["main-1-2"] == ("Dave", "Erin") and rows["main-1-3"] == ("Bob", "Erin (re-entry)")
    client.force_login(tournament.organiser)
    desk = page(client.get(reverse("tournaments:desk", args=[tournament.pk])))
    assert "Erin (re-entry)" in desk


def test_the_event_form_offers_re_entry_and_the_edit_page_allows_it_after_the_draw(client):
    organiser = make_organiser()
    client.force_login(organiser)
    data = {"name": "Buy-back Cup", "format": "single_elimination", "kind": "individual", "lengths_main": "5 5 7",
            "consolation_rounds": "0", "groups": "1", "crawford": "on", "move_policy": "legal",
            "premature_roll": "stands", "penalty_minutes_per_point": "5", "seeding": "rating", "reentries": "1"}
    created = client.post(reverse("tournaments:new"), data)
    assert created.status_code == 302
    assert Tournament.objects.get(name="Buy-back Cup").reentries == 1
    refused = client.post(reverse("tournaments:new"), {**data, "name": "Other", "consolation_rounds": "1"})
    assert refused.status_code == 400 and "re-entry is for an event without them" in page(refused)
    tournament, _ = drawn(4, players=[player(f"e{i}", 1900.0 - i) for i in range(4)], organiser=organiser)
    edit = page(client.get(reverse("tournaments:edit", args=[tournament.pk])))
    tag = re.search(r'<select name="reentries"[^>]*>', edit).group(0)
    assert "disabled" not in tag  # the draw is made, re-entry may still be allowed
    assert re.search(r'<select name="format"[^>]*disabled', edit)
    done = client.post(reverse("tournaments:edit", args=[tournament.pk]), {"name": tournament.name, "reentries": "1"})
    assert done.status_code == 302
    tournament.refresh_from_db()
    assert tournament.reentries == 1
