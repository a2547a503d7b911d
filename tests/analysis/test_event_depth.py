"""An event's depth of analysis (``Tournament.analysis_plies``): set when it is made, changed at any
time until it ends (the matches analysed after it take it), through the API as well."""

from __future__ import annotations

import pytest

from core.errors import DomainError
from tests.factories import UserFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import drawn, player
from tournaments.models import Tournament
from tournaments.services.events import EventRules, tournament_create
from tournaments.services.life import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def otto():
    return UserFactory(username="otto", organiser=True)


def test_an_event_is_analysed_at_2_plies_unless_it_says_otherwise(otto):
    assert tournament_create(user=otto, rules=EventRules(name="Open")).analysis_plies == 2
    assert tournament_create(user=otto, rules=EventRules(name="Blitz", analysis_plies=0)).analysis_plies == 0


@pytest.mark.parametrize("plies", [3, -1, True, None])
def test_a_depth_other_than_0_1_or_2_is_refused_naming_it(plies):
    with pytest.raises(DomainError) as refused:
        EventRules(name="Open", analysis_plies=plies)
    assert (refused.value.code, refused.value.details["field"]) == ("bad_rules", "analysis_plies")


def test_the_depth_changes_after_the_draw_too(otto):
    tournament, _ = drawn(2, players=[player("dave"), player("erin")], organiser=otto)
    assert tournament.status not in ("draft", "open", "closed")
    changed = tournament_update(tournament_id=tournament.pk, user=otto, changes={"analysis_plies": 1})
    assert changed.analysis_plies == 1


def test_the_api_takes_and_shows_the_depth(otto):
    client = client_for(otto)
    response = client.post("/api/v1/tournaments/", {"name": "Open", "analysis_plies": 1}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["rules"]["analysis_plies"] == 1
    tournament_id = response.json()["id"]
    response = client.patch(f"/api/v1/tournaments/{tournament_id}/", {"analysis_plies": 3}, format="json")
    assert response.status_code == 400 and "analysis_plies" in response.json()["errors"]
    assert Tournament.objects.get(pk=tournament_id).analysis_plies == 1
