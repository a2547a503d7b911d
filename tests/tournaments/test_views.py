"""Pages of the tournaments app: each page for each role (anonymous, alice and bob who play,
carol another player, olga the organiser, oscar another organiser, staff), the forms end to end
through the services, bad input re-rendered with its message and nothing saved, and the bracket
and standings pages' query counts for 4 and 16 entrants."""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.models import Match
from tests.tournaments.factories import (
    cast,
    closed,
    drawn,
    enter,
    entry_of,
    make_another_organiser,
    make_organiser,
    play,
    player,
    snapshot,
)
from tournaments.models import Entry, Pairing, Round, Tournament
from tournaments.selectors.brackets import tournament_bracket

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


# --- the cast ----------------------------------------------------------------------------------


@pytest.fixture
def olga():
    return make_organiser()


@pytest.fixture
def oscar():
    return make_another_organiser()



@pytest.fixture
def carol():
    return player("carol")


@pytest.fixture
def open_event(olga):
    """An event of olga's with entries open, alice entered."""
    tournament = closed(organiser=olga, name="Spring Open", status=Tournament.Status.OPEN,
                        lengths={"main": [5, 7], "consolation": 3}, consolation_rounds=1, crawford=True,
                        move_policy="responsible", clock_seconds_per_point=90, penalty_minutes_per_point=4,
                        clock_policy="required")
    alice, bob = cast(2)
    enter(tournament, [alice], checked_in=False)
    return tournament, alice, bob


def login(client, user):
    if user is not None:
        client.force_login(user)
    return client


def url(name: str, tournament: Tournament | None = None) -> str:
    return reverse(f"tournaments:{name}", args=[tournament.pk] if tournament else [])


def text(response) -> str:
    return html.unescape(response.content.decode())


# --- the event list and a new event ------------------------------------------------------------


@pytest.mark.parametrize("role", ["anonymous", "alice", "olga", "staff"])
def test_it_lists_events_for_everyone_and_offers_a_new_event_only_to_organisers(client, open_event, olga, staff, role):
    tournament, alice, _ = open_event
    user = {"anonymous": None, "alice": alice.user, "olga": olga, "staff": staff}[role]
    response = login(client, user).get(url("list"))
    assert response.status_code == 200
    assert "Spring Open" in text(response) and url("detail", tournament) in text(response)
    assert (url("new") in text(response)) == (role in ("olga", "staff"))


def test_the_header_links_to_the_events(client):
    assert f'<a href="{url("list")}">Tournaments</a>' in text(client.get(reverse("login")))


@pytest.mark.parametrize("role,status", [("anonymous", 302), ("carol", 403), ("oscar", 200), ("staff", 200)])
def test_only_organisers_and_staff_open_the_new_event_form(client, carol, oscar, staff, role, status):
    user = {"anonymous": None, "carol": carol.user, "oscar": oscar, "staff": staff}[role]
    response = login(client, user).get(url("new"))
    assert response.status_code == status
    if role == "anonymous":
        assert response["Location"].startswith(reverse("login"))


def new_event_data(**changes) -> dict:
    data = {
        "name": "Club Cup", "format": "single_elimination", "kind": "individual", "lengths_main": "5 5 7",
        "lengths_consolation": "3",
        "consolation_rounds": "1", "groups": "1", "crawford": "on", "move_policy": "legal",
        "premature_roll": "stands", "clock_seconds_per_point": "", "penalty_minutes_per_point": "5",
        "seeding": "random",
    }
    data.update(changes)
    return data


def test_an_organiser_creates_an_event_with_its_rules_and_lands_on_its_control_page(client, olga):
    response = login(client, olga).post(url("new"), new_event_data())
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == url("manage", tournament)
    assert (tournament.organiser, tournament.status, tournament.lengths, tournament.consolation_rounds,
            tournament.seeding) == (olga, Tournament.Status.DRAFT, {"main": [5, 5, 7], "consolation": 3}, 1, "random")
    page = text(client.get(response["Location"]))
    assert "Event “Club Cup” created" in page


