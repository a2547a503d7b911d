"""``manage.py demo_data`` with every real match file of ``../shared/data/mat``, run once for the
module (the summary its load returned kept beside what it printed): it prints every demo login
with its role, a second run changes nothing and prints the same login, every file is replayed as
a confirmed rated match with its games, and every player's rating history ends at his rating."""

from __future__ import annotations

from dataclasses import dataclass
from unittest import mock

import pytest
from django.core.management import CommandError

from accounts.models import User
from demo.management.commands import demo_data as demo_data_command
from demo.matches import mat_dir
from demo.people import DEMO_PASSWORD, PLAYERS
from demo.services import DemoSummary, demo_data_load
from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat
from engine.scores import capped_score
from matches.models import Game, Match, RatingChange, Report
from matches.selectors.players import player_rating_history

from .helpers import LOGIN, demo_matches, run_command, snapshot

pytestmark = pytest.mark.django_db


@dataclass
class FirstRun:
    output: str
    summary: DemoSummary


@pytest.fixture(scope="module")
def first_run(module_db) -> FirstRun:
    """The command's first run on an empty database, and the summary its load returned."""
    summaries = []

    def load(**kwargs) -> DemoSummary:
        summaries.append(demo_data_load(**kwargs))
        return summaries[-1]

    with mock.patch.object(demo_data_command, "demo_data_load", load):
        output = run_command()
    (summary,) = summaries
    return FirstRun(output, summary)


def test_it_prints_its_counts_and_every_demo_login_with_its_role_and_the_password_they_share(first_run, client):
    lines = first_run.output.splitlines()
    matches = demo_matches()
    assert lines[0] == (f"Crawford Demo Club: 10 players, {matches.count()} matches ({matches.count()} new), "
                        f"{Game.objects.filter(match__in=matches).count()} games, "
                        f"{RatingChange.objects.filter(match__in=matches).count()} rating changes")
    assert lines[1].startswith("Crawford Demo Club: 11 members, a club night on ")
    assert lines[2] == "Crawford Demo Club: a chouette table of 4 at the club night (3 games)"
    start = lines.index("Demo logins:")
    logins = lines[start + 1:start + 12]
    usernames = ["organiser", *(username for username, *_ in PLAYERS)]
    assert [line.split()[:2] for line in logins] == [["organiser", "organiser"]] + [[u, "player"] for u in usernames[1:]]
    assert all(line.startswith("  ") for line in logins)
    assert "Alice Lambert" in logins[1] and "Judy Tanaka" in logins[-1]
    assert lines[start + 12:] == [
        "Every demo login has the password crawford-demo: organiser and alice, and bob to judy share it too.",
        "No staff login is made: create one with `.venv/bin/python manage.py createsuperuser`.",
        LOGIN,
    ]
    # What it prints is so: each login has that role, none is staff, and each signs in with the password.
    users = {user.username: user for user in User.objects.filter(username__in=usernames)}
    assert {name: (user.role, user.is_staff) for name, user in users.items()} == {
        name: ("organiser" if name == "organiser" else "player", False) for name in usernames}
    for username in usernames:
        assert client.login(username=username, password=DEMO_PASSWORD), username


def test_it_changes_nothing_when_run_twice_and_prints_the_same_login(first_run):
    before = snapshot()
    second = run_command()
    assert snapshot() == before
    files = len(list(mat_dir().glob("*.mat")))
    assert len(before["matches"]) == files + 3 and len(before["users"]) == len(PLAYERS) + 1
    assert len(before["clubs"]) == 1 and len(before["players"]) == len(PLAYERS) + 1  # the organiser too: he owns the club
    assert first_run.output.splitlines()[-1] == second.splitlines()[-1] == LOGIN
    assert "(0 new)" in second


def test_it_replays_every_match_file_as_a_confirmed_rated_match_with_its_games(first_run):
    summary = first_run.summary
    assert summary.notes == []
    reports = Report.objects.filter(match__in=demo_matches(), status=Report.Status.CONFIRMED,
                                    statement__startswith="Demo data: the games of ")
    loaded = {r.statement.removeprefix("Demo data: the games of ").removesuffix("."): r.match for r in reports}
    assert sorted(loaded) == sorted(p.name for p in mat_dir().glob("*.mat"))
    demo_players = {p.pk for p in summary.players}
    for name, match in loaded.items():
        check = check_mat(read_mat((mat_dir() / name).read_bytes()))
        assert match.status == Match.Status.CONFIRMED and match.rated
        # Shown capped at the length, the file's full score kept.
        assert (match.score0, match.score1, match.winner) == (*capped_score(check.length, check.final_score),
                                                              check.winner), name
        assert match.full_score == check.final_score, name
        assert match.games.count() == len(check.games) > 0, name
        assert list(match.games.values_list("points", flat=True)) == [g.points for g in check.games], name
        # The sides are demo players, not the names written in the file.
        assert {match.side0.player_a_id, match.side1.player_a_id} <= demo_players
        assert match.rating_changes.count() == 2, name


def test_it_gives_every_player_a_rating_history_that_ends_at_the_rating(first_run):
    for player in first_run.summary.players:
        player.refresh_from_db()
        history = list(player_rating_history(player))
        assert history, player.display_name
        assert history[0].rating_before == 1500.0
        assert history[-1].rating_after == pytest.approx(player.rating)
        assert player.experience == sum(change.match.length for change in history)


@pytest.mark.parametrize(("given", "url"), [
    ([], "http://127.0.0.1:8000/"),
    (["--addr", "8080"], "http://127.0.0.1:8080/"),
    (["--addr", "127.0.0.1:8001"], "http://127.0.0.1:8001/"),
    (["--addr", "localhost:9000"], "http://localhost:9000/"),
    (["--addr=[::1]:8002"], "http://[::1]:8002/"),
    # Served on every interface: this machine's own browser opens it at the loopback address.
    (["--addr", "0.0.0.0:8003"], "http://127.0.0.1:8003/"),
    (["--addr", "0:8004"], "http://127.0.0.1:8004/"),
])
def test_it_prints_the_address_runserver_is_given(first_run, given, url):
    with mock.patch.object(demo_data_command, "demo_data_load", return_value=first_run.summary):
        output = run_command(*given)
    assert output.splitlines()[-1] == LOGIN.replace("http://127.0.0.1:8000/", url)
    assert output.count("http://") == 1


@pytest.mark.parametrize("given", ["eighty", "127.0.0.1:", "http://127.0.0.1:8000/", ":8000"])
def test_an_address_runserver_would_refuse_is_refused_before_anything_is_loaded(given):
    with mock.patch.object(demo_data_command, "demo_data_load") as load, pytest.raises(CommandError) as refused:
        run_command("--addr", given)
    assert given in str(refused.value) and "port" in str(refused.value)
    load.assert_not_called()
