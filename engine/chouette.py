"""Chouette: a table's line-up, its games, their settlement and the session (RULES.md §4, §5 and §7).

Vocabulary
----------
A chouette is one player, the **Box**, against all the others, the **team**. The team's checkers are
played on one board by the **Captain**, who has the final say; the other team members are the
**crew**, in a fixed order. Box, Captain and crew make the **line-up** (:class:`Lineup`). The team
reads top to bottom: Captain first, then the crew in order; the last crew member is **the bottom of
the line**, where newcomers join and where a beaten Captain or a beaten Box goes. The first line-up
comes from the opening roll-off (:func:`lineup_from_rolloff`); players join (:meth:`Lineup.join`) and
leave (:func:`lineup_leave`) between games.

The table
---------
:class:`ChouetteSettings` holds the table's options: one cube per member or a single cube, Jacoby,
beavers and raccoons, the limit on automatic doubles, from how many players the Box may take a
partner, and the two house options of §7.

Cubes
-----
By default every team member has his own cube against the Box and so, in effect, his own game
against the Box on the one board (``ChouetteSettings(single_cube=False)``). With the single-cube
variant the team shares one cube; members may still answer the Box's double one by one. A member's
game ends in one of three ways (:class:`CubeEnd`):

- ``PLAYED``: he stayed in to the end of the board and wins or loses ``cube x level`` (level 1 single,
  2 gammon, 3 backgammon, RULES.md §4);
- ``MEMBER_DROPPED``: he dropped the Box's double (or the Box's beaver or raccoon); he pays the value
  before that redouble and is out;
- ``BOX_DROPPED``: the Box dropped his double (or his beaver or raccoon); the Box pays him the value
  before it and he is out, while the board goes on for the others.

So a :class:`MemberCube` records the cube's face *when that member's game ended*: for a drop, the
value before the refused redouble, which is exactly the stake.

**Automatic doubles** (RULES.md §2): each tie on the opening roll, up to the table's limit, doubles
every member's cube at once; the cubes stay centred. A game records how many happened
(``ChouetteGame.automatic``): every member's cube starts at ``2 ** automatic``.

**Jacoby** (RULES.md §5) is judged per member: with it on, a gammon or backgammon counts single for a
member whose cube "has not been turned during the game". RULES.md §2 says an automatic double
*turns* the centred cube, so a cube turned only automatically *has* been turned: Jacoby applies only
to a member whose cube still shows 1. ``engine.game`` reads RULES.md the same way (an automatic
double turns its cube too), so a money game and a member's game against the Box agree.

Cube moments
------------
At one cube moment the team members decide from the bottom of the line up to the Captain. A game
may carry the log of its cube moments (:class:`BoxDouble`, :class:`TeamDouble`), beavers and
raccoons included, so that this order, cube ownership, the table's options and the house options of
§7 can be checked. The log is optional, but when given it must be complete: replaying it from the
starting cubes must give exactly the recorded cubes (who is out, how, and every face).

A game can be recorded three ways: a :class:`ChouetteGame` built directly, a checked quick result
(:func:`chouette_quick_game`: winner, level and each member's cube), or a full game from the board's
own log (``engine.chouette_log.chouette_full_game``). All three end as a :class:`ChouetteGame`.

Settling, rotating, the session
-------------------------------
:func:`chouette_settle` gives every player's result in points: each member wins or loses against the
Box, the Box gets the opposite of the sum, and a Box partner (a crew member who sits the game out on
the Box's side, chosen game by game where the table allows it) shares the Box's result, the odd point
going to the Box. The amounts always sum to zero; :func:`ledger_add` keeps a running ledger and
:func:`settle_up` says who pays whom at the end with the fewest transfers.

:func:`chouette_next_lineup` applies the rotation, which depends only on the *original* Captain's
result: if he lost (on the board, or by dropping the Box's double) the Box stays and he goes to the
bottom; if he won (on the board, or because the Box dropped his double) he becomes the Box and the
old Box goes to the bottom. Either way the first crew member becomes the Captain. Whoever captained
the rest of the game after the Captain left it (the next active member) does so for that game only.

:func:`replay_session` folds a session's recorded steps (start, join, leave, game; voided steps
skipped) into the current line-up, every game's settlement and the ledger. Game records and steps
have a JSON form (:func:`game_to_json`, :func:`step_to_json` and their inverses) for storage.

Errors
------
Every error is a :class:`~engine.errors.ChouetteError` whose ``code`` names the broken rule:
``missing_box``, ``missing_captain``, ``bad_player``, ``duplicate_player``, ``too_few_players``
(line-up); ``bad_die``, ``rolloff_tie``, ``rolloff_not_tied`` (roll-off); ``bad_settings``,
``raccoons_without_beavers`` (table options); ``bad_cube``, ``bad_cube_value``, ``bad_cube_end``,
``bad_winner``, ``bad_level``, ``bad_automatic``, ``missing_result``, ``unexpected_result``,
``unknown_player``, ``duplicate_cube``, ``bad_box_partner``, ``box_partner_has_cube``,
``box_partner_not_allowed``, ``too_many_automatic``, ``cube_below_start``, ``single_cube_values``,
``amounts_mismatch``, ``amounts_unbalanced`` (game record); ``bad_log``, ``bad_answer``,
``duplicate_decision``, ``decision_order``, ``member_out``, ``not_cube_owner``, ``log_mismatch``
(cube log); ``single_cube_split``, ``box_must_take_half``, ``lone_taker_must_beaver``,
``beavers_not_allowed``, ``raccoons_not_allowed`` (answers to a double); ``ledger_unbalanced``,
``bad_ledger`` (ledger); ``bad_json`` (JSON form; ``details['path']`` names the field, e.g.
``cubes[2].value``); ``bad_step``, ``session_not_started``, ``session_started``, ``lineup_mismatch``
(session; ``details['step']`` is the step's 0-based index). ``engine.chouette_log`` adds its own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Protocol, TypeAlias, TypeVar, runtime_checkable

from .actions import BACKGAMMON, GAMMON, LEVEL_NAMES, SINGLE
from .errors import ChouetteError

Player: TypeAlias = Hashable
"""A player's id: any hashable value (a user id, a name). In JSON: a string or an integer."""


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


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_player(player: object, what: str) -> None:
    # None is the usual accident (an unfilled form field); unhashable ids could not key the ledger.
    if player is None or not isinstance(player, Hashable):
        raise ChouetteError(f"{what} {player!r} is not a player id", code="bad_player")


# --- line-up -------------------------------------------------------------------------------------


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


