"""N-board team events (RULES.md §7): teams, their members and reserves, board orders, and the
team matches of the draw.

Decisions:

- *Who enters a team.* The organiser, any time before the draw; or the captain himself
  (self-service) while the entries are open. The team's ``Entry`` is created with it and, like
  any entry, must check in (the captain or the organiser checks it in) to be in the draw.
- *Who is in it.* A captain (always a member, never a reserve), members and reserves: at least
  ``board_count`` players in all. The list is fixed at the draw: members are added or removed
  (by the captain or the organiser) only before it. Reserves substitute *between rounds* through
  the board order, which may name any member or reserve.
- *Board orders.* The captain (or the organiser) submits, for a round, exactly ``board_count``
  different players of his team, board 1 first; submitting again replaces it. An order is
  locked when the round starts for the team: when its team match of that round is created (and,
  in a Swiss or round robin, once the round's matches are created even if the team has no match
  in it). A team without an order for the round plays its latest earlier order, else its members
  in entry order (players before reserves, each in the order they joined, the captain first):
  the order used is stored, locked, so the card shows it and no one can change it afterwards.
  When a bracket correction (or a late entrant filling a bye) resets a team match that had not
  started, the orders it locked are unlocked again, unless another team match of the team in
  that round still has its boards (``draw_sync.drop_matches``).
- *Late teams.* After the draw the organiser alone enters a team late
  (``entries.team_add_late``), validated as here, as the last seed: it enters where a late side
  would.
- *Team matches.* A pairing of two team entries has no match of its own: it has one
  ``BoardMatch`` (and one ``matches.Match``, with the event's length and rules) per board, board k
  being the players at board k of the two orders (board 1 v board 1, ...). The team with a
  majority of boards wins as soon as it has it (2 of 3); the remaining boards may still be played
  and count as board points. With an even number of boards a level match is a draw in a Swiss or
  round robin table; in a bracket the team that won board 1 goes on.
- *Advancement.* Every board match is reported and confirmed like any match; the confirmation
  hook (``advance.tournament_result_confirmed``) then recomputes the team match under the
  tournament's row lock, so two boards confirmed at the same moment decide it once and create
  the next pairing's boards once. A round robin of teams starts one round at a time (its boards
  are created when every team match of the previous round is decided), so captains can set the
  next round's order after seeing the last one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from core.text import name_clean
from matches.models import Player
from matches.services.matches import MatchSpec, match_create_many, player_for_user, sides_for_many
from tournaments import errors, formats
from tournaments.models import Acceptance, BoardMatch, BoardOrder, Entry, Pairing, Round, Team, TeamMember, Tournament

from . import state
from .acceptance import acceptances_by
from .audit import event_audit_record
from .clocks import event_match_clock
from .common import before_draw, runs, tournament_lock

# --- who acts ------------------------------------------------------------------------------------


def captains(entry: Entry, user) -> bool:
    """Whether ``user``'s player captains the team of ``entry``."""
    if entry.team_id is None:
        return False
    player = player_for_user(user)
    return player is not None and entry.team.captain_id == player.pk


def _captain_or_organiser(tournament: Tournament, team: Team, user) -> None:
    if runs(tournament, user):
        return
    player = player_for_user(user)
    if player is None or player.pk != team.captain_id:
        raise errors.not_captain()


def _team_event(tournament_id: int) -> Tournament:
    tournament = tournament_lock(tournament_id)
    formats.format_of(tournament).require_teams()
    return tournament


def _team(tournament: Tournament, team_id) -> Team:
    try:
        return Team.objects.select_related("captain").get(pk=int(team_id), tournament=tournament)
    except (Team.DoesNotExist, TypeError, ValueError):
        raise errors.unknown_team(team_id) from None


def _ids(field: str, values) -> list[int]:
    if values is None:
        return []
    if not isinstance(values, list | tuple):
        raise errors.bad_team(field, gettext("a list of player ids"))
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool):
            raise errors.unknown_player(value)
    return list(values)


def _player_name(player_id) -> str | None:
    """A player's display name for a refusal that names him (None: no such player)."""
    if not isinstance(player_id, int) or isinstance(player_id, bool):
        return None
    return Player.objects.filter(pk=player_id).values_list("display_name", flat=True).first()


