"""A team event's teams with their members and board orders, the players still free to join a
team, and a team match's card (its boards)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext

from matches.models import Player
from tournaments import formats
from tournaments.draw import DRAW
from tournaments.models import BoardMatch, Pairing, Team, TeamMember, Tournament
from tournaments.selectors.event import Entrant, entrant_of
from tournaments.services import state

# --- team events (teams, board orders, team match cards, team tables) -----------------------------


@dataclass(frozen=True)
class TeamMemberView:
    player_id: int
    name: str
    reserve: bool
    captain: bool


@dataclass(frozen=True)
class BoardOrderView:
    """A team's board order for a round: ``players`` ``(id, name)``, board 1 first."""

    round_number: int
    players: tuple[tuple[int, str], ...]
    locked: bool


@dataclass(frozen=True)
class TeamView:
    team_id: int
    name: str
    entry_id: int | None
    entry_status: str | None
    seed: int | None
    captain_id: int
    captain: str
    members: tuple[TeamMemberView, ...]
    board_orders: tuple[BoardOrderView, ...]


def _team_views(teams) -> tuple[TeamView, ...]:
    teams = list(teams)
    names = dict(
        TeamMember.objects.filter(team__in=teams).values_list("player_id", "player__display_name")
    )
    out = []
    for team in teams:
        members = tuple(
            TeamMemberView(m.player_id, m.player.display_name, m.reserve, m.player_id == team.captain_id)
            for m in sorted(team.members.all(), key=lambda m: (m.reserve, m.pk))
        )
        orders = tuple(
            BoardOrderView(o.round_number, tuple((p, names.get(p) or gettext("player %(id)s") % {"id": p})
                                                 for p in o.players), o.locked)
            for o in sorted(team.board_orders.all(), key=lambda o: o.round_number)
        )
        entry = getattr(team, "entry", None)
        out.append(TeamView(team.pk, team.name, entry.pk if entry else None, entry.status if entry else None,
                            entry.seed if entry else None, team.captain_id, team.captain.display_name, members,
                            orders))
    return tuple(out)


def _teams(tournament: Tournament):
    return (Team.objects.filter(tournament=tournament).select_related("captain", "entry")
            .prefetch_related("members__player", "board_orders").order_by("name"))


def team_list(*, tournament: Tournament) -> tuple[TeamView, ...]:
    """The event's teams by name, each with its captain, members (players before reserves, in
    the order they joined) and board orders. Five queries whatever the number of teams."""
    return _team_views(_teams(tournament))


def team_get(*, tournament: Tournament, team_id: int) -> TeamView:
    """One team of the event (as :func:`team_list`); raises Team.DoesNotExist."""
    views = _team_views(_teams(tournament).filter(pk=team_id))
    if not views:
        raise Team.DoesNotExist(f"team {team_id} is not a team of this tournament")
    return views[0]


def team_member_candidates(*, tournament: Tournament) -> QuerySet[Player]:
    """The players who may still join a team of ``tournament``: every player in none of its
    teams, by name."""
    return (Player.objects.exclude(pk__in=TeamMember.objects.filter(tournament=tournament).values("player_id"))
            .order_by("display_name"))


@dataclass(frozen=True)
class BoardView:
    """One board of a team match: the players (top team's first), the match's status and score
    (top team's player first), and the winning team's entry id once confirmed."""

    board: int
    match_id: int
    top_player: tuple[int, str]
    bottom_player: tuple[int, str]
    status: str
    score: tuple[int, int]
    winner: int | None


@dataclass(frozen=True)
class TeamMatchCard:
    """A team match: the two teams, each board, and the team result (boards won; ``winner`` the
    winning team's entry id, None while undecided; ``drawn`` for a level match of even boards)."""

    pairing_id: int
    key: str
    flight: str
    round: int
    length: int
    top: Entrant | None
    bottom: Entrant | None
    boards: tuple[BoardView, ...]
    top_points: int
    bottom_points: int
    winner: int | None
    drawn: bool
    decided: bool


def team_match_card(*, tournament: Tournament, pairing_id: int) -> TeamMatchCard:
    """The card of the team match ``pairing_id`` of ``tournament`` (before its boards exist:
    no boards, undecided). Raises Pairing.DoesNotExist for a pairing not of this team event."""
    pairing = (Pairing.objects.filter(tournament=tournament, tournament__kind=Tournament.Kind.TEAMS)
               .select_related("entry0__team", "entry1__team").get(pk=pairing_id))
    boards = list(BoardMatch.objects.filter(pairing=pairing).select_related("match__side0__player_a",
                                                                            "match__side1__player_a"))
    pairing.board_rows = boards
    top = entrant_of(pairing.entry0) if pairing.entry0_id else None
    bottom = entrant_of(pairing.entry1) if pairing.entry1_id else None
    views = tuple(
        BoardView(b.board, b.match_id, (b.match.side0.player_a_id, b.match.side0.player_a.display_name),
                  (b.match.side1.player_a_id, b.match.side1.player_a.display_name), b.match.status,
                  (b.match.score0, b.match.score1), state.board_winner(pairing, b))
        for b in boards
    )
    if boards:
        result = state.team_result(pairing)
        winner = formats.format_of(tournament).team_card_winner(pairing, result)
        drawn = winner is DRAW
        winner = None if drawn else winner
        return TeamMatchCard(pairing.pk, pairing.key, pairing.flight, pairing.round_number, pairing.length, top,
                             bottom, views, result.top_points, result.bottom_points, winner, drawn,
                             result.winner is not None)
    return TeamMatchCard(pairing.pk, pairing.key, pairing.flight, pairing.round_number, pairing.length, top, bottom,
                         (), 0, 0, None, False, False)
