"""The table page takes a full game too: the board's log and the crew's cube moments as JSON,
checked by the engine; a refusal names its place in the record and saves nothing."""

from __future__ import annotations

import html
import json

import pytest
from django.test import Client

from chouette.models import ChouetteStep
from tests.chouette.factories import chouette_snapshot, full_record, ids, table
from tests.clubs.factories import club_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return club_cast()


def post(cast, session, record, user=None):
    client = Client()
    client.force_login(user or cast.organiser)
    data = {"record": record if isinstance(record, str) else json.dumps(record), "version": session.version}
    return client.post(f"/clubs/{cast.club.slug}/chouettes/{session.pk}/games/full/", data)


def test_the_organiser_records_a_full_game_from_the_table_page(cast):
    session = table(cast)
    table_page = Client()
    table_page.force_login(cast.organiser)
    assert "games/full/" in table_page.get(f"/clubs/{cast.club.slug}/chouettes/{session.pk}/").content.decode()
    response = post(cast, session, full_record(ids(cast)))
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
    response = post(cast, session, record(ids(cast)) if callable(record) else record)
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
    assert chouette_snapshot(session) == before


def test_a_member_who_does_not_run_the_table_cannot_record_a_full_game(cast):
    session = table(cast)
    response = post(cast, session, full_record(ids(cast)), user=cast.members[0])
    assert response.status_code == 403 and not ChouetteStep.objects.filter(kind="game").exists()
