"""FIBS ratings (RULES.md §10): applied once per confirmed rated match, by the formula, with a
history per player, replayed on a correction (tests/matches/test_rating_ledger.py), caught up when a task was lost, and
safe under concurrency."""

from __future__ import annotations

import math
import threading
import time
import uuid

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from engine.ratings import k_factor
from matches import tasks
from matches.models import Match, Player, RatingChange
from matches.selectors.players import player_rating_history
from matches.services import ratings
from matches.services.matches import player_create
from matches.services.ratings import match_rating_apply, ratings_pending
from matches.services.reporting import Claim, match_override, match_report
from tests.factories import MatchFactory, UserFactory
from tests.matches.factories_ratings import confirm, match_between, player, run_tasks_inline

pytestmark = pytest.mark.django_db

EXPERIENCED = 500  # K = 1 from 400 points of finished matches on


def fibs(winner: float, loser: float, length: int, k_winner: float, k_loser: float) -> tuple[float, float]:
    """RULES.md §10 written out again, independently of engine/ratings.py."""
    upset = 1 / (10 ** (abs(winner - loser) * math.sqrt(length) / 2000) + 1)
    chance = upset if winner >= loser else 1 - upset
    return 4 * k_winner * math.sqrt(length) * chance, -4 * k_loser * math.sqrt(length) * chance


def state(*players: Player) -> list[tuple]:
    """Everything a rating run may change, to compare before and after."""
    rows = []
    for p in players:
        p.refresh_from_db()
        rows.append((p.pk, p.rating, p.experience))
    changes = list(RatingChange.objects.filter(player__in=players).order_by("pk").values_list(
        "pk", "player_id", "match_id", "rating_before", "rating_after", "experience_before", "experience_after"))
    return [*rows, *changes]


@pytest.fixture
def dispatched(monkeypatch):
    return run_tasks_inline(monkeypatch)


@pytest.fixture
def alice():
    return player("alice", rating=1600, experience=EXPERIENCED)


@pytest.fixture
def bob():
    return player("bob", rating=1500, experience=EXPERIENCED)


@pytest.fixture
def carol():
    return player("carol", rating=1550, experience=EXPERIENCED)


# --- applying a confirmed match ---------------------------------------------------------------


def test_a_confirmed_rated_match_updates_both_players_once(alice, bob, dispatched, django_capture_on_commit_callbacks):
    match = match_between(alice, bob, length=7)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(match, (7, 3))
    assert [name for name, _ in dispatched].count("matches.tasks.match_rating_apply_task") == 1
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert round(alice.rating - 1600, 2) == 4.49 and round(bob.rating - 1500, 2) == -4.49
    assert (alice.experience, bob.experience) == (EXPERIENCED + 7, EXPERIENCED + 7)
    changes = {c.player_id: c for c in match.rating_changes.all()}
    assert set(changes) == {alice.pk, bob.pk}
    assert (changes[alice.pk].rating_before, changes[alice.pk].rating_after) == (1600, alice.rating)
    assert (changes[bob.pk].experience_before, changes[bob.pk].experience_after) == (EXPERIENCED, EXPERIENCED + 7)

    before = state(alice, bob)
    assert tasks.match_rating_apply_task(match.pk) == 2
    assert [c.pk for c in match_rating_apply(match_id=match.pk)] == [c.pk for c in changes.values()]
    assert state(alice, bob) == before


@pytest.mark.parametrize(
    ("score", "alice_delta", "bob_delta"),
    [((7, 3), 4.49, -4.49), ((3, 7), -6.09, 6.09)],
    ids=["the favourite wins", "the underdog wins"],
)
def test_the_change_follows_the_fibs_formula_check_figures(alice, bob, score, alice_delta, bob_delta):
    match = confirm(match_between(alice, bob, length=7), score)
    match_rating_apply(match_id=match.pk)
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (round(alice.rating - 1600, 2), round(bob.rating - 1500, 2)) == (alice_delta, bob_delta)


def test_new_players_start_at_1500_with_experience_0_and_k_5():
    dave = player_create(display_name="Dave", user=UserFactory(username=f"dave-{uuid.uuid4().hex[:8]}"))
    erin = player_create(display_name="Erin", user=UserFactory(username=f"erin-{uuid.uuid4().hex[:8]}"))
    assert (dave.rating, dave.experience, k_factor(dave.experience)) == (1500, 0, 5)
    match = confirm(match_between(dave, erin, length=5), (5, 2))
    match_rating_apply(match_id=match.pk)
    dave.refresh_from_db()
    erin.refresh_from_db()
    # Equal ratings: P = 1/2, so each moves by 4 * 5 * sqrt(5) / 2 = 22.36.
    assert (round(dave.rating, 2), round(erin.rating, 2)) == (1522.36, 1477.64)
    assert (dave.experience, erin.experience) == (5, 5)


