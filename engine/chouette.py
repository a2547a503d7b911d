"""Chouette: settle one game and give the next line-up (RULES.md §4, §5 and §7).

Vocabulary
----------
A chouette is one player, the **Box**, against all the others, the **team**. The team's checkers are
played on one board by the **Captain**, who has the final say; the other team members are the
**crew**, in a fixed order. Box, Captain and crew make the **line-up** (:class:`Lineup`). The team
reads top to bottom: Captain first, then the crew in order; the last crew member is **the bottom of
the line**, where newcomers join and where a beaten Captain or a beaten Box goes.

Cubes
-----
By default every team member has his own cube against the Box and so, in effect, his own game
against the Box on the one board (``ChouetteSettings(single_cube=False)``). With the single-cube
variant the team shares one cube; members may still answer the Box's double one by one. A member's
game ends in one of three ways (:class:`CubeEnd`):

- ``PLAYED``: he stayed in to the end of the board and wins or loses ``cube x level`` (level 1 single,
  2 gammon, 3 backgammon, RULES.md §4);
- ``MEMBER_DROPPED``: he dropped the Box's double; he pays the value before the double and is out;
- ``BOX_DROPPED``: the Box dropped his double; the Box pays him the value before the double and he
  is out, while the board goes on for the others.

So a :class:`MemberCube` records the cube's face *when that member's game ended*: for a drop, the
value before the refused double, which is exactly the stake. Jacoby (RULES.md §5) is judged per
member: with it on, a gammon or backgammon counts single for a member whose cube was never turned
(still at 1; automatic doubles are not modelled).

At one cube moment the team members decide from the bottom of the line up to the Captain. A game
may carry the log of its cube moments (:class:`BoxDouble`, :class:`TeamDouble`) so that this order
and the house options of §7 can be checked. The log is optional, but when given it must be complete:
who dropped must agree with the cube records. The values come from the records only (the log has no
raccoons or automatic doubles to re-derive them from).

Settling and rotating
---------------------
:func:`chouette_settle` gives every player's result in points: each member wins or loses against the
Box, the Box gets the opposite of the sum, and a Box partner (a crew member who sits the game out on
the Box's side, chosen game by game) shares the Box's result, the odd point going to the Box. The
amounts always sum to zero; :func:`ledger_add` keeps a running ledger over a session.

:func:`chouette_next_lineup` applies the rotation, which depends only on the *original* Captain's
result: if he lost (on the board, or by dropping the Box's double) the Box stays and he goes to the
bottom; if he won (on the board, or because the Box dropped his double) he becomes the Box and the
old Box goes to the bottom. Either way the first crew member becomes the Captain. Whoever captained
the rest of the game after the Captain left it (the next active member) does so for that game only.

Errors
------
Every error is a :class:`~engine.errors.ChouetteError` whose ``code`` names the broken rule:
``missing_box``, ``missing_captain``, ``bad_player``, ``duplicate_player`` (line-up);
``bad_cube``, ``bad_cube_value``, ``bad_cube_end``, ``bad_winner``, ``bad_level``, ``missing_result``,
``unexpected_result``, ``unknown_player``, ``duplicate_cube``, ``bad_box_partner``,
``box_partner_has_cube``, ``single_cube_values`` (game record); ``bad_log``, ``bad_answer``,
``duplicate_decision``, ``decision_order``, ``member_out``, ``log_mismatch`` (cube log);
``single_cube_split``, ``box_must_take_half``, ``lone_taker_must_beaver`` (answers to a double);
``ledger_unbalanced`` (ledger).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TypeAlias

from .actions import BACKGAMMON, GAMMON, LEVEL_NAMES, SINGLE
from .errors import ChouetteError

Player: TypeAlias = Hashable
"""A player's id: any hashable value (a user id, a name)."""


class Side(StrEnum):
    """Who won the board: the Box or the team (played by whoever captained at the end)."""

    BOX = "box"
    TEAM = "team"


class CubeEnd(StrEnum):
    """How one team member's game against the Box ended."""

    PLAYED = "played"
    MEMBER_DROPPED = "member_dropped"
    BOX_DROPPED = "box_dropped"


class Answer(StrEnum):
    """A team member's answer to the Box's double (a beaver redoubles at once, keeping the cube)."""

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


