"""The clubs' demo data: the organiser owns the demo club, the players are its members, and
tonight's club night has its check-ins and two confirmed club matches on the ladder; a second load
changes nothing. (The chouette table at that night: tests/chouette/test_demo.py.)"""

import shutil

import pytest

from clubs.models import ClubNight, Membership, Season
from clubs.selectors import season_ladder
from demo.clubs import NIGHT_TITLE
from demo.matches import mat_dir
from demo.people import PLAYERS
from demo.services import demo_data_load
from matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded(tmp_path):
    shutil.copy(mat_dir() / "gnubg_3pt_test_match01.mat", tmp_path)
    return demo_data_load(folder=tmp_path)


def test_the_organiser_owns_the_demo_club_and_the_players_are_its_members(loaded):
    club = loaded.club
    roles = dict(Membership.objects.filter(club=club, status="active").values_list("user__username", "role"))
    assert roles.pop("organiser") == "owner"
    assert roles == {username: "member" for username, *_ in PLAYERS}
    assert Season.objects.filter(club=club).count() == 1


def test_tonights_night_has_its_check_ins_and_matches_on_the_ladder(loaded):
    night = ClubNight.objects.get(club=loaded.club, title=NIGHT_TITLE)
    assert loaded.club_demo.night == night
    assert night.check_ins.count() == 6
    matches = Match.objects.filter(club_link__night=night)
    assert [m.status for m in matches] == ["confirmed", "confirmed"]
    ladder = season_ladder(season=Season.objects.get(club=loaded.club))
    assert sum(row.played for row in ladder) == 4  # two matches, two players each


def test_a_second_load_changes_nothing_in_the_club(loaded, tmp_path):
    before = (Membership.objects.count(), ClubNight.objects.count(),
              Match.objects.filter(club_link__club=loaded.club).count())
    demo_data_load(folder=tmp_path)
    assert (Membership.objects.count(), ClubNight.objects.count(),
            Match.objects.filter(club_link__club=loaded.club).count()) == before