def lineup_leave(lineup: Lineup, player: Player) -> Lineup:
    """A new line-up without ``player``, who leaves the table between games.

    The others keep their order: if the Box leaves, the Captain becomes the Box and the first crew
    member the Captain; if the Captain leaves, the first crew member captains; a crew member simply
    leaves his place in the line. (Everyone moves up one place, as the rotation would move them.)

    Raises :class:`ChouetteError` ``unknown_player`` if he is not in the line-up and
    ``too_few_players`` when fewer than two players would remain (a chouette needs a Box and a
    Captain; the session ends instead).
    """
    if player not in lineup.players:
        raise ChouetteError(f"{player!r} is not in the line-up", code="unknown_player", player=player)
    rest = [someone for someone in lineup.players if someone != player]
    if len(rest) < 2:
        raise ChouetteError(
            f"{player!r} cannot leave: a chouette needs at least two players", code="too_few_players", player=player
        )
    return Lineup(rest[0], rest[1], tuple(rest[2:]))


Rolls: TypeAlias = Sequence[tuple[Player, int]] | Mapping[Player, int]
"""One round of the roll-off: each player with the die he rolled."""


def _tied(results: Mapping[Player, tuple[int, ...]]) -> set[Player]:
    counts: dict[tuple[int, ...], int] = {}
    for key in results.values():
        counts[key] = counts.get(key, 0) + 1
    return {player for player, key in results.items() if counts[key] > 1}


def lineup_from_rolloff(rounds: Sequence[Rolls]) -> Lineup:
    """The first line-up from the opening roll-off (RULES.md §7).

    ``rounds[0]`` is every player's die (``[(player, die), ...]`` or ``{player: die}``); the highest
    is the Box, the next the Captain, then the crew in descending order. Players with equal dice are
    tied; each later round holds the rerolls of exactly the players still tied (all tied groups
    reroll in the same round, and a reroll only orders a group among itself). So
    ``[[("Ann", 6), ("Bob", 6), ("Cat", 2)], [("Ann", 3), ("Bob", 5)]]`` gives Bob the Box, Ann the
    Captain and Cat the crew.

    Raises :class:`ChouetteError` ``too_few_players`` (fewer than two players), ``bad_die`` (a die
    that is not a whole number 1..6), ``bad_player``, ``duplicate_player`` (a player twice in one
    round), ``unknown_player`` (a reroll by someone who did not roll first), ``rolloff_not_tied`` (a
    reroll by someone not tied, or a round after all ties were broken) and ``rolloff_tie`` (a tie
    left unbroken: a tied player missing from the next round, or no next round); the details name
    the 0-based ``round``.
    """
    if not rounds:
        raise ChouetteError("the roll-off has no rolls", code="too_few_players")
    results: dict[Player, tuple[int, ...]] = {}
    for number, rolls in enumerate(rounds):
        tied = _tied(results) if number else set()
        if number and not tied:
            raise ChouetteError(
                f"roll-off round {number}: nobody is tied, so nobody rerolls", code="rolloff_not_tied", round=number
            )
        if not isinstance(rolls, Mapping | list | tuple):
            raise ChouetteError(f"roll-off round {number}: {rolls!r} is not a list of (player, die)", code="bad_die",
                                round=number)
        pairs = list(rolls.items()) if isinstance(rolls, Mapping) else list(rolls)
        seen: set[Player] = set()
        for pair in pairs:
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                raise ChouetteError(f"roll-off round {number}: {pair!r} is not (player, die)", code="bad_die", round=number)
            player, die = pair
            _check_player(player, "roller")
            if not _is_int(die) or not 1 <= die <= 6:
                raise ChouetteError(
                    f"roll-off round {number}: {player!r} rolled {die!r}, not a die from 1 to 6",
                    code="bad_die", round=number, player=player,
                )
            if player in seen:
                raise ChouetteError(
                    f"roll-off round {number}: {player!r} rolls twice", code="duplicate_player", round=number, player=player
                )
            seen.add(player)
            if number and player not in results:
                raise ChouetteError(
                    f"roll-off round {number}: {player!r} did not roll in the first round",
                    code="unknown_player", round=number, player=player,
                )
            if number and player not in tied:
                raise ChouetteError(
                    f"roll-off round {number}: {player!r} is not tied and does not reroll",
                    code="rolloff_not_tied", round=number, player=player,
                )
        missing = tied - seen
        if missing:
            names = ", ".join(sorted(map(repr, missing)))
            raise ChouetteError(
                f"roll-off round {number}: {names} are tied and must reroll", code="rolloff_tie", round=number
            )
        for player, die in pairs:
            results[player] = (*results.get(player, ()), die)
    if len(results) < 2:
        raise ChouetteError("a chouette needs at least two players", code="too_few_players")
    tied = _tied(results)
    if tied:
        names = ", ".join(sorted(map(repr, tied)))
        raise ChouetteError(f"the roll-off leaves {names} tied: they must reroll", code="rolloff_tie", round=len(rounds))
    order = sorted(results, key=results.__getitem__, reverse=True)
    return Lineup(order[0], order[1], tuple(order[2:]))


