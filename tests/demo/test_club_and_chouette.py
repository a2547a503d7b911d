"""The demo loaded once for the module with no match files at all (its folder is missing): the
friendly matches from files are skipped with a note, and the club and its chouette table, which
need none, are all there. The organiser owns the demo club, the players are its members, tonight's
club night has its check-ins and two confirmed club matches on the ladder, and a table of four
whose ledger is the engine's, which its members find from the night's page; a second load changes
nothing in the club and adds no table and no game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from chouette.models import ChouetteStep
from chouette.selectors import chouette_night_totals, chouette_state
from clubs.models import ClubNight, Membership, Season
from clubs.selectors import season_ladder
from demo.clubs import NIGHT_TITLE
from demo.people import PLAYERS
from demo.services import demo_data_load
from matches.models import Game, Match

from .helpers import demo_matches

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("mat") / "missing"


@pytest.fixture(scope="module")
def loaded(module_db, folder):
    return demo_data_load(folder=folder)


def test_it_skips_the_file_matches_with_a_note_when_the_folder_is_missing(loaded):
    assert len(loaded.notes) == 1 and "missing" in loaded.notes[0]
    assert demo_matches().count() == 3 and not Game.objects.filter(match__in=demo_matches()).exists()


# --- the club ---------------------------------------------------------------------------------------


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


def test_a_second_load_changes_nothing_in_the_club(loaded, folder):
    before = (Membership.objects.count(), ClubNight.objects.count(),
              Match.objects.filter(club_link__club=loaded.club).count())
    demo_data_load(folder=folder)
    assert (Membership.objects.count(), ClubNight.objects.count(),
            Match.objects.filter(club_link__club=loaded.club).count()) == before


# --- the chouette table at the night ----------------------------------------------------------------


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


def test_a_second_load_adds_no_table_and_no_game(loaded, folder):
    before = ChouetteStep.objects.count()
    again = demo_data_load(folder=folder)
    assert again.chouette_demo.session == loaded.chouette_demo.session and not again.chouette_demo.created
    assert ChouetteStep.objects.count() == before


def test_the_night_page_links_its_members_to_the_chouette_table(loaded, client):
    night = ClubNight.objects.get(club=loaded.club, title=NIGHT_TITLE)
    table = reverse("chouette:table", args=[loaded.club.slug, loaded.chouette_demo.session.pk])
    client.force_login(loaded.players[0].user)
    page = client.get(reverse("clubs:night", args=[loaded.club.slug, night.pk]))
    assert page.status_code == 200 and f'href="{table}"' in page.content.decode()
