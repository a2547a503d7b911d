"""Team events (RULES.md §7): teams with a captain and reserves, board
orders locked when the round starts (and unlocked again when a correction resets the team match
that locked them), team matches of N boards won by the majority, team tables (a level team match
has no winner), a Swiss or round robin of teams finished only once every team match is decided,
and consultation pairs seen from each member.

The cast: Olga organises; the Aces (alice captains, bob, carol), the Bears (dave captains, erin,
frank), the Cats (grace, heidi, ivan), the Dogs (judy, mallory, niaj); Rupert is in no team.
"""

from __future__ import annotations

import pytest

from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match
from matches.services.reporting import claim_make, match_confirm, match_override, match_report
from tests.matches.factories_ratings import run_tasks_inline
from tests.tournaments.factories import cast, closed, enter, make_organiser, pairing, play, player, snapshot
from tests.tournaments.factories_teams import (
    board_match,
    enter_teams,
    loser_of,
    non_member,
    play_board,
    play_team_match,
    round_rows,
    team_cast,
    team_event,
    team_of,
    team_pairing,
    team_snapshot,
    winner_of,
)
from tests.tournaments.test_services_advance import _race
from tournaments.models import BoardMatch, BoardOrder, Entry, Pairing, Round, Team, TeamMember, Tournament
from tournaments.selectors.next_match import player_next_match
from tournaments.selectors.rounds import tournament_rounds
from tournaments.selectors.standings import team_standings, tournament_placings
from tournaments.selectors.teams import team_list, team_match_card
from tournaments.services import teams as team_services
from tournaments.services import tournament_draw, tournament_finish
from tournaments.services.teams import board_order_submit, team_create, team_member_add, team_member_remove

pytestmark = pytest.mark.django_db



def order_names(team: Team, number: int) -> list[str]:
    order = BoardOrder.objects.get(team=team, round_number=number)
    names = {m.player_id: m.player.display_name for m in TeamMember.objects.filter(team=team).select_related("player")}
    return [names[p] for p in order.players]


def board_players(row: Pairing) -> list[tuple[str, str]]:
    return [(b.match.side0.player_a.display_name, b.match.side1.player_a.display_name)
            for b in BoardMatch.objects.filter(pairing=row).select_related("match__side0__player_a",
                                                                          "match__side1__player_a")]


# --- teams and members -----------------------------------------------------------------------------


def test_the_organiser_enters_a_team_with_its_captain_members_reserves_and_entry(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS)
    alice, bob, carol, dave = cast(4)
    team = team_create(tournament_id=tournament.pk, user=organiser, name=" Aces ", captain_id=alice.pk,
                       member_ids=[bob.pk, carol.pk], reserve_ids=[dave.pk])
    assert (team.name, team.captain) == ("Aces", alice)
    members = [(m.player.display_name, m.reserve) for m in team.members.order_by("id")]
    assert members == [("Alice", False), ("Bob", False), ("Carol", False), ("Dave", True)]
    entry = Entry.objects.get(team=team)
    assert (entry.tournament, entry.side, entry.status) == (tournament, None, Entry.Status.ENTERED)


def test_a_captain_enters_his_own_team_while_entries_are_open_but_not_once_they_close():
    tournament = closed(kind=Tournament.Kind.TEAMS, status=Tournament.Status.OPEN)
    alice, bob, carol, dave, erin, frank = cast(6)
    team = team_create(tournament_id=tournament.pk, user=alice.user, name="Aces", captain_id=alice.pk,
                       member_ids=[bob.pk, carol.pk])
    assert team.captain == alice and Entry.objects.filter(team=team).exists()
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.CLOSED)
    with pytest.raises(Conflict) as caught:
        team_create(tournament_id=tournament.pk, user=dave.user, name="Bears", captain_id=dave.pk,
                    member_ids=[erin.pk, frank.pk])
    assert caught.value.code == "entries_closed"
    assert not Team.objects.filter(name="Bears").exists()


def test_a_player_cannot_enter_a_team_captained_by_someone_else():
    tournament = closed(kind=Tournament.Kind.TEAMS, status=Tournament.Status.OPEN)
    alice, bob, carol = cast(3)
    before = team_snapshot(tournament)
    with pytest.raises(NotAllowed) as caught:
        team_create(tournament_id=tournament.pk, user=bob.user, name="Aces", captain_id=alice.pk,
                    member_ids=[bob.pk, carol.pk])
    assert caught.value.code == "not_captain"
    assert team_snapshot(tournament) == before


