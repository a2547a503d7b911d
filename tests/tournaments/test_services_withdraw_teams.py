"""Withdrawing a team (a withdrawal's remaining matches are forfeited by the rules, in team
events too): every unplayed board of its open team matches is forfeited by
the organiser's override with the minimum winning score, unrated; boards already confirmed keep
their result; the team match is then decided for the opponent, the bracket advances, a Swiss
stops pairing the team, and a round robin forfeits its remaining team matches at once.

The cast: Olga organises; the Aces (alice captains, bob, carol), the Bears (dave captains, erin,
frank), the Cats (grace captains, heidi, ivan), the Dogs (judy captains, mallory, niaj).
"""

from __future__ import annotations

import pytest

from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match, Report
from matches.services.reporting import claim_make, match_confirm, match_report
from tests.matches.factories_api import client_for
from tests.matches.factories_ratings import run_tasks_inline
from tests.tournaments.factories import closed, make_organiser, snapshot
from tests.tournaments.factories_teams import (
    board_match,
    enter_teams,
    play_board,
    play_team_match,
    team_cast,
    team_event,
    team_pairing,
    team_snapshot,
)
from tests.tournaments.test_services_advance import _race
from tournaments.models import BoardMatch, BoardOrder, Entry, Pairing, Round, Team, TeamMember, Tournament
from tournaments.services import bracket_reads, entry_withdraw, state, tournament_draw, tournament_pair_next_round
from tournaments.services.teams import board_order_submit, team_create

pytestmark = pytest.mark.django_db



def withdraw(tournament: Tournament, team: Team, user):
    return entry_withdraw(tournament_id=tournament.pk, entry_id=team.entry.pk, user=user)


def boards(row: Pairing) -> list[Match]:
    return [b.match for b in BoardMatch.objects.filter(pairing=row).select_related("match").order_by("board")]


def team_winner(tournament: Tournament, row: Pairing) -> int | None:
    loaded = state.load(tournament)
    return state.team_winner(loaded.by_key[row.key])


def assert_forfeited(match: Match, winner: int, length: int, director) -> None:
    """A board forfeited to side ``winner``: confirmed length to 0 by the director's override,
    unrated."""
    score = [0, 0]
    score[winner] = length
    assert (match.status, match.score0, match.score1, match.winner) == ("confirmed", *score, winner)
    assert match.rated is False  # nothing was played
    report = match.reports.get(status=Report.Status.CONFIRMED)
    assert report.side is None and report.reporter == director and report.origin == Report.Origin.FORFEIT
    assert report.statement == "" and report.origin_text.endswith("withdrew from the tournament.")


# --- a bracket -------------------------------------------------------------------------------------


def test_a_team_withdrawing_in_a_bracket_forfeits_its_scheduled_boards_and_the_opponent_goes_through_once(organiser):
    tournament, players, (aces, bears, cats, dogs) = team_event(organiser, lengths={"main": [3, 5]})
    judy = players[9]
    semi = team_pairing(tournament, aces, dogs)
    dogs_side = 0 if semi.entry0_id == dogs.entry.pk else 1
    played = play_board(semi, 1, dogs)  # the Dogs lead 1-0 when they withdraw
    entry = withdraw(tournament, dogs, judy.user)  # their captain withdraws them
    assert entry.status == Entry.Status.WITHDRAWN
    first, second, third = boards(semi)
    # The confirmed board keeps its result; the two scheduled ones are forfeited to the Aces.
    assert (first.pk, first.status, first.winner, first.rated) == (played.pk, "confirmed", dogs_side, True)
    assert first.reports.filter(side=None).count() == 0
    for match in (second, third):
        assert_forfeited(match, 1 - dogs_side, 3, organiser)
    assert team_winner(tournament, semi) == aces.entry.pk  # 2-1 Aces
    final = Pairing.objects.get(tournament=tournament, key="main-2-1")
    assert not BoardMatch.objects.filter(pairing=final).exists()  # the Cats or the Bears are still to come
    # The other semi-final is played: the final is Aces v Cats, with its three boards once.
    play_team_match(tournament, cats, bears, 2)
    final.refresh_from_db()
    assert [final.entry0_id, final.entry1_id].count(aces.entry.pk) == 1
    assert {final.entry0_id, final.entry1_id} == {aces.entry.pk, cats.entry.pk}
    assert [m.length for m in boards(final)] == [5, 5, 5]
    assert {m.status for m in boards(final)} == {"scheduled"}
    assert Match.objects.filter(event_link__tournament=tournament).count() == 9
    assert Entry.objects.filter(tournament=tournament, pk__in=[final.entry0_id, final.entry1_id],
                                status=Entry.Status.WITHDRAWN).count() == 0


