"""Helpers for team events: the named cast of four teams, entering and drawing them through the
real services, and playing boards through the real reporting services."""

from __future__ import annotations

from matches.models import Match
from matches.services.reporting import claim_make, match_report
from tests.tournaments.factories import cast, closed, player
from tournaments.models import BoardMatch, BoardOrder, Entry, Pairing, Team, TeamMember, Tournament
from tournaments.services import entry_check_in, tournament_draw
from tournaments.services.teams import team_create

#: The four teams of the cast: (name, captain, the other two members), rated so that the Aces are
#: seed 1 (alice 2000 ... niaj 1890).
TEAMS = (("Aces", 0, (1, 2)), ("Bears", 3, (4, 5)), ("Cats", 6, (7, 8)), ("Dogs", 9, (10, 11)))


def team_cast():
    """Twelve players: alice, bob, carol (Aces, alice captains), dave, erin, frank (Bears, dave
    captains), grace, heidi, ivan (Cats), judy, mallory, niaj (Dogs)."""
    return cast(12)


def enter_teams(tournament: Tournament, players, count: int = 4, *, check_in: bool = True) -> list[Team]:
    """The organiser enters the first ``count`` teams of the cast; their captains check them in."""
    teams = []
    for name, captain, others in TEAMS[:count]:
        team = team_create(tournament_id=tournament.pk, user=tournament.organiser, name=name,
                           captain_id=players[captain].pk, member_ids=[players[i].pk for i in others])
        if check_in:
            entry_check_in(tournament_id=tournament.pk, entry_id=team.entry.pk, user=players[captain].user)
        teams.append(team)
    return teams


def team_event(organiser, *, count: int = 4, draw: bool = True, **rules):
    """A team event (entries closed) of the first ``count`` cast teams, drawn unless told."""
    rules.setdefault("kind", Tournament.Kind.TEAMS)
    tournament = closed(organiser=organiser, **rules)
    players = team_cast()
    teams = enter_teams(tournament, players, count)
    if draw:
        tournament_draw(tournament_id=tournament.pk, user=organiser)
        tournament.refresh_from_db()
    return tournament, players, teams


def non_member():
    """Rupert, a player in no team."""
    return player("rupert", 1400.0)


def team_pairing(tournament: Tournament, first: Team, second: Team) -> Pairing:
    """The pairing in which two teams meet."""
    entries = {first.entry.pk, second.entry.pk}
    for row in Pairing.objects.filter(tournament=tournament).order_by("round_number", "id"):
        if {row.entry0_id, row.entry1_id} == entries:
            return row
    raise AssertionError(f"{first} and {second} do not meet")


def board_match(row: Pairing, board: int) -> Match:
    return BoardMatch.objects.select_related("match__side0__player_a", "match__side1__player_a").get(
        pairing=row, board=board).match


def play_board(row: Pairing, board: int, winner: Team, loser_points: int = 0) -> Match:
    """Both players of board ``board`` report ``winner``'s player winning (the second report
    confirms it), through the real reporting services."""
    match = board_match(row, board)
    winner_entry = Entry.objects.get(team=winner).pk
    side = 0 if row.entry0_id == winner_entry else 1
    score = [loser_points, loser_points]
    score[side] = match.length
    for who in (match.side0, match.side1):
        match_report(match_id=match.pk, user=who.player_a.user, claim=claim_make(match, tuple(score), None))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED, match.status
    return match


def play_team_match(tournament: Tournament, first: Team, second: Team, first_boards: int) -> Pairing:
    """Every board of the team match is played: ``first`` wins the first ``first_boards`` boards,
    ``second`` the others."""
    row = team_pairing(tournament, first, second)
    for board in range(1, tournament.board_count + 1):
        play_board(row, board, first if board <= first_boards else second)
    return row


def team_snapshot(tournament: Tournament) -> dict:
    """The team rows a refused team service must leave as they were."""
    return {
        "teams": list(Team.objects.filter(tournament=tournament).order_by("pk").values()),
        "members": list(TeamMember.objects.filter(tournament=tournament).order_by("pk").values()),
        "orders": list(BoardOrder.objects.filter(team__tournament=tournament).order_by("pk")
                       .values("pk", "team", "round_number", "players", "locked")),
        "entries": list(Entry.objects.filter(tournament=tournament).order_by("pk").values()),
        "boards": list(BoardMatch.objects.filter(pairing__tournament=tournament).order_by("pk").values()),
        "pairings": list(Pairing.objects.filter(tournament=tournament).order_by("pk").values()),
    }


def round_rows(tournament: Tournament, number: int) -> list[Pairing]:
    """The team matches (not the bye) of round ``number`` of a Swiss or round robin, by key."""
    return list(Pairing.objects.filter(tournament=tournament, round_number=number, entry1__isnull=False)
                .order_by("key"))


def winner_of(row: Pairing):
    """The team of the pairing's first entry (it wins the boards a test gives it)."""
    return row.entry0.team


def loser_of(row: Pairing):
    return row.entry1.team


def team_of(entry_id) -> Team | None:
    """The team of a pairing's entry (None for an empty side)."""
    return Team.objects.get(entry__pk=entry_id) if entry_id is not None else None


def played_round_robin(organiser):
    """The round robin of four teams played out (as in test_services_teams): Aces and Bears two team
    wins each, the Bears beat the Aces but the Aces have more board points (6 to 5); Cats 5 board
    points, Dogs 2."""
    tournament, _players, (aces, bears, cats, dogs) = team_event(
        organiser, format=Tournament.Format.ROUND_ROBIN, lengths={"rounds": [1]})
    results = {(aces, dogs): 3, (bears, cats): 2, (aces, cats): 2, (dogs, bears): 2, (bears, aces): 2,
               (cats, dogs): 3}
    for number in (1, 2, 3):
        for (first, second), won in results.items():
            if team_pairing(tournament, first, second).round_number == number:
                play_team_match(tournament, first, second, won)
    return tournament
