"""/api/v1/tournaments/{id}/entries/, sign-up/, entries/{entry}/check-in/ and withdraw/,
late-entries/: who may enter whom, check in and withdraw, and the refusals that change nothing."""

from types import SimpleNamespace

import pytest

from matches.models import Match
from tests.factories import TournamentFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import (
    cast as make_players,
)
from tests.tournaments.factories import (
    closed,
    drawn,
    enter,
    entry_of,
    make_another_organiser,
    make_organiser,
    make_staff,
    player,
    snapshot,
)
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def url(tournament, action: str) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/{action}/"


def entry_url(tournament, entry, action: str) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/entries/{entry.pk}/{action}/"


@pytest.fixture
def cast():
    alice, bob, carol, dave, erin = make_players(5)
    return SimpleNamespace(organiser=make_organiser(), other_organiser=make_another_organiser(), staff=make_staff(),
                           alice=alice, bob=bob, carol=carol, players=[alice, bob, carol, dave, erin])


def open_event(cast, **rules) -> Tournament:
    return TournamentFactory(organiser=cast.organiser, status=Tournament.Status.OPEN, **rules)


# --- the entry list ---------------------------------------------------------------------------------


def test_anyone_reads_the_entry_list_in_entry_order_then_by_seed(cast):
    tournament = closed(organiser=cast.organiser)
    enter(tournament, [cast.carol, cast.alice, cast.bob])
    response = client_for().get(url(tournament, "entries"))
    listed = response.data["results"]  # the first page
    assert response.status_code == 200 and [e["name"] for e in listed] == ["Carol", "Alice", "Bob"]
    assert listed[0]["players"] == [{"id": cast.carol.pk, "display_name": "Carol"}]
    assert listed[0]["status"] == "checked_in" and listed[0]["seed"] is None
    client_for(cast.organiser).post(url(tournament, "draw"))
    drawn_list = client_for().get(url(tournament, "entries")).data["results"]
    assert [(e["name"], e["seed"]) for e in drawn_list] == [("Alice", 1), ("Bob", 2), ("Carol", 3)]


# --- the organiser adds ------------------------------------------------------------------------------


def test_the_organiser_adds_a_player_with_his_seed(cast):
    tournament = open_event(cast, seeding=Tournament.Seeding.ORGANISER)
    response = client_for(cast.organiser).post(url(tournament, "entries"), {"player_ids": [cast.bob.pk], "seed": 1})
    assert response.status_code == 201, response.data
    assert response.data["name"] == "Bob" and response.data["seed"] == 1 and response.data["status"] == "entered"
    assert Entry.objects.get(tournament=tournament).side.player_a == cast.bob


@pytest.mark.parametrize(("role", "code"), [("anonymous", 401), ("other_organiser", 403), ("alice", 403)])
def test_only_the_organiser_adds_entrants(cast, role, code):
    tournament = open_event(cast)
    user = getattr(cast, role, None)
    user = getattr(user, "user", user)
    response = client_for(user).post(url(tournament, "entries"), {"player_ids": [cast.bob.pk]})
    assert response.status_code == code
    assert not Entry.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize(("body", "status", "where"), [
    ({"player_ids": [999999]}, 400, "unknown_player"),
    ({"player_ids": []}, 400, "player_ids"),
    ({"player_ids": "alice"}, 400, "player_ids"),
    ({"player_ids": [1], "status": "checked_in"}, 400, "status"),
    ({"player_ids": [1], "late": True}, 400, "late"),
    ({"player_ids": [1], "nickname": "Al"}, 400, "nickname"),
])
def test_a_bad_entry_is_refused_naming_what_is_wrong_and_nothing_is_saved(cast, body, status, where):
    tournament = open_event(cast)
    response = client_for(cast.organiser).post(url(tournament, "entries"), body)
    assert response.status_code == status
    assert where in response.data.get("errors", {}) or response.data["code"] == where
    if where == "unknown_player":
        assert "999999" in response.data["detail"]
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_entering_a_player_twice_is_a_409(cast):
    tournament = open_event(cast)
    enter(tournament, [cast.bob])
    response = client_for(cast.organiser).post(url(tournament, "entries"), {"player_ids": [cast.bob.pk]})
    assert response.status_code == 409 and response.data["code"] == "already_entered"
    assert Entry.objects.filter(tournament=tournament).count() == 1


