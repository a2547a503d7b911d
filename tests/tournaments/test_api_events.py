"""/api/v1/tournaments/: list with filters, create, detail, and the organiser's actions (open,
close, draw, pair the next round, finish) with their object permissions and refusals."""

from types import SimpleNamespace

import pytest
from django.test import Client

from clubs.models import Club
from matches.models import Match
from tests.factories import PlayerFactory, TournamentFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import (
    cast as make_players,
)
from tests.tournaments.factories import (
    closed,
    drawn,
    enter,
    make_another_organiser,
    make_organiser,
    make_staff,
    override,
    snapshot,
)
from tournaments.models import Pairing, Round, Tournament

pytestmark = pytest.mark.django_db

LIST = "/api/v1/tournaments/"


def url(tournament, action: str = "") -> str:
    return f"/api/v1/tournaments/{tournament.pk}/{action + '/' if action else ''}"


@pytest.fixture
def cast():
    organiser = make_organiser()
    alice, bob, carol, dave = make_players(4)
    return SimpleNamespace(organiser=organiser, other_organiser=make_another_organiser(), staff=make_staff(),
                           alice=alice.user, bob=bob.user, carol=carol.user, players=(alice, bob, carol),
                           four=[alice, bob, carol, dave])


# --- list and detail -------------------------------------------------------------------------------


def test_it_lists_tournaments_to_anyone_with_filters(cast):
    cast.organiser.first_name, cast.organiser.last_name = "Olga", "Novak"
    cast.organiser.save()
    club = Club.objects.create(name="Riverside")
    mine = TournamentFactory(organiser=cast.organiser, status=Tournament.Status.OPEN, club=club)
    other = TournamentFactory(organiser=cast.other_organiser, status=Tournament.Status.RUNNING)
    TournamentFactory(organiser=cast.other_organiser, name="A draft")  # his alone
    client = client_for()
    response = client.get(LIST)
    assert response.status_code == 200 and response.data["count"] == 2
    assert {t["id"] for t in client.get(LIST, {"status": "open"}).data["results"]} == {mine.pk}
    assert {t["id"] for t in client.get(LIST, {"organiser": cast.other_organiser.pk}).data["results"]} == {other.pk}
    [item] = client.get(LIST, {"club": club.pk}).data["results"]
    assert item["club"] == {"id": club.pk, "name": "Riverside"}
    assert item["organiser"] == {"id": cast.organiser.pk, "display_name": "Olga Novak"}
    assert cast.organiser.email not in response.content.decode()


def test_an_organiser_is_named_by_his_display_name_never_by_his_username(cast, django_assert_max_num_queries):
    """The username is half of what signs a user in: anonymous visitors see the organiser's
    player name, else his full name, else "user N"."""
    PlayerFactory(user=cast.other_organiser, display_name="Oscar Wilde")
    TournamentFactory(organiser=cast.other_organiser, status=Tournament.Status.OPEN)
    TournamentFactory(organiser=cast.organiser, status=Tournament.Status.OPEN)
    with django_assert_max_num_queries(3):  # the count and the page: no query per organiser
        response = client_for().get(LIST)
    names = {t["organiser"]["id"]: t["organiser"]["display_name"] for t in response.data["results"]}
    assert names == {cast.other_organiser.pk: "Oscar Wilde", cast.organiser.pk: f"user {cast.organiser.pk}"}
    assert "olga" not in response.content.decode() and "oscar" not in response.content.decode()
    page = Client().get(f"/events/{Tournament.objects.get(organiser=cast.other_organiser).pk}/")
    assert "Oscar Wilde" in page.content.decode() and "oscar<" not in page.content.decode()


def test_a_bad_filter_is_a_400_naming_it(cast):
    response = client_for().get(LIST, {"status": "sleeping", "organiser": "x"})
    assert response.status_code == 400 and set(response.data["errors"]) == {"status", "organiser"}
    response = client_for().get(LIST, {"colour": "red"})
    assert response.status_code == 400 and response.data["errors"] == {"colour": ["unknown field"]}


def test_the_detail_shows_the_published_rules_and_the_draw_seed_once_drawn(cast):
    tournament = closed(organiser=cast.organiser, seeding=Tournament.Seeding.RANDOM,
                        lengths={"main": [5, 7], "consolation": 3}, consolation_rounds=1)
    before = client_for().get(url(tournament)).data
    assert before["status"] == "closed" and before["draw_seed"] is None and before["drawn_at"] is None
    assert before["rules"]["lengths"] == {"main": [5, 7], "consolation": 3}
    assert before["rules"]["consolation_rounds"] == 1 and before["rules"]["crawford"] is True
    enter(tournament, cast.players)
    response = client_for(cast.organiser).post(url(tournament, "draw"), {"seed": 42})
    assert response.status_code == 200 and response.data["draw_seed"] == 42 and response.data["status"] == "running"
    assert client_for().get(url(tournament)).data["draw_seed"] == 42


