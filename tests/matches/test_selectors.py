"""Selectors of the kernel: a friendly match of an organiser between two players (no event, no
club). (``match_record_counts`` is checked on the demo's matches: tests/demo/test_command.py.)"""

import pytest

from clubs.models import ClubMatch
from matches.selectors.match import friendly_match_of
from tests.clubs.factories import ClubFactory
from tests.factories import MatchFactory, PlayerFactory, SideFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_friendly_match_of_finds_the_organisers_match_of_no_event_and_no_club_with_the_sides_in_order():
    organiser = UserFactory(organiser=True)
    alice, bob = PlayerFactory(), PlayerFactory()
    side_a, side_b = SideFactory(player_a=alice), SideFactory(player_a=bob)
    assert friendly_match_of(organiser=organiser, player0=alice, player1=bob) is None
    # Not one of his event's, nor a club's, nor another organiser's, nor the sides the other way round.
    MatchFactory(organiser=organiser, side0=side_a, side1=side_b, event=TournamentFactory(organiser=organiser))
    ClubMatch.objects.create(match=MatchFactory(organiser=organiser, side0=side_a, side1=side_b), club=ClubFactory())
    MatchFactory(side0=side_a, side1=side_b)
    MatchFactory(organiser=organiser, side0=side_b, side1=side_a)
    # Nor a pair's match with alice in it.
    MatchFactory(organiser=organiser, side0=SideFactory(player_a=alice, player_b=PlayerFactory()), side1=side_b)
    assert friendly_match_of(organiser=organiser, player0=alice, player1=bob) is None
    friendly = MatchFactory(organiser=organiser, side0=side_a, side1=side_b)
    assert friendly_match_of(organiser=organiser, player0=alice, player1=bob) == friendly

