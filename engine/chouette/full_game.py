"""Chouette full games: the board's own log plus the crew's cube moments (RULES.md §2-§5, §7).

What a full record contains
---------------------------
- ``board_log``: every action on the one board, as engine actions (``engine.actions``, JSON form
  there), side 0 the Box and side 1 the team: the opening roll (with its ties), every roll and play,
  resignations, and the **Captain's own cube**: his doubles, the Box's doubles to him, and the
  answers, beavers, raccoons and drops of that cube. Once the Captain is out of the game on the cube
  (he dropped, or the Box dropped his double) the board goes on with checker play only, rolled by
  whoever captains the rest of the game.
- ``crew_moments``: every other member's cube decisions, each a :class:`~engine.chouette.BoxDouble`
  or :class:`~engine.chouette.TeamDouble` placed ``before`` a board action (its 0-based index in
  ``board_log``; ``len(board_log)`` when it is the last thing that happened). A moment comes at the
  doubler's turn before he rolls. When the Captain's cube is turned at the same moment (the Box
  doubles him too, or he doubles with the crew), the crew moment is placed before that board
  ``Double``: the crew decide first and the Captain last, as §7 orders it, and the two make one
  moment for the house options. One crew moment per turn and kind.
- ``box_partner``: the crew member who sits the game out on the Box's side, or ``None``.

:func:`chouette_full_game` replays the board as a money game with the table's options (the Captain's
cube checked by ``engine.game`` like any money game's), takes the winner and the level from the
board's end, derives every member's cube from the moments (the Captain's from the board) starting at
the automatic doubles the opening ties gave, and returns the :class:`~engine.chouette.ChouetteGame`
with the complete cube log, checked like any other record. When nobody is left in the game the board
stops there: winner ``None``.

Errors
------
Besides the codes of :mod:`engine.chouette`, a :class:`~engine.errors.ChouetteError` with one of:
``board_log`` (an action ``engine.game`` refuses; ``details['rule']`` names its rule),
``moment_timing`` (a crew moment that is not at the doubler's turn before his roll, or that falls
inside the Captain's cube exchange, before the opening roll or after the board ended),
``split_moment`` (one turn's cube decisions given as two moments), ``captain_cube_on_board`` (a crew
moment deciding for the Captain), ``board_unfinished`` (the board stops while members are still in),
``board_over`` (board actions after everyone left the game). Errors about a place in the record
carry ``details['action_index']``, the 0-based index in ``board_log``; ``member_out`` is raised for
a Captain's cube action after he left the game, and ``bad_log`` for a malformed crew moment.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..actions import SINGLE, Action, Beaver, Double, Drop, Raccoon, Take, action_from_dict, action_to_dict
from ..errors import ChouetteError, GameLogError
from ..game import BEAVERED, DOUBLED, OVER, RACCOONED, TO_PLAY, TO_ROLL, Frame, Game, GameRules
from ..moves import legal_plays
from .base import Player
from .codec import (
    bad_json,
    json_int,
    json_list,
    json_object,
    json_path,
    json_player,
    moment_from_json,
    moment_to_json,
    player_to_json,
)
from .lineup import Lineup
from .record import Answer, BoxDouble, ChouetteGame, CubeEnd, CubeMoment, MemberCube, Side, TeamDouble
from .settings import ChouetteSettings
from .settle import check_box_partner, member_cubes, replay_cube_log

BOX_SIDE, TEAM_SIDE = 0, 1
"""The board's sides: the Box is side 0, the team side 1."""

_CUBE_ACTIONS = (Double, Take, Drop, Beaver, Raccoon)
# engine.game's rules for beavers and raccoons are the chouette's table options.
_RULE_CODES = {"no_beavers": "beavers_not_allowed", "no_raccoons": "raccoons_not_allowed"}


class CrewMoment(NamedTuple):
    """A crew cube moment placed before board action ``before`` (0-based; ``len(board_log)`` at the end)."""

    before: int
    moment: CubeMoment