def test_the_new_event_form_asks_each_flight_its_lengths_in_words_and_labels_no_hidden_field(client, olga):
    page = text(login(client, olga).get(url("new")))
    for label in ("Match lengths of the main flight", "Match lengths of the consolation flight",
                  "Match lengths of the last-chance flight", "Match length of the playoff for 2nd",
                  "Match lengths of the losers' bracket", "Match length of the double elimination's final",
                  "Match lengths of the modified Swiss's playoffs"):
        assert label in page, label
    assert 'name="lengths"' not in page and "main: 5" not in page  # no typed mini-language
    assert 'type="hidden" name="token"' in page and 'for="id_token"' not in page and "Token" not in page


@pytest.mark.parametrize(("fields", "lengths"), [
    ({"lengths_main": "5, 5, 7", "lengths_consolation": "3 5", "lengths_last_chance": "3"},
     {"main": [5, 5, 7], "consolation": [3, 5], "last_chance": 3}),
    ({"lengths_main": "\u0667"}, {"main": 7}),  # Arabic-Indic digits read as the digits they are
    ({}, {}),  # every field empty: the default length
])
def test_the_lengths_typed_per_flight_are_kept_in_the_apis_shape(client, olga, fields, lengths):
    data = {**new_event_data(consolation_rounds="1", last_chance="on", lengths_main="", lengths_consolation=""), **fields}
    response = login(client, olga).post(url("new"), {key: value for key, value in data.items() if value != ""})
    assert response.status_code == 302, text(response)
    assert Tournament.objects.get().lengths == lengths


@pytest.mark.parametrize("changes,message", [
    ({"lengths_main": "five"}, "write whole numbers, one length or one per round, e.g. 5 5 7 9"),
    ({"format": "swiss", "lengths_consolation": ""}, "consolation flights are for single elimination"),
    ({"lengths_losers": "7"}, "a single elimination reads only Main flight, Consolation flight, Last-chance flight"),
    ({"name": ""}, "This field is required"),
])
def test_bad_rules_are_shown_on_the_form_and_nothing_is_saved(client, olga, changes, message):
    response = login(client, olga).post(url("new"), new_event_data(**changes))
    assert response.status_code == 400
    assert message in text(response)
    assert not Tournament.objects.exists()


def test_a_player_cannot_create_an_event(client, carol):
    response = login(client, carol.user).post(url("new"), new_event_data())
    assert response.status_code == 403
    assert not Tournament.objects.exists()


# --- the event page ----------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["anonymous", "alice", "carol", "olga", "oscar", "staff"])
def test_the_event_page_publishes_the_rules_and_the_entry_list_to_everyone(client, open_event, carol, olga, oscar,
                                                                           staff, role):
    tournament, alice, _ = open_event
    user = {"anonymous": None, "alice": alice.user, "carol": carol.user, "olga": olga, "oscar": oscar,
            "staff": staff}[role]
    response = login(client, user).get(url("detail", tournament))
    page = text(response)
    assert response.status_code == 200
    for shown in ("Entries open", "Main flight: 5, 7 points; Consolation flight: 3 points", "first-round losers",
                  "Crawford rule", "Responsible moves", "The roll stands",
                      "Clocks required: 90 seconds per match point, a delay of 12 seconds per move; no overtime",
                  "1 penalty point per 4 minutes", "Alice", "Not checked in"):
        assert shown in page, shown
    assert (url("manage", tournament) in page) == (role in ("olga", "staff"))
    assert (url("sign_up", tournament) in page) == (role == "carol")
    assert (url("withdraw", tournament) in page) == (role == "alice")


def test_an_unknown_event_is_404(client):
    assert client.get(reverse("tournaments:detail", args=[999999])).status_code == 404


def test_a_player_signs_up_and_sees_his_entry(client, open_event, carol):
    tournament, _, _ = open_event
    response = login(client, carol.user).post(url("sign_up", tournament))
    assert response.status_code == 302 and response["Location"] == url("detail", tournament)
    assert entry_of(tournament, carol).status == Entry.Status.ENTERED
    page = text(client.get(response["Location"]))
    assert "You are entered. Check in when the entries close." in page
    assert "You are entered; not checked in yet." in page