# --- the table's options -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChouetteSettings:
    """The table's chouette options (stored with the session and shown to players).

    - ``single_cube``: the team shares one cube instead of one cube per member.
    - ``jacoby``: gammons and backgammons count single for a member whose cube was never turned
      (an automatic double turns it, RULES.md §2).
    - ``box_must_take_half``: when all the active team cubes are turned at once, the Box must take at
      least half of them or pass them all.
    - ``lone_taker_must_beaver``: when the Box doubles two or more members and only one of them
      stays in, he must beaver (so it needs ``beavers``).
    - ``beavers``: a member may beaver the Box's double, and the Box a member's double.
    - ``raccoons``: the doubler may raccoon a beaver (needs ``beavers``).
    - ``automatic_doubles``: how many ties on the opening roll double every cube (0: none).
    - ``box_partner_from``: the Box may take a partner from the crew when the line-up has at least this
      many players (3 or more; ``None``: never). The partner is optional: the Box may play alone.

    The defaults keep the behaviour of the first version (beavers allowed, a partner allowed from
    three players); a service should pass every option explicitly.

    Raises :class:`ChouetteError` ``bad_settings`` for an option of the wrong type, a negative limit,
    ``box_partner_from`` below 3 or ``lone_taker_must_beaver`` without beavers, and
    ``raccoons_without_beavers``. ``details['field']`` names the option.
    """

    single_cube: bool = False
    jacoby: bool = True
    box_must_take_half: bool = False
    lone_taker_must_beaver: bool = False
    beavers: bool = True
    raccoons: bool = False
    automatic_doubles: int = 0
    box_partner_from: int | None = 3

    def __post_init__(self) -> None:
        for name in ("single_cube", "jacoby", "box_must_take_half", "lone_taker_must_beaver", "beavers", "raccoons"):
            if not isinstance(getattr(self, name), bool):
                raise ChouetteError(f"{name} is true or false, not {getattr(self, name)!r}", code="bad_settings",
                                    field=name)
        if not _is_int(self.automatic_doubles) or self.automatic_doubles < 0:
            raise ChouetteError(
                f"the automatic doubles limit is 0 or more, not {self.automatic_doubles!r}",
                code="bad_settings", field="automatic_doubles",
            )
        if self.box_partner_from is not None and (not _is_int(self.box_partner_from) or self.box_partner_from < 3):
            raise ChouetteError(
                f"a Box partner comes from the crew, so the line-up needs 3 or more players, not {self.box_partner_from!r}",
                code="bad_settings", field="box_partner_from",
            )
        if self.raccoons and not self.beavers:
            raise ChouetteError("raccoons are allowed only where beavers are", code="raccoons_without_beavers",
                                field="raccoons")
        if self.lone_taker_must_beaver and not self.beavers:
            raise ChouetteError("a lone taker cannot be made to beaver at a table without beavers",
                                code="bad_settings", field="lone_taker_must_beaver")

    def box_partner_allowed(self, players: int) -> bool:
        """May the Box take a partner when the line-up has ``players`` players?"""
        return self.box_partner_from is not None and players >= self.box_partner_from


# --- one game's record ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MemberCube:
    """One team member's cube in one game: its face when his game ended, and how it ended.

    ``value`` is the stake: for a drop (either way) it is the value before the refused redouble.
    Raises :class:`ChouetteError` ``bad_cube_value`` unless ``value`` is a power of two (1, 2, 4...),
    ``bad_cube_end`` unless ``end`` is a :class:`CubeEnd` (or its string value).
    """

    player: Player
    value: int = 1
    end: CubeEnd = CubeEnd.PLAYED

    def __post_init__(self) -> None:
        _check_player(self.player, "cube owner")
        value = self.value
        if not _is_int(value) or value < 1 or value & (value - 1):
            raise ChouetteError(f"cube value {value!r} is not 1, 2, 4, 8...", code="bad_cube_value", player=self.player)
        try:
            object.__setattr__(self, "end", CubeEnd(self.end))
        except ValueError:
            raise ChouetteError(f"unknown cube ending {self.end!r}", code="bad_cube_end", player=self.player) from None


def _players_set(players: Iterable[Player], what: str) -> frozenset[Player]:
    try:
        result = frozenset(players)
    except TypeError:
        raise ChouetteError(f"{what}: {players!r} is not a set of players", code="bad_answer") from None
    for player in result:
        _check_player(player, what)
    return result


def _check_subset(part: frozenset[Player], whole: Iterable[Player], message: str) -> None:
    stray = part - set(whole)
    if stray:
        raise ChouetteError(f"{message}: {', '.join(sorted(map(repr, stray)))}", code="bad_answer")


@dataclass(frozen=True, slots=True)
class BoxDouble:
    """The Box doubled; ``answers`` are the members' ``(player, Answer)`` in the order given.

    A member who beavers may see the Box raccoon (``raccoons``); the exchange ends with the last
    redouble played on, or dropped (``redouble_drops``: the Box dropped the beaver, or, after a
    raccoon, the member dropped the raccoon).

    The order must run from the bottom of the line up to the Captain (checked against the line-up
    when the game is settled). Raises :class:`ChouetteError` ``bad_answer`` (an unknown answer, or a
    raccoon or redouble drop for someone who did not beaver) or ``duplicate_decision``.
    """

    answers: tuple[tuple[Player, Answer], ...]
    raccoons: frozenset[Player] = field(default_factory=frozenset)
    redouble_drops: frozenset[Player] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        answers = []
        try:
            for player, answer in self.answers:
                answers.append((player, Answer(answer)))
        except (TypeError, ValueError):
            raise ChouetteError(f"bad answers to the Box's double: {self.answers!r}", code="bad_answer") from None
        object.__setattr__(self, "answers", tuple(answers))
        _check_deciders(self.deciders)
        object.__setattr__(self, "raccoons", _players_set(self.raccoons, "raccoons"))
        object.__setattr__(self, "redouble_drops", _players_set(self.redouble_drops, "redouble drops"))
        beavered = [player for player, answer in self.answers if answer is Answer.BEAVER]
        _check_subset(self.raccoons, beavered, "the Box raccoons members who did not beaver")
        _check_subset(self.redouble_drops, beavered, "a redouble is dropped by members who did not beaver")

    @property
    def deciders(self) -> tuple[Player, ...]:
        """The members who answered, in order."""
        return tuple(player for player, _ in self.answers)


@dataclass(frozen=True, slots=True)
class TeamDouble:
    """Members of the team doubled the Box, in the order of ``doublers``; the Box passed the cubes of
    ``box_drops``, beavered those of ``beavers`` and took the others.

    After a Box beaver the member may raccoon (``raccoons``); the exchange ends with the last redouble
    played on or dropped (``redouble_drops``: the member dropped the beaver, or, after his raccoon,
    the Box dropped it).

    Raises :class:`ChouetteError` ``duplicate_decision``, or ``bad_answer`` when the Box drops or
    beavers a cube that was not offered (or both), or a raccoon or redouble drop has no beaver.
    """

    doublers: tuple[Player, ...]
    box_drops: frozenset[Player] = field(default_factory=frozenset)
    beavers: frozenset[Player] = field(default_factory=frozenset)
    raccoons: frozenset[Player] = field(default_factory=frozenset)
    redouble_drops: frozenset[Player] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        object.__setattr__(self, "doublers", tuple(self.doublers))
        _check_deciders(self.doublers)
        for name in ("box_drops", "beavers", "raccoons", "redouble_drops"):
            object.__setattr__(self, name, _players_set(getattr(self, name), name.replace("_", " ")))
        _check_subset(self.box_drops, self.doublers, "the Box drops cubes nobody offered")
        _check_subset(self.beavers, self.doublers, "the Box beavers cubes nobody offered")
        _check_subset(self.box_drops & self.beavers, (), "the Box both drops and beavers")
        _check_subset(self.raccoons, self.beavers, "members raccoon without a Box beaver")
        _check_subset(self.redouble_drops, self.beavers, "a redouble is dropped without a Box beaver")

    @property
    def deciders(self) -> tuple[Player, ...]:
        """The members who doubled, in order."""
        return self.doublers


