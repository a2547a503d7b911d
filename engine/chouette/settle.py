"""One game checked against the line-up and the table, settled, and the rotation (RULES.md §5, §7).

:func:`chouette_settle` gives every player's result in points: each member wins or loses against the
Box, the Box gets the opposite of the sum, and a Box partner (a crew member who sits the game out on
the Box's side, chosen game by game where the table allows it) shares the Box's result, the odd point
going to the Box. The amounts always sum to zero.

**Jacoby** (RULES.md §5) is judged per member: with it on, a gammon or backgammon counts single for a
member whose cube "has not been turned during the game". RULES.md §2 says an automatic double
*turns* the centred cube, so a cube turned only automatically *has* been turned: Jacoby applies only
to a member whose cube still shows 1. ``engine.game`` reads RULES.md the same way (an automatic
double turns its cube too), so a money game and a member's game against the Box agree.

:func:`chouette_next_lineup` applies the rotation, which depends only on the *original* Captain's
result: if he lost (on the board, or by dropping the Box's double) the Box stays and he goes to the
bottom; if he won (on the board, or because the Box dropped his double) he becomes the Box and the
old Box goes to the bottom. Either way the first crew member becomes the Captain. Whoever captained
the rest of the game after the Captain left it (the next active member) does so for that game only.

:func:`chouette_quick_game` builds and checks a quick result (winner, level and each member's cube).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, TypeAlias

from ..actions import SINGLE
from ..errors import ChouetteError
from .base import Player, is_int
from .lineup import Lineup
from .record import (
    Answer,
    BoxDouble,
    ChouetteGame,
    CubeEnd,
    CubeMoment,
    MemberCube,
    Settlement,
    Side,
    check_cube_answer,
)
from .settings import ChouetteSettings

# --- checking a game against the line-up ---------------------------------------------------------

# Who owns a member's cube while his game goes on: nobody (centred), the Box or the member.
_CENTRED, _BOX_OWNS, _MEMBER_OWNS = 0, 1, 2


def _redouble(value: int, raccooned: bool, dropped: bool) -> tuple[int, bool]:
    """After a double at ``value`` was beavered: (the cube's face or the stake, whether the beaverer
    is the one who dropped). A beaver makes 4x, a raccoon 8x; a drop is of the last redouble."""
    if raccooned:
        return (4 * value, True) if dropped else (8 * value, False)
    return (2 * value, False) if dropped else (4 * value, False)


def replay_cube_log(
    lineup: Lineup,
    log: Sequence[CubeMoment],
    members: Sequence[Player],
    start: int,
    settings: ChouetteSettings | None,
    where: Sequence[int] | None = None,
) -> dict[Player, tuple[int, CubeEnd]]:
    """Replay the cube moments from cubes centred at ``start``: every member's (face or stake, end).

    Checks who may decide (on the team with a cube, still in), the bottom-to-top order, cube
    ownership and, with ``settings``, the table's and house options. ``where`` gives each moment's
    place in a board log, added to errors as ``action_index``.
    """
    position = {player: index for index, player in enumerate(lineup.team)}
    cubes = {player: [start, _CENTRED, None] for player in members}
    box_took: set[Player] = set()  # members whose double the Box has taken (box_must_take_captain)

    def fail(number: int, message: str, code: str, **details: Any) -> ChouetteError:
        if where is not None:
            details["action_index"] = where[number]
        return ChouetteError(f"cube moment {number}: {message}", code=code, moment=number, **details)

    for number, moment in enumerate(log):
        box_doubles = isinstance(moment, BoxDouble)
        for player in moment.deciders:
            if player not in cubes:
                raise fail(number, f"{player!r} has no cube in this game", "unknown_player", player=player)
            if cubes[player][2] is not None:
                raise fail(number, f"{player!r} is already out of this game", "member_out", player=player)
            owner = cubes[player][1]
            if owner == (_MEMBER_OWNS if box_doubles else _BOX_OWNS):
                doubler = "the Box" if box_doubles else repr(player)
                holder = repr(player) if box_doubles else "the Box"
                raise fail(number, f"{doubler} cannot double {player!r}'s cube: {holder} owns it", "not_cube_owner",
                           player=player)
        places = [position[player] for player in moment.deciders]
        if places != sorted(places, reverse=True):
            raise fail(number, f"cube decisions go from the bottom of the line up to the Captain, not "
                               f"{list(moment.deciders)!r}", "decision_order")
        if settings is not None:
            try:
                check_cube_answer(
                    moment, [player for player, cube in cubes.items() if cube[2] is None], settings,
                    initial=[player for player, cube in cubes.items() if cube[1] == _CENTRED],
                    players=len(lineup.players), captain=lineup.captain, box_took=frozenset(box_took),
                )
            except ChouetteError as refused:
                raise fail(number, refused.message, refused.code, **refused.details) from None
        if box_doubles:
            for player, answer in moment.answers:
                cube = cubes[player]
                if answer is Answer.TAKE:
                    cube[0:2] = [2 * cube[0], _MEMBER_OWNS]
                elif answer is Answer.DROP:
                    cube[2] = CubeEnd.MEMBER_DROPPED
                else:
                    value, beaverer_dropped = _redouble(cube[0], player in moment.raccoons,
                                                        player in moment.redouble_drops)
                    cube[0:2] = [value, _MEMBER_OWNS]
                    if player in moment.redouble_drops:
                        cube[2] = CubeEnd.MEMBER_DROPPED if beaverer_dropped else CubeEnd.BOX_DROPPED
        else:
            for player in moment.doublers:
                cube = cubes[player]
                if player in moment.box_drops:
                    cube[2] = CubeEnd.BOX_DROPPED
                elif player in moment.beavers:
                    value, beaverer_dropped = _redouble(cube[0], player in moment.raccoons,
                                                        player in moment.redouble_drops)
                    cube[0:2] = [value, _BOX_OWNS]
                    if player in moment.redouble_drops:
                        cube[2] = CubeEnd.BOX_DROPPED if beaverer_dropped else CubeEnd.MEMBER_DROPPED
                else:
                    cube[0:2] = [2 * cube[0], _BOX_OWNS]
                if player not in moment.box_drops:
                    box_took.add(player)
    return {player: (value, end or CubeEnd.PLAYED) for player, (value, _, end) in cubes.items()}


def check_box_partner(lineup: Lineup, partner: Player | None, settings: ChouetteSettings | None) -> None:
    """Check a game's Box partner (``None``: the Box plays alone) against the line-up and, with
    ``settings``, the table. Raises :class:`ChouetteError` ``bad_box_partner`` (not a crew member),
    ``box_partner_not_next`` (the partner convention: not the first crew member) or
    ``box_partner_not_allowed``."""
    if partner is None:
        return
    if partner not in lineup.crew:
        raise ChouetteError(
            f"the Box partner must be a crew member (not the Box or the Captain), not {partner!r}",
            code="bad_box_partner",
            player=partner,
        )
    if settings is not None and settings.box_partner_next_in_line and partner != lineup.crew[0]:
        raise ChouetteError(
            f"house rule: the Box partner is the player next in line (the first crew member), not {partner!r}",
            code="box_partner_not_next", player=partner,
        )
    if settings is not None and not settings.box_partner_allowed(len(lineup.players)):
        when = "never" if settings.box_partner_from is None else f"from {settings.box_partner_from} players"
        raise ChouetteError(
            f"this table allows a Box partner {when}; the line-up has {len(lineup.players)}",
            code="box_partner_not_allowed", player=partner,
        )


def member_cubes(
    lineup: Lineup, game: ChouetteGame, settings: ChouetteSettings | None
) -> dict[Player, MemberCube]:
    """Every playing member's cube, in team order (defaults filled in), after checking the record.

    Without ``settings`` only the record's own consistency is checked, not the table's options.
    """
    partner = game.box_partner
    check_box_partner(lineup, partner, settings)
    if settings is not None and game.automatic > settings.automatic_doubles:
        raise ChouetteError(
            f"{game.automatic} automatic doubles, but this table allows {settings.automatic_doubles}",
            code="too_many_automatic",
        )
    start = game.start_value
    members = [player for player in lineup.team if player != partner]
    given: dict[Player, MemberCube] = {}
    for cube in game.cubes:
        if partner is not None and cube.player == partner:
            raise ChouetteError(f"the Box partner {partner!r} has no cube", code="box_partner_has_cube", player=partner)
        if cube.player not in members:
            raise ChouetteError(f"{cube.player!r} is not on the team", code="unknown_player", player=cube.player)
        if cube.player in given:
            raise ChouetteError(f"two cubes for {cube.player!r}", code="duplicate_cube", player=cube.player)
        if cube.value < start:
            raise ChouetteError(
                f"{cube.player!r}'s cube shows {cube.value}, below {start} where the automatic doubles started it",
                code="cube_below_start", player=cube.player,
            )
        given[cube.player] = cube
    cubes = {player: given.get(player, MemberCube(player, start)) for player in members}

    played_on = any(cube.end is CubeEnd.PLAYED for cube in cubes.values())
    if played_on and game.winner is None:
        raise ChouetteError("members played to the end, so the board needs a winner", code="missing_result")
    if not played_on and game.winner is not None:
        raise ChouetteError("nobody played to the end, so the board has no winner", code="unexpected_result")
    if settings is not None and settings.single_cube:
        _check_single_cube(cubes)
    if game.log:
        derived = replay_cube_log(lineup, game.log, members, start, settings)
        for player, cube in cubes.items():
            value, end = derived[player]
            if cube.end is not end or cube.value != value:
                raise ChouetteError(
                    f"{player!r}'s cube ended {cube.end} at {cube.value} but the log says {end} at {value}",
                    code="log_mismatch",
                    player=player,
                )
    return cubes


def _check_single_cube(cubes: Mapping[Player, MemberCube]) -> None:
    # One cube: everyone still in at the end shares its face, and so does everyone the Box dropped
    # (the Box drops the team's cube as a whole, which ends the board for all still in).
    for end in (CubeEnd.PLAYED, CubeEnd.BOX_DROPPED):
        values = {cube.value for cube in cubes.values() if cube.end is end}
        if len(values) > 1:
            raise ChouetteError(f"single cube: {end} members have cubes {sorted(values)}", code="single_cube_values")
    ends = {cube.end for cube in cubes.values()}
    if {CubeEnd.PLAYED, CubeEnd.BOX_DROPPED} <= ends:
        raise ChouetteError("single cube: the Box dropped the team's cube but some played on", code="single_cube_split")


def _captain_won(lineup: Lineup, game: ChouetteGame, cubes: Mapping[Player, MemberCube]) -> bool:
    end = cubes[lineup.captain].end
    if end is CubeEnd.MEMBER_DROPPED:
        return False
    if end is CubeEnd.BOX_DROPPED:
        return True
    return game.winner is Side.TEAM


def _member_amount(cube: MemberCube, game: ChouetteGame, settings: ChouetteSettings) -> int:
    if cube.end is CubeEnd.MEMBER_DROPPED:
        return -cube.value
    if cube.end is CubeEnd.BOX_DROPPED:
        return cube.value
    level = game.level
    # A cube still at 1 was never turned, by hand or automatically (RULES.md §2, §5); one still at
    # its automatic start was never turned by hand, which is "not turned" where automatic doubles do
    # not count for Jacoby (the house rule jacoby_counts_automatic off).
    untouched = cube.value == 1 if settings.jacoby_counts_automatic else cube.value == game.start_value
    if settings.jacoby and untouched:
        level = SINGLE
    return cube.value * level if game.winner is Side.TEAM else -cube.value * level


# --- one game ------------------------------------------------------------------------------------


def chouette_settle(lineup: Lineup, game: ChouetteGame, settings: ChouetteSettings) -> Settlement:
    """Settle one game: every player's points, the original Captain's result and the final Captain.

    Returns a :class:`Settlement` whose amounts cover the whole line-up and sum to zero: each member
    wins or loses ``cube x level`` (a drop settles at the value before the double), the Box gets the
    opposite of the sum, shared with the Box partner if any (the odd point to the Box).

    Raises :class:`ChouetteError` when the game does not fit the line-up or the table (codes
    ``bad_box_partner``, ``box_partner_not_allowed``, ``box_partner_has_cube``, ``too_many_automatic``,
    ``unknown_player``, ``duplicate_cube``, ``cube_below_start``, ``missing_result``,
    ``unexpected_result``, ``single_cube_values``, ``single_cube_split``, ``member_out``,
    ``not_cube_owner``, ``decision_order``, ``log_mismatch``, ``beavers_not_allowed``,
    ``raccoons_not_allowed``, ``box_must_take_half``, ``lone_taker_must_beaver``).
    """
    cubes = member_cubes(lineup, game, settings)
    members = {player: _member_amount(cube, game, settings) for player, cube in cubes.items()}
    box_total = -sum(members.values())
    partner_share = 0
    if game.box_partner is not None:
        # Half each, rounded toward zero for the partner, so the odd point (won or lost) is the Box's.
        partner_share = abs(box_total) // 2 * (1 if box_total >= 0 else -1)
    amounts = {lineup.box: box_total - partner_share}
    for player in lineup.team:
        amounts[player] = partner_share if player == game.box_partner else members[player]
    final_captain = next((player for player, cube in cubes.items() if cube.end is CubeEnd.PLAYED), None)
    return Settlement(MappingProxyType(amounts), _captain_won(lineup, game, cubes), final_captain)


def chouette_next_lineup(lineup: Lineup, game: ChouetteGame, settings: ChouetteSettings | None = None) -> Lineup:
    """The line-up for the next game, by the rotation of RULES.md §7.

    Returns a new :class:`Lineup`: if the original Captain lost (on the board, or by dropping the
    Box's double) the Box stays and the Captain goes to the bottom; if he won (on the board, or by
    the Box dropping his double) he becomes the Box and the old Box goes to the bottom. The first crew
    member becomes the Captain (with no crew, the one other player). Whoever captained after the
    Captain left the game does not matter: that was for the rest of that game only.

    Raises :class:`ChouetteError` when the game does not fit the line-up (as :func:`chouette_settle`:
    ``unknown_player``, ``missing_result``, ``decision_order``...); the table's options are checked
    too when ``settings`` is given.
    """
    cubes = member_cubes(lineup, game, settings)
    return rotate(lineup, _captain_won(lineup, game, cubes), partner_of(game, settings))


def partner_of(game: ChouetteGame, settings: ChouetteSettings | None) -> Player | None:
    """The Box partner the rotation must keep in his place: the game's partner at a table that plays
    the partner convention (``box_partner_next_in_line``), else ``None``."""
    if settings is None or not settings.box_partner_next_in_line:
        return None
    return game.box_partner


def rotate(lineup: Lineup, captain_won: bool, partner: Player | None = None) -> Lineup:
    """The next line-up by the original Captain's result, already checked (see
    :func:`chouette_next_lineup`, which checks the game first).

    ``partner`` is the Box partner under the partner convention (see :func:`partner_of`; he is the
    first crew member): when the Box loses he becomes the Captain, as the first crew member always
    does; when the Box wins the partnership keeps the Box, so he stays next in line and the member
    after him captains (at a table of three, the Captain, who is the only one left, captains again).
    """
    if captain_won:
        team = (*lineup.crew, lineup.box)
        return Lineup(lineup.captain, team[0], team[1:])
    if partner is not None and lineup.crew and lineup.crew[0] == partner:
        team = (*lineup.crew[1:], lineup.captain)
        return Lineup(lineup.box, team[0], (partner, *team[1:]))
    team = (*lineup.crew, lineup.captain)
    return Lineup(lineup.box, team[0], team[1:])


CubeRecord: TypeAlias = int | tuple[int, CubeEnd | str]
"""A quick record of one member's cube: its face (he played to the end), or ``(value, end)``."""


