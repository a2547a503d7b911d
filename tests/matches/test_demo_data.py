"""Demo data: ``manage.py demo_data`` and ``demo_data_load`` (real match files, real services),
and its two tournaments: a finished 8-player single elimination with a consolation flight and a
running 6-player Swiss after round 1."""

import shutil
from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User
from clubs.models import Club
from demo.matches import mat_dir
from demo.people import DEMO_PASSWORD, PLAYERS
from demo.services import demo_data_load
from demo.tournaments import BRACKET_EVENT, SWISS_EVENT
from engine.formats.mat import check_mat, read_mat
from matches.models import Game, Match, Player, RatingChange, Report
from matches.selectors import player_rating_history
from tournaments.models import Entry, Pairing, Round, Tournament
from tournaments.selectors import tournament_placings, tournament_rounds

pytestmark = pytest.mark.django_db

LOGIN = ("Demo ready: http://127.0.0.1:8000/  sign in as alice / crawford-demo (player) "
         "or organiser / crawford-demo (organiser)")
SMALL = ["galaxy_1pt_match1501137.mat", "studio_3pt_solnze_lasse.mat", "gnubg_3pt_test_match01.mat"]


def demo_matches():
    # Only the demo's rows: the test database is shared, and other suites' committed rows
    # (transactional tests) may sit beside ours. The friendly matches only: the demo
    # tournaments' matches (same organiser) are checked by their own tests below.
    return Match.objects.filter(organiser__username="organiser", event_link__isnull=True)


def demo_events():
    return Tournament.objects.filter(organiser__username="organiser")


def demo_event(event) -> Tournament:
    return demo_events().get(name=event[0])


def snapshot() -> dict:
    usernames = ["organiser", *(username for username, *_ in PLAYERS)]
    matches = demo_matches()
    return {
        "users": list(User.objects.filter(username__in=usernames).order_by("pk").values_list("pk", "password")),
        "clubs": list(Club.objects.filter(name="Crawford Demo Club").values_list("pk", flat=True)),
        "players": list(Player.objects.filter(user__username__in=usernames).order_by("pk")
                        .values_list("pk", "rating", "experience")),
        "matches": list(matches.order_by("pk").values_list("pk", "status", "score0", "score1", "winner")),
        "games": Game.objects.filter(match__in=matches).count(),
        "reports": list(Report.objects.filter(match__in=matches).order_by("pk").values_list("pk", "status")),
        "rating_changes": RatingChange.objects.filter(match__in=matches).count(),
        "events": list(demo_events().order_by("pk").values_list("pk", "status", "draw_seed")),
        "event_matches": list(Match.objects.filter(event_link__tournament__in=demo_events()).order_by("pk")
                              .values_list("pk", "status", "score0", "score1", "winner")),
        "event_rows": list(Pairing.objects.filter(tournament__in=demo_events()).order_by("pk")
                           .values_list("pk", "key", "entry0", "entry1", "length", "match")),
        "entries": list(Entry.objects.filter(tournament__in=demo_events()).order_by("pk")
                        .values_list("pk", "status", "seed")),
        "rounds": Round.objects.filter(tournament__in=demo_events()).count(),
    }


def run_command() -> str:
    out = StringIO()
    call_command("demo_data", stdout=out)
    return out.getvalue()


@pytest.fixture
def small_folder(tmp_path):
    """Three real match files, copied for the test only (never into the project)."""
    for name in SMALL:
        shutil.copy(mat_dir() / name, tmp_path / name)
    return tmp_path


def test_it_changes_nothing_when_run_twice_and_prints_the_same_login():
    first = run_command()
    before = snapshot()
    second = run_command()
    assert snapshot() == before
    files = len(list(mat_dir().glob("*.mat")))
    assert len(before["matches"]) == files + 3 and len(before["users"]) == len(PLAYERS) + 1
    assert len(before["clubs"]) == 1 and len(before["players"]) == len(PLAYERS) + 1  # the organiser too: he owns the club
    assert first.splitlines()[-1] == second.splitlines()[-1] == LOGIN
    assert "(0 new)" in second


def test_it_replays_every_match_file_as_a_confirmed_rated_match_with_its_games():
    summary = demo_data_load()
    assert summary.notes == []
    reports = Report.objects.filter(match__in=demo_matches(), status=Report.Status.CONFIRMED,
                                    statement__startswith="Demo data: the games of ")
    loaded = {r.statement.removeprefix("Demo data: the games of ").removesuffix("."): r.match for r in reports}
    assert sorted(loaded) == sorted(p.name for p in mat_dir().glob("*.mat"))
    demo_players = {p.pk for p in summary.players}
    for name, match in loaded.items():
        check = check_mat(read_mat((mat_dir() / name).read_bytes()))
        assert match.status == Match.Status.CONFIRMED and match.rated
        assert (match.score0, match.score1, match.winner) == (*check.final_score, check.winner), name
        assert match.games.count() == len(check.games) > 0, name
        assert list(match.games.values_list("points", flat=True)) == [g.points for g in check.games], name
        # The sides are demo players, not the names written in the file.
        assert {match.side0.player_a_id, match.side1.player_a_id} <= demo_players
        assert match.rating_changes.count() == 2, name