def test_signing_up_twice_is_refused_with_the_reason_and_saves_nothing(client, open_event):
    tournament, alice, _ = open_event
    before = snapshot(tournament)
    response = login(client, alice.user).post(url("sign_up", tournament))
    assert response.status_code == 409
    assert "Alice is already entered in this tournament" in text(response)
    assert snapshot(tournament) == before


def test_an_anonymous_post_is_sent_to_sign_in_and_saves_nothing(client, open_event):
    tournament, _, _ = open_event
    response = client.post(url("sign_up", tournament))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_a_player_checks_in_when_entries_close_and_another_player_cannot_check_him_in(client, open_event, carol):
    tournament, alice, _ = open_event
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.CLOSED)
    entry = entry_of(tournament, alice)
    response = login(client, carol.user).post(url("check_in", tournament), {"entry": entry.pk})
    assert response.status_code == 403
    assert "only the entrant's own players and the organiser may do this" in text(response)
    assert entry_of(tournament, alice).status == Entry.Status.ENTERED

    page = text(login(client, alice.user).get(url("detail", tournament)))
    assert url("check_in", tournament) in page
    response = client.post(url("check_in", tournament), {"entry": entry.pk})
    assert response.status_code == 302
    assert entry_of(tournament, alice).status == Entry.Status.CHECKED_IN
    assert "Alice is checked in." in text(client.get(response["Location"]))


def test_checking_in_while_entries_are_open_or_a_garbled_entry_is_refused(client, open_event):
    tournament, alice, _ = open_event
    before = snapshot(tournament)
    login(client, alice.user)
    response = client.post(url("check_in", tournament), {"entry": entry_of(tournament, alice).pk})
    assert response.status_code == 409 and "check-in opens when the entries close" in text(response)
    response = client.post(url("check_in", tournament), {"entry": "x"})
    assert response.status_code == 400 and "entry: an entry is a number" in text(response)
    assert snapshot(tournament) == before


def test_a_player_withdraws_before_the_draw(client, open_event):
    tournament, alice, _ = open_event
    response = login(client, alice.user).post(url("withdraw", tournament), {"entry": entry_of(tournament, alice).pk})
    assert response.status_code == 302
    assert not Entry.objects.filter(tournament=tournament).exists()


@pytest.fixture
def pairs_event(olga):
    return closed(organiser=olga, name="Pairs Cup", status=Tournament.Status.OPEN, kind=Tournament.Kind.PAIRS)


def test_a_player_signs_up_a_pair_with_his_partner_and_says_who_rolls(client, pairs_event, carol):
    dave = player("dave")
    page = text(login(client, carol.user).get(url("detail", pairs_event)))
    assert "Sign up as a pair" in page
    response = client.post(url("sign_up", pairs_event), {"pair-partner": dave.pk, "pair-rolls": "me"})
    assert response.status_code == 302
    entry = Entry.objects.select_related("side").get(tournament=pairs_event)
    assert {entry.side.player_a_id, entry.side.player_b_id} == {carol.pk, dave.pk}
    roller = entry.side.player_a_id if entry.side.roller == "a" else entry.side.player_b_id
    assert roller == carol.pk
    assert "You are entered; not checked in yet." in text(client.get(url("detail", pairs_event)))


def test_a_pair_sign_up_without_a_partner_or_with_oneself_is_refused_and_saves_nothing(client, pairs_event, carol):
    login(client, carol.user)
    response = client.post(url("sign_up", pairs_event), {"pair-partner": "", "pair-rolls": "alternate"})
    assert response.status_code == 400 and "This field is required." in text(response)
    response = client.post(url("sign_up", pairs_event), {"pair-partner": carol.pk, "pair-rolls": "alternate"})
    assert response.status_code == 400 and "a pair is two different players" in text(response)
    assert not Entry.objects.filter(tournament=pairs_event).exists()


