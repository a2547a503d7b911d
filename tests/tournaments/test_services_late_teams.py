"""A team entered late (``entries.team_add_late``) where a late side would enter: the last seed, the
first unused bye of a bracket (resetting what it fed), the next round of a Swiss. Refused by a round
robin, a full bracket, a bye whose team match has started, before the draw and in an individual
event; validated like any team and entered by the organiser only; a refusal changes nothing."""

from __future__ import annotations

import pytest

from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match
from matches.services.reporting import claim_make, match_report
from tests.tournaments.factories import cast, closed, player, snapshot
from tests.tournaments.factories_teams import (
    board_match,
    non_member,
    play_board,
    team_event,
    team_of,
    team_snapshot,
)
from tournaments.models import BoardMatch, BoardOrder, Entry, Pairing, Team, TeamMember, Tournament
from tournaments.services import entry_check_in, tournament_draw, tournament_pair_next_round
from tournaments.services.entries import team_add_late
from tournaments.services.teams import board_order_submit, team_create

pytestmark = pytest.mark.django_db



def two_board_bracket(organiser, count: int = 5):
    """A single elimination on two boards of ``count`` two-player teams, drawn by rating: the
    Aces (alice, bob: seed 1), Bears (carol, dave), Cats (erin, frank), Dogs (grace, heidi),
    Eels (ivan, judy: seed 5); mallory and niaj are left for a late team. With five teams in
    eight places seeds 1 to 3 have byes, and the Bears (seed 2) already meet the Cats (seed 3)
    in main-2-2."""
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS, board_count=2)
    players = cast(12)
    teams = []
    for k, name in enumerate(("Aces", "Bears", "Cats", "Dogs", "Eels")[:count]):
        team = team_create(tournament_id=tournament.pk, user=organiser, name=name, captain_id=players[2 * k].pk,
                           member_ids=[players[2 * k + 1].pk])
        entry_check_in(tournament_id=tournament.pk, entry_id=team.entry.pk, user=organiser)
        teams.append(team)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    return tournament, players, teams


def row(tournament: Tournament, key: str) -> Pairing:
    return Pairing.objects.get(tournament=tournament, key=key)


def everything(tournament: Tournament) -> dict:
    return {**snapshot(tournament), **team_snapshot(tournament)}


# --- a team entered late ----------------------------------------------------------------------


def test_a_late_team_takes_the_last_seed_and_fills_the_first_unused_bye_resetting_what_it_fed(organiser):
    tournament, players, (_aces, bears, cats, _dogs, _eels) = two_board_bracket(organiser)
    mallory, niaj = players[10], players[11]
    rupert = non_member()
    fed = row(tournament, "main-2-2")
    assert {team_of(fed.entry0_id), team_of(fed.entry1_id)} == {bears, cats}
    old_boards = list(BoardMatch.objects.filter(pairing=fed).values_list("match_id", flat=True))
    assert len(old_boards) == 2 and BoardOrder.objects.get(team=bears, round_number=2).locked

    team = team_add_late(tournament_id=tournament.pk, user=organiser, name="Foxes", captain_id=mallory.pk,
                         member_ids=[niaj.pk], reserve_ids=[rupert.pk])

    entry = Entry.objects.get(team=team)
    assert (entry.seed, entry.late, entry.status) == (6, True, Entry.Status.CHECKED_IN)
    assert team.captain == mallory
    assert [(m.player.display_name, m.reserve) for m in TeamMember.objects.filter(team=team).order_by("id")] == [
        ("Mallory", False), ("Niaj", False), ("Rupert", True)]
    filled = row(tournament, "main-1-4")  # seed 6 stands opposite seed 3, the Cats
    assert (team_of(filled.entry0_id), team_of(filled.entry1_id)) == (cats, team)
    assert BoardMatch.objects.filter(pairing=filled).count() == 2
    fed.refresh_from_db()
    assert (fed.entry0_id, fed.entry1_id) == (None, None)
    assert not BoardMatch.objects.filter(pairing=fed).exists()
    assert not Match.objects.filter(pk__in=old_boards).exists()
    # The Bears' round 2 has not started any more: their captain may set its order again.
    order = board_order_submit(tournament_id=tournament.pk, team_id=bears.pk, round_number=2,
                               player_ids=[players[3].pk, players[2].pk], user=players[2].user)
    assert (order.players, order.locked) == ([players[3].pk, players[2].pk], False)