def test_it_gives_every_player_a_rating_history_that_ends_at_the_rating():
    summary = demo_data_load()
    for player in summary.players:
        player.refresh_from_db()
        history = list(player_rating_history(player))
        assert history, player.display_name
        assert history[0].rating_before == 1500.0
        assert history[-1].rating_after == pytest.approx(player.rating)
        assert player.experience == sum(change.match.length for change in history)


def test_it_leaves_a_scheduled_a_reported_and_a_disputed_match_for_alice(small_folder):
    demo_data_load(folder=small_folder)
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


def test_it_lets_alice_and_the_organiser_sign_in_with_the_demo_password(client, small_folder):
    demo_data_load(folder=small_folder)
    assert User.objects.get(username="organiser").role == User.Role.ORGANISER
    assert User.objects.get(username="alice").role == User.Role.PLAYER
    assert Player.objects.get(user__username="alice").home_club.club.name == "Crawford Demo Club"
    assert client.login(username="alice", password=DEMO_PASSWORD)
    assert client.login(username="organiser", password=DEMO_PASSWORD)
    assert not client.login(username="alice", password="wrong")


def test_it_skips_the_file_matches_with_a_note_when_the_folder_is_missing(tmp_path):
    summary = demo_data_load(folder=tmp_path / "missing")
    assert len(summary.notes) == 1 and "missing" in summary.notes[0]
    assert demo_matches().count() == 3 and not Game.objects.filter(match__in=demo_matches()).exists()


def test_it_skips_a_file_the_engine_rejects_and_keeps_nothing_of_it(small_folder):
    broken = (mat_dir() / SMALL[1]).read_text().replace("point match", "point match\n Game 2", 1)
    (small_folder / "aaa_broken.mat").write_text(broken)
    summary = demo_data_load(folder=small_folder)
    assert len(summary.notes) == 1
    assert summary.notes[0].startswith("skipped aaa_broken.mat: line ")
    assert demo_matches().filter(status=Match.Status.CONFIRMED).count() == len(SMALL)
    assert not Report.objects.filter(statement__contains="aaa_broken").exists()
    assert demo_matches().count() == len(SMALL) + 3


def test_it_runs_the_demo_open_to_the_end_with_its_consolation_flight_and_final_placings(small_folder):
    summary = demo_data_load(folder=small_folder)
    event = demo_event(BRACKET_EVENT)
    assert event in summary.tournaments and event.organiser.username == "organiser"
    assert (event.status, event.format, event.consolation_rounds) == (
        Tournament.Status.FINISHED, Tournament.Format.SINGLE_ELIMINATION, 1)
    entered = set(Entry.objects.filter(tournament=event).values_list("side__player_a__user__username", flat=True))
    assert entered == set(BRACKET_EVENT[1])
    # 4 + 2 + 1 main matches, 2 + 1 consolation: all confirmed through the reporting services,
    # some by the players' reports, some by the organiser's override.
    matches = Match.objects.filter(event_link__tournament=event)
    assert matches.count() == 10
    assert set(matches.values_list("status", flat=True)) == {Match.Status.CONFIRMED}
    reports = Report.objects.filter(match__event_link__tournament=event)
    assert reports.filter(reporter__username="organiser").exists()
    assert reports.exclude(reporter__username="organiser").exists()
    placings = [(p.label, p.flight) for p in tournament_placings(tournament=event)]
    assert placings == [("1", "main"), ("2", "main"), ("3-4", "main"), ("3-4", "main"), ("5", "consolation"),
                        ("6", "consolation"), ("7-8", "consolation"), ("7-8", "consolation")]
    assert {p.entrant.name for p in tournament_placings(tournament=event)} == {
        Player.objects.get(user__username=u).display_name for u in BRACKET_EVENT[1]}


def test_it_leaves_the_demo_swiss_running_after_round_one_with_round_two_paired(small_folder):
    demo_data_load(folder=small_folder)
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


def test_a_second_run_changes_nothing_in_the_demo_tournaments(small_folder):
    first = demo_data_load(folder=small_folder)
    before = snapshot()
    second = demo_data_load(folder=small_folder)
    assert snapshot() == before
    assert (first.created_events, second.created_events) == (2, 0)
    assert [t.pk for t in second.tournaments] == [t.pk for t in first.tournaments]
    assert demo_events().count() == 2