def test_the_organiser_adds_a_pair_and_a_lone_player_is_refused(client, pairs_event, olga, carol):
    dave = player("dave")
    login(client, olga)
    response = client.post(url("add_entrant", pairs_event), {"entrant-player": carol.pk})
    assert response.status_code == 400
    assert "an entrant of this event is a pair of two players, not 1" in text(response)
    assert not Entry.objects.filter(tournament=pairs_event).exists()
    response = client.post(url("add_entrant", pairs_event), {"entrant-player": carol.pk, "entrant-partner": dave.pk})
    assert response.status_code == 302
    assert "Carol & Dave are entered." in text(client.get(response["Location"]))
    assert Entry.objects.filter(tournament=pairs_event, side__player_b__isnull=False).count() == 1


# --- the organiser's control page --------------------------------------------------------------


@pytest.mark.parametrize("role,status", [("anonymous", 302), ("alice", 403), ("carol", 403), ("oscar", 403),
                                         ("olga", 200), ("staff", 200)])
def test_only_the_organiser_and_staff_see_the_control_page(client, open_event, carol, olga, oscar, staff, role,
                                                           status):
    tournament, alice, _ = open_event
    user = {"anonymous": None, "alice": alice.user, "carol": carol.user, "olga": olga, "oscar": oscar,
            "staff": staff}[role]
    response = login(client, user).get(url("manage", tournament))
    assert response.status_code == status
    if status == 200:
        assert "Close entries" in text(response) and "Add an entrant" in text(response)


@pytest.mark.parametrize("action", ["open_entries", "close_entries", "draw", "finish", "pair"])
def test_another_organiser_is_refused_every_action_and_nothing_changes(client, open_event, oscar, action):
    tournament, _, _ = open_event
    before = snapshot(tournament)
    response = login(client, oscar).post(url(action, tournament))
    assert response.status_code == 403
    assert snapshot(tournament) == before