def _check_player(player: object, what: str) -> None:
    # None is the usual accident (an unfilled form field); unhashable ids could not key the ledger.
    if player is None or not isinstance(player, Hashable):
        raise ChouetteError(f"{what} {player!r} is not a player id", code="bad_player")


@dataclass(frozen=True, slots=True)
class Lineup:
    """The Box, the Captain and the crew in order (the last one is the bottom of the line).

    Raises :class:`ChouetteError` ``missing_box`` / ``missing_captain`` when either is ``None``,
    ``bad_player`` for a crew id that is ``None`` or unhashable, and ``duplicate_player`` when a
    player appears twice.
    """

    box: Player
    captain: Player
    crew: tuple[Player, ...] = ()

    def __post_init__(self) -> None:
        if self.box is None:
            raise ChouetteError("a chouette needs a Box", code="missing_box")
        if self.captain is None:
            raise ChouetteError("a chouette needs a Captain", code="missing_captain")
        object.__setattr__(self, "crew", tuple(self.crew))
        _check_player(self.box, "Box")
        _check_player(self.captain, "Captain")
        for member in self.crew:
            _check_player(member, "crew member")
        seen: set[Player] = set()
        for player in self.players:
            if player in seen:
                raise ChouetteError(f"{player!r} is twice in the line-up", code="duplicate_player", player=player)
            seen.add(player)

    @property
    def team(self) -> tuple[Player, ...]:
        """The team from the top: the Captain, then the crew in order."""
        return (self.captain, *self.crew)

    @property
    def players(self) -> tuple[Player, ...]:
        """Everyone: the Box, then the team from the top."""
        return (self.box, *self.team)

    def join(self, player: Player) -> Lineup:
        """A new line-up with ``player`` at the bottom of the line (RULES.md §7: newcomers join there).

        Raises :class:`ChouetteError` ``duplicate_player`` if he is already in, ``bad_player`` for a bad id.
        """
        return Lineup(self.box, self.captain, (*self.crew, player))


@dataclass(frozen=True, slots=True)
class ChouetteSettings:
    """The event's chouette options (stored with the event and shown to players).

    - ``single_cube``: the team shares one cube instead of one cube per member.
    - ``jacoby``: gammons and backgammons count single for a member whose cube was never turned.
    - ``box_must_take_half``: when all the active team cubes are turned at once, the Box must take at
      least half of them or pass them all.
    - ``lone_taker_must_beaver``: when the Box doubles two or more members and only one of them
      stays in, he must beaver (the option implies that beavers are allowed).
    """

    single_cube: bool = False
    jacoby: bool = True
    box_must_take_half: bool = False
    lone_taker_must_beaver: bool = False


@dataclass(frozen=True, slots=True)
class MemberCube:
    """One team member's cube in one game: its face when his game ended, and how it ended.

    ``value`` is the stake: for a drop (either way) it is the value before the refused double.
    Raises :class:`ChouetteError` ``bad_cube_value`` unless ``value`` is a power of two (1, 2, 4...),
    ``bad_cube_end`` unless ``end`` is a :class:`CubeEnd` (or its string value).
    """

    player: Player
    value: int = 1
    end: CubeEnd = CubeEnd.PLAYED

    def __post_init__(self) -> None:
        _check_player(self.player, "cube owner")
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int) or value < 1 or value & (value - 1):
            raise ChouetteError(f"cube value {value!r} is not 1, 2, 4, 8...", code="bad_cube_value", player=self.player)
        try:
            object.__setattr__(self, "end", CubeEnd(self.end))
        except ValueError:
            raise ChouetteError(f"unknown cube ending {self.end!r}", code="bad_cube_end", player=self.player) from None


@dataclass(frozen=True, slots=True)
class BoxDouble:
    """The Box doubled; ``answers`` are the members' ``(player, Answer)`` in the order given.

    The order must run from the bottom of the line up to the Captain (checked against the line-up
    when the game is settled). Raises :class:`ChouetteError` ``bad_answer`` or ``duplicate_decision``.
    """

    answers: tuple[tuple[Player, Answer], ...]

    def __post_init__(self) -> None:
        answers = []
        try:
            for player, answer in self.answers:
                answers.append((player, Answer(answer)))
        except (TypeError, ValueError):
            raise ChouetteError(f"bad answers to the Box's double: {self.answers!r}", code="bad_answer") from None
        object.__setattr__(self, "answers", tuple(answers))
        _check_deciders(self.deciders)

    @property
    def deciders(self) -> tuple[Player, ...]:
        """The members who answered, in order."""
        return tuple(player for player, _ in self.answers)


