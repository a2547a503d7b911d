"""A refused setting is named as the event form names it, never by its name in the code: the page
and the API's ``detail`` say "Paid places (Main flight, place 2)" and "Ends on", while the API's
``field`` and ``errors`` keep ``payouts.main.percentages[1]`` and ``ends_on`` for machines."""

from __future__ import annotations

import datetime
import html
import re
from dataclasses import fields

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core.errors import Conflict, DomainError
from tests.factories import PlayerFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import make_organiser
from tests.tournaments.factories_teams import team_event
from tests.tournaments.test_views import new_event_data
from tournaments.forms.divisions import division_fields
from tournaments.forms.event import TournamentForm
from tournaments.labels import RULE_LABELS, rule_label
from tournaments.models import Tournament
from tournaments.services.events import EventRules
from tournaments.services.life import tournament_update
from tournaments.services.teams import team_check

pytestmark = pytest.mark.django_db

#: What a refusal must never show a person: a setting's name in the code, a path into the rules.
CODE_NAMES = re.compile(r"\b(payouts|lengths|ends_on|starts_on|consolation_rounds|abt_playoffs|member_ids)\b|"
                        r"percentages\[")


def page_text(response) -> str:
    return html.unescape(response.content.decode())


def errors_shown(response) -> str:
    """The refusals the page shows (its error lists and alerts), as one text."""
    found = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', response.content.decode(), flags=re.S)
    assert found, "no refusal on the page"
    return html.unescape(re.sub(r"<[^>]+>", " ", " ".join(found)))


@pytest.fixture
def olga():
    return make_organiser()


# --- the labels ------------------------------------------------------------------------------------


def test_every_setting_has_the_label_the_event_form_shows():
    form = TournamentForm()
    form_fields = {**form.fields, **division_fields()}
    for rule in (f.name for f in fields(EventRules)):
        assert rule in RULE_LABELS, rule
        if rule in form_fields:
            assert str(RULE_LABELS[rule]) == str(form_fields[rule].label), rule


@pytest.mark.parametrize(("path", "label"), [
    ("ends_on", "Ends on"),
    ("payouts", "Paid places"),
    ("payouts.main", "Paid places (Main flight)"),
    ("payouts.main.percentages", "Paid places (Main flight)"),
    ("payouts.main.percentages[1]", "Paid places (Main flight, place 2)"),
    ("payouts.consolation.pool", "Paid places (Consolation flight, prize pool)"),
    ("lengths.last_chance", "Match lengths (Last-chance flight)"),
    ("divisions.2.name", "Divisions (line 3)"),
    ("handicaps.0.points", "Handicap starts (line 1)"),
    ("colour", "“colour”"),
])
def test_a_setting_path_reads_as_its_label_and_the_part_it_names(path, label):
    with translation.override("en"):
        assert rule_label(path) == label


# --- the services' refusals ---------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "field", "message"), [
    ({"payouts": {"main": {"pool": 100, "percentages": [60, 30]}}}, "payouts.main.percentages",
     "Paid places (Main flight): the percentages add up to 90, not 100"),
    ({"payouts": {"main": {"pool": 100, "percentages": [30, 70]}}}, "payouts.main.percentages[1]",
     "Paid places (Main flight, place 2): a place is paid more than the place before it"),
    ({"payouts": {"consolation": {"pool": 1, "percentages": [100]}}}, "payouts.consolation",
     "Paid places (Consolation flight): this event pays only Main flight"),
    ({"starts_on": datetime.date(2026, 5, 2), "ends_on": datetime.date(2026, 5, 1)}, "ends_on",
     "Ends on: the event cannot end before it starts"),
    ({"last_chance": True}, "last_chance",
     "Last-chance flight for consolation losers: a last-chance flight is fed by a consolation flight: set "
     "“Consolation flight”"),
    ({"last_chance_open": True}, "last_chance_open",
     "Last chance open to everyone who has not cashed: a last chance open to everyone who has not cashed needs the "
     "paid places: set “Paid places”"),
    ({"format": "swiss", "abt_paid_places": 4}, "abt_paid_places",
     "Modified Swiss: paid places: only an ABT-style modified Swiss counts paid places for its playoffs: set "
     "“Modified Swiss: playoffs once no more players can still cash than there are paid places”"),
    ({"lengths": {"semis": 7}}, "lengths.semis",
     "Match lengths (Semis): a single elimination reads only Main flight, Consolation flight, Last-chance flight, "
     "Playoff for 2nd"),
])
def test_a_refused_setting_is_named_by_its_label_and_its_field_kept(rules, field, message):
    with translation.override("en"), pytest.raises(DomainError) as raised:
        EventRules(name="Cup", **rules)
    assert (raised.value.code, raised.value.details["field"], raised.value.message) == ("bad_rules", field, message)


