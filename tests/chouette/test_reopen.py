"""An ended chouette session is closed to every change (a game recorded, amended or voided, a join, a
leave, the house rules): refused with a 409 ``chouette_ended`` that says who can reopen it, nothing
saved, the settlement as it was at the end. The table's director (one of the club's owners or
organisers) reopens it; a player at the table cannot. Reopening and ending again are in the audit
log, each read as a sentence. Through the services, the API and the table's pages.

The usual table: Ann is the Box, Otis the Captain, Mia and Max the crew; Ann owns the club, Otis
organises it, Mia and Max are members. Two games: Ann wins both in the box (game 1 against Otis's
cube of 2), so the ledger is Ann +7, Otis -3, Mia -2, Max -2, at 2.50 a point.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from audit.describe import describe
from audit.models import AuditEntry
from chouette.models import ChouetteSession
from chouette.selectors import chouette_state
from chouette.services import (
    chouette_end,
    chouette_game_amend,
    chouette_game_record,
    chouette_game_void,
    chouette_join,
    chouette_leave,
    chouette_reopen,
    chouette_rules_change,
)
from core.errors import Conflict, NotAllowed
from tests.chouette.factories import chouette_snapshot, full_record, play, quick, table
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

SETTLED = [("Otis", "Ann", "7.50"), ("Mia", "Ann", "5.00"), ("Max", "Ann", "5.00")]


@pytest.fixture
def ended(cast, p):
    session = table(cast)
    play(cast, session, quick("box", cubes={p["otis"]: 2}))
    play(cast, session, quick("box"))
    chouette_end(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser)
    session.refresh_from_db()
    return session


def settlement(session) -> list[tuple[str, str, str]]:
    return [(t.payer_name, t.payee_name, f"{t.money:.2f}") for t in chouette_state(session=session).settlement]


def changes(cast, p, session, user):
    """Every kind of change of a table, as a call by ``user``."""
    where = {"club_id": cast.club.pk, "chouette_id": session.pk, "user": user}
    return {
        "record": lambda: chouette_game_record(**where, kind="quick", record=quick("team")),
        "record_full": lambda: chouette_game_record(**where, kind="full", record=full_record(p)),
        "amend": lambda: chouette_game_amend(**where, number=2, kind="quick", record=quick("team")),
        "void": lambda: chouette_game_void(**where, number=2),
        "rules": lambda: chouette_rules_change(**where, rules={"box_must_take_captain": True}),
        "join": lambda: chouette_join(**where, player_id=p["pat"]),
        "leave": lambda: chouette_leave(**where, player_id=p["max"]),
    }


CHANGES = ["record", "record_full", "amend", "void", "rules", "join", "leave"]


def chouette_actions(session) -> list[str]:
    return list(AuditEntry.objects.filter(club_id=session.club_id, action__startswith="chouette.")
                .order_by("id").values_list("action", flat=True))


# --- the services ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("change", CHANGES)
def test_an_ended_session_refuses_every_change_and_says_who_can_reopen_it(cast, p, ended, change):
    before = chouette_snapshot(ended)
    with pytest.raises(Conflict) as caught:
        changes(cast, p, ended, cast.owner)[change]()
    assert caught.value.code == "chouette_ended"
    assert "has ended" in caught.value.message and "owners or organisers can reopen it" in caught.value.message
    assert chouette_snapshot(ended) == before
    assert settlement(ended) == SETTLED


def test_voiding_a_game_after_the_end_no_longer_changes_the_settlement(cast, ended):
    # The organiser's report: voiding game 2 after "End the session" quietly changed who pays whom.
    with pytest.raises(Conflict):
        chouette_game_void(club_id=cast.club.pk, chouette_id=ended.pk, number=2, user=cast.organiser)
    ended.refresh_from_db()
    assert ended.status == "ended" and settlement(ended) == SETTLED
    assert not ended.steps.filter(voided=True).exists()


def test_the_director_reopens_corrects_and_ends_again_and_the_log_says_so(cast, p, ended):
    version, ended_at = ended.version, ended.ended_at
    reopened = chouette_reopen(club_id=cast.club.pk, chouette_id=ended.pk, user=cast.owner)
    assert (reopened.status, reopened.ended_at, reopened.version) == ("open", None, version + 1)
    # Reopening an open session changes nothing.
    assert chouette_reopen(club_id=cast.club.pk, chouette_id=ended.pk, user=cast.organiser).version == version + 1
    chouette_game_void(club_id=cast.club.pk, chouette_id=ended.pk, number=2, user=cast.organiser)
    chouette_end(club_id=cast.club.pk, chouette_id=ended.pk, user=cast.organiser)
    ended.refresh_from_db()
    assert ended.status == "ended" and settlement(ended) == [("Otis", "Ann", "5.00"), ("Mia", "Ann", "2.50"),
                                                             ("Max", "Ann", "2.50")]
    assert chouette_actions(ended)[-4:] == ["chouette.ended", "chouette.reopened", "chouette.game_voided",
                                            "chouette.ended"]
    entry = AuditEntry.objects.get(action="chouette.reopened")
    assert (entry.actor_id, entry.object_type, entry.object_id, entry.club_id) == (
        cast.owner.pk, "clubs.ChouetteSession", ended.pk, cast.club.pk)
    assert entry.before["status"] == "ended"
    assert entry.before["ended_at"].startswith(ended_at.strftime("%Y-%m-%dT%H:%M:%S"))  # kept to the millisecond
    assert [(t["payer"], t["payee"], t["money"]) for t in entry.before["transfers"]] == [
        (p["otis"], p["ann"], "7.50"), (p["mia"], p["ann"], "5.00"), (p["max"], p["ann"], "5.00")]
    assert entry.after == {"status": "open"}
    sentences = [describe(e) for e in AuditEntry.objects.filter(club_id=cast.club.pk).order_by("id")][-4:]
    assert sentences == [
        "Otis ended the chouette: 3 payments settle it.",
        "Ann reopened the chouette: its settlement is no longer final until it ends again.",
        "Otis voided a game of the chouette.",
        "Otis ended the chouette: 3 payments settle it.",
    ]


@pytest.mark.parametrize("who", ["mia", "max", "pat", "xavier"])
def test_a_player_at_the_table_or_anyone_else_who_does_not_run_the_club_cannot_reopen(cast, ended, who):
    user = {"mia": cast.members[0], "max": cast.members[1], "pat": cast.requester, "xavier": cast.outsider}[who]
    before = chouette_snapshot(ended)
    with pytest.raises(NotAllowed) as caught:
        chouette_reopen(club_id=cast.club.pk, chouette_id=ended.pk, user=user)
    assert caught.value.code == "not_club_manager"
    assert chouette_snapshot(ended) == before


# --- the API ---------------------------------------------------------------------------------------------


def api(cast, session, tail: str = "") -> str:
    return f"/api/v1/clubs/{cast.club.pk}/chouettes/{session.pk}/{tail}"


@pytest.mark.parametrize(("method", "tail", "body"), [
    ("post", "games/", {"kind": "quick", "record": {"winner": "team", "level": 1, "cubes": []}}),
    ("put", "games/2/", {"kind": "quick", "record": {"winner": "team", "level": 1, "cubes": []}}),
    ("delete", "games/2/", None),
    ("post", "rules/", {"box_must_take_captain": True}),
    ("post", "join/", {"player": "pat"}),
    ("post", "leave/", {"player": "max"}),
])
def test_the_api_refuses_every_change_of_an_ended_session_with_a_409(cast, p, ended, method, tail, body):
    if body is not None and "player" in body:
        body = {"player": p[body["player"]]}
    before = chouette_snapshot(ended)
    response = getattr(client_for(cast.organiser), method)(api(cast, ended, tail), body, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "chouette_ended")
    assert "owners or organisers can reopen it" in response.json()["detail"]
    assert chouette_snapshot(ended) == before


def test_the_api_reopens_for_the_director_only(cast, ended):
    assert client_for().post(api(cast, ended, "reopen/"), {}, format="json").status_code == 401
    for user in (cast.members[0], cast.outsider):
        response = client_for(user).post(api(cast, ended, "reopen/"), {}, format="json")
        assert (response.status_code, response.json()["code"]) == (403, "not_club_manager")
    assert client_for(cast.organiser).get(api(cast, ended, "reopen/")).status_code == 405
    response = client_for(cast.organiser).post(api(cast, ended, "reopen/"), {"status": "open"}, format="json")
    assert response.status_code == 400
    other = ChouetteSession(pk=ended.pk + 1000)
    assert client_for(cast.organiser).post(api(cast, other, "reopen/"), {}, format="json").status_code == 404
    assert ChouetteSession.objects.get(pk=ended.pk).status == "ended"
    response = client_for(cast.owner).post(api(cast, ended, "reopen/"), {}, format="json")
    assert (response.status_code, response.json()["status"]) == (200, "open")
    response = client_for(cast.organiser).delete(api(cast, ended, "games/2/"))
    assert response.status_code == 200 and response.json()["games"][0]["voided"] is True


# --- the pages -------------------------------------------------------------------------------------------


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(cast, session, tail: str = "") -> str:
    return f"/clubs/{cast.club.slug}/chouettes/{session.pk}/{tail}"


def text(response) -> str:
    return html.unescape(re.sub(r"</?bdi[^>]*>", "", response.content.decode()))


def test_the_director_sees_a_reopen_button_on_an_ended_table_and_a_player_does_not(cast, ended):
    body = text(browser(cast.organiser).get(page(cast, ended)))
    assert "Reopen the session" in body and page(cast, ended, "reopen/") in body
    assert "amend or void" not in body
    member = text(browser(cast.members[0]).get(page(cast, ended)))
    assert "Reopen the session" not in member and page(cast, ended, "reopen/") not in member
    assert browser(cast.members[0]).post(page(cast, ended, "reopen/")).status_code == 403
    assert browser(cast.organiser).get(page(cast, ended, "reopen/")).status_code == 405
    ended.refresh_from_db()
    assert ended.status == "ended"


def test_the_reopen_button_opens_the_table_again(cast, ended):
    response = browser(cast.owner).post(page(cast, ended, "reopen/"), follow=True)
    body = text(response)
    assert "The session is open again" in body and "Record the game" in body and "Reopen the session" not in body
    ended.refresh_from_db()
    assert ended.status == "open"


def test_the_game_page_of_an_ended_session_offers_no_correction_and_refuses_one(cast, ended):
    client = browser(cast.organiser)
    body = text(client.get(page(cast, ended, "games/2/")))
    assert "Amend the game" not in body and "Void game 2" not in body
    assert "The session has ended, so this game can no longer be amended or voided" in body
    before = chouette_snapshot(ended)
    response = client.post(page(cast, ended, "games/2/"), {"action": "void", "version": str(ended.version)})
    assert response.status_code == 409
    assert "owners or organisers can reopen it" in text(response)
    assert chouette_snapshot(ended) == before


def test_a_game_posted_from_a_table_page_loaded_before_the_end_is_refused_with_the_reason(cast, p, ended):
    data = {"winner": "box", "level": "1", "version": str(ended.version)}
    for name in ("mia", "max", "otis", "ann"):
        data.update({f"cube-{p[name]}": "", f"end-{p[name]}": "played"})
    before = chouette_snapshot(ended)
    response = browser(cast.organiser).post(page(cast, ended, "games/"), data)
    assert response.status_code == 409
    assert "has ended" in text(response)
    assert chouette_snapshot(ended) == before