@pytest.mark.parametrize("field, code", [
    ("too_few", "team_too_small"),
    ("unknown", "unknown_player"),
    ("twice", "bad_team"),
    ("captain_reserve", "bad_team"),
    ("no_name", "bad_team"),
])
def test_a_malformed_team_is_refused_and_nothing_is_saved(organiser, field, code):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS)
    alice, bob, carol = cast(3)
    args = {"name": "Aces", "captain_id": alice.pk, "member_ids": [bob.pk, carol.pk], "reserve_ids": []}
    if field == "too_few":
        args["member_ids"] = [bob.pk]
    elif field == "unknown":
        args["member_ids"] = [bob.pk, 999999]
    elif field == "twice":
        args["reserve_ids"] = [bob.pk]
    elif field == "captain_reserve":
        args["reserve_ids"] = [alice.pk]
    else:
        args["name"] = "  "
    before = team_snapshot(tournament)
    with pytest.raises(DomainError) as caught:
        team_create(tournament_id=tournament.pk, user=organiser, **args)
    assert caught.value.code == code
    assert team_snapshot(tournament) == before


def test_a_player_is_in_one_team_per_event(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS)
    players = team_cast()
    enter_teams(tournament, players, 1, check_in=False)
    before = team_snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        team_create(tournament_id=tournament.pk, user=organiser, name="Bears", captain_id=players[3].pk,
                    member_ids=[players[4].pk, players[1].pk])
    assert caught.value.code == "already_in_team" and "Bob" in caught.value.message
    assert team_snapshot(tournament) == before


def test_an_individual_event_has_no_teams(organiser):
    tournament = closed(organiser=organiser)
    alice, bob, carol = cast(3)
    with pytest.raises(DomainError) as caught:
        team_create(tournament_id=tournament.pk, user=organiser, name="Aces", captain_id=alice.pk,
                    member_ids=[bob.pk, carol.pk])
    assert caught.value.code == "not_team_event"


def test_the_captain_adds_and_removes_members_before_the_draw_and_another_captain_cannot(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS)
    players = team_cast()
    aces, _bears = enter_teams(tournament, players, 2, check_in=False)
    alice, dave = players[0], players[3]
    rupert = non_member()
    team_member_add(tournament_id=tournament.pk, team_id=aces.pk, user=alice.user, player_id=rupert.pk, reserve=True)
    assert TeamMember.objects.get(team=aces, player=rupert).reserve is True
    before = team_snapshot(tournament)
    with pytest.raises(NotAllowed) as caught:
        team_member_remove(tournament_id=tournament.pk, team_id=aces.pk, user=dave.user, player_id=rupert.pk)
    assert caught.value.code == "not_captain"
    with pytest.raises(DomainError) as caught:
        team_member_remove(tournament_id=tournament.pk, team_id=aces.pk, user=alice.user, player_id=alice.pk)
    assert caught.value.code == "captain_required"
    assert team_snapshot(tournament) == before
    team_member_remove(tournament_id=tournament.pk, team_id=aces.pk, user=organiser, player_id=rupert.pk)
    assert not TeamMember.objects.filter(team=aces, player=rupert).exists()
    with pytest.raises(DomainError) as caught:  # three players for three boards: no one may leave
        team_member_remove(tournament_id=tournament.pk, team_id=aces.pk, user=alice.user, player_id=players[1].pk)
    assert caught.value.code == "team_too_small"


def test_the_team_list_is_fixed_at_the_draw(organiser):
    tournament, players, (aces, *_) = team_event(organiser)
    before = team_snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        team_member_add(tournament_id=tournament.pk, team_id=aces.pk, user=players[0].user,
                        player_id=non_member().pk, reserve=True)
    assert caught.value.code == "already_drawn"
    assert team_snapshot(tournament) == before


# --- board orders ----------------------------------------------------------------------------------


@pytest.fixture
def two_teams(organiser):
    """The Aces (with Rupert as a reserve) and the Bears, entered and checked in, not drawn."""
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS, lengths={"main": [3]})
    players = team_cast()
    aces, bears = enter_teams(tournament, players, 2)
    rupert = non_member()
    team_member_add(tournament_id=tournament.pk, team_id=aces.pk, user=organiser, player_id=rupert.pk, reserve=True)
    return tournament, players, aces, bears, rupert


