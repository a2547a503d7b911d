"""The chouette house rules as settings of a table: set when the table starts
(service, API, the start page), shown on the table page and in its state, and enforced by the engine
when a game is recorded: a record that breaks a rule the table plays by is refused with the rule's
code, its field and nothing saved, and the same record stands at a table without the rule. Jacoby
with automatic doubles: a new table does not count them (a gammon on a cube turned only
automatically counts single), a table from before the setting keeps counting them (the migration).

The usual table: Ann rolls 6, Otis 5, Mia 4, Max 3, so Ann is the Box, Otis the Captain, Mia and Max
the crew (Max at the bottom). A table of three leaves Max out.
"""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEntry
from chouette import selectors
from chouette.models import ChouetteSession
from chouette.selectors import chouette_state
from chouette.services import chouette_end, chouette_game_record, chouette_rules_change
from core.errors import Conflict, DomainError, NotAllowed
from engine.chouette import session as engine_session
from tests.chouette.factories import chouette_snapshot, ids, play, quick, table
from tests.clubs.factories import club_cast
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

THREE = (("ann", 6), ("otis", 5), ("mia", 4))


def team_double(*doublers, box_drops=(), beavers=()) -> dict:
    return {"type": "team_double", "doublers": list(doublers), "box_drops": list(box_drops), "beavers": list(beavers)}


def box_double(*answers) -> dict:
    return {"type": "box_double", "answers": [list(answer) for answer in answers]}


def lineup(session) -> list[str]:
    return [seat.display_name for seat in chouette_state(session=session).lineup]


def ledger(session) -> dict[str, int]:
    return {row.display_name: row.points for row in chouette_state(session=session).ledger}


# Each case: the rule's settings, the table's dice, a record breaking it (built from the ids), its
# code and field. At a table without the rule (the same settings less the rule) the record stands.
CASES = [
    pytest.param({"three_handed_both_cubes": True}, THREE, lambda p: quick(
        "team", cubes={p["mia"]: (1, "box_dropped"), p["otis"]: 2},
        log=[team_double(p["mia"], p["otis"], box_drops=[p["mia"]])]),
        "three_handed_both_cubes", "log[0]", id="three-handed: the Box takes both cubes or passes both"),
    pytest.param({"box_must_take_captain": True}, None, lambda p: quick(
        "team", cubes={p["otis"]: (1, "box_dropped"), p["mia"]: 2, p["max"]: 2},
        log=[team_double(p["max"], p["mia"], p["otis"], box_drops=[p["otis"]])]),
        "box_must_take_captain", "log[0]", id="the Box must take the Captain's cube"),
    pytest.param({"beavers": True, "captain_alone_must_beaver": True}, None, lambda p: quick(
        "box", cubes={p["max"]: (1, "member_dropped"), p["mia"]: (1, "member_dropped"), p["otis"]: 2},
        log=[box_double((p["max"], "drop"), (p["mia"], "drop"), (p["otis"], "take"))]),
        "captain_alone_must_beaver", "log[0]", id="a Captain taking alone must beaver"),
    pytest.param({"box_partner_from": 3, "box_partner_next_in_line": True}, None, lambda p: quick(
        "box", box_partner=p["max"]), "box_partner_not_next", "box_partner",
        id="partner convention: the partner is the next in line"),
]
WITHOUT = {"three_handed_both_cubes": {}, "box_must_take_captain": {}, "captain_alone_must_beaver": {"beavers": True},
           "box_partner_next_in_line": {"box_partner_from": 3}}


@pytest.mark.parametrize(("settings", "dice", "record", "code", "field"), CASES)
def test_a_game_that_breaks_a_house_rule_is_refused_with_its_code_and_stands_at_a_table_without_it(
        settings, dice, record, code, field):
    cast = club_cast()
    p = ids(cast)
    strict = table(cast, name="strict", **({"dice": dice} if dice else {}), **settings)
    before = chouette_snapshot(strict)
    with pytest.raises(DomainError) as caught:
        play(cast, strict, record(p))
    assert (caught.value.code, caught.value.details["field"]) == (code, field)
    assert caught.value.message.startswith("cube moment 0: house rule") or code == "box_partner_not_next"
    assert chouette_snapshot(strict) == before
    rule = next(name for name in settings if name in WITHOUT)
    lenient = table(cast, name="lenient", **({"dice": dice} if dice else {}), **WITHOUT[rule])
    assert play(cast, lenient, record(p)).number == 2