def chouette_quick_game(
    lineup: Lineup,
    *,
    winner: Side | str | None,
    level: int = SINGLE,
    cubes: Mapping[Player, CubeRecord] | None = None,
    box_partner: Player | None = None,
    automatic: int = 0,
    amounts: Mapping[Player, int] | None = None,
    settings: ChouetteSettings,
) -> ChouetteGame:
    """A quick result, as a table reports it after the game, built and checked into a
    :class:`ChouetteGame` (which is all a quick result is; this is the checked way to build one).

    ``cubes`` maps members to their cube (``2`` or ``(2, "box_dropped")``); members left out played
    to the end on the starting cube (``2 ** automatic``). ``amounts``, when given, are the points the
    table announced (players left out count 0): they must sum to zero and agree with the settlement.

    Raises :class:`ChouetteError` as :func:`chouette_settle` does, ``bad_cube`` for a record that is
    neither a face nor ``(value, end)``, ``unknown_player`` for an amount of someone not at the table,
    ``amounts_unbalanced`` and ``amounts_mismatch`` (``details``: ``player``, ``expected``, ``given``).
    """
    records = []
    for player, record in (cubes or {}).items():
        if is_int(record):
            records.append(MemberCube(player, record))
        elif isinstance(record, tuple | list) and len(record) == 2:
            records.append(MemberCube(player, record[0], record[1]))
        else:
            raise ChouetteError(f"{player!r}'s cube {record!r} is not a face or (value, end)", code="bad_cube",
                                player=player)
    game = ChouetteGame(winner, level, tuple(records), box_partner, automatic=automatic)
    settlement = chouette_settle(lineup, game, settings)
    if amounts is not None:
        for player, amount in amounts.items():
            if player not in settlement.amounts:
                raise ChouetteError(f"{player!r} is not at the table", code="unknown_player", player=player)
            if not is_int(amount):
                raise ChouetteError(f"{player!r}'s amount {amount!r} is not whole points", code="bad_ledger",
                                    player=player)
        if sum(amounts.values()) != 0:
            raise ChouetteError(f"the announced amounts sum to {sum(amounts.values())}, not 0",
                                code="amounts_unbalanced")
        for player, expected in settlement.amounts.items():
            given = amounts.get(player, 0)
            if given != expected:
                raise ChouetteError(
                    f"{player!r} is announced at {given:+d} but the cubes give {expected:+d}",
                    code="amounts_mismatch", player=player, expected=expected, given=given,
                )
    return game


__all__ = [
    "CubeRecord",
    "check_box_partner",
    "chouette_next_lineup",
    "chouette_quick_game",
    "chouette_settle",
    "member_cubes",
    "partner_of",
    "replay_cube_log",
    "rotate",
]