def test_an_unknown_tournament_is_a_404_json(cast):
    for client, method, path in ((client_for(), "get", "/api/v1/tournaments/999999/"),
                                 (client_for(), "get", "/api/v1/tournaments/999999/standings/"),
                                 (client_for(cast.organiser), "post", "/api/v1/tournaments/999999/draw/"),
                                 (client_for(cast.alice), "post", "/api/v1/tournaments/999999/sign-up/")):
        response = getattr(client, method)(path)
        assert response.status_code == 404, path
        assert response.json()["code"] == "not_found" and "999999" in response.json()["detail"]


# --- create -----------------------------------------------------------------------------------------


def test_an_organiser_creates_a_tournament_in_draft_with_its_rules(cast):
    body = {"name": "Spring Open", "format": "swiss", "swiss_rounds": 5, "lengths": {"rounds": [5, 5, 7]},
            "forbid_same_club": True, "starts_on": "2026-12-01"}
    response = client_for(cast.organiser).post(LIST, body)
    assert response.status_code == 201, response.data
    created = Tournament.objects.get(pk=response.data["id"])
    assert created.organiser == cast.organiser and created.status == "draft" and created.swiss_rounds == 5
    assert response.data["rules"]["lengths"] == {"rounds": [5, 5, 7]} and response.data["status"] == "draft"


def test_staff_may_create_a_tournament(cast):
    assert client_for(cast.staff).post(LIST, {"name": "Staff Cup"}).status_code == 201


@pytest.mark.parametrize(("role", "code"), [("anonymous", 401), ("alice", 403)])
def test_only_organisers_create_tournaments(cast, role, code):
    response = client_for(getattr(cast, role, None)).post(LIST, {"name": "Pirate Cup"})
    assert response.status_code == code
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"name": "X", "status": "running"}, "status", "this field is read-only"),
    ({"name": "X", "draw_seed": 7}, "draw_seed", "this field is read-only"),
    ({"name": "X", "organiser": 1}, "organiser", "this field is read-only"),
    ({"name": "X", "colour": "red"}, "colour", "unknown field"),
    ({"name": "X", "format": "knockout"}, "format", None),
    ({"format": "swiss"}, "name", None),
])
def test_a_bad_create_body_is_a_400_naming_the_field_and_saves_nothing(cast, body, field, message):
    response = client_for(cast.organiser).post(LIST, body)
    assert response.status_code == 400 and field in response.data["errors"]
    if message:
        assert response.data["errors"][field] == [message]
    assert not Tournament.objects.exists()


def test_rules_that_do_not_fit_the_format_are_refused_naming_the_field(cast):
    response = client_for(cast.organiser).post(LIST, {"name": "X", "format": "swiss", "consolation_rounds": 1})
    assert response.status_code == 400 and response.data["code"] == "bad_rules"
    assert response.data["field"] == "consolation_rounds" and response.data["detail"].startswith("Consolation flight: ")
    response = client_for(cast.organiser).post(LIST, {"name": "X", "lengths": {"mian": [5]}})
    assert response.status_code == 400 and response.data["field"] == "lengths.mian"
    assert response.data["detail"].startswith("Match lengths (Mian): ")
    response = client_for(cast.organiser).post(LIST, {"name": "X", "club": 999999})
    assert response.status_code == 400 and response.data["code"] == "unknown_club"
    assert response.data["errors"] == {"club": ["there is no club 999999"]}
    assert not Tournament.objects.exists()


# --- open and close ---------------------------------------------------------------------------------


def test_the_organiser_opens_and_closes_the_entries(cast):
    tournament = TournamentFactory(organiser=cast.organiser)
    client = client_for(cast.organiser)
    response = client.post(url(tournament, "open"))
    assert response.status_code == 200 and response.data["status"] == "open"
    response = client.post(url(tournament, "close"))
    assert response.status_code == 200 and response.data["status"] == "closed"
    tournament.refresh_from_db()
    assert tournament.status == "closed"


@pytest.mark.parametrize("action", ["open", "close", "draw", "pair-next-round", "finish"])
@pytest.mark.parametrize(("role", "code"), [("anonymous", 401), ("other_organiser", 403), ("alice", 403)])
def test_only_the_events_organiser_acts_on_it(cast, action, role, code):
    tournament = closed(organiser=cast.organiser)
    enter(tournament, cast.players)
    before = snapshot(tournament)
    response = client_for(getattr(cast, role, None)).post(url(tournament, action))
    assert response.status_code == code
    if code == 403:
        assert response.data["code"] == "not_organiser"
    assert snapshot(tournament) == before


def test_staff_act_on_any_event(cast):
    tournament = closed(organiser=cast.organiser)
    enter(tournament, cast.players)
    response = client_for(cast.staff).post(url(tournament, "draw"))
    assert response.status_code == 200 and response.data["status"] == "running"


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"status": "open"}, "status", "this field is read-only"),
    ({"please": True}, "please", "unknown field"),
])
def test_an_action_refuses_any_body_field_and_changes_nothing(cast, body, field, message):
    tournament = TournamentFactory(organiser=cast.organiser)
    response = client_for(cast.organiser).post(url(tournament, "open"), body)
    assert response.status_code == 400 and response.data["errors"] == {field: [message]}
    tournament.refresh_from_db()
    assert tournament.status == "draft"


