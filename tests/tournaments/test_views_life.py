"""An event's life through its pages and the API: the edit page and PATCH (refusals per field,
nothing saved), cancel and delete, drafts seen by their organiser and staff only (list, page, API
list and detail), and the create form and API sent twice making one event."""

from __future__ import annotations

import html
import uuid

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import cast, drawn, enter, make_another_organiser, make_organiser, make_staff
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

S = Tournament.Status


@pytest.fixture
def olga():
    return make_organiser()


@pytest.fixture
def oscar():
    return make_another_organiser()


def text(response) -> str:
    return html.unescape(response.content.decode())


def url(name: str, tournament: Tournament) -> str:
    return reverse(f"tournaments:{name}", args=[tournament.pk])


# --- drafts are their organiser's ---------------------------------------------------------------------


def test_a_draft_is_seen_by_its_organiser_and_staff_only(client, olga, oscar):
    draft = TournamentFactory(organiser=olga, name="Secret Draft")
    shown = TournamentFactory(organiser=olga, name="Public Open", status=S.OPEN)
    alice = cast(1)[0].user
    for viewer, sees in ((None, False), (alice, False), (oscar, False), (olga, True), (make_staff(), True)):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        listing = text(client.get(reverse("tournaments:list")))
        assert "Public Open" in listing and ("Secret Draft" in listing) == sees, viewer
        assert client.get(url("detail", draft)).status_code == (200 if sees else 404), viewer
        assert client.get(url("detail", shown)).status_code == 200
        api = client_for(viewer)
        names = {t["name"] for t in api.get("/api/v1/tournaments/").data["results"]}
        assert ("Secret Draft" in names) == sees and "Public Open" in names
        assert api.get(f"/api/v1/tournaments/{draft.pk}/").status_code == (200 if sees else 404), viewer
    client.logout()
    for name in ("bracket", "rounds", "standings"):
        assert client.get(url(name, draft)).status_code == 404


# --- the create form twice ---------------------------------------------------------------------------


def test_the_create_form_sent_twice_makes_one_event(client, olga):
    client.force_login(olga)
    page = text(client.get(reverse("tournaments:new")))
    assert 'type="hidden" name="token"' in page
    body = {"name": "Twice Open", "format": "single_elimination", "kind": "individual", "consolation_rounds": "0",
            "groups": "1", "crawford": "on", "move_policy": "legal", "premature_roll": "stands",
            "penalty_minutes_per_point": "5", "seeding": "rating", "club": "", "token": str(uuid.uuid4())}
    first = client.post(reverse("tournaments:new"), body)
    second = client.post(reverse("tournaments:new"), body)
    [event] = Tournament.objects.filter(name="Twice Open")
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == url("manage", event)