def test_a_team_withdrawing_after_its_majority_keeps_its_win_and_its_next_team_match_is_a_walkover(organiser):
    tournament, _players, (aces, bears, cats, dogs) = team_event(organiser, lengths={"main": [3, 5]})
    semi = team_pairing(tournament, aces, dogs)
    play_board(semi, 1, aces)
    play_board(semi, 2, aces)  # the Aces have won the team match; board 3 is still scheduled
    withdraw(tournament, aces, organiser)
    aces_side = 0 if semi.entry0_id == aces.entry.pk else 1
    assert_forfeited(boards(semi)[2], 1 - aces_side, 3, organiser)  # board points to the Dogs
    assert team_winner(tournament, semi) == aces.entry.pk  # 2-1: the result stands
    play_team_match(tournament, cats, bears, 2)
    final = Pairing.objects.get(tournament=tournament, key="main-2-1")
    # The withdrawn Aces do not play the final: the Cats go through without a board.
    assert {final.entry0_id, final.entry1_id} == {aces.entry.pk, cats.entry.pk}
    assert not BoardMatch.objects.filter(pairing=final).exists()
    loaded = state.load(tournament)
    assert bracket_reads.bracket_state(loaded).walkovers == {"main-2-1"}


# --- a round robin and a Swiss ---------------------------------------------------------------------


def test_a_team_withdrawing_from_a_round_robin_forfeits_every_remaining_team_match_at_once(organiser):
    tournament, players, (aces, bears, cats, dogs) = team_event(
        organiser, format=Tournament.Format.ROUND_ROBIN, lengths={"rounds": [1]})
    grace = players[6]
    round_one = team_pairing(tournament, aces, dogs)
    assert round_one.round_number == 1
    aces_side = 0 if round_one.entry0_id == aces.entry.pk else 1
    play_board(round_one, 1, aces)
    withdraw(tournament, aces, players[0].user)  # alice, their captain
    # Round 1: board 1 stands, boards 2 and 3 go to the Dogs, who win 2-1.
    first, *rest = boards(round_one)
    assert (first.status, first.winner, first.rated) == ("confirmed", aces_side, True)
    for match in rest:
        assert_forfeited(match, 1 - aces_side, 1, organiser)
    assert team_winner(tournament, round_one) == dogs.entry.pk
    # The Aces' later team matches are created now and forfeited at once...
    later = [team_pairing(tournament, aces, bears), team_pairing(tournament, aces, cats)]
    assert sorted(row.round_number for row in later) == [2, 3]
    for row in later:
        aces_side = 0 if row.entry0_id == aces.entry.pk else 1
        assert len(boards(row)) == 3
        for match in boards(row):
            assert_forfeited(match, 1 - aces_side, 1, organiser)
        assert team_winner(tournament, row) == (bears.entry.pk if bears.entry.pk in (row.entry0_id, row.entry1_id)
                                                else cats.entry.pk)
    # ...but rounds 2 and 3 have not started: the other teams' boards wait, their orders stay open.
    assert list(Round.objects.filter(tournament=tournament).values_list("number", "started")) == [
        (1, True), (2, False), (3, False)]
    assert not BoardOrder.objects.filter(team__in=[bears, cats, dogs], round_number__gt=1).exists()
    cats_round = next(row.round_number for row in later if cats.entry.pk in (row.entry0_id, row.entry1_id))
    board_order_submit(tournament_id=tournament.pk, team_id=cats.pk, round_number=cats_round,
                       player_ids=[players[8].pk, players[7].pk, grace.pk], user=grace.user)
    assert Pairing.objects.filter(tournament=tournament, round_number__gt=1, boards__isnull=False).distinct().count() == 2
    # The others play on: each round starts when the previous is decided, and the Aces' forfeited
    # team matches are not made again.
    play_team_match(tournament, bears, cats, 2)
    for number in (2, 3):
        [row] = [p for p in Pairing.objects.filter(tournament=tournament, round_number=number)
                 if aces.entry.pk not in (p.entry0_id, p.entry1_id)]
        assert len(boards(row)) == 3
        teams = {e.pk: e.team for e in Entry.objects.filter(pk__in=[row.entry0_id, row.entry1_id]).select_related("team")}
        first_team, second_team = teams[row.entry0_id], teams[row.entry1_id]
        play_team_match(tournament, first_team, second_team, 2)
    assert Match.objects.filter(event_link__tournament=tournament).count() == 18
    assert Match.objects.filter(event_link__tournament=tournament).exclude(status=Match.Status.CONFIRMED).count() == 0
    assert Match.objects.filter(event_link__tournament=tournament, rated=False).count() == 8  # 2 + 3 + 3 forfeited boards
    # The Cats played round 2 or 3 against someone else with the order they set after the withdrawal.
    assert BoardOrder.objects.get(team=cats, round_number=cats_round).players == [
        players[8].pk, players[7].pk, grace.pk]