@pytest.mark.parametrize(("winner_experience", "loser_experience"), [(0, EXPERIENCED), (150, 0), (250, 399)])
def test_each_player_moves_by_his_own_k(winner_experience, loser_experience):
    winner = player("winner", rating=1480, experience=winner_experience)
    loser = player("loser", rating=1530, experience=loser_experience)
    match = confirm(match_between(winner, loser, length=9), (9, 4))
    match_rating_apply(match_id=match.pk)
    gain, loss = fibs(1480, 1530, 9, max(1, 5 - winner_experience / 100), max(1, 5 - loser_experience / 100))
    winner.refresh_from_db()
    loser.refresh_from_db()
    assert winner.rating == pytest.approx(1480 + gain) and loser.rating == pytest.approx(1530 + loss)
    assert (winner.experience, loser.experience) == (winner_experience + 9, loser_experience + 9)


# --- what is never rated ----------------------------------------------------------------------


def test_a_money_session_is_not_rated(alice, bob, dispatched, django_capture_on_commit_callbacks):
    session = match_between(alice, bob, length=0)
    assert session.rated is False
    with django_capture_on_commit_callbacks(execute=True):
        confirm(session, (12, 3))
    assert "matches.tasks.match_rating_apply_task" not in [name for name, _ in dispatched]
    before = state(alice, bob)
    # Even flagged rated by mistake, a money session is never rated.
    Match.objects.filter(pk=session.pk).update(rated=True)
    assert match_rating_apply(match_id=session.pk) == []
    assert session.pk not in ratings_pending()
    assert state(alice, bob) == before and not session.rating_changes.exists()


def test_a_consultation_pair_match_is_not_rated(alice, bob, carol, dispatched, django_capture_on_commit_callbacks):
    dave = player("dave")
    pairs = match_between([alice, carol], [bob, dave], length=5)
    assert pairs.rated is False
    with django_capture_on_commit_callbacks(execute=True):
        confirm(pairs, (5, 1))
    assert "matches.tasks.match_rating_apply_task" not in [name for name, _ in dispatched]
    before = state(alice, bob, carol, dave)
    Match.objects.filter(pk=pairs.pk).update(rated=True)
    assert match_rating_apply(match_id=pairs.pk) == []
    assert pairs.pk not in ratings_pending()
    assert state(alice, bob, carol, dave) == before and not pairs.rating_changes.exists()


def test_an_unrated_or_unconfirmed_match_is_not_rated(alice, bob):
    friendly = confirm(match_between(alice, bob, rated=False), (5, 0))
    waiting = match_between(alice, bob)
    match_report(match_id=waiting.pk, user=alice.user, claim=Claim((5, 1)))
    before = state(alice, bob)
    assert match_rating_apply(match_id=friendly.pk) == []
    assert match_rating_apply(match_id=waiting.pk) == []
    assert state(alice, bob) == before
    assert not RatingChange.objects.filter(match__in=[friendly, waiting]).exists()


# --- history ----------------------------------------------------------------------------------


def read_history(p: Player) -> tuple[list[tuple], int]:
    """The history as plain values, touching each change's match and its players, and the number
    of queries that took."""
    with CaptureQueriesContext(connection) as queries:
        history = [(c.match_id, c.rating_before, c.rating_after, c.match.side0.player_a.display_name,
                    c.match.side1.player_a.display_name) for c in player_rating_history(p)]
    return history, len(queries)


def test_the_rating_history_lists_each_change_oldest_first(alice, bob, carol):
    first = confirm(match_between(alice, bob, length=7), (7, 2))
    match_rating_apply(match_id=first.pk)
    second = confirm(match_between(carol, alice, length=5), (5, 4))
    match_rating_apply(match_id=second.pk)
    alice.refresh_from_db()

    history, queries = read_history(alice)
    assert [h[0] for h in history] == [first.pk, second.pk]
    assert history[0][1] == 1600 and history[0][2] == history[1][1] and history[1][2] == alice.rating
    assert history[1][2] < history[1][1]  # alice lost the second match
    assert [h[3:] for h in history] == [("Alice", "Bob"), ("Carol", "Alice")]
    bobs, bobs_queries = read_history(bob)
    assert [h[0] for h in bobs] == [first.pk]
    assert queries == bobs_queries  # as many queries for two changes as for one: no N+1


