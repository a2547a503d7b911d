"""An event's clocks: the settings EventRules takes and checks (policy, reserve
per point, delay, the doubling variant, overtime), what the draw's matches record, what the event
page, the API and the round scoresheets show, and a flag fall in an event (the bracket moves on)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from audit.describe import describe
from audit.models import AuditEntry
from core.errors import Conflict, DomainError
from matches.models import Match
from matches.services.clocks import match_flag_fall
from tests.matches.factories_api import client_for
from tests.tournaments.factories import closed, drawn, pairing
from tests.tournaments.test_draw_queries import event
from tournaments.drawings import paper
from tournaments.models import Tournament
from tournaments.services import tournament_create, tournament_draw, tournament_update
from tournaments.services.events import EventRules

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("given", "policy", "per_point"), [
    ({}, "none", None),                                                   # no clock
    ({"clock_seconds_per_point": 90}, "required", 90),                    # a reserve alone: as before the policy
    ({"clock_policy": "allowed"}, "allowed", 120),                        # US clock rules 2013: 2 minutes a point
    ({"clock_policy": "preferred", "clock_seconds_per_point": 150}, "preferred", 150),
    ({"clock_policy": "required"}, "required", 120),
])
def test_the_clock_policy_and_its_reserve_per_point_are_normalised_when_the_rules_are_made(given, policy, per_point):
    """Per event, clocks required, preferred or allowed; reserve per point by default 2 minutes."""
    rules = EventRules(name="Open", **given)
    assert (rules.clock_policy, rules.clock_seconds_per_point) == (policy, per_point)
    assert (rules.clock_delay_seconds, rules.clock_doubling, rules.clock_overtime_seconds) == (12, False, 0)


@pytest.mark.parametrize(("given", "field"), [
    ({"clock_policy": "sometimes"}, "clock_policy"),
    ({"clock_policy": "none", "clock_seconds_per_point": 120}, "clock_seconds_per_point"),
    ({"clock_policy": "required", "clock_delay_seconds": -1}, "clock_delay_seconds"),
    ({"clock_policy": "required", "clock_delay_seconds": 601}, "clock_delay_seconds"),
    ({"clock_policy": "required", "clock_doubling_seconds_per_point": 0}, "clock_doubling_seconds_per_point"),
    ({"clock_policy": "required", "clock_doubling_delay_seconds": "15"}, "clock_doubling_delay_seconds"),
    ({"clock_policy": "required", "clock_overtime_seconds": -60}, "clock_overtime_seconds"),
])
def test_bad_clock_settings_are_refused_naming_the_field(organiser, given, field):
    with pytest.raises(DomainError) as caught:
        tournament_create(user=organiser, rules=EventRules(name="Open", **given))
    assert caught.value.code == "bad_rules" and caught.value.details["field"] == field
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("rules", "expected"), [
    ({}, ("", None, None, None, 0)),
    ({"clock_policy": "required", "clock_seconds_per_point": 120}, ("required", 120, 840, 12, 0)),
    ({"clock_policy": "preferred", "clock_seconds_per_point": 120, "clock_delay_seconds": 10,
      "clock_overtime_seconds": 300}, ("preferred", 120, 840, 10, 300)),
    # The doubling variant: its own longer reserve and delay (this service's defaults, 3 minutes and 15 s).
    ({"clock_policy": "required", "clock_seconds_per_point": 120, "clock_doubling": True},
     ("required", 180, 1260, 15, 0)),
])
def test_the_draws_matches_record_the_events_clock(rules, expected):
    """A match records its clock settings: the reserve is the length times the reserve per point."""
    tournament, _players = drawn(4, lengths={"main": 7}, **rules)
    matches = Match.objects.filter(event_link__tournament=tournament)
    assert matches.count() == 2
    for match in matches:
        assert (match.clock_policy, match.clock_seconds_per_point, match.clock_reserve_seconds,
                match.clock_delay_seconds, match.clock_overtime_seconds) == expected


def test_a_later_rounds_match_records_the_clock_for_its_own_length():
    tournament, _players = drawn(4, lengths={"main": [3, 5]}, clock_policy="required", clock_seconds_per_point=120)
    for key in ("main-1-1", "main-1-2"):
        match = pairing(tournament, key).match
        match_flag_fall(match_id=match.pk, side=1, user=tournament.organiser)
    final = pairing(tournament, "main-2-1").match
    assert (final.length, final.clock_reserve_seconds) == (5, 600)
    assert (final.status, final.winner) == ("scheduled", None)


def test_the_clock_settings_are_fixed_by_the_draw(organiser):
    tournament, _players = drawn(4, organiser=organiser, lengths={"main": 5}, clock_policy="required",
                                 clock_seconds_per_point=120)
    with pytest.raises(Conflict) as caught:
        tournament_update(tournament_id=tournament.pk, user=organiser, changes={"clock_delay_seconds": 20})
    assert caught.value.code == "not_editable" and caught.value.details["field"] == "clock_delay_seconds"


def test_the_organiser_changes_the_clock_before_the_draw(organiser):
    tournament = tournament_create(user=organiser, rules=EventRules(name="Open", clock_policy="allowed"))
    tournament_update(tournament_id=tournament.pk, user=organiser,
                      changes={"clock_policy": "required", "clock_seconds_per_point": 90, "clock_doubling": True})
    tournament.refresh_from_db()
    assert (tournament.clock_policy, tournament.clock_seconds_per_point, tournament.clock_doubling) == (
        "required", 90, True)
    entry = AuditEntry.objects.get(tournament_id=tournament.pk, action="tournament.updated")
    with translation.override("en"):
        text = str(describe(entry))
    assert "the clock policy" in text and "the clock with doubling in play" in text


def test_the_api_creates_an_event_with_its_clock_and_shows_it_in_the_rules(organiser):
    client = client_for(organiser)
    response = client.post("/api/v1/tournaments/", {
        "name": "Clocked Open", "clock_policy": "preferred", "clock_seconds_per_point": 120,
        "clock_delay_seconds": 12, "clock_doubling": True, "clock_doubling_seconds_per_point": 200,
        "clock_doubling_delay_seconds": 18, "clock_overtime_seconds": 300}, format="json")
    assert response.status_code == 201, response.content
    rules = response.json()["rules"]
    assert {k: v for k, v in rules.items() if k.startswith("clock")} == {
        "clock_policy": "preferred", "clock_seconds_per_point": 120, "clock_delay_seconds": 12,
        "clock_doubling": True, "clock_doubling_seconds_per_point": 200, "clock_doubling_delay_seconds": 18,
        "clock_overtime_seconds": 300}
    refused = client.post("/api/v1/tournaments/", {"name": "Bad", "clock_policy": "none",
                                                   "clock_seconds_per_point": 120}, format="json")
    assert refused.status_code == 400 and "clock_seconds_per_point" in refused.content.decode()
    assert client.post("/api/v1/tournaments/", {"name": "Bad", "clock_policy": "often"},
                       format="json").status_code == 400
    assert Tournament.objects.count() == 1


def test_the_new_event_form_takes_the_clock(organiser):
    client = Client()
    client.force_login(organiser)
    response = client.post(reverse("tournaments:new"), {
        "name": "Form Open", "format": "single_elimination", "kind": "individual", "consolation_rounds": "0",
        "groups": "1", "move_policy": "legal", "premature_roll": "stands", "penalty_minutes_per_point": "5",
        "seeding": "rating", "clock_policy": "required", "clock_seconds_per_point": "", "clock_delay_seconds": "",
        "clock_overtime_seconds": "60"})
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Form Open")
    assert (tournament.clock_policy, tournament.clock_seconds_per_point, tournament.clock_delay_seconds,
            tournament.clock_overtime_seconds) == ("required", 120, 12, 60)


@pytest.mark.parametrize(("rules", "shown"), [
    ({}, "no clock"),
    ({"clock_policy": "required", "clock_seconds_per_point": 120},
     "Clocks required: 2 minutes per match point, a delay of 12 seconds per move; no overtime"),
    ({"clock_policy": "allowed", "clock_seconds_per_point": 90, "clock_doubling": True, "clock_overtime_seconds": 300},
     "Clocks allowed: 90 seconds per match point, a delay of 12 seconds per move; when doubling is in play, "
     "3 minutes per match point, a delay of 15 seconds per move; overtime: 5 minutes once the reserve is used"),
])
def test_the_event_page_lists_the_clock_among_its_rules(rules, shown):
    tournament = closed(name="Clock Open", status=Tournament.Status.OPEN, **rules)
    page = Client().get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert shown in page


def test_the_rounds_scoresheets_carry_the_clock_each_match_gets(monkeypatch):
    tournament, _players = drawn(4, lengths={"main": 7}, clock_policy="required", clock_seconds_per_point=120)
    sheets = paper.scoresheets(tournament, paper.round_groups(tournament, 1))
    assert [s.clock for s in sheets] == [
        "Clocks required: 14 minutes for each side, a delay of 12 seconds per move; no overtime."] * 2
    assert paper.scoresheets_pdf(tournament, 1).startswith(b"%PDF")


def _flag_fall_queries(size: int, organiser) -> int:
    tournament = event(size, organiser, lengths={"main": 5}, clock_policy="required", clock_seconds_per_point=120)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    match = pairing(tournament, "main-1-1").match
    with CaptureQueriesContext(connection) as queries:
        response = client_for(organiser).post(f"/api/v1/matches/{match.pk}/flag-fall/", {"side": 1}, format="json")
    assert response.status_code == 200, response.content
    return len(queries)


def test_a_flag_falls_queries_do_not_grow_with_the_event(organiser):
    _flag_fall_queries(4, organiser)  # the first request's one-time look-ups (the token, prepared statements)
    assert _flag_fall_queries(8, organiser) == _flag_fall_queries(64, organiser)
