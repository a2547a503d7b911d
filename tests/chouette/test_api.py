"""The chouette API (/api/v1/clubs/<club_id>/chouettes/...): who reads and who acts, the table's state
as members see it, every write, refusals with their code and field (nothing saved), 404s and the
``reports`` throttle on recording games. The usual table: Ann is the Box, Otis the Captain, Mia and
Max the crew; Otis organises the club, Mia and Max are members, Xavier is an outsider."""

from __future__ import annotations

import pytest

from chouette.models import ChouetteSession, ChouetteStep
from chouette.services import chouette_game_void
from tests.chouette.factories import chouette_snapshot, full_record, play, quick, table
from tests.clubs.factories import club_cast
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db


def url(cast, session=None, tail: str = "") -> str:
    base = f"/api/v1/clubs/{cast.club.pk}/chouettes/"
    return base if session is None else f"{base}{session.pk}/{tail}"


# --- reading -----------------------------------------------------------------------------------------


def test_a_member_sees_the_line_up_the_games_the_ledger_and_the_settlement(cast, p, session):
    body = client_for(cast.members[1]).get(url(cast, session)).json()
    assert [(seat["display_name"], seat["role"], seat["points"], seat["money"]) for seat in body["lineup"]] == [
        ("Ann", "box", 4, "10.00"), ("Mia", "captain", -1, "-2.50"), ("Max", "crew", -1, "-2.50"),
        ("Otis", "crew", -2, "-5.00")]
    assert (body["status"], body["version"], body["game_count"], body["settings"]["stake"]) == ("open", 2, 1, "2.50")
    game = body["games"][0]
    assert (game["number"], game["step"], game["kind"], game["winner"], game["box"], game["captain"]) == (
        1, 2, "quick", "box", p["ann"], p["otis"])
    assert [(c["display_name"], c["value"], c["end"]) for c in game["cubes"]] == [
        ("Otis", 2, "played"), ("Mia", 1, "played"), ("Max", 1, "played")]
    assert [(a["display_name"], a["role"], a["points"], a["money"]) for a in game["amounts"]] == [
        ("Ann", "box", 4, "10.00"), ("Otis", "captain", -2, "-5.00"), ("Mia", "crew", -1, "-2.50"),
        ("Max", "crew", -1, "-2.50")]
    assert [(row["display_name"], row["points"]) for row in body["ledger"]] == [
        ("Ann", 4), ("Otis", -2), ("Mia", -1), ("Max", -1)]
    assert [(t["payer_name"], t["payee_name"], t["points"], t["money"]) for t in body["settlement"]] == [
        ("Otis", "Ann", 2, "5.00"), ("Mia", "Ann", 1, "2.50"), ("Max", "Ann", 1, "2.50")]
    assert [(s["number"], s["kind"]) for s in body["steps"]] == [(1, "start"), (2, "game")]


@pytest.mark.parametrize("tail", ["", "version/", "settlement/", "games/1/"])
def test_nobody_outside_the_club_sees_a_table_and_its_amounts(cast, session, tail):
    assert client_for().get(url(cast, session, tail)).status_code == 401
    for user in (cast.outsider, cast.requester, cast.invitee):
        response = client_for(user).get(url(cast, session, tail))
        assert response.status_code == 403 and response.json()["code"] == "not_club_member"
        assert "10.00" not in response.content.decode() and "Ann" not in response.content.decode()
    assert client_for(cast.members[0]).get(url(cast, session, tail)).status_code == 200


def test_the_club_list_of_tables_is_for_members(cast, session):
    body = client_for(cast.members[0]).get(url(cast)).json()
    assert [(row["name"], row["status"], row["game_count"], row["stake"]) for row in body["results"]] == [
        ("Big table", "open", 1, "2.50")]
    assert client_for(cast.outsider).get(url(cast)).status_code == 403
    assert client_for().get(url(cast)).status_code == 401


def test_the_version_moves_on_with_every_change(cast, session):
    member = client_for(cast.members[0])
    assert member.get(url(cast, session, "version/")).json() == {"id": session.pk, "version": 2, "status": "open"}
    client_for(cast.organiser).post(url(cast, session, "games/"), {"kind": "quick", "record": quick("box")},
                                    format="json")
    assert member.get(url(cast, session, "version/")).json()["version"] == 3


def test_unknown_tables_and_games_are_404(cast, session):
    member = client_for(cast.members[0])
    assert member.get(url(cast, session, "games/2/")).status_code == 404
    assert member.get(f"{url(cast)}{session.pk + 1000}/").status_code == 404
    other = club_cast(name="Other Club", owner=cast.owner, organiser=cast.organiser, members=[cast.members[0]],
                      requester=cast.requester, invitee=cast.invitee, outsider=cast.outsider)
    assert member.get(f"/api/v1/clubs/{other.club.pk}/chouettes/{session.pk}/").status_code == 404
    assert client_for(cast.organiser).post(f"/api/v1/clubs/{other.club.pk}/chouettes/{session.pk}/end/",
                                           {}, format="json").status_code == 404
    assert member.get("/api/v1/clubs/999999/chouettes/").status_code == 404