@dataclass(frozen=True, slots=True)
class TeamDouble:
    """Members of the team doubled the Box, in the order of ``doublers``; the Box passed the cubes of
    ``box_drops`` and took the others.

    Raises :class:`ChouetteError` ``duplicate_decision``, or ``bad_answer`` when the Box drops a cube
    that was not offered.
    """

    doublers: tuple[Player, ...]
    box_drops: frozenset[Player] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        object.__setattr__(self, "doublers", tuple(self.doublers))
        object.__setattr__(self, "box_drops", frozenset(self.box_drops))
        _check_deciders(self.doublers)
        if not self.box_drops <= set(self.doublers):
            stray = sorted(map(repr, self.box_drops - set(self.doublers)))
            raise ChouetteError(f"the Box drops cubes nobody offered: {', '.join(stray)}", code="bad_answer")

    @property
    def deciders(self) -> tuple[Player, ...]:
        """The members who doubled, in order."""
        return self.doublers


CubeMoment: TypeAlias = BoxDouble | TeamDouble


def _check_deciders(deciders: tuple[Player, ...]) -> None:
    for player in deciders:
        _check_player(player, "decision by")
    if len(set(deciders)) != len(deciders):
        raise ChouetteError(f"a member decides twice at one cube moment: {deciders!r}", code="duplicate_decision")


@dataclass(frozen=True, slots=True)
class ChouetteGame:
    """What happened in one chouette game.

    - ``winner``/``level``: who won the board and how (1 single, 2 gammon, 3 backgammon); ``winner``
      is ``None`` exactly when no member stayed in to the end (everyone dropped or was dropped).
    - ``cubes``: one :class:`MemberCube` per team member; a member without one played the whole game
      on a cube that was never turned (value 1, ``PLAYED``).
    - ``box_partner``: a crew member who sits this game out on the Box's side (no cube), or ``None``.
    - ``log``: the cube moments in order (optional; when given, complete).

    Raises :class:`ChouetteError` ``bad_winner``, ``bad_level``, ``bad_cube`` or ``bad_log`` for malformed fields;
    the checks against the line-up happen in :func:`chouette_settle` and :func:`chouette_next_lineup`.
    """

    winner: Side | None
    level: int = SINGLE
    cubes: tuple[MemberCube, ...] = ()
    box_partner: Player | None = None
    log: tuple[CubeMoment, ...] = ()

    def __post_init__(self) -> None:
        if self.winner is not None:
            try:
                object.__setattr__(self, "winner", Side(self.winner))
            except ValueError:
                raise ChouetteError(
                    f"the board is won by the Box or the team, not {self.winner!r}", code="bad_winner"
                ) from None
        if isinstance(self.level, bool) or not isinstance(self.level, int) or self.level not in LEVEL_NAMES:
            raise ChouetteError(f"level {self.level!r} is not 1, 2 or 3", code="bad_level")
        object.__setattr__(self, "cubes", tuple(self.cubes))
        for cube in self.cubes:
            if not isinstance(cube, MemberCube):
                raise ChouetteError(f"{cube!r} is not a member's cube record", code="bad_cube")
        object.__setattr__(self, "log", tuple(self.log))
        for moment in self.log:
            if not isinstance(moment, BoxDouble | TeamDouble):
                raise ChouetteError(f"{moment!r} is not a cube moment", code="bad_log")


@dataclass(frozen=True, slots=True)
class Settlement:
    """The outcome of one game.

    - ``amounts``: points won (+) or lost (-) by every player of the line-up, in line-up order;
      they sum to zero. Read-only.
    - ``captain_won``: the original Captain's result, which decides the rotation.
    - ``final_captain``: who captained at the end of the board (the top member still in), or
      ``None`` when nobody played to the end.
    """

    amounts: Mapping[Player, int]
    captain_won: bool
    final_captain: Player | None


# --- answers to a double -------------------------------------------------------------------------


