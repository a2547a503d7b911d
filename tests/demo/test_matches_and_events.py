"""The demo loaded once for the module from three real match files and one the engine rejects: the
rejected file is skipped with a note and leaves nothing; alice has a scheduled, a reported and a
disputed match; she and the organiser sign in with the demo password; the Demo Open is finished
with its consolation flight and final placings, the Demo Swiss runs with round 2 paired; and a
second load changes nothing in the tournaments."""

from __future__ import annotations

import pytest

from accounts.models import User
from demo.matches import mat_dir
from demo.people import DEMO_PASSWORD
from demo.services import demo_data_load
from demo.tournaments import BRACKET_EVENT, SWISS_EVENT
from matches.models import Match, Player, RatingChange, Report
from tournaments.models import Entry, Tournament
from tournaments.selectors.rounds import tournament_rounds
from tournaments.selectors.standings import tournament_placings

from .helpers import SMALL, copy_small, demo_event, demo_events, demo_matches, snapshot

pytestmark = pytest.mark.django_db

#: Sorted first, so it takes the first pair of players: the pair is left without a match.
BROKEN = "aaa_broken.mat"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The three small real files and a broken copy of one (a second "Game 2" header)."""
    folder = copy_small(tmp_path_factory.mktemp("mat"))
    broken = (mat_dir() / SMALL[1]).read_text().replace("point match", "point match\n Game 2", 1)
    (folder / BROKEN).write_text(broken)
    return folder


@pytest.fixture(scope="module")
def loaded(module_db, folder):
    return demo_data_load(folder=folder)


def test_it_skips_a_file_the_engine_rejects_and_keeps_nothing_of_it(loaded):
    assert len(loaded.notes) == 1
    assert loaded.notes[0].startswith(f"skipped {BROKEN}: line ")
    assert demo_matches().filter(status=Match.Status.CONFIRMED).count() == len(SMALL)
    assert not Report.objects.filter(statement__contains="aaa_broken").exists()
    assert demo_matches().count() == len(SMALL) + 3


def test_it_leaves_a_scheduled_a_reported_and_a_disputed_match_for_alice(loaded):
    statuses = set(demo_matches().values_list("status", flat=True))
    assert statuses == {Match.Status.CONFIRMED, Match.Status.REPORTED, Match.Status.DISPUTED, Match.Status.SCHEDULED}
    alice = Player.objects.get(user__username="alice")

    reported = demo_matches().get(status=Match.Status.REPORTED)
    pending = reported.reports.get()
    assert reported.side0.player_a == alice and pending.status == Report.Status.PENDING
    assert pending.reporter.username == "bob" and pending.side == 1 and len(pending.games) > 0

    disputed = demo_matches().get(status=Match.Status.DISPUTED)
    assert disputed.side0.player_a == alice
    assert sorted(disputed.reports.values_list("status", "winner")) == [("contested", 0), ("contested", 1)]

    scheduled = demo_matches().get(status=Match.Status.SCHEDULED)
    assert scheduled.side0.player_a == alice and scheduled.scheduled_at is not None
    assert not scheduled.reports.exists() and not scheduled.games.exists()


def test_it_lets_alice_and_the_organiser_sign_in_with_the_demo_password(loaded, client):
    assert User.objects.get(username="organiser").role == User.Role.ORGANISER
    assert User.objects.get(username="alice").role == User.Role.PLAYER
    assert Player.objects.get(user__username="alice").home_club.club.name == "Crawford Demo Club"
    assert client.login(username="alice", password=DEMO_PASSWORD)
    assert client.login(username="organiser", password=DEMO_PASSWORD)
    assert not client.login(username="alice", password="wrong")


def test_it_runs_the_demo_open_to_the_end_with_its_consolation_flight_and_final_placings(loaded):
    event = demo_event(BRACKET_EVENT)
    assert event in loaded.tournaments and event.organiser.username == "organiser"
    assert (event.status, event.format, event.consolation_rounds) == (
        Tournament.Status.FINISHED, Tournament.Format.SINGLE_ELIMINATION, 1)
    entered = set(Entry.objects.filter(tournament=event).values_list("side__player_a__user__username", flat=True))
    assert entered == set(BRACKET_EVENT[1])
    # 4 + 2 + 1 main matches, 2 + 1 consolation: all confirmed through the reporting services,
    # some by the players' reports, some by the organiser's override.
    matches = Match.objects.filter(event_link__tournament=event)
    assert matches.count() == 10
    assert set(matches.values_list("status", flat=True)) == {Match.Status.CONFIRMED}
    # The players accepted the organiser's entries: every match is on their records, and rated.
    assert not matches.exclude(consent0=Match.Consent.GIVEN, consent1=Match.Consent.GIVEN).exists()
    assert RatingChange.objects.filter(match__in=matches).count() == 2 * matches.filter(rated=True).count() > 0
    reports = Report.objects.filter(match__event_link__tournament=event)
    assert reports.filter(reporter__username="organiser").exists()
    assert reports.exclude(reporter__username="organiser").exists()
    placings = [(p.label, p.flight) for p in tournament_placings(tournament=event)]
    assert placings == [("1", "main"), ("2", "main"), ("3-4", "main"), ("3-4", "main"), ("5", "consolation"),
                        ("6", "consolation"), ("7-8", "consolation"), ("7-8", "consolation")]
    assert {p.entrant.name for p in tournament_placings(tournament=event)} == {
        Player.objects.get(user__username=u).display_name for u in BRACKET_EVENT[1]}


def test_it_leaves_the_demo_swiss_running_after_round_one_with_round_two_paired(loaded):
    event = demo_event(SWISS_EVENT)
    assert (event.status, event.format, event.swiss_rounds) == (Tournament.Status.RUNNING, Tournament.Format.SWISS, 3)
    rounds = tournament_rounds(tournament=event)
    assert len(rounds) == 2
    first = Match.objects.filter(event_link__tournament=event, pairing__round_number=1)
    second = Match.objects.filter(event_link__tournament=event, pairing__round_number=2)
    assert first.count() == second.count() == 3
    assert set(first.values_list("status", flat=True)) == {Match.Status.CONFIRMED}
    assert set(second.values_list("status", flat=True)) == {Match.Status.SCHEDULED}
    entered = set(Entry.objects.filter(tournament=event).values_list("side__player_a__user__username", flat=True))
    assert entered == set(SWISS_EVENT[1])


def test_a_second_run_changes_nothing_in_the_demo_tournaments(loaded, folder):
    first = loaded
    before = snapshot()
    second = demo_data_load(folder=folder)
    assert snapshot() == before
    assert (first.created_events, second.created_events) == (2, 0)
    assert [t.pk for t in second.tournaments] == [t.pk for t in first.tournaments]
    assert demo_events().count() == 2