def test_the_captain_submits_his_board_order_with_a_reserve_and_may_replace_it(two_teams):
    tournament, players, aces, _bears, rupert = two_teams
    alice, bob, carol = players[:3]
    board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=1,
                       player_ids=[bob.pk, alice.pk, carol.pk], user=alice.user)
    order = board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=1,
                               player_ids=[carol.pk, rupert.pk, alice.pk], user=alice.user)
    assert (order.players, order.locked) == ([carol.pk, rupert.pk, alice.pk], False)
    assert BoardOrder.objects.filter(team=aces).count() == 1


@pytest.mark.parametrize("who, ids, error, code", [
    ("captain", "non_member", DomainError, "not_a_member"),
    ("captain", "two", DomainError, "bad_board_order"),
    ("captain", "four", DomainError, "bad_board_order"),
    ("captain", "twice", DomainError, "bad_board_order"),
    ("captain", "other_team", DomainError, "not_a_member"),
    ("other_captain", "good", NotAllowed, "not_captain"),
    ("member", "good", NotAllowed, "not_captain"),
    ("non_member", "good", NotAllowed, "not_captain"),
])
def test_a_bad_board_order_is_refused_with_its_code_and_nothing_is_saved(two_teams, who, ids, error, code):
    tournament, players, aces, _bears, rupert = two_teams
    alice, bob, carol, dave = players[:4]
    board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=1,
                       player_ids=[alice.pk, bob.pk, carol.pk], user=alice.user)
    user = {"captain": alice.user, "other_captain": dave.user, "member": bob.user, "non_member": rupert.user}[who]
    if who == "non_member":
        TeamMember.objects.filter(player=rupert).delete()
    player_ids = {
        "non_member": [alice.pk, player("sybil").pk, carol.pk],
        "two": [alice.pk, bob.pk],
        "four": [alice.pk, bob.pk, carol.pk, rupert.pk],
        "twice": [alice.pk, bob.pk, alice.pk],
        "other_team": [alice.pk, bob.pk, dave.pk],
        "good": [carol.pk, bob.pk, alice.pk],
    }[ids]
    before = team_snapshot(tournament)
    with pytest.raises(error) as caught:
        board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=1, player_ids=player_ids,
                           user=user)
    assert caught.value.code == code
    if code == "not_a_member":
        assert "not a member of team Aces" in caught.value.message
    assert team_snapshot(tournament) == before


def test_the_board_order_is_locked_when_the_round_starts_and_the_boards_follow_it(two_teams):
    tournament, players, aces, bears, rupert = two_teams
    alice, bob, carol, dave, erin, frank = players[:6]
    board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=1,
                       player_ids=[rupert.pk, carol.pk, alice.pk], user=alice.user)
    board_order_submit(tournament_id=tournament.pk, team_id=bears.pk, round_number=1,
                       player_ids=[frank.pk, dave.pk, erin.pk], user=dave.user)
    tournament_draw(tournament_id=tournament.pk, user=tournament.organiser)
    row = team_pairing(tournament, aces, bears)
    top_is_aces = row.entry0_id == aces.entry.pk
    expected = [("Rupert", "Frank"), ("Carol", "Dave"), ("Alice", "Erin")]
    assert board_players(row) == (expected if top_is_aces else [(b, a) for a, b in expected])
    assert [board_match(row, k).length for k in (1, 2, 3)] == [3, 3, 3]
    assert all(o.locked for o in BoardOrder.objects.filter(team__tournament=tournament))
    before = team_snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=1,
                           player_ids=[alice.pk, bob.pk, carol.pk], user=alice.user)
    assert caught.value.code == "board_order_locked"
    with pytest.raises(Conflict) as caught:  # the organiser cannot change it either
        board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=1,
                           player_ids=[alice.pk, bob.pk, carol.pk], user=tournament.organiser)
    assert caught.value.code == "board_order_locked"
    assert team_snapshot(tournament) == before


def test_a_team_without_an_order_plays_its_members_in_entry_order(two_teams):
    tournament, _players, aces, bears, _rupert = two_teams
    tournament_draw(tournament_id=tournament.pk, user=tournament.organiser)
    assert order_names(aces, 1) == ["Alice", "Bob", "Carol"]  # the reserve Rupert last, not playing
    assert order_names(bears, 1) == ["Dave", "Erin", "Frank"]
    assert BoardOrder.objects.get(team=aces, round_number=1).locked


