"""The clubs' demo data: the organiser owns the demo club, the players are its members, and
tonight's club night has its check-ins, two confirmed club matches on the ladder and a chouette
table whose ledger is the engine's; a second load changes nothing."""

import shutil

import pytest

from clubs.models import ChouetteStep, ClubNight, Membership, Season
from clubs.selectors import season_ladder
from clubs.selectors_chouette import chouette_night_totals, chouette_state
from clubs.services.demo import NIGHT_TITLE
from demo.services import PLAYERS, demo_data_load, mat_dir
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


def test_tonights_night_has_its_check_ins_matches_on_the_ladder_and_a_chouette(loaded):
    night = ClubNight.objects.get(club=loaded.club, title=NIGHT_TITLE)
    assert night.check_ins.count() == 6
    matches = Match.objects.filter(club_link__night=night)
    assert [m.status for m in matches] == ["confirmed", "confirmed"]
    ladder = season_ladder(season=Season.objects.get(club=loaded.club))
    assert sum(row.played for row in ladder) == 4  # two matches, two players each
    chouette = loaded.club_demo.chouette
    state = chouette_state(session=chouette)
    by_name = {p.pk: p.user.username for p in loaded.players}
    ledger = {by_name[row.player_id]: row.points for row in state.ledger}
    # Game 1 the team wins single (Alice, the Box, pays 3), game 2 Bob as Box wins a gammon on two
    # doubled cubes and Alice's drop (+9), game 3 the team wins single against Bob (-3).
    assert ledger == {"alice": -3, "bob": 7, "carol": -2, "dave": -2}
    assert state.lineup[0].role == "box" and by_name[state.lineup[0].player_id] == "dave"  # after the third game
    totals = chouette_night_totals(night)
    assert {by_name[pk]: amount for pk, amount in totals.items()} == {"alice": -6, "bob": 14, "carol": -4, "dave": -4}


def test_a_second_load_changes_nothing_in_the_club(loaded, tmp_path):
    before = (Membership.objects.count(), ClubNight.objects.count(), ChouetteStep.objects.count(),
              Match.objects.filter(club_link__club=loaded.club).count())
    demo_data_load(folder=tmp_path)
    assert (Membership.objects.count(), ClubNight.objects.count(), ChouetteStep.objects.count(),
            Match.objects.filter(club_link__club=loaded.club).count()) == before


def test_the_night_page_links_its_members_to_the_chouette_table(loaded, client):
    from django.urls import reverse

    night = ClubNight.objects.get(club=loaded.club, title=NIGHT_TITLE)
    table = reverse("clubs:chouette", args=[loaded.club.slug, loaded.club_demo.chouette.pk])
    client.force_login(loaded.players[0].user)
    page = client.get(reverse("clubs:night", args=[loaded.club.slug, night.pk]))
    assert page.status_code == 200 and f'href="{table}"' in page.content.decode()