def test_the_organiser_runs_an_event_from_entries_to_the_draw(client, olga):
    tournament = closed(organiser=olga, status=Tournament.Status.DRAFT, seeding=Tournament.Seeding.RANDOM)
    players = cast(4)
    login(client, olga)
    assert client.post(url("open_entries", tournament)).status_code == 302
    manage_page = text(client.get(url("manage", tournament)))
    assert "Entries are open: players may sign up." in manage_page
    # The player picker (matches.pickers) rather than a drop-down of every player.
    assert 'data-player-picker' in manage_page and 'name="entrant-player"' in manage_page
    for who in players:
        response = client.post(url("add_entrant", tournament), {"entrant-player": who.pk})
        assert response.status_code == 302, text(response)
    assert client.post(url("close_entries", tournament)).status_code == 302
    for who in players:
        entry = entry_of(tournament, who)
        assert client.post(url("manage_check_in", tournament), {"entry": entry.pk}).status_code == 302
    response = client.post(url("draw", tournament), {"draw-seed": "12345"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.status, tournament.draw_seed) == (Tournament.Status.RUNNING, 12345)
    assert Match.objects.filter(event_link__tournament=tournament).count() == 2
    assert "The draw is made from seed 12345: the event is running." in text(client.get(response["Location"]))
    assert "random seed <code class=\"draw-seed\">12345</code>" in text(client.get(url("detail", tournament)))


def test_staff_may_manage_any_event(client, open_event, staff):
    tournament, _, _ = open_event
    assert login(client, staff).post(url("close_entries", tournament)).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CLOSED


def test_adding_an_unknown_entrant_is_refused_and_saves_nothing(client, open_event, olga):
    tournament, _, _ = open_event
    before = snapshot(tournament)
    response = login(client, olga).post(url("add_entrant", tournament), {"entrant-player": "999999"})
    assert response.status_code == 400
    assert "there is no such player to add: choose one from the list" in text(response)
    assert snapshot(tournament) == before


def test_adding_an_entrant_twice_is_refused_and_saves_nothing(client, open_event, olga):
    tournament, alice, _ = open_event
    before = snapshot(tournament)
    response = login(client, olga).post(url("add_entrant", tournament), {"entrant-player": alice.pk})
    assert response.status_code == 409
    assert "Alice is already entered in this tournament" in text(response)
    assert snapshot(tournament) == before


def test_after_the_draw_the_organiser_adds_a_late_entrant_into_a_bye(client, olga):
    tournament, _ = drawn(3, organiser=olga)
    dave = player("dave")
    login(client, olga)
    assert "Add a late entrant" in text(client.get(url("manage", tournament)))
    response = client.post(url("add_entrant", tournament), {"entrant-player": dave.pk})
    assert response.status_code == 302
    entry = entry_of(tournament, dave)
    assert (entry.seed, entry.late, entry.status) == (4, True, Entry.Status.CHECKED_IN)
    assert "Dave is entered late, as the last seed." in text(client.get(response["Location"]))


def test_a_late_entrant_into_a_full_bracket_is_refused_and_saves_nothing(client, olga):
    tournament, _ = drawn(4, organiser=olga)
    erin = player("erin")
    before = snapshot(tournament)
    response = login(client, olga).post(url("add_entrant", tournament), {"entrant-player": erin.pk})
    assert response.status_code == 409
    assert "a late entry is not possible: the bracket is full (4 entrants in 4 places): no bye to fill" in text(response)
    assert snapshot(tournament) == before


def test_drawing_twice_is_refused_and_changes_nothing(client, olga):
    tournament, _ = drawn(4, organiser=olga)
    before = snapshot(tournament)
    response = login(client, olga).post(url("draw", tournament), {"draw-seed": ""})
    assert response.status_code == 409
    assert "the draw has already been made" in text(response)
    assert snapshot(tournament) == before


def test_drawing_with_open_entries_or_a_seed_for_a_rated_draw_is_refused(client, open_event, olga):
    tournament, _, _ = open_event
    before = snapshot(tournament)
    login(client, olga)
    response = client.post(url("draw", tournament), {"draw-seed": ""})
    assert response.status_code == 409 and "close the entries (and check the players in) before the draw" in text(response)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.CLOSED)
    response = client.post(url("draw", tournament), {"draw-seed": "7"})
    assert response.status_code == 400 and "a random seed is used only by a random draw" in text(response)
    response = client.post(url("draw", tournament), {"draw-seed": "-1"})
    assert response.status_code == 400 and "greater than or equal to 0" in text(response)
    before["tournament"]["status"] = Tournament.Status.CLOSED
    assert snapshot(tournament) == before


def test_pairing_before_the_round_is_complete_is_refused_and_saves_nothing(client, olga):
    tournament, (alice, bob, _carol, _dave) = drawn(4, organiser=olga, format=Tournament.Format.SWISS)
    play(tournament, "swiss-1-1", alice)
    before = snapshot(tournament)
    response = login(client, olga).post(url("pair", tournament))
    assert response.status_code == 409
    assert "round 1 is not complete: 1 match without a confirmed result" in text(response)
    assert snapshot(tournament) == before

    play(tournament, "swiss-1-2", bob)
    response = client.post(url("pair", tournament))
    assert response.status_code == 302
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert "Round 2 is paired." in text(client.get(response["Location"]))


def test_finishing_an_unfinished_bracket_is_refused_and_a_played_one_finishes(client, olga):
    tournament, (alice, _bob) = drawn(2, organiser=olga)
    login(client, olga)
    response = client.post(url("finish", tournament))
    assert response.status_code == 409 and "the bracket is not played out" in text(response)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    play(tournament, "main-1-1", alice)
    assert client.post(url("finish", tournament)).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_the_organiser_withdraws_an_entrant_after_the_draw_and_the_opponent_goes_through(client, olga):
    tournament, (_alice, bob) = drawn(2, organiser=olga)
    response = login(client, olga).post(url("manage_withdraw", tournament), {"entry": entry_of(tournament, bob).pk})
    assert response.status_code == 302
    match = Match.objects.get(event_link__tournament=tournament)
    assert (match.status, entry_of(tournament, bob).status) == (Match.Status.CONFIRMED, Entry.Status.WITHDRAWN)