# A correction that resets a team match unlocks the orders it locked.


def test_a_correction_that_resets_an_unstarted_team_match_unlocks_the_orders_it_locked(organiser):
    tournament, players, (aces, bears, cats, dogs) = team_event(organiser)
    alice, bob, carol = players[:3]
    first = play_team_match(tournament, aces, dogs, 2)  # the Aces win 2-1
    play_team_match(tournament, bears, cats, 3)
    final = pairing(tournament, "main-2-1")
    assert {team_of(final.entry0_id), team_of(final.entry1_id)} == {aces, bears}
    with pytest.raises(Conflict) as caught:
        board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=2,
                           player_ids=[carol.pk, bob.pk, alice.pk], user=alice.user)
    assert caught.value.code == "board_order_locked"

    # The director finds the Dogs won board 1: they win the team match 2-1 and meet the Bears.
    board = board_match(first, 1)
    score = [0, 0]
    score[0 if first.entry0_id == dogs.entry.pk else 1] = board.length
    match_override(match_id=board.pk, user=organiser, claim=claim_make(board, tuple(score), None))

    final.refresh_from_db()
    assert {team_of(final.entry0_id), team_of(final.entry1_id)} == {dogs, bears}
    order = board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=2,
                               player_ids=[carol.pk, bob.pk, alice.pk], user=alice.user)
    assert (order.players, order.locked) == ([carol.pk, bob.pk, alice.pk], False)
    # The Bears and the Dogs play the new final: their orders are locked by it.
    assert BoardOrder.objects.get(team=bears, round_number=2).locked
    assert BoardOrder.objects.get(team=dogs, round_number=2).locked



def test_an_order_another_team_match_of_the_round_still_plays_with_stays_locked(organiser):
    # A double elimination: a team's first losers' match is in round 1 too, after its winners' one.
    tournament, players, (aces, bears, cats, dogs) = team_event(organiser, format=Tournament.Format.DOUBLE_ELIMINATION)
    judy, mallory, niaj = players[9:12]
    first = play_team_match(tournament, aces, dogs, 3)
    play_team_match(tournament, bears, cats, 3)
    losers = pairing(tournament, "losers-1-1")
    assert {team_of(losers.entry0_id), team_of(losers.entry1_id)} == {dogs, cats}

    for number in (1, 2):  # the director finds the Dogs won two boards: they win 2-1
        board = board_match(first, number)
        score = [0, 0]
        score[0 if first.entry0_id == dogs.entry.pk else 1] = board.length
        match_override(match_id=board.pk, user=organiser, claim=claim_make(board, tuple(score), None))

    losers.refresh_from_db()
    assert {team_of(losers.entry0_id), team_of(losers.entry1_id)} == {aces, cats}
    # The Dogs' round-1 order lost its losers' match but still plays winners-1-1: it stays locked.
    assert BoardOrder.objects.get(team=dogs, round_number=1).locked
    with pytest.raises(Conflict) as caught:
        board_order_submit(tournament_id=tournament.pk, team_id=dogs.pk, round_number=1,
                           player_ids=[niaj.pk, mallory.pk, judy.pk], user=judy.user)
    assert caught.value.code == "board_order_locked"
    # The Aces lost their place in winners-2-1: their round-2 order is free again.
    order = board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=2,
                               player_ids=[players[2].pk, players[1].pk, players[0].pk], user=players[0].user)
    assert not order.locked


# --- team matches in a bracket -------------------------------------------------------------------


