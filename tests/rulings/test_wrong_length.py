"""A match played to the wrong length, resolved by the director's choice among
the engine's (``engine.rulings.wrong_length_choices``: found after the match, the result stands;
found during it, the match goes on to its right length, or the side that already reached it
wins), applied through the result services, audited, undone on appeal; the API and the dispute
page's ruling form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from core.errors import DomainError
from matches.models import Match
from rulings.models import Dispute, Ruling
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make, ruling_revert
from rulings.wording import ruling_sentence
from tests.factories import MatchFactory
from tests.matches.factories_api import client_for, make_cast
from tests.rulings.factories import confirm_score, snapshot
from tests.rulings.test_views import browser, send

pytestmark = pytest.mark.django_db

RULE = "Event rules: a match played to the wrong length"
WHY = "Both players agree they played to the wrong length."


@pytest.fixture
def cast():
    return make_cast()  # a 5-point match


def opened(cast) -> Dispute:
    return dispute_open(match_id=cast.match.pk, user=cast.alice, category=Dispute.Category.OTHER,
                        statement="We played to the wrong length.")


def rule(cast, params, dispute=None) -> Ruling:
    return ruling_make(dispute_id=(dispute or opened(cast)).pk, user=cast.organiser, outcome=Ruling.Outcome.WRONG_LENGTH,
                       params=params, rule=RULE, reasoning=WHY)


def state(match) -> tuple:
    match.refresh_from_db()
    return match.length, match.status, match.score0, match.score1, match.winner


@pytest.mark.parametrize(
    ("label", "params", "expected", "extra"),
    [
        ("found after the match, played shorter: the result stands, the length is the one played",
         {"played_length": 3, "score": [3, 1], "finished": True, "choice": "result_stands"},
         (3, "confirmed", 3, 1, 0), {}),
        ("found after the match, played longer: the result may stand as played",
         {"played_length": 7, "score": [7, 4], "finished": True, "choice": "result_stands"},
         (7, "confirmed", 7, 4, 0), {}),
        ("found after the match, played longer: or the side that reached the right length wins",
         {"played_length": 7, "score": [7, 4], "finished": True, "choice": "won_at_length"},
         (5, "confirmed", 5, 4, 0), {}),
        ("found during the match, a side already has the right length: it wins",
         {"played_length": 7, "score": [2, 5], "choice": "won_at_length"},
         (5, "confirmed", 2, 5, 1), {}),
        ("found during the match: it goes on to the right length",
         {"played_length": 3, "score": [2, 1], "choice": "continue_to_length"},
         (5, "scheduled", None, None, None), {"crawford_next": False}),
        ("found during the match at 4-1: it goes on, and the next game is the Crawford game (RULES 5)",
         {"played_length": 3, "score": [4, 1], "choice": "continue_to_length"},
         (5, "scheduled", None, None, None), {"crawford_next": True}),
    ],
)
def test_a_wrong_length_is_resolved_by_the_directors_choice(cast, label, params, expected, extra):
    ruling = rule(cast, params)
    assert state(cast.match) == expected, label
    assert ruling.params == {"finished": False, **params, "length": 5, **extra}, label
    entry = AuditEntry.objects.get(action="ruling.made", object_id=ruling.pk)
    assert entry.after["outcome"] == "wrong_length"
    # Overturned on appeal: the match's length and result as they were.
    ruling.refresh_from_db()
    ruling_revert(ruling=ruling, actor=cast.staff)
    assert state(cast.match) == (5, "scheduled", None, None, None), label


def test_a_confirmed_match_played_longer_stands_as_played_from_its_full_score(cast):
    confirm_score(cast.match, (7, 4))  # capped 5-4, 7-4 in full
    ruling = rule(cast, {"played_length": 7, "choice": "result_stands"})
    assert ruling.params["score"] == [7, 4] and ruling.params["finished"] is True
    assert state(cast.match) == (7, "confirmed", 7, 4, 0)
    ruling.refresh_from_db()
    ruling_revert(ruling=ruling, actor=cast.staff)
    assert state(cast.match) == (5, "confirmed", 5, 4, 0)


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({"played_length": 3, "score": [3, 1], "finished": True, "choice": "continue_to_length"}, "choice",
         "What becomes of the match: for this match, one of: “The result stands as played”"),
        ({"played_length": 5, "score": [3, 1], "choice": "result_stands"}, "played_length", "its own length"),
        ({"played_length": 3, "choice": "result_stands"}, "score", "Score: give the score as it stands"),
        ({"played_length": 0, "score": [3, 1], "choice": "result_stands"}, "played_length", "whole number"),
        ({"played_length": 3, "score": [3, 1], "choice": "result_stands", "side": 1}, "side",
         "Side: not a detail of this outcome"),
        ({"played_length": 9, "score": [6, 5], "choice": "won_at_length"}, "score", "both sides"),
    ],
)
def test_a_wrong_length_ruling_the_rules_do_not_allow_is_refused_on_its_field_and_changes_nothing(
    cast, params, field, words,
):
    dispute = opened(cast)
    before = snapshot()
    with pytest.raises(DomainError) as refused:
        rule(cast, params, dispute)
    assert refused.value.details["field"] == field and words in refused.value.message, refused.value.message
    assert snapshot() == before


def test_a_money_session_has_no_length_to_get_wrong():
    match = MatchFactory(length=0)
    dispute = dispute_open(match_id=match.pk, user=match.side0.player_a.user, category=Dispute.Category.OTHER,
                           statement="Wrong length.")
    with pytest.raises(DomainError) as refused:
        ruling_make(dispute_id=dispute.pk, user=match.organiser, outcome=Ruling.Outcome.WRONG_LENGTH,
                    params={"played_length": 3, "score": [3, 1], "choice": "result_stands"}, rule=RULE, reasoning=WHY)
    assert refused.value.details["field"] == "outcome"


@pytest.mark.parametrize(("params", "sentence"), [
    ({"length": 5, "played_length": 3, "choice": "result_stands", "score": [3, 1]},
     "The match to 5 was played to 3 points: the result stands as played, 3-1 to Ana"),
    ({"length": 5, "played_length": 7, "choice": "won_at_length", "score": [2, 5]},
     "The match to 5 was played to 7 points: at 2-5 the side that reached 5 wins"),
    ({"length": 5, "played_length": 3, "choice": "continue_to_length", "score": [4, 1], "crawford_next": True},
     "The match to 5 was played to 3 points: it goes on to 5 from 4-1, and the next game is the Crawford game"),
])
def test_a_wrong_length_ruling_is_said_in_a_sentence(params, sentence):
    assert ruling_sentence("wrong_length", params, ("Ana", "Bob")) == sentence


# --- the API and the page ------------------------------------------------------------------------


def test_the_api_rules_on_a_wrong_length_and_refuses_a_choice_the_rules_do_not_give_with_a_400(cast):
    dispute = opened(cast)
    url = reverse("api-dispute-rulings", args=[dispute.pk])
    body = {"outcome": "wrong_length", "rule": RULE, "reasoning": WHY,
            "params": {"played_length": 3, "score": [3, 1], "finished": True, "choice": "won_at_length"}}
    before = snapshot()
    refused = client_for(cast.organiser).post(url, body, format="json")
    assert refused.status_code == 400 and "choice" in refused.json()["errors"], refused.json()
    assert snapshot() == before
    body["params"]["choice"] = "result_stands"
    made = client_for(cast.organiser).post(url, body, format="json")
    assert made.status_code == 201, made.json()
    assert state(cast.match) == (3, "confirmed", 3, 1, 0)
    # Only the match's director rules: a player is refused.
    other = dispute_open(match_id=cast.match.pk, user=cast.bob, category=Dispute.Category.OTHER, statement="Again.")
    assert client_for(cast.bob).post(reverse("api-dispute-rulings", args=[other.pk]), body,
                                     format="json").status_code == 403


def test_the_ruling_form_offers_the_wrong_length_and_applies_it(cast):
    dispute = opened(cast)
    page = browser(cast.organiser).get(reverse("rulings:dispute", args=[dispute.pk])).content.decode()
    assert ">The match was played to the wrong length</option>" in page
    assert 'data-outcomes="wrong_length">' in page and 'name="played_length"' in page
    assert '<option value="continue_to_length">The match goes on to its right length</option>' in page
    response = send(cast.organiser, reverse("rulings:rule", args=[dispute.pk]),
                    {"outcome": "wrong_length", "played_length": "3", "choice": "continue_to_length", "score0": "4",
                     "score1": "1", "rule": RULE, "reasoning": WHY})
    assert response.status_code == 302, response.content.decode()
    page = browser(cast.alice).get(reverse("rulings:dispute", args=[dispute.pk])).content.decode()
    assert "it goes on to 5 from" in page and "the next game is the Crawford game" in page


def test_the_ruling_form_refuses_a_choice_the_rules_do_not_give_on_its_field(cast):
    dispute = opened(cast)
    response = send(cast.organiser, reverse("rulings:rule", args=[dispute.pk]),
                    {"outcome": "wrong_length", "played_length": "3", "choice": "won_at_length", "score0": "2",
                     "score1": "1", "rule": RULE, "reasoning": WHY})
    assert response.status_code == 400
    assert '<a href="#id_choice">' in response.content.decode()
    assert Ruling.objects.count() == 0 and cast.match.status == Match.Status.SCHEDULED


def test_a_reported_result_is_taken_back_when_the_match_goes_on_to_its_right_length(cast):
    # Both reported 5-2, but the director finds they stopped a 5-point match they had been playing
    # to 3 at 2-1 (as the scoresheet shows): it goes on from 2-1, the reports superseded.
    confirm_score(cast.match, (5, 2))
    ruling = rule(cast, {"played_length": 3, "score": [2, 1], "finished": False, "choice": "continue_to_length"})
    assert state(cast.match) == (5, "in_play", None, None, None)
    assert not cast.match.reports.exclude(status="superseded").exists()
    assert ruling.params["crawford_next"] is False
    ruling.refresh_from_db()
    ruling_revert(ruling=ruling, actor=cast.staff)
    assert state(cast.match) == (5, "confirmed", 5, 2, 0)