# --- sign-up -------------------------------------------------------------------------------------------


def test_a_player_signs_himself_up(cast):
    tournament = open_event(cast)
    response = client_for(cast.alice.user).post(url(tournament, "sign-up"))
    assert response.status_code == 201 and response.data["name"] == "Alice"
    assert Entry.objects.get(tournament=tournament).side.player_a == cast.alice


def test_a_pair_signs_up_with_the_partner_and_who_rolls(cast):
    tournament = open_event(cast, kind=Tournament.Kind.PAIRS)
    response = client_for(cast.alice.user).post(url(tournament, "sign-up"),
                                                {"partner_id": cast.bob.pk, "rolls": cast.bob.pk})
    assert response.status_code == 201, response.data
    assert {p["id"] for p in response.data["players"]} == {cast.alice.pk, cast.bob.pk}
    assert response.data["roller"] in ("a", "b")


def test_a_sign_up_is_refused_when_entries_are_closed_or_the_body_is_wrong(cast):
    tournament = closed(organiser=cast.organiser)
    response = client_for(cast.alice.user).post(url(tournament, "sign-up"))
    assert response.status_code == 409 and response.data["code"] == "entries_closed"
    tournament = open_event(cast)
    response = client_for(cast.alice.user).post(url(tournament, "sign-up"), {"player_ids": [cast.bob.pk]})
    assert response.status_code == 400 and response.data["errors"] == {"player_ids": ["this field is read-only"]}
    response = client_for(cast.alice.user).post(url(tournament, "sign-up"), {"partner_id": 999999})
    assert response.status_code == 400 and response.data["code"] == "partner_not_allowed"
    assert client_for().post(url(tournament, "sign-up")).status_code == 401
    assert not Entry.objects.filter(tournament__in=Tournament.objects.all()).exists()


def test_a_user_without_a_player_cannot_sign_up(cast):
    tournament = open_event(cast)
    response = client_for(cast.other_organiser).post(url(tournament, "sign-up"))
    assert response.status_code == 403 and response.data["code"] == "no_player"
    assert not Entry.objects.exists()


# --- check-in -------------------------------------------------------------------------------------------


def test_a_player_checks_in_his_own_entry(cast):
    tournament = closed(organiser=cast.organiser)
    [entry] = enter(tournament, [cast.alice], checked_in=False)
    response = client_for(cast.alice.user).post(entry_url(tournament, entry, "check-in"))
    assert response.status_code == 200 and response.data["status"] == "checked_in"
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN


def test_the_organiser_checks_in_any_entry(cast):
    tournament = closed(organiser=cast.organiser)
    [entry] = enter(tournament, [cast.alice], checked_in=False)
    assert client_for(cast.organiser).post(entry_url(tournament, entry, "check-in")).status_code == 200


@pytest.mark.parametrize(("role", "code"), [("anonymous", 401), ("bob", 403), ("other_organiser", 403)])
def test_nobody_else_checks_an_entry_in(cast, role, code):
    tournament = closed(organiser=cast.organiser)
    [entry] = enter(tournament, [cast.alice], checked_in=False)
    user = getattr(cast, role, None)
    response = client_for(getattr(user, "user", user)).post(entry_url(tournament, entry, "check-in"))
    assert response.status_code == code
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ENTERED


def test_checking_in_an_entry_of_another_event_is_a_400_unknown_entry(cast):
    tournament = closed(organiser=cast.organiser)
    [elsewhere] = enter(closed(organiser=cast.organiser), [cast.alice], checked_in=False)
    response = client_for(cast.organiser).post(entry_url(tournament, elsewhere, "check-in"))
    assert response.status_code == 400 and response.data["code"] == "unknown_entry"
    elsewhere.refresh_from_db()
    assert elsewhere.status == Entry.Status.ENTERED


def test_check_in_while_entries_are_open_is_a_409(cast):
    tournament = open_event(cast)
    [entry] = enter(tournament, [cast.alice], checked_in=False)
    response = client_for(cast.alice.user).post(entry_url(tournament, entry, "check-in"))
    assert response.status_code == 409 and response.data["code"] == "check_in_not_open"