def test_four_teams_play_a_single_elimination_on_three_boards_to_the_champion(organiser):
    tournament, players, (aces, bears, cats, dogs) = team_event(organiser, lengths={"main": [3, 5]})
    alice, bob, carol, _dave = players[:4]
    assert Match.objects.filter(event_link__tournament=tournament).count() == 6  # two semi-finals of three boards
    semi1, semi2 = team_pairing(tournament, aces, dogs), team_pairing(tournament, bears, cats)
    final = Pairing.objects.get(tournament=tournament, key="main-2-1")
    # Aces lead 1-0: nothing is decided, the final waits.
    play_board(semi1, 2, aces)
    assert team_match_card(tournament=tournament, pairing_id=semi1.pk).winner is None
    # Cats win 2-0 with a board still to play: their team match is decided at once.
    play_board(semi2, 1, cats)
    play_board(semi2, 3, cats)
    card = team_match_card(tournament=tournament, pairing_id=semi2.pk)
    assert (card.winner, card.decided, card.top_points + card.bottom_points) == (cats.entry.pk, True, 2)
    assert [b.status for b in card.boards] == ["confirmed", "scheduled", "confirmed"]
    assert not BoardMatch.objects.filter(pairing=final).exists()  # the Aces are not through yet
    play_board(semi1, 1, dogs)
    # The captains set the final's order while it waits; the Aces' is not locked yet.
    board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=2,
                       player_ids=[carol.pk, bob.pk, alice.pk], user=alice.user)
    play_board(semi1, 3, aces)  # 2-1 Aces
    final.refresh_from_db()
    assert {final.entry0_id, final.entry1_id} == {aces.entry.pk, cats.entry.pk}
    boards = list(BoardMatch.objects.filter(pairing=final).select_related("match"))
    assert [b.board for b in boards] == [1, 2, 3] and {b.match.length for b in boards} == {5}
    assert order_names(aces, 2) == ["Carol", "Bob", "Alice"] and BoardOrder.objects.get(team=aces, round_number=2).locked
    assert order_names(cats, 2) == ["Grace", "Heidi", "Ivan"]  # no order for round 2: round 1's
    with pytest.raises(Conflict) as caught:
        board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=2,
                           player_ids=[alice.pk, bob.pk, carol.pk], user=alice.user)
    assert caught.value.code == "board_order_locked"
    play_board(semi2, 2, bears)  # the last semi-final board counts for board points, changes nothing
    assert BoardMatch.objects.filter(pairing=final).count() == 3
    play_board(final, 1, cats)
    play_board(final, 2, aces)
    play_board(final, 3, cats)
    placings = [(p.label, p.entrant.name) for p in tournament_placings(tournament=tournament)]
    assert placings[:2] == [("1", "Cats"), ("2", "Aces")]
    assert sorted(placings[2:]) == [("3-4", "Bears"), ("3-4", "Dogs")]
    assert Match.objects.filter(event_link__tournament=tournament).count() == 9


def test_the_board_orders_carry_over_from_the_previous_round(organiser):
    tournament, players, (aces, bears, cats, dogs) = team_event(organiser, draw=False)
    alice, bob, carol = players[:3]
    board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=1,
                       player_ids=[bob.pk, carol.pk, alice.pk], user=alice.user)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    play_team_match(tournament, aces, dogs, 2)
    play_team_match(tournament, bears, cats, 3)
    assert order_names(aces, 2) == ["Bob", "Carol", "Alice"]


# --- team tables -----------------------------------------------------------------------------------


def test_a_round_robin_of_four_teams_ranks_by_team_wins_then_board_points_then_head_to_head(organiser):
    tournament, _players, (aces, bears, cats, dogs) = team_event(
        organiser, format=Tournament.Format.ROUND_ROBIN, lengths={"rounds": [1]})
    # Only round 1 has started: the captains can still set round 2's order.
    assert {p.round_number for p in Pairing.objects.filter(tournament=tournament, boards__isnull=False)} == {1}
    assert list(Round.objects.filter(tournament=tournament).values_list("number", "started")) == [
        (1, True), (2, False), (3, False)]
    results = {  # (first, second): boards won by first, of 3
        (aces, dogs): 3, (bears, cats): 2,
        (aces, cats): 2, (dogs, bears): 2,
        (bears, aces): 2, (cats, dogs): 3,
    }

    def meets(a, b):
        row = Pairing.objects.filter(tournament=tournament, entry0__in=[a.entry, b.entry],
                                     entry1__in=[a.entry, b.entry]).get()
        return row.round_number

    for number in (1, 2, 3):
        assert Pairing.objects.filter(tournament=tournament, round_number=number, boards__isnull=False).exists()
        for (first, second), won in results.items():
            if meets(first, second) == number:
                play_team_match(tournament, first, second, won)
    table = [(r.place, r.entrant.name, r.wins, r.points_for) for r in team_standings(tournament=tournament)]
    # Aces and Bears have two team wins each: board points (6 to 5) put the Aces first although
    # the Bears beat them; Cats and Dogs have one each: board points again (5 to 2).
    assert table == [(1, "Aces", 2, 6), (2, "Bears", 2, 5), (3, "Cats", 1, 5), (4, "Dogs", 1, 2)]
    assert Match.objects.filter(event_link__tournament=tournament).count() == 18