def test_a_setting_that_may_no_longer_change_is_named_by_its_label(olga):
    tournament = Tournament.objects.create(name="Cup", organiser=olga, status=Tournament.Status.FINISHED)
    with translation.override("en"), pytest.raises(Conflict) as raised:
        tournament_update(tournament_id=tournament.pk, user=olga, changes={"ends_on": datetime.date(2027, 1, 1)})
    assert raised.value.details["field"] == "ends_on"
    assert raised.value.message == "Ends on: the event is finished: its settings no longer change"


def test_a_player_named_twice_in_a_team_is_named_by_his_name(olga):
    tournament = Tournament.objects.create(name="Teams", organiser=olga, kind=Tournament.Kind.TEAMS, board_count=2)
    captain, mate = PlayerFactory(display_name="Ana Ionescu"), PlayerFactory(display_name="Bogdan Pop")
    with translation.override("en"), pytest.raises(DomainError) as raised:
        team_check(tournament, name="Reds", captain_id=captain.pk, member_ids=[mate.pk], reserve_ids=[mate.pk])
    assert raised.value.details["field"] == "member_ids"
    assert raised.value.message == "Other members: Bogdan Pop is named twice"


# --- the pages ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("changes", "field", "shown"), [
    ({"payouts_main_pool": "1000", "payouts_main_places": "60 30"}, "payouts_main_places",
     "Main flight: the percentages add up to 90, not 100"),
    ({"payouts_main_pool": "1000", "payouts_main_places": "30 70"}, "payouts_main_places",
     "Main flight, place 2: a place is paid more than the place before it"),
    ({"payouts_consolation_pool": "200", "payouts_consolation_places": "100", "consolation_rounds": "0"},
     "payouts_consolation_places", "Consolation flight: this event pays only Main flight"),
    ({"starts_on": "2026-05-02", "ends_on": "2026-05-01"}, "ends_on", "the event cannot end before it starts"),
    ({"format": "swiss", "lengths_consolation": ""}, "consolation_rounds", "consolation flights are for single elimination"),
])
def test_the_new_event_page_shows_a_refusal_beside_its_field_in_words(client, olga, changes, field, shown):
    """Beside its field, under the field's label, the refusal says the part of it concerned (the
    flight, the place) and why; never the setting's name in the code."""
    client.force_login(olga)
    response = client.post(reverse("tournaments:new"), new_event_data(**changes), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and not Tournament.objects.exists()
    assert response.context["form"].errors == {field: [shown]}
    assert shown in page_text(response)
    assert not CODE_NAMES.search(errors_shown(response)), errors_shown(response)


def test_the_edit_page_shows_a_refusal_of_the_paid_places_beside_them(client, olga):
    tournament = Tournament.objects.create(name="Cup", organiser=olga)
    client.force_login(olga)
    response = client.post(reverse("tournaments:edit", args=[tournament.pk]),
                           new_event_data(payouts_main_pool="1000", payouts_main_places="30 70", board_count="3"),
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400, response.context["form"].errors
    assert response.context["form"].errors["payouts_main_places"] == [
        "Main flight, place 2: a place is paid more than the place before it"]
    assert not CODE_NAMES.search(errors_shown(response)), errors_shown(response)


def test_the_new_event_page_says_the_refusal_in_the_readers_language(olga):
    olga.preferred_language = "ko"
    olga.save(update_fields=["preferred_language"])
    client = Client(headers={"accept-language": "ko"})
    client.force_login(olga)
    response = client.post(reverse("tournaments:new"), new_event_data(starts_on="2026-05-02", ends_on="2026-05-01"))
    assert response.status_code == 400
    with translation.override("ko"):
        sentence = translation.gettext("the event cannot end before it starts")
    assert sentence != "the event cannot end before it starts"
    assert response.context["form"].errors["ends_on"] == [sentence]


# --- the API -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "field", "label", "beside"), [
    ({"payouts": {"main": {"pool": 100, "percentages": [40, 50, 10]}}}, "payouts.main.percentages[1]",
     "Paid places (Main flight, place 2)", "Main flight, place 2: a place is paid more than the place before it"),
    ({"payouts": {"main": {"pool": 100, "percentages": [40, 40]}}}, "payouts.main.percentages",
     "Paid places (Main flight)", "Main flight: the percentages add up to 80, not 100"),
    ({"starts_on": "2026-05-02", "ends_on": "2026-05-01"}, "ends_on", "Ends on",
     "the event cannot end before it starts"),
])
def test_the_api_keeps_the_field_and_says_its_label_in_the_detail(olga, body, field, label, beside):
    response = client_for(olga).post("/api/v1/tournaments/", {"name": "X", **body}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and response.data["code"] == "bad_rules"
    assert response.data["field"] == field and response.data["errors"] == {field: [beside]}
    assert response.data["detail"].startswith(f"{label}: ") and not CODE_NAMES.search(response.data["detail"])


def test_the_api_names_the_setting_in_the_readers_language(olga):
    body = {"name": "X", "starts_on": "2026-05-02", "ends_on": "2026-05-01"}
    response = client_for(olga).post("/api/v1/tournaments/", body, HTTP_ACCEPT_LANGUAGE="ko")
    with translation.override("ko"):
        label = str(RULE_LABELS["ends_on"])
    assert label != "Ends on" and response.data["detail"].startswith(f"{label}: ")
    assert "ends_on" not in response.data["detail"]


def test_a_bad_value_the_serializer_refuses_is_named_by_the_forms_label(olga):
    response = client_for(olga).post("/api/v1/tournaments/", {"name": "X", "reentries": 2}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and list(response.data["errors"]) == ["reentries"]
    assert response.data["detail"].startswith("Re-entry (buy-back): ")


# --- a team's board order, a report's time left ------------------------------------------------------


def test_a_player_on_two_boards_is_named_by_his_name_on_the_page(client, olga):
    tournament, players, (aces, *_others) = team_event(olga)
    alice, bob = players[0], players[1]
    client.force_login(alice.user)
    form = {"round_number": "1", "board_1": str(alice.pk), "board_2": str(bob.pk), "board_3": str(alice.pk)}
    response = client.post(reverse("tournaments:team_board_order", args=[tournament.pk, aces.pk]), form,
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    text = page_text(response)
    assert f"{alice.display_name} is on two boards (1 and 3)" in text
    assert "player_ids" not in text and f"player {alice.pk} " not in text


def test_a_board_order_refused_in_the_api_leads_with_board_order(olga):
    tournament, players, (aces, *_others) = team_event(olga)
    response = client_for(olga).post(f"/api/v1/tournaments/{tournament.pk}/teams/{aces.pk}/board-order/",
                                     {"round_number": 1, "player_ids": [players[0].pk]}, format="json",
                                     HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and response.data["code"] == "bad_board_order"
    assert response.data["detail"] == "Board order: exactly 3 players (one per board), not 1"
    assert response.data["field"] == "player_ids"
