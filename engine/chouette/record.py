"""One game's record: who won the board, every member's cube, the cube moments (RULES.md §2, §5, §7).

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
(``ChouetteGame.automatic``): every member's cube starts at ``2 ** automatic``. An automatic double
turns the cube, so under Jacoby a gammon after one counts (see :mod:`engine.chouette.settle`).

Cube moments
------------
At one cube moment the team members decide from the bottom of the line up to the Captain. A game
may carry the log of its cube moments (:class:`BoxDouble`, :class:`TeamDouble`), beavers and
raccoons included, so that this order, cube ownership, the table's options and the house options of
§7 can be checked. The log is optional, but when given it must be complete: replaying it from the
starting cubes must give exactly the recorded cubes (who is out, how, and every face); that check is
:mod:`engine.chouette.settle`'s. :func:`check_cube_answer` applies the table's options to the answer
to one double.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeAlias

from ..actions import LEVEL_NAMES, SINGLE
from ..errors import ChouetteError
from .base import Player, check_player, is_int
from .settings import ChouetteSettings


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
        check_player(self.player, "cube owner")
        value = self.value
        if not is_int(value) or value < 1 or value & (value - 1):
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
        check_player(player, what)
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
        check_player(player, "decision by")
    if len(set(deciders)) != len(deciders):
        raise ChouetteError(f"a member decides twice at one cube moment: {deciders!r}", code="duplicate_decision")


MOST_AUTOMATIC = 30
"""The most automatic doubles a record may carry: a sanity bound, far beyond any table's limit, so
that a corrupt record cannot ask for 2**10**9."""


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
        if not is_int(self.level) or self.level not in LEVEL_NAMES:
            raise ChouetteError(f"level {self.level!r} is not 1, 2 or 3", code="bad_level")
        object.__setattr__(self, "cubes", tuple(self.cubes))
        for cube in self.cubes:
            if not isinstance(cube, MemberCube):
                raise ChouetteError(f"{cube!r} is not a member's cube record", code="bad_cube")
        object.__setattr__(self, "log", tuple(self.log))
        for moment in self.log:
            if not isinstance(moment, BoxDouble | TeamDouble):
                raise ChouetteError(f"{moment!r} is not a cube moment", code="bad_log")
        if not is_int(self.automatic) or not 0 <= self.automatic <= MOST_AUTOMATIC:
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


def check_cube_answer(
    moment: CubeMoment,
    active: Iterable[Player],
    settings: ChouetteSettings,
    *,
    initial: Iterable[Player] | None = None,
    players: int | None = None,
    captain: Player | None = None,
    box_took: Iterable[Player] = (),
) -> None:
    """Check the answer to one double against the table's options; return ``None`` if it stands.

    ``active`` is the team members still in the game when the double was offered. The house rules
    need to know more of the game, which :func:`~engine.chouette.settle.replay_cube_log` passes:
    ``initial`` the members whose cube was still centred (``None``: every cube offered is), ``players``
    how many sit at the table (``None``: not three), ``captain`` the original Captain and ``box_took``
    the members whose double the Box took earlier in the game.

    Raises :class:`ChouetteError`:

    - ``beavers_not_allowed`` / ``raccoons_not_allowed``: a beaver or a raccoon at a table without them;
    - ``single_cube_split``: with a single cube, the Box took some of the team's doubles and
      dropped others (one cube is taken or dropped as a whole);
    - ``box_must_take_half``: with that option, all active cubes were turned at once and the Box took
      fewer than half of them without passing them all;
    - ``lone_taker_must_beaver``: with that option, the Box doubled two or more members, exactly one
      stayed in and he took instead of beavering;
    - ``three_handed_both_cubes``: with that option at a table of three, both team cubes were turned
      at once and the Box took one and passed the other;
    - ``box_must_take_captain``: with that option, the Box passed the Captain's cube while taking
      another member's at the same moment, not having taken another member's cube before;
    - ``captain_alone_must_beaver``: with that option, the Box doubled the Captain with other
      members, the Captain alone stayed in and took instead of beavering.

    ``box_must_take_half`` with ``take_half_initial_only`` applies only when every cube turned was
    centred (an initial cube).
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
        initial_only = initial is None or set(moment.doublers) <= set(initial)
        if (settings.box_must_take_half and all_at_once and taken > 0 and 2 * taken < offered
                and (initial_only or not settings.take_half_initial_only)):
            raise ChouetteError(
                f"house rule: all team cubes were turned at once, so the Box must take at least half of them "
                f"or pass all; it took {taken} of {offered}",
                code="box_must_take_half",
            )
        if settings.three_handed_both_cubes and players == 3 and offered == 2 and taken == 1:
            raise ChouetteError(
                "house rule: at a table of three, the Box takes both cubes turned at once or passes both",
                code="three_handed_both_cubes",
            )
        if (settings.box_must_take_captain and captain is not None and captain in moment.box_drops
                and taken > 0 and not set(box_took) - {captain}):
            raise ChouetteError(
                f"house rule: the Box must take the Captain's cube when he takes another's; {captain!r}'s was passed",
                code="box_must_take_captain", player=captain,
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
        if (
            settings.captain_alone_must_beaver
            and captain is not None
            and len(moment.answers) >= 2
            and stayed == [(captain, Answer.TAKE)]
        ):
            raise ChouetteError(
                f"house rule: a Captain who takes alone must beaver; {captain!r} took alone",
                code="captain_alone_must_beaver",
                player=captain,
            )


__all__ = [
    "MOST_AUTOMATIC",
    "Answer",
    "BoxDouble",
    "ChouetteGame",
    "CubeEnd",
    "CubeMoment",
    "MemberCube",
    "Settlement",
    "Side",
    "TeamDouble",
    "check_cube_answer",
]