def test_team_standings_break_equal_wins_and_board_points_by_head_to_head(organiser):
    tournament, _players, (aces, bears, cats, dogs) = team_event(
        organiser, format=Tournament.Format.ROUND_ROBIN, lengths={"rounds": [1]})
    results = {(aces, dogs): 2, (aces, cats): 2, (bears, aces): 2, (cats, bears): 2, (bears, dogs): 2,
               (dogs, cats): 3}
    for _ in (1, 2, 3):
        for (first, second), won in results.items():
            row = team_pairing(tournament, first, second)
            if BoardMatch.objects.filter(pairing=row, match__status=Match.Status.SCHEDULED).count() == 3:
                play_team_match(tournament, first, second, won)
    table = [(r.place, r.entrant.name, r.wins, r.points_for) for r in team_standings(tournament=tournament)]
    # Aces and Bears: two wins and five boards each; the Bears beat the Aces. Dogs before Cats on
    # board points (5 to 3).
    assert table == [(1, "Bears", 2, 5), (2, "Aces", 2, 5), (3, "Dogs", 1, 5), (4, "Cats", 1, 3)]


@pytest.mark.parametrize("format_", [Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN])
def test_a_level_team_match_shows_no_winner_on_the_rounds_of_a_swiss_or_round_robin(organiser, format_):
    tournament, _players, _teams = team_event(organiser, format=format_, board_count=2, swiss_rounds=3)
    level, won = Pairing.objects.filter(tournament=tournament, round_number=1).order_by("key")[:2]
    play_board(level, 1, team_of(level.entry0_id))
    play_board(level, 2, team_of(level.entry1_id))
    play_board(won, 1, team_of(won.entry1_id))
    play_board(won, 2, team_of(won.entry1_id))
    (first, *_later) = tournament_rounds(tournament=tournament)
    shown = {p.key: p for p in first.pairings}
    assert shown[level.key].winner is None  # not the winner of board 1
    assert shown[level.key].score == (1, 1)
    assert shown[won.key].winner == won.entry1_id


# --- finishing a Swiss or round robin of teams ---------------------------------------------------


def test_a_swiss_of_teams_is_not_finished_while_a_team_match_is_undecided(organiser):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.SWISS, swiss_rounds=2,
                                              lengths={"rounds": [1]})
    first, second = round_rows(tournament, 1)
    play_team_match(tournament, winner_of(first), loser_of(first), 2)
    play_board(second, 1, winner_of(second))  # one board of three: the team match is undecided
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "event_unfinished"
    assert caught.value.message.startswith("1 match without a confirmed result, first the match ")
    assert caught.value.message.endswith(" (round 1)") and second.key not in caught.value.message  # named, not keyed
    assert snapshot(tournament) == before
    play_board(second, 2, winner_of(second))  # 2 of 3: decided, board 3 may still be played
    assert tournament_finish(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.FINISHED


def test_a_round_robin_of_teams_is_not_finished_with_a_round_still_to_play(organiser):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.ROUND_ROBIN,
                                              lengths={"rounds": [1]})
    for row in round_rows(tournament, 1):
        play_team_match(tournament, winner_of(row), loser_of(row), 3)
    # Round 2's boards now exist (the round robin starts its rounds one at a time); none is played.
    assert all(BoardMatch.objects.filter(pairing=row).count() == 3 for row in round_rows(tournament, 2))
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "event_unfinished" and "2 matches without a confirmed result" in caught.value.message
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


def test_a_round_robin_of_teams_is_not_finished_while_a_round_has_no_boards_yet(organiser, monkeypatch):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.ROUND_ROBIN,
                                              lengths={"rounds": [1]})
    # The next round not started (its boards not created yet): only the finish check stands between
    # the organiser and a table with two rounds missing.
    monkeypatch.setattr(team_services, "round_robin_start_next", lambda *args, **kwargs: None)
    for row in round_rows(tournament, 1):
        play_team_match(tournament, winner_of(row), loser_of(row), 2)
    assert not BoardMatch.objects.filter(pairing__tournament=tournament, pairing__round_number__gt=1).exists()
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "event_unfinished"
    assert "4 team matches not started yet" in caught.value.message
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