# --- the draw ----------------------------------------------------------------------------------------


def test_the_draw_creates_the_first_matches_and_publishes_its_seed(cast):
    tournament = closed(organiser=cast.organiser, seeding=Tournament.Seeding.RANDOM)
    enter(tournament, cast.players)
    response = client_for(cast.organiser).post(url(tournament, "draw"))
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert response.data["draw_seed"] == tournament.draw_seed is not None
    assert Match.objects.filter(event_link__tournament=tournament).count() == 1  # three players: one bye, one match


def test_the_same_entrants_and_seed_give_the_same_draw(cast):
    keys = []
    for name in ("First", "Second"):
        tournament = closed(organiser=cast.organiser, seeding=Tournament.Seeding.RANDOM, name=name)
        enter(tournament, cast.players)
        client_for(cast.organiser).post(url(tournament, "draw"), {"seed": 2026})
        keys.append([(p.key, p.entry0.side_id if p.entry0 else None, p.entry1.side_id if p.entry1 else None)
                     for p in Pairing.objects.filter(tournament=tournament).select_related("entry0", "entry1")
                     .order_by("key")])
    assert keys[0] == keys[1]


def test_drawing_twice_is_a_409_already_drawn_and_changes_nothing(cast):
    tournament, _ = drawn(4, players=cast.four, organiser=cast.organiser)
    before = snapshot(tournament)
    response = client_for(cast.organiser).post(url(tournament, "draw"))
    assert response.status_code == 409 and response.data["code"] == "already_drawn"
    assert snapshot(tournament) == before


@pytest.mark.parametrize(("body", "status", "field_or_code"), [
    ({"seed": -1}, 400, "seed"),
    ({"seed": "abc"}, 400, "seed"),
    ({"draw_seed": 5}, 400, "draw_seed"),
    ({"seed": 5}, 400, "seed_unused"),  # seeded by rating: a random seed has no use
])
def test_a_bad_draw_body_is_refused_and_nothing_is_drawn(cast, body, status, field_or_code):
    tournament = closed(organiser=cast.organiser)
    enter(tournament, cast.players)
    before = snapshot(tournament)
    response = client_for(cast.organiser).post(url(tournament, "draw"), body)
    assert response.status_code == status
    assert field_or_code in response.data.get("errors", {}) or response.data["code"] == field_or_code
    assert snapshot(tournament) == before


def test_the_draw_while_entries_are_open_is_a_409(cast):
    tournament = TournamentFactory(organiser=cast.organiser, status=Tournament.Status.OPEN)
    enter(tournament, cast.players)
    response = client_for(cast.organiser).post(url(tournament, "draw"))
    assert response.status_code == 409 and response.data["code"] == "entries_open"
    assert not Pairing.objects.filter(tournament=tournament).exists()


# --- Swiss rounds and finishing ------------------------------------------------------------------------


def test_pairing_before_the_round_is_complete_is_a_409_and_changes_nothing(cast):
    tournament, players = drawn(4, players=cast.four, organiser=cast.organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    override(tournament, "swiss-1-1", players[0])
    before = snapshot(tournament)
    response = client_for(cast.organiser).post(url(tournament, "pair-next-round"))
    assert response.status_code == 409 and response.data["code"] == "round_incomplete"
    assert "round 1" in response.data["detail"]
    assert snapshot(tournament) == before


def test_the_organiser_pairs_the_next_round_once_the_round_is_complete(cast):
    tournament, players = drawn(4, players=cast.four, organiser=cast.organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    override(tournament, "swiss-1-1", players[0])
    override(tournament, "swiss-1-2", players[1])
    response = client_for(cast.organiser).post(url(tournament, "pair-next-round"))
    assert response.status_code == 200, response.data
    assert response.data["number"] == 2 and len(response.data["pairings"]) == 2
    assert Round.objects.filter(tournament=tournament).count() == 2
    # The two winners meet: equal records are paired.
    winners = {response.data["pairings"][0]["top"]["name"], response.data["pairings"][0]["bottom"]["name"]}
    assert winners == {"Alice", "Bob"}


def test_pairing_a_bracket_is_a_409(cast):
    tournament, _ = drawn(4, players=cast.four, organiser=cast.organiser)
    response = client_for(cast.organiser).post(url(tournament, "pair-next-round"))
    assert response.status_code == 409 and response.data["code"] == "not_swiss"


def test_finishing_needs_every_match_decided_then_the_event_is_finished(cast):
    tournament, players = drawn(2, players=cast.four[:2], organiser=cast.organiser)
    client = client_for(cast.organiser)
    response = client.post(url(tournament, "finish"))
    assert response.status_code == 409 and response.data["code"] == "event_unfinished"
    assert Tournament.objects.get(pk=tournament.pk).status == "running"
    override(tournament, "main-1-1", players[0])
    response = client.post(url(tournament, "finish"))
    assert response.status_code == 200 and response.data["status"] == "finished"
