"""The session: its recorded steps, their JSON form, and the replay into line-up, games and ledger.

:func:`replay_session` folds a session's recorded steps (start, join, leave, game; voided steps
skipped) into the current line-up, every game's settlement and the ledger. Steps have a JSON form
(:func:`step_to_json`, :func:`step_from_json`) for storage; a game step's record is a quick one
(:func:`~engine.chouette.codec.game_to_json`'s form) or a full one
(:mod:`engine.chouette.full_game`), told apart by :func:`record_from_json`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol, TypeAlias, runtime_checkable

from ..errors import ChouetteError
from .base import Player, is_int
from .codec import (
    at_path,
    bad_json,
    game_from_json,
    game_to_json,
    json_int,
    json_list,
    json_object,
    json_path,
    json_player,
    lineup_from_json,
    lineup_to_json,
    player_to_json,
)
from .full_game import full_game_from_json
from .lineup import Lineup, Rolls, lineup_from_rolloff, lineup_leave
from .record import ChouetteGame, Settlement
from .settings import ChouetteSettings
from .settle import chouette_settle, partner_of, rotate


@runtime_checkable
class RecordedGame(Protocol):
    """A game record other than a :class:`ChouetteGame` (:class:`~engine.chouette.full_game.FullGame`):
    it gives its :class:`ChouetteGame` once it knows the line-up and the table."""

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
    """A game: its ``record`` (a :class:`ChouetteGame`, or a full record,
    :class:`~engine.chouette.full_game.FullGame`).

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


@dataclass(frozen=True, slots=True)
class SessionState:
    """Where a session stands after its first ``steps`` steps (voided ones included): the line-up for
    the next game (``None`` before the start) and the ledger (every player who has sat, in order of
    arrival). The empty state is a session before its first step. What :func:`session_advance` folds
    new steps into."""

    steps: int = 0
    lineup: Lineup | None = None
    ledger: Mapping[Player, int] = field(default_factory=lambda: MappingProxyType({}))


def error_at_step(index: int, error: ChouetteError) -> ChouetteError:
    """A copy of ``error`` that names the session's step ``index`` (counted from 0 over all its
    steps): the same code and details plus ``details['step']``, the message prefixed ``step
    <index>:``. A replay and a correction name the step that went wrong alike."""
    details = {**error.details, "step": index}
    return ChouetteError(f"step {index}: {error.message}", code=error.code, **details)


def replay_session(steps: Sequence[Step], settings: ChouetteSettings) -> Session:
    """Fold a session's steps into its current state: the line-up, every game's settlement, the ledger.

    The first step that counts is a :class:`StartStep`; then :class:`JoinStep`, :class:`LeaveStep` and
    :class:`GameStep` in any order. Voided steps are skipped as if they had never been recorded. Each
    game is settled against the line-up the steps before it lead to and moves the line-up on by the
    rotation. Pure and deterministic. A service that keeps the :class:`SessionState` after the last
    step need not replay them all for the next one: :func:`session_advance` folds only the new steps.

    Cost, measured once on the development machine (2 cores, busy), not asserted by any test: a
    session of 200 quick games at a five-player table, each with a two-moment cube log, replays in
    4-8 ms once parsed, 16-27 ms including :func:`step_from_json` on the stored JSON text. A full
    record (:class:`~engine.chouette.full_game.FullGame`) also replays its board, about 3 ms for a
    board of 100-300 actions, so 200 full records take about 0.6 s: a service that replays on every
    change should keep, next to a full record, the :class:`ChouetteGame` it gives
    (:func:`game_to_json`) and replay from that.

    Raises :class:`ChouetteError` at the first step that does not fit, its ``details['step']`` the
    step's 0-based index and its code the broken rule's: ``session_not_started`` (a step before the
    start), ``session_started`` (a second start), ``bad_step`` (not a step), ``lineup_mismatch`` (a
    game step's recorded line-up is not the one the steps lead to), the roll-off's and
    :func:`lineup_leave`'s codes, ``duplicate_player`` for a join, and :func:`chouette_settle`'s
    codes for a game (e.g. ``unknown_player`` for a record naming someone who has left).
    """
    state, games = session_advance(SessionState(), steps, settings)
    return Session(state.lineup, games, state.ledger)


def session_advance(
    state: SessionState, steps: Sequence[Step], settings: ChouetteSettings
) -> tuple[SessionState, tuple[SessionGame, ...]]:
    """Fold more ``steps`` into a session's ``state``: the state after them, and the games among them
    that count (each with its step's index in the whole session, counted from ``state.steps``).

    :func:`replay_session` is this fold from the empty :class:`SessionState`, so folding a session's
    steps in several parts gives exactly the state and the games one replay gives. Its cost is the new
    steps', whatever came before: a service recording game N+1 from the state after game N settles one
    game, not N+1. Whether ``state`` really is where the steps before lead is the caller's to know.

    Raises :class:`ChouetteError` as :func:`replay_session` (``details['step']`` the index in the whole
    session); ``state`` is not changed.
    """
    lineup = state.lineup
    ledger = dict(state.ledger)
    games = []
    index = state.steps
    for index, step in enumerate(steps, start=state.steps):
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
                lineup = rotate(lineup, settlement.captain_won, partner_of(game, settings))
        except ChouetteError as error:
            raise error_at_step(index, error) from None
    return SessionState(state.steps + len(steps), lineup, MappingProxyType(ledger)), tuple(games)


