"""Advancement: only confirmed results move a bracket, each next match is created once, and a
correction resets what depends on it unless a dependent match has started."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from core.errors import Conflict
from matches.models import Match
from matches.services.reporting import claim_make, match_confirm, match_override
from tests.factories import MatchFactory
from tests.matches.factories_ratings import run_tasks_inline
from tests.tournaments.factories import (
    cast,
    drawn,
    names,
    override,
    pairing,
    play,
    report_only,
    snapshot,
)
from tournaments.models import Pairing, Tournament, event_id_of
from tournaments.selectors.standings import tournament_placings
from tournaments.services import tournament_finish, tournament_result_confirmed

pytestmark = pytest.mark.django_db



def placings(tournament: Tournament) -> list[tuple[str, str, str]]:
    return [(p.label, p.entrant.name, p.flight) for p in tournament_placings(tournament=tournament)]


def test_a_confirmed_result_advances_the_winner_and_creates_the_next_match_once_both_are_known(organiser):
    tournament, (alice, _bob, carol, _dave) = drawn(4, organiser=organiser, lengths={"main": [3, 7]})
    play(tournament, "main-1-1", alice)
    final = pairing(tournament, "main-2-1")
    assert names(final) == (None, None) and final.match is None  # Bob v Carol is still to be played
    play(tournament, "main-1-2", carol, loser_points=2)
    final = pairing(tournament, "main-2-1")
    assert names(final) == ("Alice", "Carol")
    assert (final.match.length, final.match.status, event_id_of(final.match)) == (7, "scheduled", tournament.pk)
    assert final.match.created_by == organiser and final.match.organiser == organiser


def test_a_report_that_is_not_confirmed_advances_nothing(organiser):
    tournament, (alice, bob, _carol, _dave) = drawn(4, organiser=organiser)
    play(tournament, "main-1-2", bob)
    report_only(tournament, "main-1-1", alice)
    assert pairing(tournament, "main-2-1").match is None
    assert Match.objects.filter(event_link__tournament=tournament).count() == 2


def test_the_hook_run_again_changes_nothing(organiser):
    tournament, (alice, bob, _carol, _dave) = drawn(4, organiser=organiser)
    play(tournament, "main-1-1", alice)
    confirmed = play(tournament, "main-1-2", bob)
    before = snapshot(tournament)
    with transaction.atomic():
        tournament_result_confirmed(match=confirmed)
        tournament_result_confirmed(match=confirmed)
    assert snapshot(tournament) == before
    assert Match.objects.filter(event_link__tournament=tournament).count() == 3


def test_a_match_of_the_event_outside_its_draw_moves_nothing(organiser):
    tournament, _ = drawn(4, organiser=organiser)
    friendly = MatchFactory(event=tournament, organiser=organiser, length=3)
    before = snapshot(tournament)
    match_override(match_id=friendly.pk, user=organiser, claim=claim_make(friendly, (3, 1), None))
    after = snapshot(tournament)
    assert after["pairings"] == before["pairings"] and after["entries"] == before["entries"]


def test_eight_players_with_a_consolation_flight_play_through_to_the_final_placings(organiser):
    tournament, cast8 = drawn(8, organiser=organiser, consolation_rounds=1, lengths={"main": [5, 7], "consolation": 3})
    alice, bob, carol, dave, erin, frank, _grace, _heidi = cast8
    # Main round 1: Alice v Heidi, Dave v Erin, Bob v Grace, Carol v Frank.
    play(tournament, "main-1-1", alice, 2)
    play(tournament, "main-1-2", erin, 4)
    play(tournament, "main-1-3", bob)
    play(tournament, "main-1-4", frank, 3)
    assert names(pairing(tournament, "main-2-1")) == ("Alice", "Erin")
    assert names(pairing(tournament, "main-2-2")) == ("Bob", "Frank")
    # First-round losers drop to the consolation: Heidi v Dave, Grace v Carol, 3-point matches.
    assert names(pairing(tournament, "consolation-1-1")) == ("Heidi", "Dave")
    assert names(pairing(tournament, "consolation-1-2")) == ("Grace", "Carol")
    assert pairing(tournament, "consolation-1-1").match.length == 3
    play(tournament, "main-2-1", alice, 4)
    play(tournament, "main-2-2", frank)
    play(tournament, "consolation-1-1", dave)
    play(tournament, "consolation-1-2", carol, 1)
    final = pairing(tournament, "main-3-1")
    assert names(final) == ("Alice", "Frank") and final.match.length == 7
    assert names(pairing(tournament, "consolation-2-1")) == ("Dave", "Carol")
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "event_unfinished" and "2 matches to go" in caught.value.message
    play(tournament, "main-3-1", frank, 6)
    play(tournament, "consolation-2-1", carol)
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert placings(tournament) == [
        ("1", "Frank", "main"), ("2", "Alice", "main"), ("3-4", "Bob", "main"), ("3-4", "Erin", "main"),
        ("5", "Carol", "consolation"), ("6", "Dave", "consolation"),
        ("7-8", "Grace", "consolation"), ("7-8", "Heidi", "consolation"),
    ]
    assert Match.objects.filter(event_link__tournament=tournament).count() == 10
    assert not Match.objects.filter(event_link__tournament=tournament).exclude(status=Match.Status.CONFIRMED).exists()


def test_double_elimination_of_four_plays_through_the_decider(organiser):
    tournament, (alice, bob, carol, _dave) = drawn(4, organiser=organiser, format=Tournament.Format.DOUBLE_ELIMINATION)
    play(tournament, "winners-1-1", alice)
    play(tournament, "winners-1-2", bob)
    assert names(pairing(tournament, "losers-1-1")) == ("Dave", "Carol")
    play(tournament, "winners-2-1", bob)
    play(tournament, "losers-1-1", carol)
    assert names(pairing(tournament, "losers-2-1")) == ("Carol", "Alice")
    play(tournament, "losers-2-1", alice)
    assert names(pairing(tournament, "final-1-1")) == ("Bob", "Alice")
    assert pairing(tournament, "final-2-1").match is None
    play(tournament, "final-1-1", alice)  # Bob's first loss: the decider is needed
    assert names(pairing(tournament, "final-2-1")) == ("Bob", "Alice")
    play(tournament, "final-2-1", alice)
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert placings(tournament) == [("1", "Alice", "final"), ("2", "Bob", "final"), ("3", "Carol", "losers"),
                                    ("4", "Dave", "losers")]


def test_double_elimination_needs_no_decider_when_the_unbeaten_player_wins_the_final(organiser):
    tournament, (alice, bob, _carol, dave) = drawn(4, organiser=organiser, format=Tournament.Format.DOUBLE_ELIMINATION)
    for key, winner in (("winners-1-1", alice), ("winners-1-2", bob), ("winners-2-1", alice), ("losers-1-1", dave),
                        ("losers-2-1", bob), ("final-1-1", alice)):
        play(tournament, key, winner)
    assert pairing(tournament, "final-2-1").match is None
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert [p[1] for p in placings(tournament)] == ["Alice", "Bob", "Dave", "Carol"]


# --- corrections -----------------------------------------------------------------------------------


def test_a_correction_before_the_next_match_starts_resets_and_redraws_it(organiser):
    tournament, cast8 = drawn(8, organiser=organiser, consolation_rounds=1)
    alice, bob, _carol, dave, _erin, _frank, _grace, heidi = cast8
    play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", dave)
    play(tournament, "main-1-3", bob)
    old_next = pairing(tournament, "main-2-1").match
    old_consolation = pairing(tournament, "consolation-1-1").match
    assert names(pairing(tournament, "main-2-1")) == ("Alice", "Dave")
    assert names(pairing(tournament, "consolation-1-1")) == ("Heidi", "Erin")
    override(tournament, "main-1-1", heidi, 3)  # the director finds Heidi won
    assert names(pairing(tournament, "main-2-1")) == ("Heidi", "Dave")
    assert names(pairing(tournament, "consolation-1-1")) == ("Alice", "Erin")
    assert not Match.objects.filter(pk__in=[old_next.pk, old_consolation.pk]).exists()
    assert pairing(tournament, "main-2-1").match.status == Match.Status.SCHEDULED
    assert Match.objects.filter(event_link__tournament=tournament).count() == 6  # 4 + the two made again


def test_a_correction_that_keeps_the_winner_changes_nothing_downstream(organiser):
    tournament, (alice, bob, _carol, _dave) = drawn(4, organiser=organiser)
    play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    before = snapshot(tournament)
    corrected = override(tournament, "main-1-1", alice, 4)
    assert (corrected.score0, corrected.score1) == (5, 4)
    after = snapshot(tournament)
    assert after["pairings"] == before["pairings"]
    assert [m for m in after["matches"] if m["pk"] != corrected.pk] == [
        m for m in before["matches"] if m["pk"] != corrected.pk]


def test_a_correction_is_refused_once_a_dependent_match_has_started_and_nothing_changes(organiser):
    tournament, (alice, bob, _carol, dave) = drawn(4, organiser=organiser)
    play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    report_only(tournament, "main-2-1", alice)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        override(tournament, "main-1-1", dave)
    assert caught.value.code == "result_built_on" and caught.value.details["match"] == "main-2-1"
    # Both matches named as people know them: their players and rounds, never their keys.
    assert caught.value.message.startswith("the result of the match Alice v Dave (a semi-final) cannot change now: "
                                           "the match Alice v Bob (the final) depends on it and has started")
    assert "main-" not in caught.value.message
    assert snapshot(tournament) == before  # the override rolled back with it


def test_a_correction_is_refused_when_a_dependent_match_has_a_confirmed_result(organiser):
    tournament, (alice, bob, carol, _dave) = drawn(4, organiser=organiser)
    play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    play(tournament, "main-2-1", bob)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        override(tournament, "main-1-2", carol)
    assert caught.value.code == "result_built_on" and "the match Alice v Bob (the final)" in caught.value.message
    assert "confirmed result" in caught.value.message and "main-" not in caught.value.message
    assert snapshot(tournament) == before


# --- concurrency (real PostgreSQL, one connection per thread) --------------------------------------


def _race(calls) -> list[Exception]:
    barrier = threading.Barrier(len(calls))
    failures: list[Exception] = []

    def run(call):
        try:
            barrier.wait()
            call()
        except Exception as error:  # asserted by the test
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "a confirmation is stuck"
    return failures


@pytest.mark.django_db(transaction=True)
def test_two_results_of_one_round_confirmed_at_once_create_the_next_match_exactly_once(monkeypatch):
    run_tasks_inline(monkeypatch, run=False)  # nothing reaches the broker
    players = cast(4)
    for _ in range(3):
        tournament, (alice, bob, _carol, _dave) = drawn(4, players=players)
        firsts = []
        for key, winner in (("main-1-1", alice), ("main-1-2", bob)):
            match = report_only(tournament, key, winner)  # side 0 reports; side 1 confirms below
            firsts.append(match)
        calls = [lambda m=m: match_confirm(match_id=m.pk, user=m.side1.player_a.user) for m in firsts]
        assert _race(calls) == []
        for match in firsts:
            match.refresh_from_db()
            assert match.status == Match.Status.CONFIRMED
        final = Pairing.objects.select_related("match").get(tournament=tournament, key="main-2-1")
        assert final.match is not None
        assert Match.objects.filter(event_link__tournament=tournament).count() == 3
        assert Match.objects.filter(event_link__tournament=tournament, side0__player_a=alice, side1__player_a=bob).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_correction_does_not_wait_for_a_dependent_match_someone_is_reporting_right_now(monkeypatch):
    run_tasks_inline(monkeypatch, run=False)
    tournament, (alice, bob, _carol, dave) = drawn(4)
    play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    dependent = pairing(tournament, "main-2-1").match
    holding, release = threading.Event(), threading.Event()

    def report_in_progress():
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=dependent.pk)  # as match_report does
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    thread = threading.Thread(target=report_in_progress)
    thread.start()
    try:
        assert holding.wait(10)
        before = snapshot(tournament)
        with pytest.raises(Conflict) as caught:
            override(tournament, "main-1-1", dave)
        assert caught.value.code == "result_built_on" and "right now" in caught.value.message
        assert snapshot(tournament) == before
    finally:
        release.set()
        thread.join(30)
