"""The line-up: the Box, the Captain and the crew in order (RULES.md §7).

The team reads top to bottom: Captain first, then the crew in order; the last crew member is **the
bottom of the line**, where newcomers join and where a beaten Captain or a beaten Box goes. The first
line-up comes from the opening roll-off (:func:`lineup_from_rolloff`); players join
(:meth:`Lineup.join`) and leave (:func:`lineup_leave`) between games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from ..errors import ChouetteError
from .base import Player, check_player, is_int


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
        check_player(self.box, "Box")
        check_player(self.captain, "Captain")
        for member in self.crew:
            check_player(member, "crew member")
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
            check_player(player, "roller")
            if not is_int(die) or not 1 <= die <= 6:
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


__all__ = [
    "Lineup",
    "Rolls",
    "lineup_from_rolloff",
    "lineup_leave",
]