def test_take_half_for_initial_cubes_only_lets_the_box_pass_redoubles_and_settles_them(cast, p):
    """The take-half rule refuses passing two of three redoubles; for initial cubes only it does not."""
    record = quick("team", cubes={p["max"]: (2, "box_dropped"), p["mia"]: (2, "box_dropped"), p["otis"]: 4},
                   log=[box_double((p["max"], "take"), (p["mia"], "take"), (p["otis"], "take")),
                        team_double(p["max"], p["mia"], p["otis"], box_drops=[p["max"], p["mia"]])])
    always = table(cast, name="always", box_must_take_half=True)
    with pytest.raises(DomainError) as caught:
        play(cast, always, record)
    assert (caught.value.code, caught.value.details["field"]) == ("box_must_take_half", "log[1]")
    initial = table(cast, name="initial", box_must_take_half=True, take_half_initial_only=True)
    play(cast, initial, record)
    assert ledger(initial) == {"Ann": -8, "Otis": 4, "Mia": 2, "Max": 2}
    # Otis won as Captain: he is the Box, Mia captains, Max and Ann are the crew. Initial cubes, all
    # turned at once, two of three passed: still refused.
    assert lineup(initial) == ["Otis", "Mia", "Max", "Ann"]
    with pytest.raises(DomainError) as caught:
        play(cast, initial, quick("team", cubes={p["ann"]: (1, "box_dropped"), p["max"]: (1, "box_dropped"),
                                                 p["mia"]: 2},
                                  log=[team_double(p["ann"], p["max"], p["mia"], box_drops=[p["ann"], p["max"]])]))
    assert (caught.value.code, caught.value.details["field"]) == ("box_must_take_half", "log[0]")


@pytest.mark.parametrize(("settings", "amounts"), [
    # A new table: an automatic double does not turn the cube for Jacoby, the gammon counts single.
    ({}, {"Ann": -6, "Otis": 2, "Mia": 2, "Max": 2}),
    # A table that counts them: the cube was turned, the gammon counts (2 x 2 each).
    ({"jacoby_counts_automatic": True}, {"Ann": -12, "Otis": 4, "Mia": 4, "Max": 4}),
    # Without Jacoby the gammon counts either way.
    ({"jacoby": False}, {"Ann": -12, "Otis": 4, "Mia": 4, "Max": 4}),
])
def test_jacoby_with_automatic_doubles_counting_or_not_changes_how_a_gammon_settles(cast, p, settings, amounts):
    session = table(cast, automatic_doubles=1, **settings)
    play(cast, session, quick("team", 2, automatic=1))
    assert ledger(session) == amounts


def test_a_new_table_does_not_count_automatic_doubles_for_jacoby():
    assert ChouetteSession._meta.get_field("jacoby_counts_automatic").default is False
    cast = club_cast()
    assert table(cast).jacoby_counts_automatic is False


def test_the_partner_convention_keeps_the_partner_next_in_line_while_the_box_wins(cast, p):
    convention = table(cast, name="convention", box_partner_from=3, box_partner_next_in_line=True)
    play(cast, convention, quick("box", box_partner=p["mia"]))
    # Otis lost and goes to the bottom; Mia stays next in line (the Box's partner) and Max captains.
    assert lineup(convention) == ["Ann", "Max", "Mia", "Otis"]
    play(cast, convention, quick("team", box_partner=p["mia"]))
    # The Box lost: Max takes the Box, the partner Mia becomes the Captain.
    assert lineup(convention) == ["Max", "Mia", "Otis", "Ann"]
    plain = table(cast, name="plain", box_partner_from=3)
    play(cast, plain, quick("box", box_partner=p["mia"]))
    assert lineup(plain) == ["Ann", "Mia", "Max", "Otis"]


@pytest.mark.parametrize(("settings", "code", "field"), [
    ({"take_half_initial_only": True}, "bad_settings", "take_half_initial_only"),
    ({"captain_alone_must_beaver": True}, "bad_settings", "captain_alone_must_beaver"),
])
def test_a_house_rule_that_needs_another_setting_is_refused_and_nothing_is_created(cast, settings, code, field):
    with pytest.raises(DomainError) as caught:
        table(cast, **settings)
    assert (caught.value.code, caught.value.details["field"]) == (code, field)
    assert not ChouetteSession.objects.exists()


