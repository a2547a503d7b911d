"""Divisions and handicaps through the API and the pages: the settings sent and
read back, a sign-up's division, the director's placing, each entrant's division and each
match's handicap start where they are shown, in queries that do not grow with the event."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Player, Side
from tests.matches.factories_api import client_for
from tests.tournaments.factories import closed, enter, make_organiser, player
from tournaments.models import Entry, Tournament
from tournaments.services import tournament_draw

pytestmark = pytest.mark.django_db

CHICAGO = [{"name": "Open"}, {"name": "Intermediate", "max_rating": 1650}, {"name": "Novice", "max_rating": 1500}]
ROWS = [{"division": "Intermediate", "against": "Open", "length": 7, "points": 1}]


def api(tournament, action: str = "") -> str:
    return f"/api/v1/tournaments/{tournament.pk}/{action + '/' if action else ''}"


def division_event(organiser, size: int = 2, **rules) -> Tournament:
    """A drawn event of ``size`` players: the first Open (rated 1900 down), the others Intermediate."""
    rules.setdefault("divisions", CHICAGO)
    rules.setdefault("handicaps", ROWS)
    rules.setdefault("lengths", {"main": 7} if rules.get("format") is None else {"rounds": 7})
    tournament = closed(organiser=organiser, **rules)
    players = [player(f"p{tournament.pk}x{i}", 1900 - i) for i in range(size)]
    enter(tournament, players[:1], division="Open")
    enter(tournament, players[1:], division="Intermediate")
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    return tournament


# --- API ------------------------------------------------------------------------------------------

def test_the_api_creates_an_event_with_divisions_and_reads_them_back():
    organiser = make_organiser()
    client = client_for(organiser)
    response = client.post("/api/v1/tournaments/", {"name": "Chicago", "divisions": CHICAGO}, format="json")
    assert response.status_code == 201, response.content
    rules = client.get(f"/api/v1/tournaments/{response.data['id']}/").data["rules"]
    assert [d["name"] for d in rules["divisions"]] == ["Open", "Intermediate", "Novice"]
    assert rules["handicaps"][0] == {"division": "Intermediate", "against": "Open", "length": 7, "points": 1}
    assert len(rules["handicaps"]) == 3  # the default table (divisions rule 6)
    patched = client.patch(f"/api/v1/tournaments/{response.data['id']}/", {"handicaps": ROWS}, format="json")
    assert patched.status_code == 200, patched.content
    assert Tournament.objects.get(pk=response.data["id"]).handicaps == ROWS


@pytest.mark.parametrize(("body", "field"), [
    ({"divisions": [{"name": "Open"}, {"name": "open"}]}, "divisions.1.name"),
    ({"divisions": CHICAGO, "handicaps": [{"division": "Novice", "against": "Open", "length": 7, "points": 9}]},
     "handicaps.0.points"),
    ({"divisions": "Open"}, "divisions"),
])
def test_the_api_refuses_bad_division_settings_naming_the_field_and_saves_nothing(body, field):
    organiser = make_organiser()
    response = client_for(organiser).post("/api/v1/tournaments/", {"name": "Chicago", **body}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "bad_rules" and response.data["field"] == field
    assert not Tournament.objects.filter(organiser=organiser).exists()


def test_the_api_signs_up_in_a_division_and_refuses_one_below_the_rating():
    organiser = make_organiser()
    tournament = closed(organiser=organiser, status=Tournament.Status.OPEN, divisions=CHICAGO, handicaps=ROWS)
    alice, bob = player("alice", 1400), player("bob", 1800)
    response = client_for(alice.user).post(api(tournament, "sign-up"), {"division": "Open"}, format="json")
    assert response.status_code == 201 and response.data["division"] == "Open"
    refused = client_for(bob.user).post(api(tournament, "sign-up"), {"division": "Novice"}, format="json")
    assert refused.status_code == 400 and refused.data["code"] == "not_eligible"
    assert refused.data["field"] == "division"
    assert not Entry.objects.filter(tournament=tournament, side__player_a=bob).exists()


def test_the_api_puts_an_entrant_in_a_division_for_the_organiser_only():
    organiser = make_organiser()
    tournament = closed(organiser=organiser, divisions=CHICAGO, handicaps=ROWS)
    alice = player("alice", 1400)
    [entry] = enter(tournament, [alice], division="Novice")
    path = api(tournament, f"entries/{entry.pk}/division")
    assert client_for(alice.user).post(path, {"division": "Open"}, format="json").status_code == 403
    assert client_for(organiser).post(path, {"division": "Pro"}, format="json").data["code"] == "unknown_division"
    assert client_for(organiser).post(path, {"division": "Open", "seed": 1}, format="json").status_code == 400
    response = client_for(organiser).post(path, {"division": "Open"}, format="json")
    assert response.status_code == 200 and response.data["division"] == "Open"
    assert Entry.objects.get(pk=entry.pk).division == "Open"


def test_the_api_shows_each_matchs_handicap_start_top_first():
    organiser = make_organiser()
    bracket = division_event(organiser)
    [match] = client_for().get(api(bracket, "bracket")).data["results"]
    assert match["top"]["division"] == "Open" and match["bottom"]["division"] == "Intermediate"
    assert match["handicap"] == [0, 1]
    swiss = division_event(organiser, size=4, format=Tournament.Format.SWISS)
    rows = client_for().get(api(swiss, "rounds")).data["results"]
    starts = {(r["top"]["division"], r["bottom"]["division"]): r["handicap"] for r in rows}
    assert starts in ({("Open", "Intermediate"): [0, 1], ("Intermediate", "Intermediate"): [0, 0]},
                      {("Intermediate", "Open"): [1, 0], ("Intermediate", "Intermediate"): [0, 0]})


def _bulk_event(organiser, size: int) -> Tournament:
    tournament = closed(organiser=organiser, divisions=CHICAGO, handicaps=ROWS, format=Tournament.Format.SWISS,
                        lengths={"rounds": 7})
    from accounts.models import User

    users = User.objects.bulk_create([User(username=f"d{tournament.pk}-{i}") for i in range(size)])
    players = Player.objects.bulk_create([Player(user=u, display_name=f"Player {i}", rating=1500 + i)
                                          for i, u in enumerate(users)])
    sides = Side.objects.bulk_create([Side(player_a=p) for p in players])
    Entry.objects.bulk_create([Entry(tournament=tournament, side=s, status=Entry.Status.CHECKED_IN,
                                     division=("Open", "Intermediate")[i % 2]) for i, s in enumerate(sides)])
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    return tournament


def _count(path: str, client=None) -> int:
    client = client or client_for()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries)


def test_the_entrants_and_rounds_with_divisions_take_the_same_queries_for_8_and_64_entrants():
    organiser = make_organiser()
    small, big = _bulk_event(organiser, 8), _bulk_event(organiser, 64)
    for action in ("entries", "rounds"):
        assert _count(api(small, action)) == _count(api(big, action)), action
    page = client_for()
    assert _count(f"/events/{small.pk}/rounds/", page) == _count(f"/events/{big.pk}/rounds/", page)
    assert _count(f"/events/{small.pk}/", page) == _count(f"/events/{big.pk}/", page)


# --- pages ----------------------------------------------------------------------------------------

def test_the_new_event_form_takes_divisions_and_handicaps_as_lines(client):
    organiser = make_organiser()
    client.force_login(organiser)
    form = {"name": "Chicago", "format": "single_elimination", "kind": "individual", "lengths_main": "7",
            "consolation_rounds": 0, "groups": 1, "crawford": "on", "move_policy": "legal",
            "premature_roll": "stands", "penalty_minutes_per_point": 5, "seeding": "rating",
            "divisions": "Open\nIntermediate: 0-1650\nNovice: 0-1500",
            "handicaps": "Intermediate, Open, 7, 1\nNovice, Open, 7, 2"}
    response = client.post("/events/new/", form)
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(organiser=organiser)
    assert tournament.divisions[1] == {"name": "Intermediate", "min_rating": 0.0, "max_rating": 1650.0}
    assert tournament.handicaps == [{"division": "Intermediate", "against": "Open", "length": 7, "points": 1},
                                    {"division": "Novice", "against": "Open", "length": 7, "points": 2}]
    page = client.get(f"/events/{tournament.pk}/").content.decode()
    assert "Intermediate (ratings from 0 to below 1650)" in page
    assert "Novice starts 2-0 against Open in a match to 7" in page
    edit = client.get(f"/events/{tournament.pk}/manage/edit/").content.decode()
    assert "Intermediate: 0-1650" in edit and "Novice, Open, 7, 2" in edit


@pytest.mark.parametrize(("divisions", "handicaps", "words"), [
    ("Open\nOpen", "", "line 2: two divisions cannot have the same name"),
    ("Open\nIntermediate: 1650", "", "line 2: a rating range is"),
    ("Open\nIntermediate", "Intermediate, Open, 7", "line 1: “division, against, length, points”"),
    ("Open\nIntermediate", "Intermediate, Open, 7, 1\nNovice, Open, 7, 1", "line 2: not one of the event&#x27;s"),
])
def test_the_new_event_form_refuses_a_bad_line_naming_it(client, divisions, handicaps, words):
    organiser = make_organiser()
    client.force_login(organiser)
    form = {"name": "Chicago", "format": "single_elimination", "kind": "individual", "consolation_rounds": 0,
            "groups": 1, "move_policy": "legal", "premature_roll": "stands", "penalty_minutes_per_point": 5,
            "seeding": "rating", "divisions": divisions, "handicaps": handicaps}
    response = client.post("/events/new/", form)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Tournament.objects.filter(organiser=organiser).exists()


def test_the_event_page_shows_divisions_and_the_sign_up_offers_them(client):
    organiser = make_organiser()
    tournament = closed(organiser=organiser, status=Tournament.Status.OPEN, divisions=CHICAGO, handicaps=ROWS)
    enter(tournament, [player("bob", 1600)], division="Intermediate")
    alice = player("alice", 1400)
    client.force_login(alice.user)
    page = client.get(f"/events/{tournament.pk}/").content.decode()
    assert 'class="entry-division">Intermediate<' in page
    assert '<option value="Novice">Novice</option>' in page
    response = client.post(f"/events/{tournament.pk}/sign-up/", {"division": "Intermediate"})
    assert response.status_code == 302
    assert Entry.objects.get(side__player_a=alice).division == "Intermediate"


def test_the_manage_page_sets_an_entrants_division(client):
    organiser = make_organiser()
    tournament = closed(organiser=organiser, divisions=CHICAGO, handicaps=ROWS)
    [entry] = enter(tournament, [player("alice", 1400)], division="Novice")
    client.force_login(organiser)
    assert "entry-division-form" in client.get(f"/events/{tournament.pk}/manage/").content.decode()
    response = client.post(f"/events/{tournament.pk}/manage/division/", {"entry": entry.pk, "division": "Open"})
    assert response.status_code == 302
    assert Entry.objects.get(pk=entry.pk).division == "Open"
    refused = client.post(f"/events/{tournament.pk}/manage/division/", {"entry": entry.pk, "division": "Pro"})
    assert refused.status_code == 400 and "Pro is not one of this event" in refused.content.decode()


def test_the_rounds_and_bracket_pages_show_the_handicap_start(client):
    organiser = make_organiser()
    bracket = division_event(organiser)
    page = client.get(f"/events/{bracket.pk}/bracket/").content.decode()
    names = list(Entry.objects.filter(tournament=bracket).order_by("-division").values_list(
        "side__player_a__display_name", flat=True))  # Open, then Intermediate
    assert f"{names[1]} starts 1-0 against {names[0]} (division handicap, a match to 7)" in page
    swiss = division_event(organiser, size=2, format=Tournament.Format.SWISS)
    page = client.get(f"/events/{swiss.pk}/rounds/").content.decode()
    assert "starts 1-0 against" in page and 'class="handicap-start"' in page