# --- corrections ------------------------------------------------------------------------------


def test_an_override_of_the_latest_rated_match_rates_it_again_in_its_place(
    alice, bob, dispatched, django_capture_on_commit_callbacks
):
    match = match_between(alice, bob, length=7)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(match, (7, 3))
    place = match.rating_changes.get(player=alice).sequence
    with django_capture_on_commit_callbacks(execute=True):
        match_override(match_id=match.pk, user=match.organiser, claim=Claim((3, 7)))
    alice.refresh_from_db()
    bob.refresh_from_db()
    # As if bob had won from the start: the underdog's +/-6.09, and the experience counted once.
    assert (round(alice.rating - 1600, 2), round(bob.rating - 1500, 2)) == (-6.09, 6.09)
    assert (alice.experience, bob.experience) == (EXPERIENCED + 7, EXPERIENCED + 7)
    changes = list(RatingChange.objects.filter(match=match))
    assert len(changes) == 2 and {c.sequence for c in changes} == {place}
    assert {c.player_id: c.rating_before for c in changes} == {alice.pk: 1600, bob.pk: 1500}
    # The changes it replaced are kept, superseded by this match's correction.
    old = list(RatingChange.ledger.filter(match=match, superseded_at__isnull=False))
    assert len(old) == 2 and {c.corrected_match_id for c in old} == {match.pk}
    assert {c.player_id: round(c.delta, 2) for c in old} == {alice.pk: 4.49, bob.pk: -4.49}
    # The task the override sends finds the match rated and changes nothing.
    assert [name for name, _ in dispatched].count("matches.tasks.match_rating_apply_task") == 2
    assert RatingChange.ledger.filter(match=match).count() == 4


def test_an_override_is_no_longer_refused_when_later_rated_matches_were_built_on_it(
    alice, bob, carol, dispatched, django_capture_on_commit_callbacks
):
    first = match_between(alice, bob, length=7)
    later = match_between(alice, carol, length=5)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(first, (7, 3))
        confirm(later, (2, 5))
    with django_capture_on_commit_callbacks(execute=True):
        match_override(match_id=first.pk, user=first.organiser, claim=Claim((3, 7)))
    first.refresh_from_db()
    assert (first.status, first.score0, first.score1, first.winner) == (Match.Status.CONFIRMED, 3, 7, 1)
    # Recomputed: bob beat alice (7), then carol beat alice (5), from the ratings of the start.
    bob_gain, alice_loss = fibs(1500, 1600, 7, 1, 1)
    carol_gain, alice_loss_2 = fibs(1550, 1600 + alice_loss, 5, 1, 1)
    for p, rating in ((alice, 1600 + alice_loss + alice_loss_2), (bob, 1500 + bob_gain), (carol, 1550 + carol_gain)):
        p.refresh_from_db()
        assert p.rating == pytest.approx(rating)
    assert (alice.experience, bob.experience, carol.experience) == (EXPERIENCED + 12, EXPERIENCED + 7, EXPERIENCED + 5)
    assert all(chain_is_consistent(p) for p in (alice, bob, carol))


def test_reverting_a_match_that_is_not_the_latest_replays_the_later_ones_without_it(alice, bob, carol):
    first = confirm(match_between(alice, bob, length=7), (7, 3))
    match_rating_apply(match_id=first.pk)
    later = confirm(match_between(carol, bob, length=3), (3, 0))
    match_rating_apply(match_id=later.pk)
    assert ratings.match_rating_revert(match=first) == 2
    carol_gain, bob_loss = fibs(1550, 1500, 3, 1, 1)
    for p, rating, experience in ((alice, 1600, EXPERIENCED), (bob, 1500 + bob_loss, EXPERIENCED + 3),
                                  (carol, 1550 + carol_gain, EXPERIENCED + 3)):
        p.refresh_from_db()
        assert (p.rating, p.experience) == (pytest.approx(rating), experience)
    assert not first.rating_changes.exists() and later.rating_changes.count() == 2
    assert all(chain_is_consistent(p) for p in (alice, bob, carol))


# --- catching up lost tasks -------------------------------------------------------------------


