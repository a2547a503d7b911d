"""A match's clock: the settings it records, each side's remaining time carried
by a report with the logs, a flag fall (the match to the opponent, a result's origin, an audit
entry and a dispute category), a clock introduced mid-match (the reduced reserve), and where the
pages, the API and the scoresheet show them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from audit.describe import describe
from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from matches import paper
from matches.models import Match, Report
from matches.services.clocks import match_clock_introduce, match_flag_fall
from matches.services.logs import log_from_json
from rulings.models import Dispute
from rulings.services.disputes import dispute_open
from tests.factories import MatchFactory
from tests.matches.factories_api import client_for, json_games, make_cast

pytestmark = pytest.mark.django_db

CLOCK = {"clock_policy": "required", "clock_seconds_per_point": 120, "clock_reserve_seconds": 600,
         "clock_delay_seconds": 12, "clock_overtime_seconds": 0}


@pytest.fixture
def cast():
    return make_cast(**CLOCK)


def _games(match):
    games = json_games(5, 3)
    return games, list(log_from_json(games, match.rules()).final_score)


def test_both_sides_report_the_logs_with_the_time_left_and_the_confirmed_match_keeps_it(cast):
    """A match reported with a log may carry each side's remaining time."""
    games, score = _games(cast.match)
    for user in (cast.alice, cast.bob):
        response = client_for(user).post(f"/api/v1/matches/{cast.match.pk}/report/",
                                         {"score": score, "games": games, "clock_remaining": [312, 45]}, format="json")
        assert response.status_code == 200, response.content
    cast.match.refresh_from_db()
    assert (cast.match.status, cast.match.clock_remaining0, cast.match.clock_remaining1) == ("confirmed", 312, 45)
    body = client_for(cast.alice).get(f"/api/v1/matches/{cast.match.pk}/").json()
    assert body["clock"] == {"policy": "required", "seconds_per_point": 120, "reserve_seconds": 600,
                             "delay_seconds": 12, "overtime_seconds": 0, "remaining": [312, 45],
                             "text": "Clocks required: 10 minutes for each side, a delay of 12 seconds per move; "
                                     "no overtime."}
    assert {tuple(r["clock_remaining"]) for r in body["reports"]} == {(312, 45)}
    page = Client().get(reverse("matches:detail", args=[cast.match.pk])).content.decode()
    assert "Clocks required: 10 minutes for each side" in page and "Time left: Alice 5:12, Bob 0:45." in page


@pytest.mark.parametrize(("clock", "body", "status", "field"), [
    (CLOCK, {"clock_remaining": [601, 0]}, 400, "clock_remaining"),        # beyond the reserve
    (CLOCK, {"clock_remaining": [-1, 0]}, 400, "clock_remaining"),         # negative (the body's check)
    (CLOCK, {"clock_remaining": [1, 2, 3]}, 400, "clock_remaining"),
    (CLOCK, {"clock_remaining": [10, 10], "games": None}, 400, "clock_remaining"),  # without the logs
    ({}, {"clock_remaining": [10, 10]}, 400, "clock_remaining"),            # a match without a clock
])
def test_a_remaining_time_that_cannot_be_is_refused_naming_the_field_and_nothing_is_saved(clock, body, status, field):
    """The remaining time is validated: non-negative seconds, at most the reserve, with the logs."""
    cast = make_cast(**clock)
    games, score = _games(cast.match)
    sent = {"score": score, "games": games, **body}
    if sent.get("games") is None:
        sent.pop("games")
    response = client_for(cast.alice).post(f"/api/v1/matches/{cast.match.pk}/report/", sent, format="json")
    assert response.status_code == status, response.content
    assert field in response.content.decode()
    assert not Report.objects.filter(match=cast.match).exists()


def test_the_overtime_counts_in_the_time_a_report_may_give():
    """engine.clocks: the most time a side has is the reserve plus the overtime where allowed."""
    cast = make_cast(**{**CLOCK, "clock_overtime_seconds": 300})
    games, score = _games(cast.match)
    response = client_for(cast.alice).post(f"/api/v1/matches/{cast.match.pk}/report/",
                                           {"score": score, "games": games, "clock_remaining": [900, 0]}, format="json")
    assert response.status_code == 200, response.content