@dataclass(frozen=True, slots=True)
class FullGame:
    """A full game record (see the module docstring); :meth:`chouette_game` checks it and gives the
    :class:`~engine.chouette.ChouetteGame`. A session's :class:`~engine.chouette.GameStep` takes it
    as its record."""

    board_log: tuple[Action, ...]
    crew_moments: tuple[CrewMoment, ...] = ()
    box_partner: Player | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "board_log", tuple(self.board_log))
        # Well-formed pairs become CrewMoments; anything else is left for chouette_game to refuse.
        moments = tuple(
            CrewMoment(*item) if isinstance(item, tuple) and len(item) == 2 else item for item in self.crew_moments
        )
        object.__setattr__(self, "crew_moments", moments)

    def chouette_game(self, lineup: Lineup, settings: ChouetteSettings) -> ChouetteGame:
        """:func:`chouette_full_game` of this record."""
        return chouette_full_game(lineup, self.board_log, self.crew_moments, settings, box_partner=self.box_partner)

    def to_json(self) -> dict:
        """:func:`full_game_to_json` of this record."""
        return full_game_to_json(self)


def _board_error(index: int, refused: GameLogError) -> ChouetteError:
    rule = refused.details.get("rule", refused.code)
    details = {key: refused.details[key] for key in ("move", "side", "action") if key in refused.details}
    return ChouetteError(f"board action {index}: {refused.message}", code=_RULE_CODES.get(rule, "board_log"),
                         action_index=index, rule=rule, **details)


def _timing(before: int, message: str) -> ChouetteError:
    return ChouetteError(f"crew moment before board action {before}: {message}", code="moment_timing",
                         action_index=before)


def _on_roll(frame: Frame, side: int) -> bool:
    """Is ``side`` at the start of his turn, before rolling (where a double is offered)?"""
    if frame.phase == TO_ROLL:
        return frame.to_act == side
    # A roll the other side could not play leaves nothing in the log: his turn has passed.
    return frame.phase == TO_PLAY and frame.to_act != side and not legal_plays(frame.position, frame.dice)


def _checked_moments(crew_moments: Iterable, board_length: int, captain: Player) -> list[CrewMoment]:
    moments = []
    for number, item in enumerate(crew_moments):
        if not isinstance(item, tuple) or len(item) != 2:
            raise ChouetteError(f"crew moment {number}: {item!r} is not (before, moment)", code="bad_log")
        before, moment = item
        if isinstance(before, bool) or not isinstance(before, int) or not 0 <= before <= board_length:
            raise ChouetteError(f"crew moment {number}: {before!r} is not a place in the board log (0..{board_length})",
                                code="bad_log")
        if not isinstance(moment, BoxDouble | TeamDouble):
            raise ChouetteError(f"crew moment {number}: {moment!r} is not a cube moment", code="bad_log")
        if captain in moment.deciders:
            raise ChouetteError(
                f"crew moment before board action {before}: the Captain's cube is on the board log",
                code="captain_cube_on_board", action_index=before, player=captain,
            )
        moments.append(CrewMoment(before, moment))
    # Sorting is stable: moments at one place keep their order (and are then refused as split).
    return sorted(moments, key=lambda item: item.before)


def _replay_captain(board: Sequence[Action], rules: GameRules) -> tuple[Game, int]:
    """The Captain's own game: the board with its cube actions, up to his leaving it on the cube.
    Returns the game and the index of the first board action after his game (``len(board)`` if he
    stayed to the end)."""
    game = Game(rules)
    for index, action in enumerate(board):
        try:
            game.apply(action)
        except GameLogError as refused:
            raise _board_error(index, refused) from None
        if game.result is not None and game.result.ending == "drop":
            for later in range(index + 1, len(board)):
                if isinstance(board[later], _CUBE_ACTIONS):
                    raise ChouetteError(
                        f"board action {later}: the Captain left the game at action {index}; the team's other "
                        f"cubes are crew moments",
                        code="member_out", action_index=later,
                    )
            return game, index + 1
    return game, len(board)


def _replay_checkers(board: Sequence[Action], rules: GameRules) -> tuple[Game, list[int]]:
    """The board without cube actions, which goes on after the Captain leaves. Returns the game and,
    for every board index (and one past the end), how many checker actions come before it."""
    game = Game(rules)
    before = []
    for index, action in enumerate(board):
        before.append(len(game.actions))
        if isinstance(action, _CUBE_ACTIONS):
            continue
        try:
            game.apply(action)
        except GameLogError as refused:
            raise _board_error(index, refused) from None
    before.append(len(game.actions))
    return game, before