def test_catch_up_rates_a_confirmed_match_whose_task_was_lost(alice, bob):
    match = confirm(match_between(alice, bob, length=7), (7, 3))  # on-commit callbacks never ran
    assert not match.rating_changes.exists()
    assert match.pk in ratings_pending()

    assert tasks.ratings_catch_up() == 1
    alice.refresh_from_db()
    assert round(alice.rating - 1600, 2) == 4.49 and match.rating_changes.count() == 2
    after = state(alice, bob)
    assert match.pk not in ratings_pending()
    assert tasks.ratings_catch_up() == 0
    assert state(alice, bob) == after


def test_catch_up_goes_on_after_a_match_that_fails(alice, bob, carol, monkeypatch):
    broken = confirm(match_between(alice, bob), (5, 0))
    fine = confirm(match_between(carol, bob), (5, 1))
    real = ratings.match_rating_apply

    def apply(*, match_id):
        if match_id == broken.pk:
            raise RuntimeError("worker lost")
        return real(match_id=match_id)

    monkeypatch.setattr(ratings, "match_rating_apply", apply)
    assert ratings.ratings_catch_up() == 1
    assert fine.rating_changes.count() == 2 and list(ratings_pending()) == [broken.pk]
    assert not broken.rating_changes.exists()


# --- concurrency (real PostgreSQL, one connection per thread) ---------------------------------


class InThread:
    """Run ``call`` on a thread with its own database connection; knows the backend's pid."""

    def __init__(self, call):
        self.call, self.pid, self.result, self.error = call, None, None, None
        self._started = threading.Event()
        self.thread = threading.Thread(target=self._run)
        self.thread.start()
        assert self._started.wait(10), "the thread did not start"

    def _run(self):
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = cursor.fetchone()[0]
            self._started.set()
            self.result = self.call()
        except Exception as error:  # asserted by the test
            self.error = error
        finally:
            self._started.set()
            connection.close()

    def join(self):
        self.thread.join(30)
        assert not self.thread.is_alive(), "the thread is stuck"


def blocked(*runs: InThread, timeout: float = 10) -> bool:
    """Wait until every run waits for a lock; False if they do not within ``timeout``."""
    deadline = time.monotonic() + timeout
    pids = [run.pid for run in runs]
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM unnest(%s::int[]) AS pid WHERE cardinality(pg_blocking_pids(pid)) > 0",
                           [pids])
            if cursor.fetchone()[0] == len(pids):
                return True
        time.sleep(0.02)
    return False


def chain_is_consistent(p: Player) -> bool:
    """Each change starts where the previous one ended, and the player stands at the last one."""
    p.refresh_from_db()
    rating, experience = None, None
    for change in RatingChange.objects.filter(player=p).order_by("sequence", "id"):
        if rating is not None and (change.rating_before, change.experience_before) != (rating, experience):
            return False
        rating, experience = change.rating_after, change.experience_after
    return rating is None or (p.rating, p.experience) == (rating, experience)


@pytest.fixture
def recorded(monkeypatch):
    """Committed transactions run their on-commit callbacks: record the tasks, send nothing."""
    return run_tasks_inline(monkeypatch, run=False)


@pytest.mark.django_db(transaction=True)
def test_the_same_match_rated_from_two_threads_at_once_is_applied_once(recorded):
    for _ in range(3):
        match = MatchFactory(length=7, status=Match.Status.CONFIRMED, score0=7, score1=1, winner=0)
        barrier = threading.Barrier(2)

        def apply(pk=match.pk, barrier=barrier):
            barrier.wait()
            return match_rating_apply(match_id=pk)

        runs = [InThread(apply), InThread(apply)]
        for run in runs:
            run.join()
        assert [run.error for run in runs] == [None, None]
        assert sorted(len(run.result) for run in runs) == [2, 2]
        assert match.rating_changes.count() == 2
        winner = Player.objects.get(pk=match.side0.player_a_id)
        # Two new players (K = 5), equal ratings: 4 * 5 * sqrt(7) / 2.
        assert (winner.rating, winner.experience) == (pytest.approx(1500 + 10 * math.sqrt(7)), 7)


