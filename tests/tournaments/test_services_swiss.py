"""Swiss and round robin: pairing round by round, byes, the end of the event, standings,
corrections, and two pairings racing."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from core.errors import Conflict, NotAllowed
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
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors.standings import tournament_placings, tournament_standings
from tournaments.services import tournament_finish, tournament_pair_next_round

pytestmark = pytest.mark.django_db



SWISS = {"format": Tournament.Format.SWISS}


def round_of(tournament: Tournament, number: int) -> list[tuple[str | None, str | None]]:
    rows = Pairing.objects.filter(tournament=tournament, round_number=number).select_related(
        "entry0__side__player_a", "entry1__side__player_a")
    return sorted(names(p) for p in rows)


def play_round(tournament: Tournament, number: int, seeds: dict) -> None:
    """Play every board of round ``number``: the better seed (lower number) wins."""
    for row in Pairing.objects.filter(tournament=tournament, round_number=number, match__isnull=False).select_related(
            "entry0__side__player_a", "entry1__side__player_a"):
        a, b = row.entry0.side.player_a, row.entry1.side.player_a
        play(tournament, row.key, a if seeds[a.pk] < seeds[b.pk] else b, 1)


def test_six_players_play_three_swiss_rounds_to_the_standings(organiser):
    tournament, six = drawn(6, organiser=organiser, swiss_rounds=3, lengths={"rounds": [3, 3, 5]}, **SWISS)
    seeds = {p.pk: i for i, p in enumerate(six)}
    assert round_of(tournament, 1) == [("Alice", "Dave"), ("Bob", "Erin"), ("Carol", "Frank")]
    play_round(tournament, 1, seeds)
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    # Equal records meet: the three winners (Alice, Bob, Carol) top half against bottom, the odd one floats.
    assert round_of(tournament, 2) == [("Alice", "Bob"), ("Carol", "Dave"), ("Erin", "Frank")]
    play_round(tournament, 2, seeds)
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    third = round_of(tournament, 3)
    assert third == [("Alice", "Carol"), ("Bob", "Frank"), ("Erin", "Dave")]
    assert Pairing.objects.get(tournament=tournament, key="swiss-3-1").length == 5
    played = {frozenset(p) for n in (1, 2) for p in round_of(tournament, n)}
    assert not played & {frozenset(p) for p in third}  # no rematch
    play_round(tournament, 3, seeds)
    with pytest.raises(Conflict) as caught:
        tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "swiss_complete" and "all 3 rounds" in caught.value.message
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    table = [(s.place, s.entrant.name, s.wins, s.buchholz) for s in tournament_standings(tournament=tournament)]
    # Results: R1 Alice, Bob, Carol; R2 Alice, Carol, Erin; R3 Alice, Bob, Dave. Then Buchholz:
    # Bob met Erin 1 + Alice 3 + Frank 0 = 4, Carol met Frank 0 + Dave 1 + Alice 3 = 4; their
    # median-Buchholz is 1 each and they never met: a shared second place. Dave (Alice 3 + Carol 2
    # + Erin 1 = 6) is ahead of Erin (Bob 2 + Frank 0 + Dave 1 = 3).
    assert table == [(1, "Alice", 3, 5.0), (2, "Bob", 2, 4.0), (2, "Carol", 2, 4.0), (4, "Dave", 1, 6.0),
                     (5, "Erin", 1, 3.0), (6, "Frank", 0, 5.0)]
    labels = [(p.label, p.entrant.name) for p in tournament_placings(tournament=tournament)]
    assert labels == [("1", "Alice"), ("2-3", "Bob"), ("2-3", "Carol"), ("4", "Dave"), ("5", "Erin"), ("6", "Frank")]


def test_with_an_odd_number_the_lowest_player_gets_the_bye_which_counts_as_a_win(organiser):
    tournament, five = drawn(5, organiser=organiser, **SWISS)
    bye = pairing(tournament, "swiss-1-bye")
    assert names(bye) == ("Erin", None) and bye.match is None and bye.is_bye
    seeds = {p.pk: i for i, p in enumerate(five)}
    play_round(tournament, 1, seeds)
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    # Nobody gets a second bye before everyone had one: Erin (a win) is paired, Dave (a loss) sits out.
    assert names(pairing(tournament, "swiss-2-bye")) == ("Dave", None)
    erin = next(s for s in tournament_standings(tournament=tournament) if s.entrant.name == "Erin")
    assert (erin.wins, erin.byes, erin.played) == (1, 1, 0)


def test_pairing_before_the_round_is_complete_is_refused_and_changes_nothing(organiser):
    tournament, (alice, bob, _carol, _dave) = drawn(4, organiser=organiser, **SWISS)
    play(tournament, "swiss-1-1", alice)
    report_only(tournament, "swiss-1-2", bob)  # reported, not confirmed
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "round_incomplete" and "1 match without a confirmed result" in caught.value.message
    assert snapshot(tournament) == before


def test_when_no_pairing_is_possible_the_409_says_why_and_nothing_changes(organiser):
    tournament, (alice, _bob) = drawn(2, organiser=organiser, **SWISS)
    play(tournament, "swiss-1-1", alice)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    assert caught.value.status == 409 and caught.value.code == "no_pairing"
    assert caught.value.details["reason"] == "rematches" and "repeat a game" in caught.value.message
    assert snapshot(tournament) == before


def test_an_elimination_swiss_ends_with_one_player_left(organiser):
    tournament, (alice, bob, _carol, _dave) = drawn(4, organiser=organiser, max_losses=1, **SWISS)
    play(tournament, "swiss-1-1", alice)
    play(tournament, "swiss-1-2", bob)
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    assert round_of(tournament, 2) == [("Alice", "Bob")]
    play(tournament, "swiss-2-1", bob)
    with pytest.raises(Conflict) as caught:
        tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "swiss_complete" and "Bob is the last player left" in caught.value.message
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert tournament_standings(tournament=tournament)[0].entrant.name == "Bob"


def test_only_the_organiser_pairs_a_swiss_and_only_a_swiss_is_paired(organiser, another_organiser):
    tournament, (alice, bob) = drawn(2, organiser=organiser, **SWISS)
    with pytest.raises(NotAllowed):
        tournament_pair_next_round(tournament_id=tournament.pk, user=another_organiser)
    bracket, _ = drawn(2, organiser=organiser, players=[alice, bob])
    with pytest.raises(Conflict) as caught:
        tournament_pair_next_round(tournament_id=bracket.pk, user=organiser)
    assert caught.value.code == "not_swiss"


def test_a_corrected_result_re_pairs_the_next_round_while_none_of_it_has_started(organiser):
    tournament, six = drawn(6, organiser=organiser, **SWISS)
    _alice, _bob, _carol, dave, _erin, _frank = six
    play_round(tournament, 1, {p.pk: i for i, p in enumerate(six)})
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    old = set(Pairing.objects.filter(tournament=tournament, round_number=2).values_list("match_id", flat=True))
    override(tournament, "swiss-1-1", dave)  # Dave beat Alice after all
    # Bob, Carol and Dave now lead: Bob v Carol, Dave floats down (not Alice again) to Erin.
    assert round_of(tournament, 2) == [("Alice", "Frank"), ("Bob", "Carol"), ("Dave", "Erin")]
    assert Round.objects.filter(tournament=tournament).count() == 2
    new = set(Pairing.objects.filter(tournament=tournament, round_number=2).values_list("match_id", flat=True))
    assert not old & new  # the old round's matches are gone


def test_a_correction_is_refused_once_the_next_round_has_started(organiser):
    tournament, six = drawn(6, organiser=organiser, **SWISS)
    _alice, _bob, _carol, dave, erin, _frank = six
    play_round(tournament, 1, {p.pk: i for i, p in enumerate(six)})
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    report_only(tournament, "swiss-2-3", erin)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        override(tournament, "swiss-1-1", dave)
    assert caught.value.code == "result_built_on" and "the match Erin v Frank (round 2)" in caught.value.message
    assert "swiss-" not in caught.value.message
    assert snapshot(tournament) == before


def test_a_corrected_score_that_keeps_the_winner_leaves_the_next_round_alone(organiser):
    tournament, six = drawn(6, organiser=organiser, **SWISS)
    play_round(tournament, 1, {p.pk: i for i, p in enumerate(six)})
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    before = snapshot(tournament)
    corrected = override(tournament, "swiss-1-1", six[0], 4)  # Alice still won, 5-4 now
    after = snapshot(tournament)
    assert after["pairings"] == before["pairings"] and after["rounds"] == before["rounds"]
    assert [m for m in after["matches"] if m["pk"] != corrected.pk] == [
        m for m in before["matches"] if m["pk"] != corrected.pk]


# --- round robin -----------------------------------------------------------------------------------


def test_a_round_robin_of_four_is_played_to_its_table_and_placings(organiser):
    tournament, (alice, bob, carol, _dave) = drawn(4, organiser=organiser, format=Tournament.Format.ROUND_ROBIN,
                                                  lengths={"rounds": 5})
    assert [round_of(tournament, n) for n in (1, 2, 3)] == [
        [("Alice", "Dave"), ("Bob", "Carol")], [("Alice", "Carol"), ("Dave", "Bob")],
        [("Alice", "Bob"), ("Carol", "Dave")]]
    # Alice, Bob and Carol beat each other in a circle and all beat Dave: three tied on wins
    # and head-to-head, split by points difference (match points capped at the length).
    play(tournament, "A-1-1", alice, 0)   # Alice +5
    play(tournament, "A-1-2", bob, 4)     # Bob +1 over Carol
    play(tournament, "A-2-1", carol, 3)   # Carol +2 over Alice
    play(tournament, "A-2-2", bob, 2)     # Bob +3 over Dave
    play(tournament, "A-3-1", alice, 4)   # Alice +1 over Bob
    play(tournament, "A-3-2", carol, 1)   # Carol +4 over Dave
    table = [(s.place, s.entrant.name, s.wins, s.points_difference) for s in tournament_standings(tournament=tournament)]
    # Points difference: Carol -1 +2 +4 = 5, Alice +5 -2 +1 = 4, Bob +1 +3 -1 = 3, Dave -12.
    assert table == [(1, "Carol", 2, 5), (2, "Alice", 2, 4), (3, "Bob", 2, 3), (4, "Dave", 0, -12)]
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert [p.label for p in tournament_placings(tournament=tournament)] == ["1", "2", "3", "4"]


# --- concurrency -------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_pairing_the_next_round_twice_at_once_creates_one_round(monkeypatch):
    run_tasks_inline(monkeypatch, run=False)
    players = cast(4)
    for _ in range(3):
        tournament, (alice, bob, _carol, _dave) = drawn(4, players=players, **SWISS)
        play(tournament, "swiss-1-1", alice)
        play(tournament, "swiss-1-2", bob)
        barrier = threading.Barrier(2)
        outcomes: list = []

        def pair(tournament=tournament, barrier=barrier, outcomes=outcomes):
            try:
                barrier.wait()
                outcomes.append(tournament_pair_next_round(tournament_id=tournament.pk, user=tournament.organiser))
            except Exception as error:  # asserted below
                outcomes.append(error)
            finally:
                connection.close()

        threads = [threading.Thread(target=pair) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        errors = [o for o in outcomes if isinstance(o, Exception)]
        assert len(outcomes) == 2 and len(errors) == 1
        assert isinstance(errors[0], Conflict) and errors[0].code == "round_incomplete"
        assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2]
        assert Pairing.objects.filter(tournament=tournament, round_number=2).count() == 2