def _captain_exchanges(board: Sequence[Action], end: int, captain: Player) -> dict[int, tuple[int, CubeMoment]]:
    """Every cube exchange on the Captain's cube, by the index of its ``Double``: (index of its last
    action, the exchange as a cube moment). ``engine.game`` has already checked the sequence."""
    exchanges = {}
    for index in range(end):
        action = board[index]
        if not isinstance(action, Double):
            continue
        last = index + 1
        if last >= end or not isinstance(board[last], Take | Drop | Beaver):
            raise ChouetteError(f"board action {index}: the double is never answered", code="board_unfinished",
                                action_index=index)
        answer, raccoons, drops = board[last], set(), set()
        if isinstance(answer, Beaver):
            if last + 1 < end and isinstance(board[last + 1], Raccoon):
                last += 1
                raccoons.add(captain)
            if last + 1 < end and isinstance(board[last + 1], Drop):
                last += 1
                drops.add(captain)
        if action.side == BOX_SIDE:
            kind = {Take: Answer.TAKE, Drop: Answer.DROP, Beaver: Answer.BEAVER}[type(answer)]
            moment: CubeMoment = BoxDouble(((captain, kind),), raccoons, drops)
        else:
            moment = TeamDouble(
                (captain,),
                box_drops={captain} if isinstance(answer, Drop) else set(),
                beavers={captain} if isinstance(answer, Beaver) else set(),
                raccoons=raccoons,
                redouble_drops=drops,
            )
        exchanges[index] = (last, moment)
    return exchanges


def _merge(crew: CubeMoment, captain: CubeMoment) -> CubeMoment:
    """One moment: the crew decide first, the Captain last."""
    if isinstance(crew, BoxDouble):
        return BoxDouble((*crew.answers, *captain.answers), crew.raccoons | captain.raccoons,
                         crew.redouble_drops | captain.redouble_drops)
    return TeamDouble((*crew.doublers, *captain.doublers), crew.box_drops | captain.box_drops,
                      crew.beavers | captain.beavers, crew.raccoons | captain.raccoons,
                      crew.redouble_drops | captain.redouble_drops)


def chouette_full_game(
    lineup: Lineup,
    board_log: Sequence[Action],
    crew_moments: Iterable[CrewMoment | tuple[int, CubeMoment]],
    settings: ChouetteSettings,
    *,
    box_partner: Player | None = None,
) -> ChouetteGame:
    """The :class:`~engine.chouette.ChouetteGame` of a full record (see the module docstring).

    Replays ``board_log`` as a money game under the table's options (beavers, raccoons, automatic
    doubles), the Captain's cube being the board's; checks that every crew moment comes at the
    doubler's turn before his roll and outside the Captain's cube exchanges; merges a crew moment with
    the Captain's exchange at the same board ``Double``; derives every member's cube from the moments;
    takes the winner and level from the board's end (``None`` when nobody stayed in). The returned
    game carries the complete cube log and the automatic doubles, and is checked against ``lineup``
    and ``settings`` as :func:`~engine.chouette.chouette_settle` would.

    Raises :class:`ChouetteError` with the codes in the module docstring and those of
    :func:`~engine.chouette.chouette_settle`; every error tied to a place in the record carries
    ``details['action_index']`` (0-based in ``board_log``).
    """
    board = list(board_log)
    for index, action in enumerate(board):
        if not isinstance(action, Action):
            raise ChouetteError(f"board action {index}: {action!r} is not a game action", code="board_log",
                                action_index=index, rule="bad_action")
    moments = _checked_moments(crew_moments, len(board), lineup.captain)
    check_box_partner(lineup, box_partner, settings)
    rules = GameRules(beavers=settings.beavers, raccoons=settings.raccoons,
                      automatic_doubles=settings.automatic_doubles)
    captain_game, captain_end = _replay_captain(board, rules)
    checkers, checkers_before = _replay_checkers(board, rules)
    exchanges = _captain_exchanges(board, captain_end, lineup.captain)

    turns = {checkers_before[index]: (index, type(moment)) for index, (_, moment) in exchanges.items()}
    crew_turns: set[tuple[int, type]] = set()
    log: list[tuple[int, int, CubeMoment]] = []  # (board index, index after the moment, moment)
    for before, moment in moments:
        if before < len(captain_game.frames) and captain_game.frames[before].phase in (DOUBLED, BEAVERED, RACCOONED):
            raise _timing(before, "it falls inside the Captain's cube exchange; place it before the Captain's double")
        turn = checkers_before[before]
        frame = checkers.frames[turn] if turn < len(checkers.frames) else checkers.frame()
        side = BOX_SIDE if isinstance(moment, BoxDouble) else TEAM_SIDE
        if not _on_roll(frame, side):
            doubler = "the Box" if side == BOX_SIDE else "the team"
            when = "the board is over" if frame.phase == OVER else f"it is not {doubler}'s turn to double"
            raise _timing(before, f"{when} (a double comes at the doubler's turn, before he rolls)")
        kind = type(moment)
        captain_turn = turns.get(turn)
        if captain_turn is not None and captain_turn[1] is kind and captain_turn[0] != before:
            raise ChouetteError(
                f"crew moment before board action {before}: the Captain's cube was turned in the same turn at action "
                f"{captain_turn[0]}; the crew decide at that moment, before him, so place it there",
                code="split_moment", action_index=before,
            )
        if (turn, kind) in crew_turns:
            raise ChouetteError(
                f"crew moment before board action {before}: one turn's cube decisions are one moment",
                code="split_moment", action_index=before,
            )
        crew_turns.add((turn, kind))
        captain_exchange = exchanges.get(before)
        if captain_exchange is not None and isinstance(captain_exchange[1], kind):
            last, captain_moment = exchanges.pop(before)
            log.append((before, last + 1, _merge(moment, captain_moment)))
        else:
            log.append((before, before, moment))
    log.extend((index, last + 1, moment) for index, (last, moment) in exchanges.items())
    log.sort(key=lambda item: item[0])

    members = [player for player in lineup.team if player != box_partner]
    automatic = checkers.automatic
    derived = replay_cube_log(lineup, [moment for _, _, moment in log], members, 2**automatic, settings,
                              [index for index, _, _ in log])
    if any(end is CubeEnd.PLAYED for _, end in derived.values()):
        result = checkers.result
        if result is None:
            raise ChouetteError("the board log stops while members are still in the game", code="board_unfinished",
                                action_index=len(board))
        winner, level = (Side.BOX if result.winner == BOX_SIDE else Side.TEAM), result.level
    else:
        last_out = log[-1][1]
        if len(board) > last_out:
            raise ChouetteError(
                f"board action {last_out}: everyone had left the game, so the board was over",
                code="board_over", action_index=last_out,
            )
        winner, level = None, SINGLE
    cubes = tuple(MemberCube(player, *derived[player]) for player in members)
    game = ChouetteGame(winner, level, cubes, box_partner, tuple(moment for _, _, moment in log), automatic)
    member_cubes(lineup, game, settings)
    return game