# --- concurrency -------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_boards_confirmed_at_once_decide_the_team_match_once_and_create_the_final_once(monkeypatch):
    run_tasks_inline(monkeypatch, run=False)  # nothing reaches the broker
    organiser = make_organiser()
    tournament, _players, (aces, bears, cats, dogs) = team_event(organiser, lengths={"main": [3]})
    play_team_match(tournament, bears, cats, 2)
    semi = team_pairing(tournament, aces, dogs)
    pending = []
    for board in (1, 2):
        match = board_match(semi, board)
        aces_side = 0 if semi.entry0_id == aces.entry.pk else 1
        score = [0, 0]
        score[aces_side] = match.length
        match_report(match_id=match.pk, user=match.side0.player_a.user, claim=claim_make(match, tuple(score), None))
        pending.append(match)
    calls = [lambda m=m: match_confirm(match_id=m.pk, user=m.side1.player_a.user) for m in pending]
    assert _race(calls) == []
    for match in pending:
        match.refresh_from_db()
        assert match.status == Match.Status.CONFIRMED
    card = team_match_card(tournament=tournament, pairing_id=semi.pk)
    assert (card.winner, card.decided) == (aces.entry.pk, True)
    final = Pairing.objects.get(tournament=tournament, key="main-2-1")
    assert {final.entry0_id, final.entry1_id} == {aces.entry.pk, bears.entry.pk}
    assert BoardMatch.objects.filter(pairing=final).count() == 3
    assert Match.objects.filter(event_link__tournament=tournament).count() == 9
    assert BoardOrder.objects.filter(team=aces, round_number=2).count() == 1


# --- the team list -------------------------------------------------------------------------------------


def test_the_team_list_shows_captains_members_reserves_and_orders(two_teams):
    tournament, players, aces, _bears, _rupert = two_teams
    alice, bob, carol = players[:3]
    board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=1,
                       player_ids=[carol.pk, bob.pk, alice.pk], user=alice.user)
    views = {v.name: v for v in team_list(tournament=tournament)}
    aces_view = views["Aces"]
    assert aces_view.captain == "Alice" and aces_view.entry_id == aces.entry.pk
    assert [(m.name, m.reserve, m.captain) for m in aces_view.members] == [
        ("Alice", False, True), ("Bob", False, False), ("Carol", False, False), ("Rupert", True, False)]
    assert [(o.round_number, [n for _, n in o.players], o.locked) for o in aces_view.board_orders] == [
        (1, ["Carol", "Bob", "Alice"], False)]


# --- consultation pairs seen from each member ----------------------------------------------------------


def test_each_member_of_a_pair_sees_the_pairs_next_match_and_its_results(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.PAIRS, lengths={"main": [3, 5]})
    alice, bob, carol, dave, erin, frank, grace, heidi = cast(8)
    enter(tournament, [(alice, bob), (carol, dave), (erin, frank), (grace, heidi)])
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    mine, partners = (player_next_match(tournament=tournament, player=p) for p in (alice, bob))
    assert mine == partners and mine.key == "main-1-1" and mine.status == "scheduled"
    assert {pid for pid, _ in mine.entrant.players} == {alice.pk, bob.pk}
    before = snapshot(tournament)
    assert player_next_match(tournament=tournament, player=carol) != mine
    assert snapshot(tournament) == before
    play(tournament, "main-1-1", bob)  # bob wins for the pair
    opponents = player_next_match(tournament=tournament, player=alice)
    assert opponents == player_next_match(tournament=tournament, player=bob)
    assert (opponents.key, opponents.opponent, opponents.waiting_for) == ("main-2-1", None, "winner of main-1-2")
    assert player_next_match(tournament=tournament, player=grace) is None  # grace and heidi lost to them
    play(tournament, "main-1-2", carol)
    final = player_next_match(tournament=tournament, player=alice)
    assert final == player_next_match(tournament=tournament, player=bob)
    assert final.opponent.name == player_next_match(tournament=tournament, player=dave).entrant.name
    play(tournament, "main-2-1", alice)
    assert player_next_match(tournament=tournament, player=alice) is None
    champion = tournament_placings(tournament=tournament)[0]
    assert champion.label == "1" and {pid for pid, _ in champion.entrant.players} == {alice.pk, bob.pk}