def test_recording_a_game_at_a_table_with_house_rules_settles_one_game_whatever_the_sessions_length(
        cast, p, monkeypatch):
    session = table(cast, beavers=True, box_must_take_half=True, take_half_initial_only=True,
                    box_must_take_captain=True, captain_alone_must_beaver=True, box_partner_from=3,
                    box_partner_next_in_line=True, automatic_doubles=1)
    for number in range(12):
        play(cast, session, quick("team" if number % 3 else "box"))
    settled = []
    settle = engine_session.chouette_settle
    monkeypatch.setattr(engine_session, "chouette_settle", lambda *args: settled.append(1) or settle(*args))
    parsed = []
    parse = selectors.step_from_json
    monkeypatch.setattr(selectors, "step_from_json", lambda *a, **k: parsed.append(1) or parse(*a, **k))
    with CaptureQueriesContext(connection) as queries:
        chouette_game_record(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, kind="quick",
                             record=quick("box"))
    assert (len(settled), len(parsed)) == (1, 0)
    assert len(queries) == 9


# --- the API ---------------------------------------------------------------------------------------------


def api(cast, session=None, tail: str = "") -> str:
    base = f"/api/v1/clubs/{cast.club.pk}/chouettes/"
    return base if session is None else f"{base}{session.pk}/{tail}"


RULES = {"three_handed_both_cubes": True, "box_must_take_captain": True, "box_must_take_half": True,
         "take_half_initial_only": True, "beavers": True, "captain_alone_must_beaver": True, "box_partner_from": 3,
         "box_partner_next_in_line": True, "jacoby_counts_automatic": True}


def test_the_api_starts_a_table_with_house_rules_and_answers_them_in_its_settings(cast, p):
    organiser = client_for(cast.organiser)
    response = organiser.post(api(cast), {"rolloff": [[[p["ann"], 6], [p["otis"], 5], [p["mia"], 4]]], **RULES},
                              format="json")
    assert response.status_code == 201
    settings = response.json()["settings"]
    assert {name: settings[name] for name in RULES} == RULES
    response = organiser.post(api(cast), {"rolloff": [[[p["ann"], 6], [p["otis"], 5]]]}, format="json")
    assert response.json()["settings"]["jacoby_counts_automatic"] is False
    assert response.json()["settings"]["three_handed_both_cubes"] is False


def test_the_api_refuses_bad_house_rule_settings_field_by_field_and_creates_nothing(cast, p):
    organiser = client_for(cast.organiser)
    body = {"rolloff": [[[p["ann"], 6], [p["otis"], 5]]]}
    response = organiser.post(api(cast), {**body, "three_handed_both_cubes": "sometimes",
                                          "box_partner_next_in_line": [1]}, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"three_handed_both_cubes", "box_partner_next_in_line"}
    response = organiser.post(api(cast), {**body, "take_half_initial_only": True}, format="json")
    assert (response.status_code, response.json()["code"], response.json()["field"]) == (
        400, "bad_settings", "take_half_initial_only")
    response = organiser.post(api(cast), {**body, "must_take_everything": True}, format="json")
    assert response.status_code == 400 and "must_take_everything" in response.json()["errors"]
    assert not ChouetteSession.objects.exists()


def test_the_api_refuses_a_game_that_breaks_a_house_rule_with_the_rule_worded_for_people(cast, p):
    session = table(cast, dice=THREE, three_handed_both_cubes=True)
    before = chouette_snapshot(session)
    record = quick("team", cubes={p["mia"]: (1, "box_dropped"), p["otis"]: 2},
                   log=[team_double(p["mia"], p["otis"], box_drops=[p["mia"]])])
    response = client_for(cast.organiser).post(api(cast, session, "games/"), {"kind": "quick", "record": record},
                                               format="json", HTTP_ACCEPT_LANGUAGE="ro")
    body = response.json()
    assert (response.status_code, body["code"], body["field"]) == (400, "three_handed_both_cubes", "log[0]")
    # Worded for people in the reader's language (core/engine_messages.py), not the engine's English.
    assert body["detail"] == ("Regula casei: la o masă de trei, Boxul acceptă ambele cuburi dublate deodată sau le "
                              "respinge pe amândouă.")
    assert chouette_snapshot(session) == before