def check_cube_answer(moment: CubeMoment, active: Iterable[Player], settings: ChouetteSettings) -> None:
    """Check the answer to one double against the event's options; return ``None`` if it stands.

    ``active`` is the team members still in the game when the double was offered.

    Raises :class:`ChouetteError`:

    - ``single_cube_split``: with a single cube, the Box took some of the team's doubles and
      dropped others (one cube is taken or dropped as a whole);
    - ``box_must_take_half``: with that option, all active cubes were turned at once and the Box took
      fewer than half of them without passing them all;
    - ``lone_taker_must_beaver``: with that option, the Box doubled two or more members, exactly one
      stayed in and he took instead of beavering.
    """
    if isinstance(moment, TeamDouble):
        offered = len(moment.doublers)
        taken = offered - len(moment.box_drops)
        if settings.single_cube and 0 < taken < offered:
            raise ChouetteError(
                "single cube: the Box takes or drops the team's double as a whole", code="single_cube_split"
            )
        all_at_once = set(active) <= set(moment.doublers)
        if settings.box_must_take_half and all_at_once and taken > 0 and 2 * taken < offered:
            raise ChouetteError(
                f"house rule: all team cubes were turned at once, so the Box must take at least half of them "
                f"or pass all; it took {taken} of {offered}",
                code="box_must_take_half",
            )
    else:
        stayed = [(player, answer) for player, answer in moment.answers if answer is not Answer.DROP]
        # "Lone" means alone among several doubled members; a member doubled on his own is not.
        if (
            settings.lone_taker_must_beaver
            and len(moment.answers) >= 2
            and len(stayed) == 1
            and stayed[0][1] is Answer.TAKE
        ):
            raise ChouetteError(
                f"house rule: a lone taker must beaver; {stayed[0][0]!r} took alone",
                code="lone_taker_must_beaver",
                player=stayed[0][0],
            )


# --- checking a game against the line-up ---------------------------------------------------------


def _member_cubes(lineup: Lineup, game: ChouetteGame, settings: ChouetteSettings) -> dict[Player, MemberCube]:
    """Every playing member's cube, in team order (defaults filled in), after checking the record."""
    partner = game.box_partner
    if partner is not None and partner not in lineup.crew:
        raise ChouetteError(
            f"the Box partner must be a crew member (not the Box or the Captain), not {partner!r}",
            code="bad_box_partner",
            player=partner,
        )
    members = [player for player in lineup.team if player != partner]
    given: dict[Player, MemberCube] = {}
    for cube in game.cubes:
        if partner is not None and cube.player == partner:
            raise ChouetteError(f"the Box partner {partner!r} has no cube", code="box_partner_has_cube", player=partner)
        if cube.player not in members:
            raise ChouetteError(f"{cube.player!r} is not on the team", code="unknown_player", player=cube.player)
        if cube.player in given:
            raise ChouetteError(f"two cubes for {cube.player!r}", code="duplicate_cube", player=cube.player)
        given[cube.player] = cube
    cubes = {player: given.get(player, MemberCube(player)) for player in members}

    played_on = any(cube.end is CubeEnd.PLAYED for cube in cubes.values())
    if played_on and game.winner is None:
        raise ChouetteError("members played to the end, so the board needs a winner", code="missing_result")
    if not played_on and game.winner is not None:
        raise ChouetteError("nobody played to the end, so the board has no winner", code="unexpected_result")
    if settings.single_cube:
        _check_single_cube(cubes)
    _check_log(lineup, game.log, cubes, settings)
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