# --- JSON ----------------------------------------------------------------------------------------


def full_game_to_json(record: FullGame) -> dict:
    """The JSON form of a full record::

        {"board_log": [{"type": "roll", "side": 0, "dice": [3, 1]}, ...],   # engine.actions' form
         "crew_moments": [{"before": 6, "moment": {"type": "box_double", "answers": [[4, "drop"]],
                                                   "raccoons": [], "redouble_drops": []}}],
         "box_partner": null}
    """
    return {
        "board_log": [action_to_dict(action) for action in record.board_log],
        "crew_moments": [{"before": item.before, "moment": moment_to_json(item.moment)} for item in record.crew_moments],
        "box_partner": None if record.box_partner is None else player_to_json(record.box_partner),
    }


def full_game_from_json(data: object, lineup: Lineup | None = None, *, path: str = "") -> FullGame:
    """Parse :func:`full_game_to_json`'s form (``crew_moments`` and ``box_partner`` optional). With
    ``lineup``, every player named must be in it. Raises :class:`ChouetteError` with
    ``details['path']`` naming the field (``board_log[3]``, ``crew_moments[0].moment.answers[1]``)."""
    json_object(data, path, ("board_log",), ("crew_moments", "box_partner"))
    actions = []
    for index, item in enumerate(json_list(data["board_log"], json_path(path, "board_log"))):
        try:
            actions.append(action_from_dict(item, index))
        except GameLogError as refused:
            raise bad_json(json_path(json_path(path, "board_log"), index), refused.message) from None
    moments = []
    for index, item in enumerate(json_list(data.get("crew_moments", []), json_path(path, "crew_moments"))):
        where = json_path(json_path(path, "crew_moments"), index)
        json_object(item, where, ("before", "moment"))
        before = json_int(item["before"], json_path(where, "before"))
        moments.append(CrewMoment(before, moment_from_json(item["moment"], json_path(where, "moment"), lineup)))
    partner = data.get("box_partner")
    if partner is not None:
        partner = json_player(partner, json_path(path, "box_partner"), lineup)
    return FullGame(tuple(actions), tuple(moments), partner)


__all__ = [
    "BOX_SIDE",
    "TEAM_SIDE",
    "CrewMoment",
    "FullGame",
    "chouette_full_game",
    "full_game_from_json",
    "full_game_to_json",
]