def test_a_flag_fall_gives_the_match_to_the_opponent_at_the_length_and_says_so(cast):
    """RULES.md §9: a flag fall loses the match; it is a result (the match to the opponent) with its origin."""
    report = match_flag_fall(match_id=cast.match.pk, side=0, user=cast.organiser)
    cast.match.refresh_from_db()
    assert (cast.match.status, cast.match.score0, cast.match.score1, cast.match.winner) == ("confirmed", 0, 5, 1)
    assert (report.origin, report.origin_name) == (Report.Origin.FLAG_FALL, "Alice")
    assert report.origin_text == "Flag fall: Alice ran out of time on the clock."
    entry = AuditEntry.objects.get(match_id=cast.match.pk, action="match.flag_fell")
    with translation.override("en"):
        assert "Otto recorded a flag fall: Alice ran out of time and loses the match" in str(describe(entry))
        overridden = AuditEntry.objects.get(match_id=cast.match.pk, action="match.result_overridden")
        assert "a flag fall, Alice ran out of time" in str(describe(overridden))


def test_a_flag_fall_keeps_the_losers_penalty_points(cast):
    Match.objects.filter(pk=cast.match.pk).update(penalty0=2)
    match_flag_fall(match_id=cast.match.pk, side=0, user=cast.organiser)
    cast.match.refresh_from_db()
    assert (cast.match.score0, cast.match.score1) == (2, 5)


@pytest.mark.parametrize(("who", "clock", "confirmed", "side", "error", "code"), [
    ("alice", CLOCK, False, 0, NotAllowed, "not_organiser"),       # a player records no flag fall
    ("carol", CLOCK, False, 0, NotAllowed, "not_organiser"),
    ("organiser", {}, False, 0, Conflict, "no_clock"),             # no clock, no flag
    ("organiser", CLOCK, True, 0, Conflict, "already_confirmed"),  # a ruling corrects a confirmed result
    ("organiser", CLOCK, False, 2, DomainError, "bad_side"),
])
def test_a_flag_fall_is_refused_when_it_cannot_be_and_nothing_changes(who, clock, confirmed, side, error, code):
    cast = make_cast(**clock)
    if confirmed:
        Match.objects.filter(pk=cast.match.pk).update(status="confirmed", score0=5, score1=1, winner=0)
    with pytest.raises(error) as caught:
        match_flag_fall(match_id=cast.match.pk, side=side, user=cast.user(who))
    assert caught.value.code == code
    assert not Report.objects.filter(match=cast.match).exists()
    assert not AuditEntry.objects.filter(match_id=cast.match.pk, action="match.flag_fell").exists()


def test_the_director_records_a_flag_fall_through_the_api(cast):
    response = client_for(cast.organiser).post(f"/api/v1/matches/{cast.match.pk}/flag-fall/", {"side": 1},
                                               format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["score"], body["winner"], body["reports"][0]["origin"]) == ([5, 0], 0, "flag_fall")
    refused = client_for(cast.alice).post(f"/api/v1/matches/{cast.match.pk}/flag-fall/", {"side": 1}, format="json")
    assert refused.status_code == 403
    bad = client_for(cast.organiser).post(f"/api/v1/matches/{cast.match.pk}/flag-fall/", {"side": 1, "winner": 0},
                                          format="json")
    assert bad.status_code == 400


def test_the_flag_fall_page_form_confirms_the_match_for_the_opponent():
    cast = make_cast(**CLOCK)
    client = Client()
    client.force_login(cast.organiser)
    page = client.get(reverse("matches:detail", args=[cast.match.pk])).content.decode()
    assert "A flag fell: the side out of time loses the match." in page and "Alice's flag fell" in page
    response = client.post(reverse("matches:flag_fall", args=[cast.match.pk]), {"side": "0"})
    assert response.status_code == 302
    cast.match.refresh_from_db()
    assert (cast.match.status, cast.match.winner) == ("confirmed", 1)
    page = client.get(reverse("matches:detail", args=[cast.match.pk])).content.decode()
    assert "Flag fall: Alice ran out of time on the clock." in page and "A flag fell:" not in page
    assert client.post(reverse("matches:flag_fall", args=[cast.match.pk]), {"side": "7"}).status_code == 400