@pytest.mark.django_db(transaction=True)
def test_the_match_row_is_locked_before_existing_changes_are_looked_for(recorded):
    # Hold both players' rows: the first run takes the match lock and waits for the players; the
    # second must wait for the match, not look for existing changes before the first commits
    # (it would find none, insert a second change and hit rating_once_per_player_per_match).
    match = MatchFactory(length=7, status=Match.Status.CONFIRMED, score0=7, score1=1, winner=0)
    ids = [match.side0.player_a_id, match.side1.player_a_id]
    with transaction.atomic():
        list(Player.objects.select_for_update().filter(pk__in=ids))
        first = InThread(lambda: match_rating_apply(match_id=match.pk))
        both_waited = blocked(first)
        second = InThread(lambda: match_rating_apply(match_id=match.pk))
        both_waited = both_waited and blocked(first, second)
    first.join()
    second.join()
    assert both_waited, "the runs did not wait for the locks"
    assert (first.error, second.error) == (None, None)
    assert [c.pk for c in first.result] == [c.pk for c in second.result]
    assert match.rating_changes.count() == 2
    assert Player.objects.get(pk=ids[0]).experience == 7


@pytest.mark.django_db(transaction=True)
def test_two_matches_of_one_player_rated_at_once_are_both_applied(recorded):
    alice = player("alice", rating=1600, experience=EXPERIENCED)
    bob = player("bob", rating=1500, experience=EXPERIENCED)
    carol = player("carol", rating=1700, experience=0)
    against_bob = confirm(match_between(alice, bob, length=7), (7, 3))
    against_carol = confirm(match_between(carol, alice, length=5), (2, 5))
    # Hold alice's row while both runs start, so both read her rating at the same moment unless
    # they lock it first (a lost update would rate the second match from her old rating).
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=alice.pk)
        runs = [InThread(lambda: match_rating_apply(match_id=against_bob.pk)),
                InThread(lambda: match_rating_apply(match_id=against_carol.pk))]
        both_waited = blocked(*runs)
    for run in runs:
        run.join()
    assert both_waited, "the runs did not wait for alice's row"
    assert [run.error for run in runs] == [None, None]

    def alice_after(order):
        rating, experience = 1600.0, EXPERIENCED
        for opponent, length in order:
            k_alice = max(1, 5 - experience / 100)
            k_other = max(1, 5 - opponent[1] / 100)
            gain, _ = fibs(rating, opponent[0], length, k_alice, k_other)
            rating, experience = rating + gain, experience + length
        return rating, experience

    bob_first = alice_after([((1500, EXPERIENCED), 7), ((1700, 0), 5)])
    carol_first = alice_after([((1700, 0), 5), ((1500, EXPERIENCED), 7)])
    alice.refresh_from_db()
    assert alice.experience == EXPERIENCED + 12
    assert any(alice.rating == pytest.approx(expected[0]) for expected in (bob_first, carol_first))
    assert all(chain_is_consistent(p) for p in (alice, bob, carol))


@pytest.mark.django_db(transaction=True)
def test_an_override_racing_a_later_rating_waits_for_it_and_replays_it(recorded):
    alice = player("alice", rating=1600, experience=EXPERIENCED)
    bob = player("bob", rating=1500, experience=EXPERIENCED)
    carol = player("carol", rating=1550, experience=EXPERIENCED)
    first = confirm(match_between(alice, bob, length=7), (7, 3))
    match_rating_apply(match_id=first.pk)
    later = confirm(match_between(alice, carol, length=5), (5, 2))
    # The later match's rating takes alice's row first; the override must then replay it too
    # (and not restore her rating from before the first match).
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=alice.pk)
        rating = InThread(lambda: match_rating_apply(match_id=later.pk))
        waited = blocked(rating)
        override = InThread(lambda: match_override(match_id=first.pk, user=first.organiser, claim=Claim((3, 7))))
        waited = waited and blocked(rating, override)
    rating.join()
    override.join()
    assert waited, "the runs did not wait for alice's row"
    assert (rating.error, override.error) == (None, None)
    first.refresh_from_db()
    assert (first.winner, first.rating_changes.count(), later.rating_changes.count()) == (1, 2, 2)
    bob_gain, alice_loss = fibs(1500, 1600, 7, 1, 1)
    alice_gain, carol_loss = fibs(1600 + alice_loss, 1550, 5, 1, 1)
    for p, rating_now in ((alice, 1600 + alice_loss + alice_gain), (bob, 1500 + bob_gain), (carol, 1550 + carol_loss)):
        p.refresh_from_db()
        assert p.rating == pytest.approx(rating_now)
    assert all(chain_is_consistent(p) for p in (alice, bob, carol))