# --- bracket, rounds, standings ---------------------------------------------------------------


def svgs(page: str) -> list[ET.Element]:
    out, rest = [], page
    while "<svg" in rest:
        start = rest.index("<svg")
        end = rest.index("</svg>", start) + len("</svg>")
        out.append(ET.fromstring(rest[start:end]))
        rest = rest[end:]
    return out


@pytest.mark.parametrize("role", ["anonymous", "alice", "carol", "olga", "oscar", "staff"])
def test_the_bracket_draws_each_flight_with_links_to_the_matches(client, olga, oscar, staff, role):
    tournament, players = drawn(8, organiser=olga, consolation_rounds=1)
    alice = players[0]
    play(tournament, "main-1-1", alice, 2)
    carol_user = players[2].user
    user = {"anonymous": None, "alice": alice.user, "carol": carol_user, "olga": olga, "oscar": oscar,
            "staff": staff}[role]
    response = login(client, user).get(url("bracket", tournament))
    page = text(response)
    assert response.status_code == 200
    assert "Main flight" in page and "Consolation flight" in page
    assert page.count('class="bracket-scroll"') == 2
    main, _consolation = svgs(page)
    assert [t.text for t in main.iter(f"{SVG}text") if "round-name" in t.get("class", "")] == [
        "Quarter-finals", "Semi-finals", "Final"]
    links = [a.get("href") for a in main.iter(f"{SVG}a")]
    first = Pairing.objects.get(tournament=tournament, key="main-1-1")
    assert reverse("matches:detail", args=[first.match_id]) in links
    # Alice won main-1-1 5-2: she is in the semi-final, her opponent dropped to the consolation.
    cell = next(g for g in main.iter(f"{SVG}g") if g.get("data-key") == "main-1-1")
    assert [t.text for t in cell.iter(f"{SVG}text") if "winner" in (t.get("class") or "")] == ["Alice", "5"]
    semi = next(g for g in main.iter(f"{SVG}g") if g.get("data-key") == "main-2-1")
    assert "Alice" in [t.text for t in semi.iter(f"{SVG}text")]
    assert "Final placings" not in page


def test_the_bracket_shows_the_final_placings_when_every_match_is_decided(client, olga):
    tournament, _players = drawn(4, organiser=olga, consolation_rounds=1)
    view = tournament_bracket(tournament=tournament)
    while not view.finished:
        for flight in view.flights:
            for rnd in flight.rounds:
                for m in rnd.matches:
                    if m.match_id and m.status == "scheduled":
                        winner = Match.objects.get(pk=m.match_id).side0.player_a
                        play(tournament, m.key, winner)
        view = tournament_bracket(tournament=tournament)
    page = text(client.get(url("bracket", tournament)))
    assert "Final placings" in page
    assert "Winner: <strong>Alice</strong>" in page
    placings = page[page.index("Final placings"):page.index("</table>", page.index("Final placings"))]
    assert placings.index("Alice") < placings.index("Bob")


def test_the_bracket_page_before_the_draw_and_for_a_swiss_says_so(client, open_event, olga):
    tournament, _, _ = open_event
    assert "The draw has not been made yet." in text(client.get(url("bracket", tournament)))
    swiss, _ = drawn(4, organiser=olga, format=Tournament.Format.SWISS, players=field(4, "s"))
    assert "This event has no bracket" in text(client.get(url("bracket", swiss)))