CubeMoment: TypeAlias = BoxDouble | TeamDouble


def _check_deciders(deciders: tuple[Player, ...]) -> None:
    if not deciders:
        raise ChouetteError("a cube moment needs at least one member deciding", code="bad_answer")
    for player in deciders:
        _check_player(player, "decision by")
    if len(set(deciders)) != len(deciders):
        raise ChouetteError(f"a member decides twice at one cube moment: {deciders!r}", code="duplicate_decision")


# A sanity bound, far beyond any table's limit, so that a corrupt record cannot ask for 2**10**9.
_MOST_AUTOMATIC = 30


@dataclass(frozen=True, slots=True)
class ChouetteGame:
    """What happened in one chouette game.

    - ``winner``/``level``: who won the board and how (1 single, 2 gammon, 3 backgammon); ``winner``
      is ``None`` exactly when no member stayed in to the end (everyone dropped or was dropped).
    - ``cubes``: one :class:`MemberCube` per team member; a member without one played the whole game
      on a cube that was never turned by hand (``2 ** automatic``, ``PLAYED``).
    - ``box_partner``: a crew member who sits this game out on the Box's side (no cube), or ``None``.
    - ``log``: the cube moments in order (optional; when given, complete).
    - ``automatic``: how many automatic doubles the opening roll gave (every cube starts at
      ``2 ** automatic``).

    Raises :class:`ChouetteError` ``bad_winner``, ``bad_level``, ``bad_cube``, ``bad_log`` or
    ``bad_automatic`` for malformed fields; the checks against the line-up and the table happen in
    :func:`chouette_settle` and :func:`chouette_next_lineup`.
    """

    winner: Side | None
    level: int = SINGLE
    cubes: tuple[MemberCube, ...] = ()
    box_partner: Player | None = None
    log: tuple[CubeMoment, ...] = ()
    automatic: int = 0

    def __post_init__(self) -> None:
        if self.winner is not None:
            try:
                object.__setattr__(self, "winner", Side(self.winner))
            except ValueError:
                raise ChouetteError(
                    f"the board is won by the Box or the team, not {self.winner!r}", code="bad_winner"
                ) from None
        if not _is_int(self.level) or self.level not in LEVEL_NAMES:
            raise ChouetteError(f"level {self.level!r} is not 1, 2 or 3", code="bad_level")
        object.__setattr__(self, "cubes", tuple(self.cubes))
        for cube in self.cubes:
            if not isinstance(cube, MemberCube):
                raise ChouetteError(f"{cube!r} is not a member's cube record", code="bad_cube")
        object.__setattr__(self, "log", tuple(self.log))
        for moment in self.log:
            if not isinstance(moment, BoxDouble | TeamDouble):
                raise ChouetteError(f"{moment!r} is not a cube moment", code="bad_log")
        if not _is_int(self.automatic) or not 0 <= self.automatic <= _MOST_AUTOMATIC:
            raise ChouetteError(f"automatic doubles {self.automatic!r} is not a count from 0", code="bad_automatic")

    @property
    def start_value(self) -> int:
        """Every cube's face before the first double by hand."""
        return 2**self.automatic


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
    """Check the answer to one double against the table's options; return ``None`` if it stands.

    ``active`` is the team members still in the game when the double was offered.

    Raises :class:`ChouetteError`:

    - ``beavers_not_allowed`` / ``raccoons_not_allowed``: a beaver or a raccoon at a table without them;
    - ``single_cube_split``: with a single cube, the Box took some of the team's doubles and
      dropped others (one cube is taken or dropped as a whole);
    - ``box_must_take_half``: with that option, all active cubes were turned at once and the Box took
      fewer than half of them without passing them all;
    - ``lone_taker_must_beaver``: with that option, the Box doubled two or more members, exactly one
      stayed in and he took instead of beavering.
    """
    if isinstance(moment, TeamDouble):
        beavered = moment.beavers
    else:
        beavered = {player for player, answer in moment.answers if answer is Answer.BEAVER}
    if beavered and not settings.beavers:
        first = next(player for player in moment.deciders if player in beavered)
        raise ChouetteError(f"this table plays without beavers; {first!r}'s cube was beavered",
                            code="beavers_not_allowed", player=first)
    if moment.raccoons and not settings.raccoons:
        first = next(player for player in moment.deciders if player in moment.raccoons)
        raise ChouetteError(f"this table plays without raccoons; {first!r}'s cube was raccooned",
                            code="raccoons_not_allowed", player=first)
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

# Who owns a member's cube while his game goes on: nobody (centred), the Box or the member.
_CENTRED, _BOX_OWNS, _MEMBER_OWNS = 0, 1, 2


def _redouble(value: int, raccooned: bool, dropped: bool) -> tuple[int, bool]:
    """After a double at ``value`` was beavered: (the cube's face or the stake, whether the beaverer
    is the one who dropped). A beaver makes 4x, a raccoon 8x; a drop is of the last redouble."""
    if raccooned:
        return (4 * value, True) if dropped else (8 * value, False)
    return (2 * value, False) if dropped else (4 * value, False)