def test_the_players_see_the_clock_but_no_flag_fall_buttons(cast):
    client = Client()
    client.force_login(cast.alice)
    page = client.get(reverse("matches:detail", args=[cast.match.pk])).content.decode()
    assert "Clocks required: 10 minutes for each side" in page and "A flag fell:" not in page
    assert client.post(reverse("matches:flag_fall", args=[cast.match.pk]), {"side": "1"}).status_code == 403
    assert Match.objects.get(pk=cast.match.pk).status == "scheduled"


@pytest.mark.parametrize(("clock", "score", "reserve", "per_point", "delay"), [
    ({}, (0, 0), 600, 120, 12),          # no clock yet: the defaults, the full reserve
    ({}, (2, 1), 420, 120, 12),          # US clock rules 2013 (in our words): a minute less per point played
    (CLOCK, (3, 3), 240, 120, 12),
    ({**CLOCK, "clock_seconds_per_point": 90, "clock_delay_seconds": 8}, (1, 0), 390, 90, 8),  # the match's own
])
def test_a_clock_introduced_mid_match_gets_the_reduced_reserve(clock, score, reserve, per_point, delay):
    """US clock rules 2013 (described in our words): a clock introduced mid-match gives each side
    the reserve less one minute per point already played (the sum of the scores)."""
    cast = make_cast(**clock)
    match = match_clock_introduce(match_id=cast.match.pk, user=cast.organiser, score=score)
    match.refresh_from_db()
    assert (match.clock_policy, match.clock_reserve_seconds, match.clock_seconds_per_point,
            match.clock_delay_seconds) == ("required", reserve, per_point, delay)
    entry = AuditEntry.objects.get(match_id=match.pk, action="match.clock_introduced")
    with translation.override("en"):
        assert f"introduced a clock at {score[0]}-{score[1]}" in str(describe(entry))


@pytest.mark.parametrize(("body", "field"), [
    ({"score": [5, 0]}, "score"),       # a score the match is over at
    ({"score": [1, 1], "seconds_per_point": 0}, "seconds_per_point"),
    ({"score": [1, 1], "delay_seconds": 601}, "delay_seconds"),
])
def test_a_mid_match_clock_is_refused_naming_the_field(body, field):
    cast = make_cast()
    response = client_for(cast.organiser).post(f"/api/v1/matches/{cast.match.pk}/clock/", body, format="json")
    assert response.status_code == 400 and field in response.content.decode()
    assert Match.objects.get(pk=cast.match.pk).clock_policy == ""


def test_the_director_introduces_a_clock_through_the_api_and_players_may_not():
    cast = make_cast()
    assert client_for(cast.alice).post(f"/api/v1/matches/{cast.match.pk}/clock/", {"score": [1, 0]},
                                       format="json").status_code == 403
    response = client_for(cast.organiser).post(f"/api/v1/matches/{cast.match.pk}/clock/", {"score": [1, 0]},
                                               format="json")
    assert response.status_code == 200 and response.json()["clock"]["reserve_seconds"] == 540


def test_a_money_session_gets_no_clock():
    cast = make_cast(length=0, rated=False)
    with pytest.raises(DomainError) as caught:
        match_clock_introduce(match_id=cast.match.pk, user=cast.organiser, score=(0, 0))
    assert caught.value.details["field"] == "length"


def test_a_dispute_about_a_flag_fall_has_its_own_category(cast):
    dispute = dispute_open(match_id=cast.match.pk, user=cast.alice, category="flag_fall",
                           statement="My flag had not fallen.")
    assert dispute.category == Dispute.Category.FLAG_FALL and dispute.get_category_display() == "Flag fall"


def test_the_scoresheet_shows_the_clock_and_a_line_for_the_time_left(cast, monkeypatch):
    sheets = []
    real = paper.scoresheet_pages
    monkeypatch.setattr(paper, "scoresheet_pages", lambda s: sheets.extend(s) or real(s))
    response = Client().get(reverse("matches:scoresheet", args=[cast.match.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert sheets[0].clock == "Clocks required: 10 minutes for each side, a delay of 12 seconds per move; no overtime."
    plain = MatchFactory()
    sheets.clear()
    Client().get(reverse("matches:scoresheet", args=[plain.pk]))
    assert sheets[0].clock == ""
