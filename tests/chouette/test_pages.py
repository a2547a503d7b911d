"""The chouette pages (/clubs/<slug>/chouettes/...): members see the tables and their amounts, nobody
else does; owners and organisers start a table, record quick results and full games (the board's log
and the crew's cube moments as JSON, checked by the engine), let players join and leave, amend and
void games and end the session through the forms; a refusal re-renders the page with its message
(a full record's names its place in the record) and its 4xx, nothing saved. The usual table: Ann is
the Box, Otis the Captain, Mia and Max the crew."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from chouette.forms import ChouetteStartForm
from chouette.labels import TABLE_LABELS
from chouette.models import ChouetteSession, ChouetteStep
from chouette.selectors import chouette_state
from core.errors import DomainError
from tests.chouette.factories import chouette_snapshot, full_record, ids, play, quick, table
from tests.clubs.factories import ClubNightFactory

pytestmark = pytest.mark.django_db


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page(cast, session=None, tail: str = "") -> str:
    base = f"/clubs/{cast.club.slug}/chouettes/"
    return base if session is None else f"{base}{session.pk}/{tail}"


def text(response) -> str:
    """The page as read: entities unescaped, the left-to-right isolates of numbers (``<bdi>``) dropped."""
    return html.unescape(re.sub(r"</?bdi[^>]*>", "", response.content.decode()))


def lineup(session) -> list[str]:
    return [seat.display_name for seat in chouette_state(session=session).lineup]


def game_post(p, winner="box", level="1", version=None, **cubes) -> dict:
    data = {"winner": winner, "level": level}
    if version is not None:
        data["version"] = str(version)
    for name in ("otis", "mia", "max", "ann"):
        value, end = cubes.get(name, ("", "played"))
        data[f"cube-{p[name]}"] = str(value)
        data[f"end-{p[name]}"] = end
    return data


# --- who sees what ----------------------------------------------------------------------------------------


def test_a_member_sees_the_table_with_roles_the_last_games_and_the_ledger_but_no_forms(cast, session):
    response = browser(cast.members[0]).get(page(cast, session))
    assert response.status_code == 200
    body = text(response)
    assert "Line-up for game 2" in body and "Box" in body and "Captain" in body
    assert "+4 · 10.00" in body and "-5.00" in body
    assert "the Box won a single" in body and "Otis 2" in body
    assert "Otis pays Ann 5.00 EUR" in body
    assert "Record the game" not in body and "End the session" not in body
    assert "api/v1/clubs/" in body  # the version poll


@pytest.mark.parametrize("tail", ["", "games/1/"])
def test_nobody_outside_the_club_sees_a_table_or_its_amounts(cast, session, tail):
    anonymous = browser().get(page(cast, session, tail))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    for user in (cast.outsider, cast.requester, cast.invitee):
        response = browser(user).get(page(cast, session, tail))
        assert response.status_code == 403 and "10.00" not in text(response)
    assert browser(cast.outsider).get(page(cast)).status_code == 403


def test_the_list_shows_the_clubs_tables_and_managers_get_the_start_link(cast, session):
    body = text(browser(cast.members[0]).get(page(cast)))
    assert "Big table" in body and "Start a chouette table" not in body
    assert "Start a chouette table" in text(browser(cast.organiser).get(page(cast)))
    assert "Chouettes" in text(browser(cast.members[0]).get(f"/clubs/{cast.club.slug}/"))


def test_the_table_page_reads_the_state_in_the_same_number_of_queries_whatever_the_number_of_games(cast, session):
    client = browser(cast.organiser)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(page(cast, session)).status_code == 200
        return len(captured.captured_queries)

    few = queries()
    for _ in range(6):
        play(cast, session, quick("team"))
    assert queries() == few


def test_the_table_page_shows_the_last_eight_games_and_links_the_earlier_ones(cast, session):
    for _ in range(9):
        play(cast, session, quick("team"))
    shown = text(browser(cast.members[0]).get(page(cast, session)))
    assert [number for number in range(1, 11) if f'id="game-{number}"' in shown] == list(range(3, 11))
    assert "The last 8 of 10 games" in shown
    assert all(f'href="{page(cast, session, f"games/{number}/")}"' in shown for number in (1, 2))


# --- starting --------------------------------------------------------------------------------------------------


def start_post(p, **dice) -> dict:
    data = {"name": "Friday", "stake": "0.50", "currency": "EUR", "automatic_doubles": "0", "jacoby": "on"}
    data.update({f"dice-{p[name]}": value for name, value in dice.items()})
    return data


def test_the_organiser_starts_a_table_with_the_roll_off_and_its_rerolls(cast, p):
    client = browser(cast.organiser)
    assert "Ann's roll-off" in text(client.get(page(cast, tail="") + "new/"))
    response = client.post(page(cast) + "new/", start_post(p, ann="6 3", otis="6 5", mia="2"))
    session = ChouetteSession.objects.get()
    assert response.status_code == 302 and response["Location"] == page(cast, session)
    assert lineup(session) == ["Otis", "Ann", "Mia"]
    assert (session.name, str(session.stake), session.jacoby, session.beavers) == ("Friday", "0.50", True, False)


@pytest.mark.parametrize(("dice", "extra", "message"), [
    ({"ann": "6", "otis": "6"}, {}, "must reroll"),
    ({"ann": "6"}, {}, "at least two players"),
    ({"ann": "6", "otis": "seven"}, {}, "dice from 1 to 6"),
    ({"ann": "6", "otis": "5"}, {"raccoons": "on"}, "raccoons are allowed only where beavers are"),
])
def test_a_table_that_cannot_start_is_refused_on_the_page_and_nothing_is_created(cast, p, dice, extra, message):
    response = browser(cast.organiser).post(page(cast) + "new/", {**start_post(p, **dice), **extra})
    assert response.status_code == 400 and message in text(response)
    assert not ChouetteSession.objects.exists()


def test_only_managers_start_a_table(cast, p):
    assert browser(cast.members[0]).get(page(cast) + "new/").status_code == 403
    assert browser(cast.members[0]).post(page(cast) + "new/", start_post(p, ann="6", otis="5")).status_code == 403
    assert not ChouetteSession.objects.exists()


# --- recording, joining, leaving -------------------------------------------------------------------------------


def test_the_organiser_records_a_quick_result_with_a_drop_and_the_box_changes(cast, p, session):
    client = browser(cast.organiser)
    assert "Mia's cube" in text(client.get(page(cast, session)))
    # Mia captains: the Box doubles, Max drops, Mia and Otis take; the team wins.
    response = client.post(page(cast, session, "games/"), game_post(
        p, "team", version=2, mia=(2, "played"), otis=(2, "played"), max=(1, "member_dropped")), follow=True)
    assert response.status_code == 200
    body = text(response)
    assert "Game 2: the team won a single. Next: Mia is the Box, Max the Captain." in body
    assert lineup(session) == ["Mia", "Max", "Otis", "Ann"]
    assert {row.display_name: row.points for row in chouette_state(session=session).ledger} == {
        "Ann": 4 - 3, "Otis": -2 + 2, "Mia": -1 + 2, "Max": -1 - 1}


def test_a_result_the_engine_refuses_is_shown_on_the_form_and_saves_nothing(cast, p, session):
    client = browser(cast.organiser)
    before = chouette_snapshot(session)
    response = client.post(page(cast, session, "games/"), game_post(p, "none"))
    assert response.status_code == 400 and "members played to the end, so the board needs a winner" in text(response)
    response = client.post(page(cast, session, "games/"), game_post(p, "team", otis=("", "member_dropped")))
    assert response.status_code == 400 and "give the cube's value" in text(response)
    response = client.post(page(cast, session, "games/"), game_post(p, "box", version=1))
    assert response.status_code == 409 and "reload it" in text(response)
    assert chouette_snapshot(session) == before
    assert browser(cast.members[0]).post(page(cast, session, "games/"), game_post(p)).status_code == 403
    assert chouette_snapshot(session) == before


def full_game_post(cast, session, record, user=None):
    client = Client()
    client.force_login(user or cast.organiser)
    data = {"record": record if isinstance(record, str) else json.dumps(record), "version": session.version}
    return client.post(f"/clubs/{cast.club.slug}/chouettes/{session.pk}/games/full/", data)


def test_the_organiser_records_a_full_game_from_the_table_page(cast):
    session = table(cast)
    table_page = Client()
    table_page.force_login(cast.organiser)
    assert "games/full/" in table_page.get(f"/clubs/{cast.club.slug}/chouettes/{session.pk}/").content.decode()
    response = full_game_post(cast, session, full_record(ids(cast)))
    assert response.status_code == 302
    step = ChouetteStep.objects.get(session=session, kind="game")
    assert (step.record["entry"], step.record["entered"]) == ("full", full_record(ids(cast)))


@pytest.mark.parametrize(("record", "message"), [
    ("{not json", "not JSON"),
    ("[1, 2]", "a full record is a JSON object"),
    (lambda p: {**full_record(p), "board_log": full_record(p)["board_log"][:2]}, "board"),
    (lambda p: {**full_record(p), "board_log": [{"type": "roll", "side": 0, "dice": [3, 9]}]}, "board_log[0]"),
])
def test_a_bad_full_record_is_refused_on_the_page_and_saves_nothing(cast, record, message):
    session = table(cast)
    before = chouette_snapshot(session)
    response = full_game_post(cast, session, record(ids(cast)) if callable(record) else record)
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
    assert chouette_snapshot(session) == before


def test_a_member_who_does_not_run_the_table_cannot_record_a_full_game(cast):
    session = table(cast)
    response = full_game_post(cast, session, full_record(ids(cast)), user=cast.members[0])
    assert response.status_code == 403 and not ChouetteStep.objects.filter(kind="game").exists()


def test_players_join_and_leave_from_the_table_page(cast, p):
    session = table(cast, dice=(("ann", 6), ("otis", 5), ("mia", 4)))
    client = browser(cast.organiser)
    assert "Join at the bottom" in text(client.get(page(cast, session)))
    response = client.post(page(cast, session, "join/"), {"player": p["max"], "version": "1"}, follow=True)
    assert "Max joins at the bottom of the line." in text(response)
    assert lineup(session) == ["Ann", "Otis", "Mia", "Max"]
    response = client.post(page(cast, session, "leave/"), {"player": p["ann"]}, follow=True)
    assert "Ann leaves the table." in text(response)
    assert lineup(session) == ["Otis", "Mia", "Max"]
    before = chouette_snapshot(session)
    assert client.post(page(cast, session, "join/"), {"player": p["xavier"]}).status_code == 400
    assert client.post(page(cast, session, "join/"), {"player": p["max"], "version": "1"}).status_code == 400
    assert browser(cast.members[0]).post(page(cast, session, "leave/"), {"player": p["max"]}).status_code == 403
    assert chouette_snapshot(session) == before


# --- corrections and the end --------------------------------------------------------------------------------------


def test_a_game_is_amended_and_voided_from_its_page(cast, p, session):
    client = browser(cast.organiser)
    body = text(client.get(page(cast, session, "games/1/")))
    assert "Amend the game" in body and "Void game 1" in body
    response = client.post(page(cast, session, "games/1/"), game_post(p, "team", version=2, otis=(2, "played")),
                           follow=True)
    assert "Game 1 is amended." in text(response)
    assert lineup(session) == ["Otis", "Mia", "Max", "Ann"]
    response = client.post(page(cast, session, "games/1/"), {"action": "void", "version": "3"}, follow=True)
    assert "Game 1 is void" in text(response)
    assert lineup(session) == ["Ann", "Otis", "Mia", "Max"]
    assert [row.points for row in chouette_state(session=session).ledger] == [0, 0, 0, 0]
    assert "Amend the game" not in text(client.get(page(cast, session, "games/1/")))
    assert "Amend the game" not in text(browser(cast.members[0]).get(page(cast, session, "games/1/")))
    assert browser(cast.members[0]).post(page(cast, session, "games/1/"), {"action": "void"}).status_code == 403
    assert client.get(page(cast, session, "games/7/")).status_code == 404


def test_a_void_a_later_game_does_not_survive_is_refused_on_the_page(cast, p, session):
    play(cast, session, quick("box"))
    before = chouette_snapshot(session)
    response = browser(cast.organiser).post(page(cast, session, "games/1/"), {"action": "void"})
    assert response.status_code == 409
    assert "game 2 was played by Mia as Captain against Ann in the box; it now falls to Otis" in text(response)
    assert chouette_snapshot(session) == before


def test_ending_the_session_shows_the_settlement_and_removes_the_forms(cast, session):
    client = browser(cast.organiser)
    response = client.post(page(cast, session, "end/"), follow=True)
    body = text(response)
    assert "Settlement" in body and "Otis pays Ann 5.00 EUR" in body and "Mia pays Ann 2.50 EUR" in body
    assert "Record the game" not in body
    session.refresh_from_db()
    assert session.status == "ended"
    assert browser(cast.members[0]).post(page(cast, session, "end/")).status_code == 403


def test_the_nights_summary_shows_each_players_net_result_from_the_real_ledger_to_members_only(cast, p):
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    session = table(cast, night_id=night.pk)
    play(cast, session, quick("box", cubes={p["otis"]: 2}))
    body = text(browser(cast.members[1]).get(f"/clubs/{cast.club.slug}/nights/{night.pk}/"))
    assert "Big table" in body and "+10.00" in body and "-5.00" in body
    assert browser(cast.outsider).get(f"/clubs/{cast.club.slug}/nights/{night.pk}/").status_code == 403


def test_a_refused_currency_is_said_beside_its_field_never_by_its_name_in_the_code(cast, p):
    """The service refuses what the form lets through (three characters that are no letters): the
    page shows why beside the Currency field; the service names it by that label."""
    response = browser(cast.organiser).post(page(cast) + "new/", {**start_post(p, ann="6", otis="5"), "currency": "E1$"},
                                            HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and not ChouetteSession.objects.exists()
    assert "three letters, such as EUR" in text(response) and "currency:" not in text(response)
    with translation.override("en"), pytest.raises(DomainError) as refused:
        table(cast, currency="E1$")
    assert refused.value.details["field"] == "currency"
    assert refused.value.message == "Currency: three letters, such as EUR"
    assert str(TABLE_LABELS["currency"]) == str(ChouetteStartForm.base_fields["currency"].label)