def _replay_log(
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
                check_cube_answer(moment, [player for player, cube in cubes.items() if cube[2] is None], settings)
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
    return {player: (value, end or CubeEnd.PLAYED) for player, (value, _, end) in cubes.items()}


def _check_partner(lineup: Lineup, partner: Player | None, settings: ChouetteSettings | None) -> None:
    if partner is None:
        return
    if partner not in lineup.crew:
        raise ChouetteError(
            f"the Box partner must be a crew member (not the Box or the Captain), not {partner!r}",
            code="bad_box_partner",
            player=partner,
        )
    if settings is not None and not settings.box_partner_allowed(len(lineup.players)):
        when = "never" if settings.box_partner_from is None else f"from {settings.box_partner_from} players"
        raise ChouetteError(
            f"this table allows a Box partner {when}; the line-up has {len(lineup.players)}",
            code="box_partner_not_allowed", player=partner,
        )


def _member_cubes(
    lineup: Lineup, game: ChouetteGame, settings: ChouetteSettings | None
) -> dict[Player, MemberCube]:
    """Every playing member's cube, in team order (defaults filled in), after checking the record.

    Without ``settings`` only the record's own consistency is checked, not the table's options.
    """
    partner = game.box_partner
    _check_partner(lineup, partner, settings)
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
        derived = _replay_log(lineup, game.log, members, start, settings)
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
    # A cube still at 1 was never turned, by hand or automatically (RULES.md §2, §5).
    if settings.jacoby and cube.value == 1:
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
    cubes = _member_cubes(lineup, game, settings)
    return _rotate(lineup, _captain_won(lineup, game, cubes))


def _rotate(lineup: Lineup, captain_won: bool) -> Lineup:
    if captain_won:
        team = (*lineup.crew, lineup.box)
        return Lineup(lineup.captain, team[0], team[1:])
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
        if _is_int(record):
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
            if not _is_int(amount):
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


# --- the ledger ----------------------------------------------------------------------------------


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


EXACT_SETTLE_LIMIT = 14
"""Up to this many non-zero balances :func:`settle_up` is exact (a subset search over 2**n groups)."""


def _sorted_players(players: Iterable[Player]) -> list[Player]:
    players = list(players)
    try:
        return sorted(players)
    except TypeError:  # mixed id types: order them by type, then by their text
        return sorted(players, key=lambda player: (type(player).__name__, repr(player)))


def _settle_group(balances: list[tuple[Player, int]]) -> list[tuple[Player, Player, int]]:
    """Largest debtor pays largest creditor until all are square: at most len(balances) - 1
    transfers, since every transfer squares at least one of them and the last squares two."""
    rank = {player: index for index, (player, _) in enumerate(balances)}
    debts = {player: -amount for player, amount in balances if amount < 0}
    credits = {player: amount for player, amount in balances if amount > 0}
    transfers = []
    while debts:
        payer = max(debts, key=lambda player: (debts[player], -rank[player]))
        payee = max(credits, key=lambda player: (credits[player], -rank[player]))
        amount = min(debts[payer], credits[payee])
        transfers.append((payer, payee, amount))
        for book, player in ((debts, payer), (credits, payee)):
            book[player] -= amount
            if not book[player]:
                del book[player]
    return transfers


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Split the indexes of ``amounts`` (summing to 0) into as many zero-sum groups as possible.

    Each group of k balances needs k - 1 transfers and no fewer, so the most groups gives the fewest
    transfers. best[mask] is the most complete zero-sum groups that the members of ``mask`` form when
    added one at a time; a group closes whenever the running set sums to zero.
    """
    n = len(amounts)
    size = 1 << n
    total = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
        best[mask] = most + (total[mask] == 0)
    # Walk back from the full set, taking members off in an order that keeps best[] on track; the
    # running set summed to zero exactly where one group ends and the next begins.
    order, mask = [], size - 1
    while mask:
        closes = total[mask] == 0
        for index in range(n):
            bit = 1 << index
            if mask & bit and best[mask ^ bit] + closes == best[mask]:
                order.append(index)
                mask ^= bit
                break
    order.reverse()
    groups, current, running = [], [], 0
    for index in order:
        current.append(index)
        running += amounts[index]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def settle_up(ledger: Mapping[Player, int]) -> list[tuple[Player, Player, int]]:
    """Who pays whom at the end of a session: ``[(payer, payee, points), ...]`` with the fewest transfers.

    With up to :data:`EXACT_SETTLE_LIMIT` non-zero balances the answer is minimal: the balances are
    split into as many zero-sum groups as possible (a subset search), each settled within itself in
    one transfer fewer than its size. Beyond that a greedy settlement (the largest debtor pays the
    largest creditor) is used, which never needs more than n - 1 transfers but is not always minimal.
    The order is deterministic: by payer, then payee (players sorted, mixed id types by type and text).

    Raises :class:`ChouetteError` ``bad_ledger`` for an amount that is not whole points and
    ``ledger_unbalanced`` when the ledger does not sum to zero.
    """
    for player, amount in ledger.items():
        if not _is_int(amount):
            raise ChouetteError(f"{player!r}'s balance {amount!r} is not whole points", code="bad_ledger", player=player)
    if sum(ledger.values()) != 0:
        raise ChouetteError(f"the ledger sums to {sum(ledger.values())}, not 0", code="ledger_unbalanced")
    players = _sorted_players(player for player, amount in ledger.items() if amount)
    balances = [(player, ledger[player]) for player in players]
    if len(balances) <= EXACT_SETTLE_LIMIT:
        groups = _zero_sum_groups([amount for _, amount in balances])
        transfers = [move for group in groups for move in _settle_group([balances[index] for index in group])]
    else:
        transfers = _settle_group(balances)
    rank = {player: index for index, player in enumerate(players)}
    return sorted(transfers, key=lambda move: (rank[move[0]], rank[move[1]]))


# --- JSON ----------------------------------------------------------------------------------------

_T = TypeVar("_T")


def _path(prefix: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


def _bad_json(path: str, message: str) -> ChouetteError:
    return ChouetteError(f"{path or 'record'}: {message}", code="bad_json", path=path)


def _at(path: str, make: Callable[[], _T]) -> _T:
    """Build a value, adding ``path`` to the rule it breaks (the code stays the rule's own)."""
    try:
        return make()
    except ChouetteError as broken:
        details = {**broken.details, "path": path}
        raise ChouetteError(f"{path or 'record'}: {broken.message}", code=broken.code, **details) from None


def _object(data: object, path: str, required: Iterable[str], optional: Iterable[str] = ()) -> dict:
    if not isinstance(data, dict):
        raise _bad_json(path, f"expected an object, not {type(data).__name__}")
    required = tuple(required)
    unknown = sorted(set(data) - set(required) - set(optional), key=str)
    if unknown:
        raise _bad_json(path, f"unknown field(s) {', '.join(map(str, unknown))}")
    for name in required:
        if name not in data:
            raise _bad_json(_path(path, name), "missing")
    return data


def _list(data: object, path: str) -> list:
    if not isinstance(data, list):
        raise _bad_json(path, f"expected a list, not {type(data).__name__}")
    return data


def _json_int(data: object, path: str, minimum: int = 0) -> int:
    if not _is_int(data) or data < minimum:
        raise _bad_json(path, f"expected a whole number from {minimum}, not {data!r}")
    return data


def _json_player(data: object, path: str, lineup: Lineup | None) -> Player:
    if not (isinstance(data, str) or _is_int(data)):
        raise ChouetteError(f"{path}: a player id is a string or an integer, not {data!r}", code="bad_player",
                            path=path)
    if lineup is not None and data not in lineup.players:
        raise ChouetteError(f"{path}: {data!r} is not in the line-up", code="unknown_player", path=path, player=data)
    return data


def _json_players(data: object, path: str, lineup: Lineup | None) -> list[Player]:
    return [_json_player(item, _path(path, index), lineup) for index, item in enumerate(_list(data, path))]


def _out_player(player: Player) -> Player:
    if not (isinstance(player, str) or _is_int(player)):
        raise ChouetteError(f"player id {player!r} has no JSON form (use strings or integers)", code="bad_json",
                            path="")
    return player


def _ordered(players: frozenset[Player], order: Iterable[Player]) -> list[Player]:
    return [_out_player(player) for player in order if player in players]


def moment_to_json(moment: CubeMoment) -> dict:
    """The JSON form of a cube moment (see :func:`game_to_json`); sets list players in deciding order."""
    if isinstance(moment, BoxDouble):
        return {
            "type": "box_double",
            "answers": [[_out_player(player), str(answer)] for player, answer in moment.answers],
            "raccoons": _ordered(moment.raccoons, moment.deciders),
            "redouble_drops": _ordered(moment.redouble_drops, moment.deciders),
        }
    return {
        "type": "team_double",
        "doublers": [_out_player(player) for player in moment.doublers],
        "box_drops": _ordered(moment.box_drops, moment.doublers),
        "beavers": _ordered(moment.beavers, moment.doublers),
        "raccoons": _ordered(moment.raccoons, moment.doublers),
        "redouble_drops": _ordered(moment.redouble_drops, moment.doublers),
    }


def moment_from_json(data: object, path: str = "", lineup: Lineup | None = None) -> CubeMoment:
    """Parse a cube moment; raises :class:`ChouetteError` (``bad_json`` or the broken rule's code)
    whose ``details['path']`` names the field, below ``path``."""
    if not isinstance(data, dict):
        raise _bad_json(path, f"expected an object, not {type(data).__name__}")
    kind = data.get("type")
    if kind == "box_double":
        _object(data, path, ("type", "answers"), ("raccoons", "redouble_drops"))
        answers = []
        for index, item in enumerate(_list(data["answers"], _path(path, "answers"))):
            where = _path(_path(path, "answers"), index)
            if not isinstance(item, list) or len(item) != 2:
                raise _bad_json(where, f"expected [player, answer], not {item!r}")
            if item[1] not in tuple(Answer):
                raise _bad_json(_path(where, 1), f"expected take, drop or beaver, not {item[1]!r}")
            answers.append((_json_player(item[0], _path(where, 0), lineup), Answer(item[1])))
        sets = {name: _json_players(data.get(name, []), _path(path, name), lineup)
                for name in ("raccoons", "redouble_drops")}
        return _at(path, lambda: BoxDouble(tuple(answers), **{name: frozenset(v) for name, v in sets.items()}))
    if kind == "team_double":
        names = ("box_drops", "beavers", "raccoons", "redouble_drops")
        _object(data, path, ("type", "doublers"), names)
        doublers = _json_players(data["doublers"], _path(path, "doublers"), lineup)
        sets = {name: _json_players(data.get(name, []), _path(path, name), lineup) for name in names}
        return _at(path, lambda: TeamDouble(tuple(doublers), **{name: frozenset(v) for name, v in sets.items()}))
    raise _bad_json(_path(path, "type"), f"expected box_double or team_double, not {kind!r}")


def game_to_json(game: ChouetteGame) -> dict:
    """The JSON form of a game record (a quick result, or the game a full record gives)::

        {"winner": "box" | "team" | null, "level": 1 | 2 | 3, "automatic": 0,
         "cubes": [{"player": 7, "value": 2, "end": "played" | "member_dropped" | "box_dropped"}, ...],
         "box_partner": 9 | null,
         "log": [{"type": "box_double", "answers": [[8, "drop"], [7, "beaver"]],
                  "raccoons": [7], "redouble_drops": []},
                 {"type": "team_double", "doublers": [8, 7], "box_drops": [8], "beavers": [],
                  "raccoons": [], "redouble_drops": []}]}

    Player ids must be strings or integers (``bad_json`` otherwise).
    """
    return {
        "winner": None if game.winner is None else str(game.winner),
        "level": game.level,
        "automatic": game.automatic,
        "cubes": [{"player": _out_player(cube.player), "value": cube.value, "end": str(cube.end)} for cube in game.cubes],
        "box_partner": None if game.box_partner is None else _out_player(game.box_partner),
        "log": [moment_to_json(moment) for moment in game.log],
    }


def game_from_json(data: object, lineup: Lineup | None = None, *, path: str = "") -> ChouetteGame:
    """Parse a game record from :func:`game_to_json`'s form. Only ``winner`` is required; ``level``
    defaults to 1, ``automatic`` to 0, the lists to empty, ``box_partner`` to null.

    With ``lineup``, every player named must be in it. Raises :class:`ChouetteError` with
    ``details['path']`` naming the field (``cubes[2].value``): ``bad_json`` for the wrong shape,
    ``bad_player``/``unknown_player`` for a player id, or the code of the rule a value breaks
    (``bad_cube_value``, ``bad_level``...). The game is checked against a line-up and a table only
    when it is settled.
    """
    _object(data, path, ("winner",), ("level", "automatic", "cubes", "box_partner", "log"))
    winner = data["winner"]
    if winner is not None and winner not in tuple(Side):
        raise _bad_json(_path(path, "winner"), f"expected box, team or null, not {winner!r}")
    level = data.get("level", SINGLE)
    if not _is_int(level) or level not in LEVEL_NAMES:
        raise _bad_json(_path(path, "level"), f"expected 1 (single), 2 (gammon) or 3 (backgammon), not {level!r}")
    automatic = _json_int(data.get("automatic", 0), _path(path, "automatic"))
    if automatic > _MOST_AUTOMATIC:
        raise ChouetteError(f"{_path(path, 'automatic')}: {automatic} automatic doubles is not a real count",
                            code="bad_automatic", path=_path(path, "automatic"))
    cubes = []
    for index, item in enumerate(_list(data.get("cubes", []), _path(path, "cubes"))):
        where = _path(_path(path, "cubes"), index)
        _object(item, where, ("player", "value"), ("end",))
        player = _json_player(item["player"], _path(where, "player"), lineup)
        value = _json_int(item["value"], _path(where, "value"), 1)
        end = item.get("end", "played")
        if end not in tuple(CubeEnd):
            raise _bad_json(_path(where, "end"), f"expected played, member_dropped or box_dropped, not {end!r}")
        cubes.append(_at(_path(where, "value"), lambda player=player, value=value, end=end: MemberCube(player, value, end)))
    partner = data.get("box_partner")
    if partner is not None:
        partner = _json_player(partner, _path(path, "box_partner"), lineup)
    log = [moment_from_json(item, _path(_path(path, "log"), index), lineup)
           for index, item in enumerate(_list(data.get("log", []), _path(path, "log")))]
    return _at(path, lambda: ChouetteGame(winner, level, tuple(cubes), partner, tuple(log), automatic))


def lineup_to_json(lineup: Lineup) -> dict:
    """``{"box": 1, "captain": 2, "crew": [3, 4]}``."""
    return {"box": _out_player(lineup.box), "captain": _out_player(lineup.captain),
            "crew": [_out_player(player) for player in lineup.crew]}


def lineup_from_json(data: object, *, path: str = "") -> Lineup:
    """Parse :func:`lineup_to_json`'s form; raises :class:`ChouetteError` with ``details['path']``."""
    _object(data, path, ("box", "captain"), ("crew",))
    box = _json_player(data["box"], _path(path, "box"), None)
    captain = _json_player(data["captain"], _path(path, "captain"), None)
    crew = _json_players(data.get("crew", []), _path(path, "crew"), None)
    return _at(path, lambda: Lineup(box, captain, tuple(crew)))


# --- the session ---------------------------------------------------------------------------------


@runtime_checkable
class RecordedGame(Protocol):
    """A game record other than a :class:`ChouetteGame` (``engine.chouette_log.FullGame``): it gives
    its :class:`ChouetteGame` once it knows the line-up and the table."""

    def chouette_game(self, lineup: Lineup, settings: ChouetteSettings) -> ChouetteGame: ...

    def to_json(self) -> dict: ...


@dataclass(frozen=True, slots=True)
class StartStep:
    """The session starts: from the opening roll-off's ``rolloff`` rounds (see
    :func:`lineup_from_rolloff`), or from a ``lineup`` the table agreed on; exactly one of them."""

    rolloff: tuple[Rolls, ...] | None = None
    lineup: Lineup | None = None
    void: bool = False

    def __post_init__(self) -> None:
        if (self.rolloff is None) == (self.lineup is None):
            raise ChouetteError("a start step has a roll-off or a line-up, not both or neither", code="bad_step")
        if self.rolloff is not None:
            object.__setattr__(self, "rolloff", tuple(self.rolloff))


@dataclass(frozen=True, slots=True)
class JoinStep:
    """``player`` joins at the bottom of the line between games."""

    player: Player
    void: bool = False


@dataclass(frozen=True, slots=True)
class LeaveStep:
    """``player`` leaves between games (see :func:`lineup_leave`); his ledger stays."""

    player: Player
    void: bool = False


@dataclass(frozen=True, slots=True)
class GameStep:
    """A game: its ``record`` (a :class:`ChouetteGame`, or a full record from ``engine.chouette_log``).

    ``lineup``, when given, is the line-up the game was played with; replaying checks that the steps
    before still lead to it, so that a correction to an earlier step cannot silently give this
    record's players other roles.
    """

    record: ChouetteGame | RecordedGame
    lineup: Lineup | None = None
    void: bool = False


Step: TypeAlias = StartStep | JoinStep | LeaveStep | GameStep


@dataclass(frozen=True, slots=True)
class SessionGame:
    """One game of a replayed session: its step's index, the line-up it was played with, the game
    and its settlement."""

    step: int
    lineup: Lineup
    game: ChouetteGame
    settlement: Settlement


@dataclass(frozen=True, slots=True)
class Session:
    """A replayed session: the line-up for the next game (``None`` before the start), every game
    that counts, and the ledger (every player who has sat at the table, in order of arrival; it
    sums to zero)."""

    lineup: Lineup | None
    games: tuple[SessionGame, ...]
    ledger: Mapping[Player, int]


def _step_error(index: int, error: ChouetteError) -> ChouetteError:
    details = {**error.details, "step": index}
    return ChouetteError(f"step {index}: {error.message}", code=error.code, **details)


def replay_session(steps: Sequence[Step], settings: ChouetteSettings) -> Session:
    """Fold a session's steps into its current state: the line-up, every game's settlement, the ledger.

    The first step that counts is a :class:`StartStep`; then :class:`JoinStep`, :class:`LeaveStep` and
    :class:`GameStep` in any order. Voided steps are skipped as if they had never been recorded. Each
    game is settled against the line-up the steps before it lead to and moves the line-up on by the
    rotation. Pure and deterministic: a service calls it after every change.

    Cost, measured once on the development machine (2 cores, busy), not asserted by any test: a
    session of 200 quick games at a five-player table, each with a two-moment cube log, replays in
    4-8 ms once parsed, 16-27 ms including :func:`step_from_json` on the stored JSON text. A full
    record (``engine.chouette_log.FullGame``) also replays its board, about 3 ms for a board of
    100-300 actions, so 200 full records take about 0.6 s: a service that replays on every change
    should keep, next to a full record, the :class:`ChouetteGame` it gives (:func:`game_to_json`)
    and replay from that.

    Raises :class:`ChouetteError` at the first step that does not fit, its ``details['step']`` the
    step's 0-based index and its code the broken rule's: ``session_not_started`` (a step before the
    start), ``session_started`` (a second start), ``bad_step`` (not a step), ``lineup_mismatch`` (a
    game step's recorded line-up is not the one the steps lead to), the roll-off's and
    :func:`lineup_leave`'s codes, ``duplicate_player`` for a join, and :func:`chouette_settle`'s
    codes for a game (e.g. ``unknown_player`` for a record naming someone who has left).
    """
    lineup: Lineup | None = None
    ledger: dict[Player, int] = {}
    games = []
    for index, step in enumerate(steps):
        if getattr(step, "void", False) is True:
            continue
        try:
            if isinstance(step, StartStep):
                if lineup is not None:
                    raise ChouetteError("the session has already started", code="session_started")
                lineup = step.lineup if step.lineup is not None else lineup_from_rolloff(step.rolloff)
                ledger.update((player, 0) for player in lineup.players)
                continue
            if not isinstance(step, JoinStep | LeaveStep | GameStep):
                raise ChouetteError(f"{step!r} is not a session step", code="bad_step")
            if lineup is None:
                raise ChouetteError("the session starts with the roll-off", code="session_not_started")
            if isinstance(step, JoinStep):
                lineup = lineup.join(step.player)
                ledger.setdefault(step.player, 0)
            elif isinstance(step, LeaveStep):
                lineup = lineup_leave(lineup, step.player)
            else:
                if step.lineup is not None and step.lineup != lineup:
                    raise ChouetteError(
                        f"the game was recorded with the line-up {lineup_to_json(step.lineup)} but the steps "
                        f"before it lead to {lineup_to_json(lineup)}",
                        code="lineup_mismatch",
                    )
                record = step.record
                if not isinstance(record, ChouetteGame | RecordedGame):
                    raise ChouetteError(f"{record!r} is not a game record", code="bad_step")
                game = record if isinstance(record, ChouetteGame) else record.chouette_game(lineup, settings)
                settlement = chouette_settle(lineup, game, settings)
                games.append(SessionGame(index, lineup, game, settlement))
                for player, amount in settlement.amounts.items():
                    ledger[player] += amount
                # chouette_settle has checked the record: rotate by its result, not by checking again.
                lineup = _rotate(lineup, settlement.captain_won)
        except ChouetteError as error:
            raise _step_error(index, error) from None
    return Session(lineup, tuple(games), MappingProxyType(ledger))


def record_to_json(record: ChouetteGame | RecordedGame) -> dict:
    """A game record's JSON: :func:`game_to_json` for a quick record, the record's own for a full one."""
    return game_to_json(record) if isinstance(record, ChouetteGame) else record.to_json()


def record_from_json(data: object, lineup: Lineup | None = None, *, path: str = "") -> ChouetteGame | RecordedGame:
    """Parse a game record: a full record (it has a ``board_log``, see ``engine.chouette_log``) or a
    quick one (:func:`game_from_json`). Errors as :func:`game_from_json`."""
    if isinstance(data, dict) and "board_log" in data:
        # chouette_log builds on this module, so it is imported only when a full record turns up.
        from .chouette_log import full_game_from_json

        return full_game_from_json(data, lineup, path=path)
    return game_from_json(data, lineup, path=path)


def step_to_json(step: Step) -> dict:
    """The JSON form of a session step; ``"void": true`` is added to a voided step::

        {"type": "start", "rolloff": [[[1, 6], [2, 6], [3, 2]], [[1, 3], [2, 5]]]}
        {"type": "start", "lineup": {"box": 1, "captain": 2, "crew": [3]}}
        {"type": "join", "player": 4}
        {"type": "leave", "player": 2}
        {"type": "game", "record": {...game record...}, "lineup": {...}}   # "lineup" optional

    Raises :class:`ChouetteError` ``bad_step`` for something that is not a step.
    """
    if isinstance(step, StartStep):
        if step.lineup is not None:
            data: dict = {"type": "start", "lineup": lineup_to_json(step.lineup)}
        else:
            rounds = [rolls.items() if isinstance(rolls, Mapping) else rolls for rolls in step.rolloff]
            data = {"type": "start", "rolloff": [[[_out_player(player), die] for player, die in rolls] for rolls in rounds]}
    elif isinstance(step, JoinStep | LeaveStep):
        data = {"type": "join" if isinstance(step, JoinStep) else "leave", "player": _out_player(step.player)}
    elif isinstance(step, GameStep):
        data = {"type": "game", "record": record_to_json(step.record)}
        if step.lineup is not None:
            data["lineup"] = lineup_to_json(step.lineup)
    else:
        raise ChouetteError(f"{step!r} is not a session step", code="bad_step")
    if step.void:
        data["void"] = True
    return data


def step_from_json(data: object, *, path: str = "") -> Step:
    """Parse a session step from :func:`step_to_json`'s form. Players are checked against the line-up
    only when the session is replayed. Raises :class:`ChouetteError` with ``details['path']``
    (``bad_json`` for the wrong shape, or the broken rule's code)."""
    if not isinstance(data, dict):
        raise _bad_json(path, f"expected an object, not {type(data).__name__}")
    kind = data.get("type")
    void = data.get("void", False)
    if not isinstance(void, bool):
        raise _bad_json(_path(path, "void"), f"expected true or false, not {void!r}")
    if kind == "start":
        _object(data, path, ("type",), ("rolloff", "lineup", "void"))
        if "lineup" in data:
            lineup = lineup_from_json(data["lineup"], path=_path(path, "lineup"))
            return _at(path, lambda: StartStep(lineup=lineup, void=void, rolloff=data.get("rolloff")))
        rounds = []
        for number, rolls in enumerate(_list(data.get("rolloff"), _path(path, "rolloff"))):
            where = _path(_path(path, "rolloff"), number)
            pairs = []
            for index, pair in enumerate(_list(rolls, where)):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise _bad_json(_path(where, index), f"expected [player, die], not {pair!r}")
                pairs.append((_json_player(pair[0], _path(_path(where, index), 0), None), pair[1]))
            rounds.append(tuple(pairs))
        return StartStep(rolloff=tuple(rounds), void=void)
    if kind in ("join", "leave"):
        _object(data, path, ("type", "player"), ("void",))
        player = _json_player(data["player"], _path(path, "player"), None)
        return (JoinStep if kind == "join" else LeaveStep)(player, void)
    if kind == "game":
        _object(data, path, ("type", "record"), ("lineup", "void"))
        lineup = None if data.get("lineup") is None else lineup_from_json(data["lineup"], path=_path(path, "lineup"))
        return GameStep(record_from_json(data["record"], path=_path(path, "record")), lineup, void)
    raise _bad_json(_path(path, "type"), f"expected start, join, leave or game, not {kind!r}")


__all__ = [
    "BACKGAMMON",
    "EXACT_SETTLE_LIMIT",
    "GAMMON",
    "SINGLE",
    "Answer",
    "BoxDouble",
    "ChouetteGame",
    "ChouetteSettings",
    "CubeEnd",
    "CubeMoment",
    "CubeRecord",
    "GameStep",
    "JoinStep",
    "LeaveStep",
    "Lineup",
    "MemberCube",
    "Player",
    "RecordedGame",
    "Rolls",
    "Session",
    "SessionGame",
    "Settlement",
    "Side",
    "StartStep",
    "Step",
    "TeamDouble",
    "check_cube_answer",
    "chouette_next_lineup",
    "chouette_quick_game",
    "chouette_settle",
    "game_from_json",
    "game_to_json",
    "ledger_add",
    "lineup_from_json",
    "lineup_from_rolloff",
    "lineup_leave",
    "lineup_to_json",
    "moment_from_json",
    "moment_to_json",
    "record_from_json",
    "record_to_json",
    "replay_session",
    "settle_up",
    "step_from_json",
    "step_to_json",
]
