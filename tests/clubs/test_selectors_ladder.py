"""The season's ladder and a club's matches: which matches count, the definitions of points and
rating change, the order, and the members' last results."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import ClubMatch
from clubs.selectors import member_list, season_ladder
from core.errors import DomainError, NotAllowed
from engine.match import MatchRules
from matches.models import Match, RatingChange
from matches.services.matches import MatchDate, match_create
from tests.clubs.factories import ClubNightFactory, MembershipFactory, SeasonFactory, club_cast, club_match, player_of
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SPRING = (dt.date(2025, 3, 1), dt.date(2025, 5, 31))


@pytest.fixture
def cast():
    return club_cast()


@pytest.fixture
def season(cast):
    return SeasonFactory(club=cast.club, name="Spring", starts_on=SPRING[0], ends_on=SPRING[1])


def rows(season):
    return [(r.place, r.shared, r.display_name, r.played, r.won, r.lost, r.points) for r in season_ladder(season=season)]


def test_the_ladder_counts_won_lost_points_and_the_sum_of_rating_changes(cast, season):
    ann, otis, mia = cast.owner, cast.organiser, cast.members[0]
    first = club_match(cast, ann, otis, (5, 3), played_on=dt.date(2025, 3, 4))
    club_match(cast, mia, ann, (5, 1), played_on=dt.date(2025, 3, 11))
    club_match(cast, otis, mia, (2, 5), played_on=dt.date(2025, 4, 1))
    assert rows(season) == [
        (1, False, "Mia", 2, 2, 0, 10),
        (2, False, "Ann", 2, 1, 1, 6),
        (3, False, "Otis", 2, 0, 2, 5),
    ]
    ladder = {r.display_name: r.rating_change for r in season_ladder(season=season)}
    expected = {}
    for change in RatingChange.objects.select_related("player"):
        expected[change.player.display_name] = expected.get(change.player.display_name, 0) + change.delta
    assert ladder == {name: round(value, 2) for name, value in expected.items()}
    assert ladder["Mia"] > 0 > ladder["Otis"]
    assert first.club_link.club == cast.club


def test_only_confirmed_club_matches_within_the_season_count(cast, season):
    ann, otis = cast.owner, cast.organiser
    club_match(cast, ann, otis, (5, 0), played_on=dt.date(2025, 2, 28))  # the day before
    club_match(cast, ann, otis, (5, 0), played_on=dt.date(2025, 6, 1))  # the day after
    club_match(cast, ann, otis, (5, 0), played_on=dt.date(2025, 3, 2), confirmed=False)
    club_match(cast, ann, otis, (0, 0), length=0, played_on=dt.date(2025, 3, 2), confirmed=False)
    outside = match_create(created_by=ann, sides=([player_of(ann)], [player_of(otis)]), rules=MatchRules(5),
                           when=MatchDate(played_on=dt.date(2025, 3, 3)))  # no club
    assert not ClubMatch.objects.filter(match=outside).exists()
    club_match(cast, otis, ann, (5, 4), played_on=dt.date(2025, 5, 31))  # the last day counts
    assert rows(season) == [(1, False, "Otis", 1, 1, 0, 5), (2, False, "Ann", 1, 0, 1, 4)]


def test_equal_rows_share_a_place(cast, season):
    club_match(cast, cast.owner, cast.organiser, (3, 0), length=3, played_on=dt.date(2025, 3, 4), rate=False)
    club_match(cast, cast.members[0], cast.members[1], (3, 0), length=3, played_on=dt.date(2025, 3, 4), rate=False)
    assert [(r[0], r[1], r[2]) for r in rows(season)] == [(1, True, "Ann"), (1, True, "Mia"), (3, True, "Max"),
                                                          (3, True, "Otis")]


def test_a_nights_match_belongs_to_the_nights_club(cast):
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    match = club_match(cast, cast.owner, cast.members[0], (5, 2), night=night)
    assert (match.club_link.club, match.club_link.night) == (cast.club, night)


def test_a_club_match_is_created_by_the_clubs_members_only(cast):
    before = Match.objects.count()
    for user in (cast.outsider, cast.requester):
        with pytest.raises(NotAllowed) as caught:
            match_create(created_by=user, sides=([player_of(user)], [player_of(cast.owner)]), rules=MatchRules(5),
                         context={"club": cast.club})
        assert caught.value.code == "not_club_member"
    other_night = ClubNightFactory(opened_by=UserFactory(username="zed"))
    with pytest.raises(DomainError) as caught:
        match_create(created_by=cast.owner, sides=([player_of(cast.owner)], [player_of(cast.organiser)]),
                     rules=MatchRules(5), context={"club": cast.club, "club_night": other_night})
    assert caught.value.code == "bad_club_night"
    assert Match.objects.count() == before


def _queries(club) -> int:
    with CaptureQueriesContext(connection) as context:
        member_list(club=club)
    return len(context.captured_queries)


def test_members_show_their_last_three_results_newest_first_from_their_side(cast):
    ann, otis = cast.owner, cast.organiser
    for index, score in enumerate([(5, 1), (2, 5), (5, 4), (5, 0)]):
        club_match(cast, ann, otis, score, played_on=dt.date(2025, 3, 1 + index), rate=False)
    members = {m.display_name: m for m in member_list(club=cast.club)}
    assert [(r.won, r.score, r.opponent) for r in members["Otis"].recent] == [
        (False, (0, 5), "Ann"), (False, (4, 5), "Ann"), (True, (5, 2), "Ann")]
    assert [r.won for r in members["Ann"].recent] == [True, True, False]
    assert members["Mia"].recent == ()


def test_the_member_list_takes_as_many_queries_for_a_big_club_as_for_a_small_one(cast):
    club_match(cast, cast.owner, cast.organiser, (5, 1), rate=False)
    small = _queries(cast.club)
    for name in ("uma", "vic", "wes", "yan"):
        user = UserFactory(username=name)
        MembershipFactory(club=cast.club, user=user)
        club_match(cast, user, cast.members[0], (5, 3), rate=False)
        club_match(cast, cast.members[1], user, (5, 3), rate=False)
    assert len(member_list(club=cast.club)) == 8
    assert _queries(cast.club) == small