def _check_log(
    lineup: Lineup, log: tuple[CubeMoment, ...], cubes: Mapping[Player, MemberCube], settings: ChouetteSettings
) -> None:
    # Replay who is out after each moment so that a dropped member cannot decide again, the
    # bottom-to-top order holds, and the house options see the right set of active cubes.
    position = {player: index for index, player in enumerate(lineup.team)}
    out: dict[Player, CubeEnd] = {}
    for moment in log:
        for player in moment.deciders:
            if player not in cubes:
                raise ChouetteError(f"{player!r} has no cube in this game", code="unknown_player", player=player)
            if player in out:
                raise ChouetteError(f"{player!r} is already out of this game", code="member_out", player=player)
        places = [position[player] for player in moment.deciders]
        if places != sorted(places, reverse=True):
            raise ChouetteError(
                f"cube decisions go from the bottom of the line up to the Captain, not {list(moment.deciders)!r}",
                code="decision_order",
            )
        check_cube_answer(moment, [player for player in cubes if player not in out], settings)
        if isinstance(moment, BoxDouble):
            out.update((player, CubeEnd.MEMBER_DROPPED) for player, answer in moment.answers if answer is Answer.DROP)
        else:
            out.update((player, CubeEnd.BOX_DROPPED) for player in moment.box_drops)
    if log:
        for player, cube in cubes.items():
            expected = out.get(player, CubeEnd.PLAYED)
            if cube.end is not expected:
                raise ChouetteError(
                    f"{player!r}'s cube ended {cube.end} but the log says {expected}",
                    code="log_mismatch",
                    player=player,
                )


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
    if settings.jacoby and cube.value == 1:
        level = SINGLE
    return cube.value * level if game.winner is Side.TEAM else -cube.value * level


# --- public API ----------------------------------------------------------------------------------


def chouette_settle(lineup: Lineup, game: ChouetteGame, settings: ChouetteSettings) -> Settlement:
    """Settle one game: every player's points, the original Captain's result and the final Captain.

    Returns a :class:`Settlement` whose amounts cover the whole line-up and sum to zero: each member
    wins or loses ``cube x level`` (a drop settles at the value before the double), the Box gets the
    opposite of the sum, shared with the Box partner if any (the odd point to the Box).

    Raises :class:`ChouetteError` when the game does not fit the line-up or the settings (codes
    ``bad_box_partner``, ``box_partner_has_cube``, ``unknown_player``, ``duplicate_cube``,
    ``missing_result``, ``unexpected_result``, ``single_cube_values``, ``single_cube_split``,
    ``member_out``, ``decision_order``, ``log_mismatch``, ``box_must_take_half``,
    ``lone_taker_must_beaver``).
    """
    cubes = _member_cubes(lineup, game, settings)
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


def chouette_next_lineup(lineup: Lineup, game: ChouetteGame) -> Lineup:
    """The line-up for the next game, by the rotation of RULES.md §7.

    Returns a new :class:`Lineup`: if the original Captain lost (on the board, or by dropping the
    Box's double) the Box stays and the Captain goes to the bottom; if he won (on the board, or by
    the Box dropping his double) he becomes the Box and the old Box goes to the bottom. The first crew
    member becomes the Captain (with no crew, the one other player). Whoever captained after the
    Captain left the game does not matter: that was for the rest of that game only.

    Raises :class:`ChouetteError` when the game does not fit the line-up (as :func:`chouette_settle`
    with default settings: ``unknown_player``, ``missing_result``, ``decision_order``...).
    """
    cubes = _member_cubes(lineup, game, ChouetteSettings())
    if _captain_won(lineup, game, cubes):
        team = (*lineup.crew, lineup.box)
        return Lineup(lineup.captain, team[0], team[1:])
    team = (*lineup.crew, lineup.captain)
    return Lineup(lineup.box, team[0], team[1:])


def ledger_add(ledger: Mapping[Player, int], settlement: Settlement) -> dict[Player, int]:
    """A new running ledger: ``ledger`` plus the game's amounts, player by player.

    Returns a new dict (the input is not changed) that includes every player seen so far and still
    sums to zero. Raises :class:`ChouetteError` ``ledger_unbalanced`` if ``ledger`` does not sum to
    zero (a hand-edited or corrupted ledger).
    """
    if sum(ledger.values()) != 0:
        raise ChouetteError(f"the ledger sums to {sum(ledger.values())}, not 0", code="ledger_unbalanced")
    totals = dict(ledger)
    for player, amount in settlement.amounts.items():
        totals[player] = totals.get(player, 0) + amount
    return totals


__all__ = [
    "BACKGAMMON",
    "GAMMON",
    "SINGLE",
    "Answer",
    "BoxDouble",
    "ChouetteGame",
    "ChouetteSettings",
    "CubeEnd",
    "CubeMoment",
    "Lineup",
    "MemberCube",
    "Player",
    "Settlement",
    "Side",
    "TeamDouble",
    "check_cube_answer",
    "chouette_next_lineup",
    "chouette_settle",
    "ledger_add",
]