# --- the pages -----------------------------------------------------------------------------------------


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return html.unescape(re.sub(r"</?bdi[^>]*>", "", response.content.decode()))


def test_the_start_page_offers_the_house_rules_and_the_table_page_names_those_it_plays_by(cast, p):
    client = browser(cast.organiser)
    page = f"/clubs/{cast.club.slug}/chouettes/"
    form = text(client.get(page + "new/"))
    assert "House rule: at three players the Box takes both cubes or passes both" in form
    assert "Partner convention: the Box partner is the next in line and captains when the Box loses" in form
    assert "An automatic double counts for Jacoby" in form
    data = {"name": "Friday", "stake": "1.00", "currency": "EUR", "automatic_doubles": "1", "jacoby": "on",
            "box_must_take_captain": "on", "three_handed_both_cubes": "on",
            f"dice-{p['ann']}": "6", f"dice-{p['otis']}": "5", f"dice-{p['mia']}": "4"}
    response = client.post(page + "new/", data)
    session = ChouetteSession.objects.get()
    assert response.status_code == 302
    assert (session.box_must_take_captain, session.three_handed_both_cubes, session.jacoby_counts_automatic) == (
        True, True, False)
    shown = text(client.get(page + f"{session.pk}/"))
    assert "the Box takes the Captain's cube when he takes another" in shown
    assert "at three players the Box takes both cubes or passes both" in shown
    assert "an automatic double does not count for Jacoby" in shown
    assert "a Captain who takes alone beavers" not in shown


def test_the_start_page_refuses_a_house_rule_that_needs_another_on_its_field(cast, p):
    client = browser(cast.organiser)
    page = f"/clubs/{cast.club.slug}/chouettes/new/"
    data = {"name": "Friday", "stake": "1.00", "currency": "EUR", "automatic_doubles": "0",
            "captain_alone_must_beaver": "on", f"dice-{p['ann']}": "6", f"dice-{p['otis']}": "5"}
    response = client.post(page, data)
    assert response.status_code == 400
    assert "a Captain taking alone cannot be made to beaver at a table without beavers" in text(response)
    assert not ChouetteSession.objects.exists()


def test_the_table_page_refuses_a_game_that_breaks_a_house_rule_and_saves_nothing(cast, p):
    session = table(cast, box_partner_from=3, box_partner_next_in_line=True)
    before = chouette_snapshot(session)
    data = {"winner": "box", "level": "1", "version": str(session.version), "box_partner": str(p["max"])}
    for name in ("otis", "mia", "max"):
        data.update({f"cube-{p[name]}": "", f"end-{p[name]}": "played"})
    client = browser(cast.organiser)
    response = client.post(f"/clubs/{cast.club.slug}/chouettes/{session.pk}/games/", data)
    assert response.status_code == 400
    assert "house rule: the Box partner is the player next in line (the first crew member), not Max" in text(response)
    assert chouette_snapshot(session) == before
    response = client.post(f"/clubs/{cast.club.slug}/chouettes/{session.pk}/games/", {
        **data, "box_partner": str(p["mia"])})
    assert response.status_code == 302
    assert lineup(session) == ["Ann", "Max", "Mia", "Otis"]


def test_the_table_page_with_house_rules_reads_in_as_many_queries_as_without(cast, p):
    plain = table(cast, name="plain")
    ruled = table(cast, name="ruled", **{**RULES, "three_handed_both_cubes": True})
    client = browser(cast.members[0])
    counts = []
    for session in (plain, ruled):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/clubs/{cast.club.slug}/chouettes/{session.pk}/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


# --- the migration ---------------------------------------------------------------------------------------