@pytest.mark.parametrize("role", ["anonymous", "alice", "olga"])
def test_swiss_rounds_and_standings_show_pairings_results_and_tie_breaks(client, olga, role):
    tournament, (alice, _bob, _carol, _dave, _erin) = drawn(5, organiser=olga, format=Tournament.Format.SWISS)
    play(tournament, "swiss-1-1", alice, 1)
    login(client, {"anonymous": None, "alice": alice.user, "olga": olga}[role])
    rounds = text(client.get(url("rounds", tournament)))
    assert "Round 1" in rounds and "Bye (counts as a win): Erin" in rounds
    assert "<strong>Alice</strong> v Carol" in rounds and "5-1" in rounds and "Scheduled" in rounds
    response = client.get(url("standings", tournament))
    page = text(response)
    assert response.status_code == 200
    for column in ("Buchholz", "Median-Buchholz", "Byes", "Points for"):
        assert column in page
    rows = page[page.index("<tbody>"):]
    assert rows.index("Alice") < rows.index("Carol")


def test_round_robin_standings_show_groups_and_points_difference(client, olga):
    tournament, (_alice, *_rest) = drawn(4, organiser=olga, format=Tournament.Format.ROUND_ROBIN)
    page = text(client.get(url("standings", tournament)))
    assert "Ranked in each group by wins, then head-to-head, then points difference." in page
    assert "Points difference" in page and "Buchholz" not in page


def field(count: int, prefix: str):
    """``count`` players named ``<prefix>1``... rated in that order (a second field beside the cast)."""
    return [player(f"{prefix}{i}", 2000.0 - 10 * i) for i in range(1, count + 1)]


def bracket_queries(client, count: int, olga) -> int:
    tournament, _ = drawn(count, organiser=olga, consolation_rounds=1, players=field(count, f"b{count}x"))
    for pairing in Pairing.objects.filter(tournament=tournament, round_number=1, flight="main",
                                          match__isnull=False).select_related("match__side0__player_a"):
        play(tournament, pairing.key, pairing.match.side0.player_a)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url("bracket", tournament)).status_code == 200
    return len(queries)


def standings_queries(client, count: int, olga) -> int:
    tournament, _ = drawn(count, organiser=olga, format=Tournament.Format.SWISS, players=field(count, f"s{count}x"))
    for pairing in Pairing.objects.filter(tournament=tournament, match__isnull=False).select_related(
            "match__side0__player_a")[: count // 4]:
        play(tournament, pairing.key, pairing.match.side0.player_a)
    with CaptureQueriesContext(connection) as queries:
        page = text(client.get(url("standings", tournament)))
    assert page.count("<tr class=") == count
    return len(queries)


@pytest.mark.parametrize("measure", [bracket_queries, standings_queries])
def test_the_bracket_and_standings_pages_take_the_same_queries_for_4_and_16_entrants(client, olga, measure):
    login(client, olga)
    assert measure(client, 16, olga) == measure(client, 4, olga)


# --- my next match ---------------------------------------------------------------------------


def test_a_player_sees_his_next_match_on_the_event_page_and_in_his_list(client, olga):
    tournament, (alice, _bob, _carol, _dave) = drawn(4, organiser=olga)
    _other, _ = drawn(2, organiser=olga, players=[alice, player("zed")], name="Second Open")
    login(client, alice.user)
    page = text(client.get(url("detail", tournament)))
    assert "Your next match" in page and "against <strong>Dave</strong>" in page
    first = Pairing.objects.get(tournament=tournament, key="main-1-1")
    assert reverse("matches:detail", args=[first.match_id]) in page

    play(tournament, "main-1-1", alice)
    page = text(client.get(url("mine")))
    assert "Second Open" in page and "against <strong>Zed</strong>" in page
    assert "against the winner of main-1-2" in page


@pytest.mark.parametrize("role", ["carol", "olga"])
def test_someone_not_in_a_running_event_has_no_next_match(client, olga, carol, role):
    tournament, _ = drawn(2, organiser=olga)
    login(client, {"carol": carol.user, "olga": olga}[role])
    assert "Your next match" not in text(client.get(url("detail", tournament)))
    page = text(client.get(url("mine")))
    assert ("You play in no running event." in page) if role == "carol" else ("no player profile" in page)


def test_my_next_matches_needs_signing_in(client):
    response = client.get(url("mine"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