@pytest.fixture
def long_session(cast):
    """23 games, Box and team winning by turns, some gammons; the last one voided: more games than a
    table's state carries unless asked."""
    session = table(cast)
    for number in range(1, 24):
        play(cast, session, quick("box" if number % 3 else "team", level=2 if number % 5 == 0 else 1))
    chouette_game_void(club_id=cast.club.pk, chouette_id=session.pk, number=23, user=cast.organiser)
    return session


def test_a_table_s_state_carries_its_last_twenty_games_unless_asked_and_counts_them_all(cast, long_session):
    body = client_for(cast.members[0]).get(url(cast, long_session)).json()
    assert body["game_count"] == 23
    assert [game["number"] for game in body["games"]] == list(range(23, 3, -1))
    assert (body["games"][0]["voided"], body["games"][1]["voided"]) == (True, False)
    # An empty value is no value, as for every query parameter of the API.
    assert client_for(cast.members[0]).get(url(cast, long_session), {"games": ""}).json()["games"] == body["games"]


def test_a_write_answers_the_tables_state_with_its_last_twenty_games(cast, long_session):
    response = client_for(cast.organiser).post(url(cast, long_session, "games/"),
                                               {"kind": "quick", "record": quick("team")}, format="json")
    body = response.json()
    assert response.status_code == 201 and body["game_count"] == 24
    assert [game["number"] for game in body["games"]] == list(range(24, 4, -1))


@pytest.mark.parametrize(("games", "numbers"), [("3", [23, 22, 21]), ("1", [23]), ("0", []), ("all", list(range(23, 0, -1))),
                                                ("50", list(range(23, 0, -1)))])
def test_games_asks_for_that_many_of_the_most_recent_games_or_all_of_them(cast, long_session, games, numbers):
    body = client_for(cast.members[0]).get(url(cast, long_session), {"games": games}).json()
    assert [game["number"] for game in body["games"]] == numbers
    assert body["game_count"] == 23


def test_the_games_shown_are_the_same_rows_as_in_the_whole_table(cast, long_session):
    member = client_for(cast.members[0])
    every = member.get(url(cast, long_session), {"games": "all"}).json()["games"]
    assert member.get(url(cast, long_session), {"games": "5"}).json()["games"] == every[:5]
    assert member.get(url(cast, long_session, "games/19/")).json() == every[23 - 19]


def test_the_ledger_settlement_line_up_and_steps_do_not_depend_on_how_many_games_are_shown(cast, long_session):
    member = client_for(cast.members[0])
    states = [member.get(url(cast, long_session), query).json() for query in ({}, {"games": "0"}, {"games": "2"},
                                                                             {"games": "all"})]
    rest = [{key: value for key, value in state.items() if key != "games"} for state in states]
    assert rest[1:] == [rest[0]] * 3
    ledger = {row["display_name"]: row["points"] for row in rest[0]["ledger"]}
    assert sum(ledger.values()) == 0 and any(ledger.values())
    played = [game for game in states[3]["games"] if not game["voided"]]
    for name in ledger:  # the ledger is every game's amounts, including the 20 older than those shown by default
        assert ledger[name] == sum(a["points"] for game in played for a in game["amounts"] if a["display_name"] == name)
    settlement = member.get(url(cast, long_session, "settlement/")).json()
    assert (settlement["transfers"], settlement["ledger"]) == (rest[0]["settlement"], rest[0]["ledger"])


@pytest.mark.parametrize("games", ["-1", "ten", "2.5", "ALL", "1e3", " 3", "\u0663"])
def test_a_bad_games_value_is_a_400_naming_it_and_changes_nothing(cast, long_session, games):
    before = chouette_snapshot(long_session)
    response = client_for(cast.members[0]).get(url(cast, long_session), {"games": games})
    assert response.status_code == 400
    assert "games" in response.json()["errors"]
    assert chouette_snapshot(long_session) == before


def test_an_outsider_asking_for_games_is_still_refused_as_an_outsider(cast, long_session):
    for games in ("all", "ten"):
        response = client_for(cast.outsider).get(url(cast, long_session), {"games": games})
        assert (response.status_code, response.json()["code"]) == (403, "not_club_member")


# --- writing -----------------------------------------------------------------------------------------------