def test_a_team_withdrawing_from_a_swiss_forfeits_its_boards_and_is_not_paired_again(organiser):
    tournament, _players, (aces, _bears, _cats, _dogs) = team_event(
        organiser, format=Tournament.Format.SWISS, swiss_rounds=3, lengths={"rounds": [1]})
    [row] = [p for p in Pairing.objects.filter(tournament=tournament, round_number=1)
             if aces.entry.pk in (p.entry0_id, p.entry1_id)]
    opponent = Entry.objects.get(pk=row.entry0_id if row.entry1_id == aces.entry.pk else row.entry1_id)
    withdraw(tournament, aces, organiser)
    aces_side = 0 if row.entry0_id == aces.entry.pk else 1
    for match in boards(row):
        assert_forfeited(match, 1 - aces_side, 1, organiser)
    assert team_winner(tournament, row) == opponent.pk
    others = [p for p in Pairing.objects.filter(tournament=tournament, round_number=1) if p.pk != row.pk]
    for other in others:
        teams = {e.pk: e.team for e in Entry.objects.filter(pk__in=[other.entry0_id, other.entry1_id])
                 .select_related("team")}
        play_team_match(tournament, teams[other.entry0_id], teams[other.entry1_id], 2)
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    round_two = Pairing.objects.filter(tournament=tournament, round_number=2)
    assert round_two.count() == 2  # three teams left: one team match and a bye
    assert all(aces.entry.pk not in (p.entry0_id, p.entry1_id) for p in round_two)


# --- refusals and who may withdraw -----------------------------------------------------------------


def test_withdrawing_a_team_twice_is_a_conflict_and_changes_nothing(organiser):
    tournament, players, (_aces, _bears, _cats, dogs) = team_event(organiser)
    withdraw(tournament, dogs, organiser)
    before = (snapshot(tournament), team_snapshot(tournament))
    with pytest.raises(Conflict) as caught:
        withdraw(tournament, dogs, players[9].user)
    assert caught.value.code == "already_withdrawn" and "Dogs" in caught.value.message
    assert (snapshot(tournament), team_snapshot(tournament)) == before