def state_to_json(state: SessionState) -> dict:
    """The JSON form of a :class:`SessionState`, for a service to store next to the steps::

        {"steps": 12, "lineup": {"box": 1, "captain": 2, "crew": [3]}, "ledger": [[1, -4], [2, 2], [3, 2]]}

    (``lineup`` null before the start; the ledger in order of arrival). Raises :class:`ChouetteError`
    ``bad_json`` for a player id with no JSON form.
    """
    return {
        "steps": state.steps,
        "lineup": None if state.lineup is None else lineup_to_json(state.lineup),
        "ledger": [[player_to_json(player), points] for player, points in state.ledger.items()],
    }


def state_from_json(data: object, *, path: str = "") -> SessionState:
    """Parse :func:`state_to_json`'s form. Raises :class:`ChouetteError` with ``details['path']``
    (``bad_json`` for the wrong shape, a player twice in the ledger, or a ledger that does not sum
    to zero)."""
    json_object(data, path, ("steps", "lineup", "ledger"), ())
    steps = json_int(data["steps"], json_path(path, "steps"))
    lineup = None if data["lineup"] is None else lineup_from_json(data["lineup"], path=json_path(path, "lineup"))
    ledger: dict[Player, int] = {}
    where = json_path(path, "ledger")
    for number, item in enumerate(json_list(data["ledger"], where)):
        here = json_path(where, number)
        if not isinstance(item, list) or len(item) != 2 or not is_int(item[1]):
            raise bad_json(here, f"expected [player, points], not {item!r}")
        player = json_player(item[0], json_path(here, 0), None)
        if player in ledger:
            raise bad_json(here, f"player {player!r} is in the ledger twice")
        ledger[player] = item[1]
    if sum(ledger.values()) != 0:
        raise bad_json(where, "the ledger does not sum to zero")
    return SessionState(steps, lineup, MappingProxyType(ledger))


def record_to_json(record: ChouetteGame | RecordedGame) -> dict:
    """A game record's JSON: :func:`game_to_json` for a quick record, the record's own for a full one."""
    return game_to_json(record) if isinstance(record, ChouetteGame) else record.to_json()


def record_from_json(data: object, lineup: Lineup | None = None, *, path: str = "") -> ChouetteGame | RecordedGame:
    """Parse a game record: a full record (it has a ``board_log``, see
    :func:`~engine.chouette.full_game.full_game_from_json`) or a quick one (:func:`game_from_json`).
    Errors as :func:`game_from_json`."""
    if isinstance(data, dict) and "board_log" in data:
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
            data = {"type": "start", "rolloff": [[[player_to_json(player), die] for player, die in rolls] for rolls in rounds]}
    elif isinstance(step, JoinStep | LeaveStep):
        data = {"type": "join" if isinstance(step, JoinStep) else "leave", "player": player_to_json(step.player)}
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
        raise bad_json(path, f"expected an object, not {type(data).__name__}")
    kind = data.get("type")
    void = data.get("void", False)
    if not isinstance(void, bool):
        raise bad_json(json_path(path, "void"), f"expected true or false, not {void!r}")
    if kind == "start":
        json_object(data, path, ("type",), ("rolloff", "lineup", "void"))
        if "lineup" in data:
            lineup = lineup_from_json(data["lineup"], path=json_path(path, "lineup"))
            return at_path(path, lambda: StartStep(lineup=lineup, void=void, rolloff=data.get("rolloff")))
        rounds = []
        for number, rolls in enumerate(json_list(data.get("rolloff"), json_path(path, "rolloff"))):
            where = json_path(json_path(path, "rolloff"), number)
            pairs = []
            for index, pair in enumerate(json_list(rolls, where)):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise bad_json(json_path(where, index), f"expected [player, die], not {pair!r}")
                pairs.append((json_player(pair[0], json_path(json_path(where, index), 0), None), pair[1]))
            rounds.append(tuple(pairs))
        return StartStep(rolloff=tuple(rounds), void=void)
    if kind in ("join", "leave"):
        json_object(data, path, ("type", "player"), ("void",))
        player = json_player(data["player"], json_path(path, "player"), None)
        return (JoinStep if kind == "join" else LeaveStep)(player, void)
    if kind == "game":
        json_object(data, path, ("type", "record"), ("lineup", "void"))
        lineup = None if data.get("lineup") is None else lineup_from_json(data["lineup"], path=json_path(path, "lineup"))
        return GameStep(record_from_json(data["record"], path=json_path(path, "record")), lineup, void)
    raise bad_json(json_path(path, "type"), f"expected start, join, leave or game, not {kind!r}")


__all__ = [
    "GameStep",
    "JoinStep",
    "LeaveStep",
    "RecordedGame",
    "Session",
    "SessionGame",
    "SessionState",
    "StartStep",
    "Step",
    "record_from_json",
    "record_to_json",
    "replay_session",
    "session_advance",
    "state_from_json",
    "state_to_json",
    "step_from_json",
    "step_to_json",
]