def test_the_api_with_the_same_idempotency_key_makes_one_event(olga):
    api = client_for(olga)
    key = str(uuid.uuid4())
    first = api.post("/api/v1/tournaments/", {"name": "Keyed"}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    second = api.post("/api/v1/tournaments/", {"name": "Keyed"}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == second.status_code == 201 and first.data["id"] == second.data["id"]
    assert Tournament.objects.filter(name="Keyed").count() == 1
    bad = api.post("/api/v1/tournaments/", {"name": "Keyed"}, format="json", HTTP_IDEMPOTENCY_KEY="twice")
    assert bad.status_code == 400 and "Idempotency-Key" in bad.content.decode()


# --- the edit page and PATCH -----------------------------------------------------------------------


def test_the_edit_page_is_prefilled_and_shows_what_stays_with_the_reason(client, olga):
    event, _players = drawn(4, organiser=olga, lengths={"main": [5, 7]})
    client.force_login(olga)
    page = text(client.get(url("edit", event)))
    assert f'value="{event.name}"' in page and 'name="lengths_main" value="5 7"' in page
    assert "the draw is made: it was made by this rule" in page
    refused = client.post(url("edit", event), {"name": "New Name", "lengths_main": "3 7"})
    assert refused.status_code == 409 and "round 1 has begun" in text(refused)
    assert Tournament.objects.get(pk=event.pk).name != "New Name"  # nothing saved
    done = client.post(url("edit", event), {"name": "New Name", "lengths_main": "5 9"})
    assert done.status_code == 302
    event.refresh_from_db()
    assert event.name == "New Name" and event.lengths == {"main": [5, 9]}


def test_a_swiss_schedule_sent_as_rounds_shows_in_the_main_flight_s_field_and_stays_unless_changed(client, olga):
    event, _players = drawn(4, organiser=olga, format=Tournament.Format.SWISS, lengths={"rounds": [5, 5, 5]})
    client.force_login(olga)
    assert 'name="lengths_main" value="5 5 5"' in text(client.get(url("edit", event)))
    assert client.post(url("edit", event), {"name": "Same Lengths", "lengths_main": "5 5 5"}).status_code == 302
    event.refresh_from_db()
    assert (event.name, event.lengths) == ("Same Lengths", {"rounds": [5, 5, 5]})
    assert client.post(url("edit", event), {"name": "Same Lengths", "lengths_main": "5 7 9"}).status_code == 302
    event.refresh_from_db()
    assert event.lengths == {"main": [5, 7, 9]}


def test_the_edit_page_refuses_bad_rules_on_their_field(client, olga):
    event = TournamentFactory(organiser=olga)
    client.force_login(olga)
    body = {"name": "X", "format": "single_elimination", "kind": "individual", "consolation_rounds": "0",
            "groups": "3", "move_policy": "legal", "premature_roll": "stands", "penalty_minutes_per_point": "5",
            "seeding": "rating", "board_count": "3"}
    refused = client.post(url("edit", event), body)
    assert refused.status_code == 400
    assert "only a round robin plays in groups" in text(refused)
    assert Tournament.objects.get(pk=event.pk).name != "X"


def test_only_the_organiser_edits_cancels_or_deletes(client, olga, oscar):
    event = TournamentFactory(organiser=olga)
    client.force_login(oscar)
    for name in ("edit", "cancel", "delete"):
        assert client.get(url(name, event)).status_code == 403
        assert client.post(url(name, event), {"reason": "x"}).status_code == 403
    assert client_for(oscar).patch(f"/api/v1/tournaments/{event.pk}/", {"name": "x"}, format="json").status_code == 403


def test_patch_changes_what_may_change_and_refuses_the_rest_naming_the_field(olga):
    event, _players = drawn(4, organiser=olga)
    api = client_for(olga)
    done = api.patch(f"/api/v1/tournaments/{event.pk}/", {"name": "Patched"}, format="json")
    assert done.status_code == 200 and done.data["name"] == "Patched"
    refused = api.patch(f"/api/v1/tournaments/{event.pk}/", {"name": "Again", "seeding": "random"}, format="json")
    assert refused.status_code == 409 and refused.data["code"] == "not_editable"
    assert "seeding" in str(refused.data)
    assert Tournament.objects.get(pk=event.pk).name == "Patched"
    unknown = api.patch(f"/api/v1/tournaments/{event.pk}/", {"status": "finished"}, format="json")
    assert unknown.status_code == 400


# --- cancel and delete -----------------------------------------------------------------------------


def test_cancelling_from_the_page_shows_the_event_cancelled_with_the_reason(client, olga):
    event = TournamentFactory(organiser=olga, status=S.OPEN)
    enter(event, cast(2))
    client.force_login(olga)
    assert client.post(url("cancel", event), {"reason": ""}).status_code == 400
    response = client.post(url("cancel", event), {"reason": "The hall is closed"})
    assert response.status_code == 302
    client.logout()
    page = text(client.get(url("detail", event)))
    assert "Cancelled" in page and "The hall is closed" in page
    assert "Cancelled" in text(client.get(reverse("tournaments:list")))


def test_the_api_cancels_and_deletes(olga):
    api = client_for(olga)
    event = TournamentFactory(organiser=olga, status=S.OPEN)
    assert api.post(f"/api/v1/tournaments/{event.pk}/cancel/", {}, format="json").status_code == 400
    done = api.post(f"/api/v1/tournaments/{event.pk}/cancel/", {"reason": "Storm"}, format="json")
    assert done.status_code == 200 and done.data["status"] == "cancelled" and done.data["cancel_reason"] == "Storm"
    assert api.delete(f"/api/v1/tournaments/{event.pk}/").status_code == 409
    draft = TournamentFactory(organiser=olga)
    assert api.delete(f"/api/v1/tournaments/{draft.pk}/").status_code == 204
    assert not Tournament.objects.filter(pk=draft.pk).exists()


def test_deleting_a_draft_from_the_page(client, olga):
    draft = TournamentFactory(organiser=olga, name="Gone Soon")
    running, _players = drawn(4, organiser=olga)
    client.force_login(olga)
    assert "Delete the draft" in text(client.get(url("manage", draft)))
    refused = client.post(url("delete", running))
    assert refused.status_code == 409 and "cancel it instead" in text(refused)
    assert client.post(url("delete", draft)).status_code == 302
    assert not Tournament.objects.filter(pk=draft.pk).exists()


# --- bounded queries ----------------------------------------------------------------------------------


def _queries(client, api, event) -> tuple[int, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as page:
        assert client.get(url("edit", event)).status_code == 200
    with CaptureQueriesContext(connection) as patch:
        answer = api.patch(f"/api/v1/tournaments/{event.pk}/", {"lengths": {"main": [7, 7, 7, 9]}}, format="json")
        assert answer.status_code == 200, answer.content
    return len(page), len(patch)


def test_the_edit_page_and_a_length_change_cost_the_same_queries_whatever_the_size(client, olga):
    from tests.tournaments.factories import PlayerFactory, UserFactory

    small, _players = drawn(4, organiser=olga, lengths={"main": 7})
    big_players = [PlayerFactory(user=UserFactory(), rating=1500 - i) for i in range(16)]
    big, _players = drawn(16, organiser=olga, players=big_players, lengths={"main": 7})
    client.force_login(olga)
    api = client_for(olga)
    few = _queries(client, api, small)
    many = _queries(client, api, big)
    assert many[0] <= few[0] and many[1] <= few[1], (few, many)