def _players(ids: Sequence[int]) -> dict[int, Player]:
    found = Player.objects.in_bulk(list(ids))
    for player_id in ids:
        if player_id not in found:
            raise errors.unknown_player(player_id)
    return found


def _not_in_a_team(tournament: Tournament, players) -> None:
    taken = (TeamMember.objects.filter(tournament=tournament, player__in=list(players))
             .select_related("team", "player").order_by("id").first())
    if taken is not None:
        raise errors.already_in_team(taken.player, taken.team.name)


# --- teams and members ---------------------------------------------------------------------------


@transaction.atomic
def team_create(
    *, tournament_id: int, user, name: str, captain_id: int, member_ids: Sequence[int] = (),
    reserve_ids: Sequence[int] = (),
) -> Team:
    """Enter a team: the organiser (before the draw), or its captain himself while the entries
    are open. Creates the ``Team``, its members (the captain first, then ``member_ids`` in order,
    then the reserves ``reserve_ids``) and its ``Entry`` (entered; it must check in).

    Raises DomainError ``not_team_event``, ``bad_team`` (an empty or too long name, a captain
    among the reserves, a player named twice), ``unknown_player``, ``team_too_small`` (fewer
    players than boards); NotAllowed ``not_captain`` (neither the organiser nor the captain
    entering his own team); Conflict ``entries_closed`` (self-service after the entries close),
    ``already_drawn``, ``tournament_finished``, ``team_name_taken``, ``already_in_team``.
    Nothing changes on failure. Audited as ``team.created``.
    """
    tournament = _team_event(tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if not before_draw(tournament):
        raise errors.already_drawn()
    if not runs(tournament, user):
        player = player_for_user(user)
        if player is None or player.pk != captain_id:
            raise errors.not_entrant_captain()
        if tournament.status != Tournament.Status.OPEN:
            raise errors.entries_closed()
    checked = team_check(tournament, name=name, captain_id=captain_id, member_ids=member_ids,
                         reserve_ids=reserve_ids)
    team = team_write(tournament, checked, entered_by=user)
    event_audit_record("team.created", actor=user, tournament=tournament, obj=team, after=team_summary(team, checked))
    acceptances_by(tournament, team_players(team), user, Acceptance.How.SIGNED_UP)  # the captain; staff for all
    return team


def team_players(team: Team) -> list[Player]:
    """The team's players (members and reserves), as rows."""
    return list(Player.objects.filter(team_memberships__team=team))


def team_summary(team: Team, checked: CheckedTeam) -> dict:
    """What the audit log keeps of a new team: its name, entry, captain, members and reserves (ids)."""
    return {"team": team.pk, "name": team.name, "entry": team.entry.pk, "captain": checked.captain_id,
            "members": checked.members, "reserves": checked.reserves}


@dataclass(frozen=True)
class CheckedTeam:
    """A team that passed :func:`team_check`: its name, its members (the captain first), its
    reserves, and the players by id."""

    name: str
    captain_id: int
    members: list[int]
    reserves: list[int]
    found: dict[int, Player]


def team_check(tournament: Tournament, *, name, captain_id, member_ids, reserve_ids) -> CheckedTeam:
    """The validation of a new team (:func:`team_create`, and a late team), writing nothing.

    Raises DomainError ``bad_team``, ``unknown_player``, ``team_too_small``; Conflict
    ``team_name_taken``, ``already_in_team``."""
    name = name_clean(name, field="name", refuse=errors.bad_team) if isinstance(name, str) else ""
    if not name:
        raise errors.bad_team("name", gettext("a team needs a name"))
    if len(name) > 120:
        raise errors.bad_team("name", gettext("at most 120 characters"))
    if not isinstance(captain_id, int) or isinstance(captain_id, bool):
        raise errors.unknown_player(captain_id)
    members = _ids("member_ids", member_ids)
    reserves = _ids("reserve_ids", reserve_ids)
    if captain_id in reserves:
        raise errors.bad_team("reserve_ids", gettext("the captain plays: he is a member, not a reserve"))
    members = [captain_id] + [m for m in members if m != captain_id]
    everyone = members + reserves
    twice = next((p for i, p in enumerate(everyone) if p in everyone[:i]), None)
    if twice is not None:
        named = _player_name(twice)
        if named is None:
            raise errors.unknown_player(twice)
        raise errors.bad_team("member_ids", gettext("%(name)s is named twice") % {"name": named})
    found = _players(everyone)
    if len(everyone) < tournament.board_count:
        raise errors.team_too_small(len(everyone), tournament.board_count)
    if Team.objects.filter(tournament=tournament, name__iexact=name).exists():
        raise errors.team_name_taken(name)
    _not_in_a_team(tournament, everyone)
    return CheckedTeam(name, captain_id, members, reserves, found)


def team_write(tournament: Tournament, checked: CheckedTeam, **entry_fields) -> Team:
    """Create the checked team, its members and reserves, and its ``Entry`` (with
    ``entry_fields``: a late team's seed, ``late`` and status). Raises Conflict
    ``team_name_taken`` (only if the tournament's lock were skipped)."""
    found, name = checked.found, checked.name
    try:
        with transaction.atomic():
            team = Team.objects.create(tournament=tournament, name=name, captain=found[checked.captain_id])
            TeamMember.objects.bulk_create(
                [TeamMember(team=team, tournament=tournament, player=found[p], reserve=False) for p in checked.members]
                + [TeamMember(team=team, tournament=tournament, player=found[p], reserve=True)
                   for p in checked.reserves]
            )
            Entry.objects.create(tournament=tournament, team=team, **entry_fields)
    except IntegrityError:  # the unique constraints: only reachable if the lock were skipped
        raise errors.team_name_taken(name) from None
    return team


@transaction.atomic
def team_member_add(*, tournament_id: int, team_id: int, user, player_id: int, reserve: bool = False) -> TeamMember:
    """The captain or the organiser adds a member (or a reserve) to the team, before the draw.

    Raises DomainError ``not_team_event``, ``unknown_team``, ``unknown_player``; NotAllowed
    ``not_captain``; Conflict ``already_drawn`` (the list is fixed at the draw),
    ``tournament_finished``, ``already_in_team``. Nothing changes on failure. Audited as
    ``team.member_added``.
    """
    tournament = _team_event(tournament_id)
    team = _team(tournament, team_id)
    _captain_or_organiser(tournament, team, user)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if not before_draw(tournament):
        raise errors.members_fixed()
    if not isinstance(player_id, int) or isinstance(player_id, bool):
        raise errors.unknown_player(player_id)
    player = _players([player_id])[player_id]
    _not_in_a_team(tournament, [player_id])
    member = TeamMember.objects.create(team=team, tournament=tournament, player=player, reserve=bool(reserve))
    acceptances_by(tournament, [player], user, Acceptance.How.SIGNED_UP)
    event_audit_record("team.member_added", actor=user, tournament=tournament, obj=team,
                       after={"team": team.name, "player": player.pk, "name": player.display_name, "reserve": member.reserve})
    return member


@transaction.atomic
def team_member_remove(*, tournament_id: int, team_id: int, user, player_id: int) -> None:
    """The captain or the organiser removes a member (or reserve) from the team, before the draw.
    His place in any board order the team has submitted is dropped with those orders.

    Raises DomainError ``not_team_event``, ``unknown_team``, ``not_a_member``,
    ``captain_required`` (the captain stays), ``team_too_small`` (fewer players than boards
    would remain); NotAllowed ``not_captain``; Conflict ``already_drawn``,
    ``tournament_finished``. Nothing changes on failure. Audited as ``team.member_removed``
    (the board orders dropped with him listed by round).
    """
    tournament = _team_event(tournament_id)
    team = _team(tournament, team_id)
    _captain_or_organiser(tournament, team, user)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if not before_draw(tournament):
        raise errors.members_fixed()
    member = TeamMember.objects.filter(team=team, player_id=player_id).first() if isinstance(player_id, int) else None
    if member is None:
        raise errors.not_a_member(player_id, team, _player_name(player_id))
    if player_id == team.captain_id:
        raise errors.captain_required(team)
    left = TeamMember.objects.filter(team=team).count() - 1
    if left < tournament.board_count:
        raise errors.team_too_small(left, tournament.board_count)
    before = {"team": team.name, "player": player_id, "name": member.player.display_name, "reserve": member.reserve}
    member.delete()
    stale = [o for o in BoardOrder.objects.filter(team=team) if player_id in o.players]
    BoardOrder.objects.filter(pk__in=[o.pk for o in stale]).delete()
    event_audit_record("team.member_removed", actor=user, tournament=tournament, obj=team, before=before,
                       after={"team": team.name, "board_orders_dropped": sorted(o.round_number for o in stale)})


# --- board orders --------------------------------------------------------------------------------


def _round_started(tournament: Tournament, team: Team, number: int) -> bool:
    if BoardOrder.objects.filter(team=team, round_number=number, locked=True).exists():
        return True
    return Round.objects.filter(tournament=tournament, number=number, started=True).exists()


@transaction.atomic
def board_order_submit(*, tournament_id: int, team_id: int, round_number: int, player_ids: Sequence[int], user
                       ) -> BoardOrder:
    """The team's captain (or the organiser) sets the team's board order for round
    ``round_number``: exactly ``board_count`` different players of the team (members or
    reserves), board 1 first. Submitting again before the round starts replaces the order.

    Raises DomainError ``not_team_event``, ``unknown_team``, ``bad_round``, ``bad_board_order``
    (not a list, a wrong count, a player on two boards), ``not_a_member`` (naming the player);
    NotAllowed ``not_captain`` (another captain, a member, anyone else); Conflict
    ``board_order_locked`` (the round has started for the team), ``tournament_finished``.
    Nothing changes on failure. Audited as ``board_order.submitted`` (with the order it replaces).
    """
    tournament = _team_event(tournament_id)
    team = _team(tournament, team_id)
    _captain_or_organiser(tournament, team, user)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if not isinstance(round_number, int) or isinstance(round_number, bool) or round_number < 1:
        raise errors.bad_round(round_number)
    if not isinstance(player_ids, list | tuple):
        raise errors.bad_board_order(gettext("a list of player ids, board 1 first"), field="player_ids")
    ids = list(player_ids)
    boards = tournament.board_count
    if len(ids) != boards:
        raise errors.bad_board_order(ngettext("exactly %(boards)d player (one per board), not %(count)d",
                                              "exactly %(boards)d players (one per board), not %(count)d", boards)
                                     % {"boards": boards, "count": len(ids)}, field="player_ids")
    members = set(TeamMember.objects.filter(team=team).values_list("player_id", flat=True))
    for board, player_id in enumerate(ids, start=1):
        if not isinstance(player_id, int) or isinstance(player_id, bool) or player_id not in members:
            raise errors.not_a_member(player_id, team, _player_name(player_id))
        if player_id in ids[:board - 1]:
            raise errors.bad_board_order(gettext("%(name)s is on two boards (%(first)d and %(board)d)")
                                         % {"name": _player_name(player_id), "first": ids.index(player_id) + 1,
                                            "board": board}, field="player_ids", board=board)
    if _round_started(tournament, team, round_number):
        raise errors.board_order_locked(team, round_number)
    previous = BoardOrder.objects.filter(team=team, round_number=round_number).values_list("players", flat=True).first()
    order, _ = BoardOrder.objects.update_or_create(team=team, round_number=round_number,
                                                   defaults={"players": ids, "locked": False})
    event_audit_record("board_order.submitted", actor=user, tournament=tournament, obj=order,
                       before={"team": team.name, "round": round_number, "players": previous} if previous is not None else None,
                       after={"team": team.name, "round": round_number, "players": ids})
    return order


def order_for(tournament: Tournament, team_id: int, number: int) -> list[int]:
    """The board order a team plays round ``number`` with: its order for the round, else its
    latest earlier one, else its members in entry order (players before reserves); an order
    naming someone no longer in the team is passed over. Raises DomainError ``team_too_small``."""
    members = [p.pk for p in state.team_players(team_id)]
    orders = BoardOrder.objects.filter(team_id=team_id, round_number__lte=number).order_by("-round_number")
    return _order_from(tournament, members, orders)


def _order_from(tournament: Tournament, members: list[int], orders) -> list[int]:
    """:func:`order_for` from the team's members (player ids, in entry order) and its orders of
    the round and before (latest first)."""
    for order in orders:
        if len(order.players) == tournament.board_count and set(order.players) <= set(members):
            return list(order.players)
    if len(members) < tournament.board_count:
        raise errors.team_too_small(len(members), tournament.board_count)
    return members[:tournament.board_count]


# --- team matches (called by advance and draw, under the tournament's lock) ----------------------


def team_matches_create(tournament: Tournament, pairings: list[Pairing], loaded: state.Loaded, created_by
                        ) -> None:
    """Start the team matches of ``pairings`` (each of two team entries), in a constant number
    of queries whatever their number: lock both teams' board orders for the pairing's round
    (storing the order used: :func:`order_for`), and create one board match per board, board k
    between the players at board k of each order (entry0's player on side 0), with the event's
    length and rules (``match_create_many``). In a Swiss or round robin the rounds are marked
    started. Sets ``pairing.board_rows`` on each. Raises DomainError ``team_too_small``."""
    if not pairings:
        return
    wanted = {(loaded.by_id[entry_id].team_id, pairing.round_number)
              for pairing in pairings for entry_id in (pairing.entry0_id, pairing.entry1_id)}
    team_ids = {team_id for team_id, _ in wanted}
    members: dict[int, list[Player]] = {team_id: [] for team_id in team_ids}
    for member in (TeamMember.objects.filter(team_id__in=team_ids).select_related("player")
                   .order_by("reserve", "id")):
        members[member.team_id].append(member.player)
    stored: dict[int, list[BoardOrder]] = {team_id: [] for team_id in team_ids}
    for order in BoardOrder.objects.filter(team_id__in=team_ids, round_number__lte=max(n for _, n in wanted)
                                           ).order_by("-round_number"):
        stored[order.team_id].append(order)
    used: dict[tuple[int, int], list[int]] = {}
    for team_id, number in sorted(wanted):
        used[(team_id, number)] = _order_from(tournament, [p.pk for p in members[team_id]],
                                              [o for o in stored[team_id] if o.round_number <= number])
    # Store each order used, locked (as update_or_create would: the row of the round, else a new one).
    now = timezone.now()
    existing = {(o.team_id, o.round_number): o for orders in stored.values() for o in orders}
    changed, new = [], []
    for key, players in used.items():
        row = existing.get(key)
        if row is None:
            new.append(BoardOrder(team_id=key[0], round_number=key[1], players=players, locked=True))
        else:
            row.players, row.locked, row.submitted_at = players, True, now
            changed.append(row)
    if changed:
        BoardOrder.objects.bulk_update(changed, ["players", "locked", "submitted_at"])
    if new:
        BoardOrder.objects.bulk_create(new)
    found = {p.pk: p for players in members.values() for p in players}
    seats = []
    for pairing in pairings:
        top, bottom = (used[(loaded.by_id[e].team_id, pairing.round_number)] for e in (pairing.entry0_id, pairing.entry1_id))
        seats.extend((pairing, board, a, b) for board, (a, b) in enumerate(zip(top, bottom, strict=True), start=1))
    sides = sides_for_many([[found[player_id]] for _, _, a, b in seats for player_id in (a, b)])
    clock = event_match_clock(tournament)  # the event's clock policy
    matches = match_create_many(created_by=created_by, context={"event": tournament}, specs=[
        MatchSpec(side0=sides[2 * i], side1=sides[2 * i + 1], length=pairing.length, crawford=tournament.crawford,
                  move_policy=tournament.move_policy, clock=clock)
        for i, (pairing, _, _, _) in enumerate(seats)
    ])
    boards = [BoardMatch(pairing=pairing, board=board, match=match)
              for (pairing, board, _, _), match in zip(seats, matches, strict=True)]
    BoardMatch.objects.bulk_create(boards)
    for pairing in pairings:
        pairing.board_rows = []
    for board in boards:
        board.has_reports = False
        board.pairing.board_rows.append(board)
    Round.objects.filter(tournament=tournament, number__in={n for _, n in wanted}, started=False).update(started=True)


def round_robin_start_next(tournament: Tournament, loaded: state.Loaded, *, created_by) -> None:
    """A round robin of teams plays one round at a time: once every team match of the rounds
    before it is decided, the next round's team matches are created. Idempotent (run under the
    tournament's lock by the confirmation hook)."""
    for number in sorted({p.round_number for p in loaded.pairings}):
        these = [p for p in loaded.pairings if p.round_number == number and p.entry0_id and p.entry1_id]
        if all(state.has_matches(p) for p in these):
            if all(state.is_confirmed(p) for p in these):
                continue
            return  # this round is being played
        team_matches_create(tournament, [p for p in these if not state.has_matches(p)], loaded, created_by)
        return