@pytest.mark.parametrize("who", [3, 1, 10])  # dave (another captain), bob (an Aces member), mallory (a Dogs member)
def test_only_the_teams_captain_or_the_organiser_withdraws_it(organiser, who):
    tournament, players, (_aces, _bears, _cats, dogs) = team_event(organiser)
    before = (snapshot(tournament), team_snapshot(tournament))
    with pytest.raises(NotAllowed) as caught:
        withdraw(tournament, dogs, players[who].user)
    assert caught.value.code == "not_your_entry"
    assert (snapshot(tournament), team_snapshot(tournament)) == before
    assert withdraw(tournament, dogs, players[9].user).status == Entry.Status.WITHDRAWN  # judy, their captain


def test_the_withdraw_endpoint_refuses_another_captain_with_403_and_accepts_the_teams_captain(organiser):
    tournament, players, (aces, _bears, _cats, dogs) = team_event(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/entries/{dogs.entry.pk}/withdraw/"
    before = (snapshot(tournament), team_snapshot(tournament))
    response = client_for(players[3].user).post(url)  # dave captains the Bears
    assert response.status_code == 403 and response.data["code"] == "not_your_entry"
    assert (snapshot(tournament), team_snapshot(tournament)) == before
    response = client_for(players[9].user).post(url)  # judy captains the Dogs
    assert response.status_code == 200 and response.data["status"] == "withdrawn"
    semi = team_pairing(tournament, aces, dogs)
    assert team_winner(tournament, semi) == aces.entry.pk
    assert board_match(semi, 1).status == Match.Status.CONFIRMED


def test_a_captain_withdrawing_before_the_draw_removes_the_team_and_its_players_may_enter_again(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS, status=Tournament.Status.OPEN)
    players = team_cast()
    [aces] = enter_teams(tournament, players, 1, check_in=False)
    alice, bob, carol = players[:3]
    assert withdraw(tournament, aces, alice.user) is None
    assert not Team.objects.filter(pk=aces.pk).exists() and not TeamMember.objects.filter(tournament=tournament).exists()
    assert not Entry.objects.filter(tournament=tournament).exists()
    again = team_create(tournament_id=tournament.pk, user=alice.user, name="Aces", captain_id=alice.pk,
                        member_ids=[bob.pk, carol.pk])
    assert Entry.objects.filter(team=again).exists()


# --- at the same moment ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_board_confirmed_while_its_team_withdraws_neither_deadlocks_nor_decides_twice(monkeypatch):
    run_tasks_inline(monkeypatch, run=False)  # nothing reaches the broker
    organiser = make_organiser()
    players = team_cast()
    for _ in range(3):
        tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS, lengths={"main": [3]})
        aces, bears, cats, dogs = enter_teams(tournament, players)
        tournament_draw(tournament_id=tournament.pk, user=organiser)
        play_team_match(tournament, bears, cats, 2)
        semi = team_pairing(tournament, aces, dogs)
        match = board_match(semi, 1)
        aces_side = 0 if semi.entry0_id == aces.entry.pk else 1
        score = [0, 0]
        score[aces_side] = match.length
        aces_player = (match.side0 if aces_side == 0 else match.side1).player_a
        dogs_player = (match.side1 if aces_side == 0 else match.side0).player_a
        match_report(match_id=match.pk, user=aces_player.user, claim=claim_make(match, tuple(score), None))
        failures = _race([
            lambda m=match, who=dogs_player: match_confirm(match_id=m.pk, user=who.user),
            lambda t=tournament, d=dogs: withdraw(t, d, players[9].user),
        ])
        # The confirmation may come too late (the forfeit confirmed the board first): a refusal,
        # never a deadlock.
        assert all(isinstance(error, Conflict | DomainError) for error in failures), failures
        assert len(failures) <= 1
        assert Entry.objects.get(pk=dogs.entry.pk).status == Entry.Status.WITHDRAWN
        assert {m.status for m in boards(semi)} == {"confirmed"}
        assert {m.winner for m in boards(semi)} == {aces_side}
        final = Pairing.objects.get(tournament=tournament, key="main-2-1")
        assert {final.entry0_id, final.entry1_id} == {aces.entry.pk, bears.entry.pk}
        assert BoardMatch.objects.filter(pairing=final).count() == 3
        assert Match.objects.filter(event_link__tournament=tournament).count() == 9