# --- withdrawal -------------------------------------------------------------------------------------------


def test_withdrawing_before_the_draw_removes_the_entry(cast):
    tournament = open_event(cast)
    [entry] = enter(tournament, [cast.alice], checked_in=False)
    response = client_for(cast.alice.user).post(entry_url(tournament, entry, "withdraw"))
    assert response.status_code == 204
    assert not Entry.objects.filter(pk=entry.pk).exists()


def test_withdrawing_after_the_draw_forfeits_the_open_match(cast):
    tournament, _ = drawn(2, players=cast.players[:2], organiser=cast.organiser)
    entry = entry_of(tournament, cast.bob)
    response = client_for(cast.bob.user).post(entry_url(tournament, entry, "withdraw"))
    assert response.status_code == 200 and response.data["status"] == "withdrawn"
    match = Match.objects.get(event_link__tournament=tournament)
    assert match.status == Match.Status.CONFIRMED
    response = client_for(cast.bob.user).post(entry_url(tournament, entry, "withdraw"))
    assert response.status_code == 409 and response.data["code"] == "already_withdrawn"


@pytest.mark.parametrize(("role", "code"), [("anonymous", 401), ("carol", 403), ("other_organiser", 403)])
def test_a_player_withdraws_only_his_own_entry(cast, role, code):
    tournament, _ = drawn(2, players=cast.players[:2], organiser=cast.organiser)
    before = snapshot(tournament)
    user = getattr(cast, role, None)
    response = client_for(getattr(user, "user", user)).post(entry_url(tournament, entry_of(tournament, cast.bob), "withdraw"))
    assert response.status_code == code
    if code == 403:
        assert response.data["code"] == "not_your_entry"
    assert snapshot(tournament) == before


# --- late entries ------------------------------------------------------------------------------------------


def test_the_organiser_adds_a_late_entrant_into_a_bye_as_the_last_seed(cast):
    tournament, _ = drawn(3, players=cast.players[:3], organiser=cast.organiser)
    dave = cast.players[3]
    response = client_for(cast.organiser).post(url(tournament, "late-entries"), {"player_ids": [dave.pk]})
    assert response.status_code == 201, response.data
    assert response.data["seed"] == 4 and response.data["late"] is True and response.data["status"] == "checked_in"


def test_a_late_entry_into_a_full_bracket_is_a_409_and_changes_nothing(cast):
    tournament, _ = drawn(4, players=cast.players[:4], organiser=cast.organiser)
    before = snapshot(tournament)
    response = client_for(cast.organiser).post(url(tournament, "late-entries"), {"player_ids": [cast.players[4].pk]})
    assert response.status_code == 409 and response.data["code"] == "late_entry_closed"
    assert snapshot(tournament) == before


@pytest.mark.parametrize(("role", "code"), [("anonymous", 401), ("other_organiser", 403), ("carol", 403)])
def test_only_the_organiser_adds_late_entrants(cast, role, code):
    tournament, _ = drawn(3, players=cast.players[:3], organiser=cast.organiser)
    before = snapshot(tournament)
    user = getattr(cast, role, None)
    response = client_for(getattr(user, "user", user)).post(url(tournament, "late-entries"),
                                                            {"player_ids": [cast.players[3].pk]})
    assert response.status_code == code
    assert snapshot(tournament) == before


def test_a_late_entry_naming_an_unknown_player_or_a_seed_is_refused(cast):
    tournament, _ = drawn(3, players=cast.players[:3], organiser=cast.organiser)
    before = snapshot(tournament)
    client = client_for(cast.organiser)
    response = client.post(url(tournament, "late-entries"), {"player_ids": [999999]})
    assert response.status_code == 400 and response.data["code"] == "unknown_player"
    response = client.post(url(tournament, "late-entries"), {"player_ids": [cast.players[3].pk], "seed": 1})
    assert response.status_code == 400 and response.data["errors"] == {"seed": ["this field is read-only"]}
    assert snapshot(tournament) == before


def test_a_late_entry_before_the_draw_is_a_409(cast):
    tournament = closed(organiser=cast.organiser)
    response = client_for(cast.organiser).post(url(tournament, "late-entries"), {"player_ids": [player("zed").pk]})
    assert response.status_code == 409 and response.data["code"] == "not_drawn"