def test_a_late_team_joins_a_swiss_from_the_next_round(organiser):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    olivia, peggy, sybil = player("olivia", 2500), player("peggy"), player("sybil")
    team = team_add_late(tournament_id=tournament.pk, user=organiser, name="Foxes", captain_id=olivia.pk,
                         member_ids=[peggy.pk, sybil.pk])
    entry = Entry.objects.get(team=team)
    assert (entry.seed, entry.late) == (5, True)  # the best rating does not matter: the last seed
    assert not Pairing.objects.filter(tournament=tournament).filter(entry0=entry).exists()
    assert not Pairing.objects.filter(tournament=tournament).filter(entry1=entry).exists()
    for pairing in Pairing.objects.filter(tournament=tournament, round_number=1):
        for board in range(1, 4):
            play_board(pairing, board, team_of(pairing.entry0_id))
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    rows = Pairing.objects.filter(tournament=tournament, round_number=2)
    mine = [p for p in rows if entry.pk in (p.entry0_id, p.entry1_id)]
    assert len(mine) == 1
    if mine[0].entry1_id is not None:  # a team match (not the bye): its boards with the Foxes' members
        assert BoardMatch.objects.filter(pairing=mine[0]).count() == 3


def test_a_round_robin_refuses_a_late_team_with_the_reason_for_sides_and_changes_nothing(organiser):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.ROUND_ROBIN)
    olivia, peggy, sybil = player("olivia"), player("peggy"), player("sybil")
    before = everything(tournament)
    with pytest.raises(Conflict) as caught:
        team_add_late(tournament_id=tournament.pk, user=organiser, name="Foxes", captain_id=olivia.pk,
                      member_ids=[peggy.pk, sybil.pk])
    assert caught.value.code == "late_entry_closed" and "round robin" in caught.value.message
    assert everything(tournament) == before


def test_a_late_team_is_refused_once_the_team_match_its_bye_fed_has_started(organiser):
    tournament, players, _teams = two_board_bracket(organiser)
    board = board_match(row(tournament, "main-2-2"), 1)
    match_report(match_id=board.pk, user=board.side0.player_a.user, claim=claim_make(board, (board.length, 0), None))
    before = everything(tournament)
    with pytest.raises(Conflict) as caught:
        team_add_late(tournament_id=tournament.pk, user=organiser, name="Foxes", captain_id=players[10].pk,
                      member_ids=[players[11].pk])
    assert caught.value.code == "late_entry_closed" and "the match Bears v Cats (a semi-final)" in caught.value.message
    assert "main-" not in caught.value.message
    assert everything(tournament) == before


def test_a_late_team_into_a_full_bracket_is_refused_and_changes_nothing(organiser):
    tournament, _players, _teams = team_event(organiser)  # four teams in four places
    olivia, peggy, sybil = player("olivia"), player("peggy"), player("sybil")
    before = everything(tournament)
    with pytest.raises(Conflict) as caught:
        team_add_late(tournament_id=tournament.pk, user=organiser, name="Foxes", captain_id=olivia.pk,
                      member_ids=[peggy.pk, sybil.pk])
    assert caught.value.code == "late_entry_closed" and "bracket is full" in caught.value.message
    assert everything(tournament) == before


@pytest.mark.parametrize("case, error, code", [
    ("captain_himself", NotAllowed, "not_organiser"),
    ("named_twice", DomainError, "bad_team"),
    ("no_name", DomainError, "bad_team"),
    ("too_small", DomainError, "team_too_small"),
    ("in_another_team", Conflict, "already_in_team"),
    ("name_taken", Conflict, "team_name_taken"),
    ("unknown_player", DomainError, "unknown_player"),
])
def test_a_late_team_is_validated_like_any_team_and_entered_by_the_organiser_only(organiser, case, error, code):
    tournament, players, _teams = two_board_bracket(organiser)
    mallory, niaj = players[10], players[11]
    args = {"user": organiser, "name": "Foxes", "captain_id": mallory.pk, "member_ids": [niaj.pk]}
    if case == "captain_himself":
        args["user"] = mallory.user
    elif case == "named_twice":
        args["member_ids"] = [niaj.pk, niaj.pk]
    elif case == "no_name":
        args["name"] = "  "
    elif case == "too_small":
        args["member_ids"] = []
    elif case == "in_another_team":
        args["member_ids"] = [players[0].pk]
    elif case == "name_taken":
        args["name"] = "aces"
    elif case == "unknown_player":
        args["member_ids"] = [10**9]
    before = everything(tournament)
    with pytest.raises(error) as caught:
        team_add_late(tournament_id=tournament.pk, **args)
    assert caught.value.code == code
    assert everything(tournament) == before


def test_a_late_team_needs_the_draw_and_a_team_event(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS, board_count=2)
    alice, bob = cast(2)
    with pytest.raises(Conflict) as caught:
        team_add_late(tournament_id=tournament.pk, user=organiser, name="Foxes", captain_id=alice.pk,
                      member_ids=[bob.pk])
    assert caught.value.code == "not_drawn"
    singles = closed(organiser=organiser)
    with pytest.raises(DomainError) as caught:
        team_add_late(tournament_id=singles.pk, user=organiser, name="Foxes", captain_id=alice.pk,
                      member_ids=[bob.pk])
    assert caught.value.code == "not_team_event"
    assert not Team.objects.exists() and not Entry.objects.exists()