BEFORE = [("chouette", "0002_kept_state")]
AFTER = [("chouette", "0003_chouette17_house_rules")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_existing_tables_counting_automatic_doubles_for_jacoby():
    cast = club_cast()
    existing = table(cast)
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        MigrationExecutor(connection).migrate(BEFORE)
        MigrationExecutor(connection).migrate(AFTER)
        with connection.cursor() as cursor:
            cursor.execute("SELECT jacoby_counts_automatic, three_handed_both_cubes, box_partner_next_in_line "
                           "FROM clubs_chouettesession WHERE id = %s", [existing.pk])
            assert cursor.fetchone() == (True, False, False)
    finally:
        MigrationExecutor(connection).migrate(latest)
    assert table(cast, name="new").jacoby_counts_automatic is False


# --- changing the house rules of an open table -----------------------------------------------------------



def change(cast, session, **rules):
    return chouette_rules_change(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, rules=rules)


def test_changing_jacoby_with_automatic_doubles_settles_the_games_already_played_again(cast, p):
    session = table(cast, automatic_doubles=1)
    play(cast, session, quick("team", 2, automatic=1))
    assert ledger(session) == {"Ann": -6, "Otis": 2, "Mia": 2, "Max": 2}
    version = ChouetteSession.objects.get(pk=session.pk).version
    change(cast, session, jacoby_counts_automatic=True)
    session.refresh_from_db()
    assert session.jacoby_counts_automatic is True and session.version == version + 1
    assert ledger(session) == {"Ann": -12, "Otis": 4, "Mia": 4, "Max": 4}
    entry = AuditEntry.objects.get(action="chouette.rules_changed")
    assert (entry.before, entry.after) == ({"jacoby_counts_automatic": False}, {"jacoby_counts_automatic": True})
    # The next game is folded into the kept state of the new rules: it settles one game.
    # Otis won as Captain: he is the Box now and wins a gammon on Mia's, Max's and Ann's cubes at 2.
    play(cast, session, quick("box", 2, automatic=1))
    assert ledger(session) == {"Ann": -12 - 4, "Otis": 4 + 12, "Mia": 4 - 4, "Max": 4 - 4}


def test_a_house_rule_a_recorded_game_breaks_is_refused_naming_the_game_and_nothing_changes(cast, p):
    session = table(cast)
    play(cast, session, quick("box"))
    # Game 2: Mia captains (Ann, Mia, Max, Otis); the Box takes Max's cube and passes the Captain's.
    play(cast, session, quick("team", cubes={p["mia"]: (1, "box_dropped"), p["max"]: 2, p["otis"]: 2},
                              log=[team_double(p["otis"], p["max"], p["mia"], box_drops=[p["mia"]])]))
    before = chouette_snapshot(session)
    with pytest.raises(Conflict) as caught:
        change(cast, session, box_must_take_captain=True, three_handed_both_cubes=True)
    error = caught.value
    assert (error.code, error.details["game"], error.details["step"], error.details["reason"]) == (
        "house_rules_break_game", 2, 3, "box_must_take_captain")
    assert "game 2 breaks these house rules" in error.message and "Mia" in error.message
    assert chouette_snapshot(session) == before
    change(cast, session, three_handed_both_cubes=True)  # a rule no game breaks is taken
    session.refresh_from_db()
    assert (session.three_handed_both_cubes, session.box_must_take_captain) == (True, False)


@pytest.mark.parametrize(("rules", "kind", "code", "field"), [
    ({"take_half_initial_only": True}, DomainError, "bad_settings", "take_half_initial_only"),
    ({"captain_alone_must_beaver": True}, DomainError, "bad_settings", "captain_alone_must_beaver"),
    ({"beavers": True}, DomainError, "bad_chouette", "beavers"),
    ({"three_handed_both_cubes": "yes"}, DomainError, "bad_chouette", "three_handed_both_cubes"),
])
def test_a_bad_change_of_the_house_rules_is_refused_on_its_field(cast, rules, kind, code, field):
    session = table(cast)
    before = chouette_snapshot(session)
    with pytest.raises(kind) as caught:
        change(cast, session, **rules)
    assert (caught.value.code, caught.value.details["field"]) == (code, field)
    assert chouette_snapshot(session) == before


def test_the_house_rules_of_an_ended_table_or_anothers_club_stay_as_they_are(cast, p):
    session = table(cast)
    with pytest.raises(NotAllowed) as caught:
        chouette_rules_change(club_id=cast.club.pk, chouette_id=session.pk, user=cast.members[0],
                              rules={"box_must_take_captain": True})
    assert caught.value.code == "not_club_manager"
    chouette_end(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser)
    with pytest.raises(Conflict) as caught:
        change(cast, session, box_must_take_captain=True)
    assert caught.value.code == "chouette_ended"


def test_the_api_changes_the_house_rules_and_answers_the_state_settled_by_them(cast, p):
    session = table(cast, automatic_doubles=1)
    play(cast, session, quick("team", 2, automatic=1))
    organiser = client_for(cast.organiser)
    response = organiser.post(api(cast, session, "rules/"), {"jacoby_counts_automatic": True, "version": 2},
                              format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["settings"]["jacoby_counts_automatic"] is True and body["version"] == 3
    assert [(row["display_name"], row["points"]) for row in body["ledger"]] == [
        ("Ann", -12), ("Otis", 4), ("Mia", 4), ("Max", 4)]
    before = chouette_snapshot(session)
    for sent, field in (({"jacoby_counts_automatic": "often"}, "jacoby_counts_automatic"), ({"colour": "red"}, "colour"),
                        ({"version": -1}, "version")):
        response = organiser.post(api(cast, session, "rules/"), sent, format="json")
        assert response.status_code == 400 and set(response.json()["errors"]) == {field}
    response = organiser.post(api(cast, session, "rules/"), {"take_half_initial_only": True}, format="json")
    assert (response.status_code, response.json()["code"], response.json()["field"]) == (
        400, "bad_settings", "take_half_initial_only")
    response = organiser.post(api(cast, session, "rules/"), {"box_must_take_captain": True, "version": 2},
                              format="json")
    assert (response.status_code, response.json()["code"]) == (409, "stale_table")
    assert client_for(cast.members[0]).post(api(cast, session, "rules/"), {}, format="json").status_code == 403
    assert chouette_snapshot(session) == before


def test_the_api_refuses_house_rules_a_recorded_game_breaks_with_409(cast, p):
    session = table(cast, dice=THREE)
    play(cast, session, quick("team", cubes={p["mia"]: (1, "box_dropped"), p["otis"]: 2},
                              log=[team_double(p["mia"], p["otis"], box_drops=[p["mia"]])]))
    response = client_for(cast.organiser).post(api(cast, session, "rules/"), {"three_handed_both_cubes": True},
                                               format="json")
    body = response.json()
    assert (response.status_code, body["code"], body["game"], body["reason"]) == (
        409, "house_rules_break_game", 1, "three_handed_both_cubes")


@pytest.mark.parametrize("games", [2, 14])
def test_changing_the_house_rules_costs_the_same_queries_whatever_the_number_of_games(cast, p, games,
                                                                                      django_assert_max_num_queries):
    session = table(cast)
    for number in range(games):
        play(cast, session, quick("team" if number % 3 else "box"))
    with django_assert_max_num_queries(12):
        change(cast, session, box_must_take_captain=True)


def test_the_table_page_offers_the_house_rules_to_managers_and_changes_them(cast, p):
    session = table(cast, automatic_doubles=1)
    play(cast, session, quick("team", 2, automatic=1))
    page = f"/clubs/{cast.club.slug}/chouettes/{session.pk}/"
    shown = text(browser(cast.organiser).get(page))
    assert "Change the house rules" in shown and "an automatic double does not count for Jacoby" in shown
    assert "Change the house rules" not in text(browser(cast.members[0]).get(page))
    client = browser(cast.organiser)
    response = client.post(page + "rules/", {"rules-version": "2", "rules-jacoby_counts_automatic": "on"}, follow=True)
    assert response.status_code == 200
    body = text(response)
    assert "The house rules are changed: every game of the session is settled by them." in body
    assert "an automatic double counts for Jacoby" in body
    assert ledger(session)["Ann"] == -12
    before = chouette_snapshot(session)
    response = client.post(page + "rules/", {"rules-version": "3", "rules-take_half_initial_only": "on",
                                             "rules-jacoby_counts_automatic": "on"})
    assert response.status_code == 400
    assert '"initial cubes only" narrows the "take at least half" rule, which is off' in text(response)
    response = client.post(page + "rules/", {"rules-version": "1", "rules-box_must_take_captain": "on"})
    assert response.status_code == 409 and "reload it" in text(response)
    assert browser(cast.members[0]).post(page + "rules/", {"rules-box_must_take_captain": "on"}).status_code == 403
    assert chouette_snapshot(session) == before
