"""The chouette part of the demo data: tonight's demo club night has a table of four whose ledger is
the engine's, its members find it from the night's page, and a second load changes nothing."""

import shutil

import pytest
from django.urls import reverse

from chouette.models import ChouetteStep
from chouette.selectors import chouette_night_totals, chouette_state
from clubs.models import ClubNight
from demo.clubs import NIGHT_TITLE
from demo.matches import mat_dir
from demo.services import demo_data_load

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded(tmp_path):
    shutil.copy(mat_dir() / "gnubg_3pt_test_match01.mat", tmp_path)
    return demo_data_load(folder=tmp_path)


def test_tonights_night_has_a_chouette_table_whose_ledger_is_the_engines(loaded):
    night = ClubNight.objects.get(club=loaded.club, title=NIGHT_TITLE)
    chouette = loaded.chouette_demo.session
    assert chouette.night == night
    state = chouette_state(session=chouette)
    by_name = {p.pk: p.user.username for p in loaded.players}
    ledger = {by_name[row.player_id]: row.points for row in state.ledger}
    # Game 1 the team wins single (Alice, the Box, pays 3), game 2 Bob as Box wins a gammon on two
    # doubled cubes and Alice's drop (+9), game 3 the team wins single against Bob (-3).
    assert ledger == {"alice": -3, "bob": 7, "carol": -2, "dave": -2}
    assert state.lineup[0].role == "box" and by_name[state.lineup[0].player_id] == "dave"  # after the third game
    totals = chouette_night_totals(night)
    assert {by_name[pk]: amount for pk, amount in totals.items()} == {"alice": -6, "bob": 14, "carol": -4, "dave": -4}


def test_a_second_load_adds_no_table_and_no_game(loaded, tmp_path):
    before = ChouetteStep.objects.count()
    again = demo_data_load(folder=tmp_path)
    assert again.chouette_demo.session == loaded.chouette_demo.session and not again.chouette_demo.created
    assert ChouetteStep.objects.count() == before


def test_the_night_page_links_its_members_to_the_chouette_table(loaded, client):
    night = ClubNight.objects.get(club=loaded.club, title=NIGHT_TITLE)
    table = reverse("chouette:table", args=[loaded.club.slug, loaded.chouette_demo.session.pk])
    client.force_login(loaded.players[0].user)
    page = client.get(reverse("clubs:night", args=[loaded.club.slug, night.pk]))
    assert page.status_code == 200 and f'href="{table}"' in page.content.decode()