def test_the_organiser_starts_a_table_through_the_api(cast, p):
    response = client_for(cast.organiser).post(url(cast), {
        "name": "Friday", "rolloff": [[[p["mia"], 6], [p["max"], 6], [p["ann"], 2]], [[p["mia"], 1], [p["max"], 4]]],
        "beavers": True, "raccoons": True, "automatic_doubles": 1, "stake": "0.50"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert [seat["display_name"] for seat in body["lineup"]] == ["Max", "Mia", "Ann"]
    assert (body["settings"]["raccoons"], body["settings"]["automatic_doubles"], body["settings"]["stake"]) == (
        True, 1, "0.50")


def test_starting_is_for_owners_and_organisers_and_a_bad_table_is_refused_with_its_field(cast, p):
    body = {"rolloff": [[[p["ann"], 6], [p["otis"], 5]]]}
    assert client_for().post(url(cast), body, format="json").status_code == 401
    for user in (cast.members[0], cast.outsider):
        assert client_for(user).post(url(cast), body, format="json").status_code == 403
    organiser = client_for(cast.organiser)
    response = organiser.post(url(cast), {**body, "raccoons": True}, format="json")
    assert response.status_code == 400
    assert {key: response.json()[key] for key in ("code", "field")} == {"code": "raccoons_without_beavers",
                                                                        "field": "raccoons"}
    response = organiser.post(url(cast), {"rolloff": [[[p["ann"], 6], [p["xavier"], 5]]]}, format="json")
    assert (response.status_code, response.json()["code"], response.json()["field"]) == (
        400, "unknown_player", "rolloff[0][1][0]")
    response = organiser.post(url(cast), {**body, "status": "ended"}, format="json")
    assert (response.status_code, response.json()["errors"]) == (400, {"status": ["this field is read-only"]})
    assert not ChouetteSession.objects.exists()


def test_recording_a_game_answers_the_new_state_and_a_bad_record_names_its_field(cast, p, session):
    organiser = client_for(cast.organiser)
    response = organiser.post(url(cast, session, "games/"), {
        "kind": "quick", "record": quick("team", cubes={p["max"]: (2, "member_dropped")}), "version": 2},
        format="json")
    assert response.status_code == 201
    body = response.json()
    # Mia captained and won: she is the Box, Ann goes to the bottom.
    assert [seat["display_name"] for seat in body["lineup"]] == ["Mia", "Max", "Otis", "Ann"]
    assert [(a["display_name"], a["points"]) for a in body["games"][0]["amounts"]] == [
        ("Ann", 0), ("Mia", 1), ("Max", -2), ("Otis", 1)]
    before = chouette_snapshot(session)
    cases = [
        (quick("box", cubes={p["otis"]: 3}), 400, "bad_cube_value", "cubes[0].value"),
        (quick("box", amounts={p["mia"]: 1}), 400, "amounts_unbalanced", "amounts"),
        (quick("box", cubes={p["ann"]: (2, "member_dropped")},
               log=[{"type": "box_double", "answers": [[p["ann"], "beaver"]]}]), 400, "beavers_not_allowed", "log[0]"),
    ]
    for record, status, code, field in cases:
        response = organiser.post(url(cast, session, "games/"), {"kind": "quick", "record": record}, format="json")
        assert (response.status_code, response.json()["code"], response.json().get("field")) == (status, code, field)
    response = organiser.post(url(cast, session, "games/"), {"kind": "quick", "record": quick("box"), "version": 2},
                              format="json")
    assert (response.status_code, response.json()["code"], response.json()["version"]) == (409, "stale_table", 3)
    response = organiser.post(url(cast, session, "games/"), {"kind": "sketch", "record": {}}, format="json")
    assert response.status_code == 400 and "kind" in response.json()["errors"]
    assert client_for(cast.members[0]).post(url(cast, session, "games/"), {"kind": "quick", "record": quick("box")},
                                            format="json").status_code == 403
    assert chouette_snapshot(session) == before


def test_a_full_record_is_taken_and_a_bad_board_action_is_located_by_its_index(cast, p):
    session = table(cast)
    organiser = client_for(cast.organiser)
    record = full_record(p)
    record["board_log"][3] = {"type": "move", "side": 1, "play": "24/18 24/18"}
    response = organiser.post(url(cast, session, "games/"), {"kind": "full", "record": record}, format="json")
    assert response.status_code == 400
    assert {key: response.json()[key] for key in ("code", "field", "action_index")} == {
        "code": "board_log", "field": "board_log[3]", "action_index": 3}
    response = organiser.post(url(cast, session, "games/"), {"kind": "full", "record": full_record(p)}, format="json")
    assert response.status_code == 201
    game = response.json()["games"][0]
    assert (game["kind"], game["winner"], len(game["record"]["board_log"])) == ("full", "team", 12)
    assert [(a["display_name"], a["points"]) for a in game["amounts"]] == [("Ann", -3), ("Otis", -1), ("Mia", 2),
                                                                          ("Max", 2)]


def test_a_game_is_read_amended_and_voided_through_its_number(cast, p, session):
    organiser = client_for(cast.organiser)
    game = organiser.get(url(cast, session, "games/1/")).json()
    assert (game["number"], game["record"]["winner"], game["amended"]) == (1, "box", 0)
    response = organiser.put(url(cast, session, "games/1/"), {"kind": "quick", "record": quick("team")}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert [seat["display_name"] for seat in body["lineup"]] == ["Otis", "Mia", "Max", "Ann"]
    assert (body["games"][0]["amended"], body["games"][0]["winner"]) == (1, "team")
    response = organiser.delete(url(cast, session, "games/1/") + "?version=2")
    assert (response.status_code, response.json()["code"]) == (409, "stale_table")
    response = organiser.delete(url(cast, session, "games/1/") + "?version=3")
    assert response.status_code == 200
    body = response.json()
    assert (body["games"][0]["voided"], body["games"][0]["amounts"]) == (True, None)
    assert [row["points"] for row in body["ledger"]] == [0, 0, 0, 0]
    assert [seat["display_name"] for seat in body["lineup"]] == ["Ann", "Otis", "Mia", "Max"]
    assert client_for(cast.members[0]).delete(url(cast, session, "games/1/")).status_code == 403
    assert organiser.put(url(cast, session, "games/9/"), {"kind": "quick", "record": quick("team")},
                         format="json").status_code == 404


def test_a_correction_a_later_game_does_not_survive_is_a_409_naming_that_step(cast, p, session):
    organiser = client_for(cast.organiser)
    organiser.post(url(cast, session, "games/"), {"kind": "quick", "record": quick("box")}, format="json")
    before = chouette_snapshot(session)
    response = organiser.delete(url(cast, session, "games/1/"))
    assert response.status_code == 409
    assert {key: response.json()[key] for key in ("code", "step", "game", "reason")} == {
        "code": "later_games_to_amend", "step": 3, "game": 2, "reason": "captain_changed"}
    assert "game 2 was played by Mia as Captain against Ann" in response.json()["detail"]
    assert chouette_snapshot(session) == before


def test_players_join_and_leave_through_the_api(cast, p, session):
    organiser = client_for(cast.organiser)
    response = organiser.post(url(cast, session, "leave/"), {"player": p["mia"]}, format="json")
    assert [seat["display_name"] for seat in response.json()["lineup"]] == ["Ann", "Max", "Otis"]
    response = organiser.post(url(cast, session, "join/"), {"player": p["mia"]}, format="json")
    assert [seat["display_name"] for seat in response.json()["lineup"]] == ["Ann", "Max", "Otis", "Mia"]
    response = organiser.post(url(cast, session, "join/"), {"player": p["mia"]}, format="json")
    assert (response.status_code, response.json()["code"], response.json()["field"]) == (409, "duplicate_player",
                                                                                       "player")
    response = organiser.post(url(cast, session, "join/"), {"player": p["xavier"]}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "unknown_player")
    assert client_for(cast.members[0]).post(url(cast, session, "join/"), {"player": p["mia"]},
                                            format="json").status_code == 403
    assert ChouetteStep.objects.filter(session=session).count() == 4


def test_the_end_gives_the_final_settlement(cast, session):
    organiser = client_for(cast.organiser)
    response = organiser.post(url(cast, session, "end/"), {}, format="json")
    assert (response.status_code, response.json()["status"]) == (200, "ended")
    body = client_for(cast.members[0]).get(url(cast, session, "settlement/")).json()
    assert (body["final"], body["stake"], body["currency"]) == (True, "2.50", "EUR")
    assert [(t["payer_name"], t["payee_name"], t["money"]) for t in body["transfers"]] == [
        ("Otis", "Ann", "5.00"), ("Mia", "Ann", "2.50"), ("Max", "Ann", "2.50")]
    response = organiser.post(url(cast, session, "games/"), {"kind": "quick", "record": quick("box")}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "chouette_ended")
    assert client_for(cast.members[0]).post(url(cast, session, "end/"), {}, format="json").status_code == 403


def test_recording_games_uses_the_reports_rate(cast, session, throttle_rates):
    throttle_rates(reports="1/minute")
    organiser = client_for(cast.organiser)
    assert organiser.post(url(cast, session, "games/"), {"kind": "quick", "record": quick("box")},
                          format="json").status_code == 201
    before = chouette_snapshot(session)
    throttled = organiser.post(url(cast, session, "games/"), {"kind": "quick", "record": quick("box")}, format="json")
    assert (throttled.status_code, throttled.json()["code"]) == (429, "throttled")
    assert chouette_snapshot(session) == before
    assert organiser.get(url(cast, session)).status_code == 200  # reading is not counted
