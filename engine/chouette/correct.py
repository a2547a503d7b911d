"""A correction that really corrects: after a game of a session is amended or voided, every later
game's line-up is recomputed (RULES.md §7's rotation, from the corrected steps) instead of refusing
the correction because the later games were recorded with the old one.

Each later game recorded with another line-up than the corrected steps now lead to is, by
:func:`session_correct`:

- **moved** to the recomputed line-up when the same people still play it in the same seats that
  decide the game: the same Box and the same Captain (only the crew's order differs), and its
  record still settles against the new line-up (a cube log names answers in crew order, so a new
  order can break it);
- otherwise **to amend** (:class:`GameToAmend`): its Box or Captain is no longer who the line-up
  puts there (``box_changed``, ``captain_changed``), or its record does not settle against the new
  line-up (the engine's code). The director amends it with the correction: the caller replaces its
  record (``GameStep(record, lineup)`` with the recomputed line-up) and corrects again.

So that every game to amend is listed at once, not only the first, a game to amend is taken to end
as recorded (the Captain won or lost as the record says against its own line-up) and the line-up
rotates by that from the recomputed one; the list says which games to look at, and the amended
records decide.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import ChouetteError
from .lineup import Lineup
from .record import ChouetteGame
from .session import GameStep, SessionGame, SessionState, Step, error_at_step, session_advance
from .settings import ChouetteSettings
from .settle import chouette_settle, partner_of, rotate

BOX_CHANGED, CAPTAIN_CHANGED, PLAYERS_CHANGED = "box_changed", "captain_changed", "players_changed"


@dataclass(frozen=True, slots=True)
class GameToAmend:
    """A later game the corrected steps no longer let stand: its step's index, the line-up it was
    recorded with, the line-up the corrected steps lead to, and why (``code``: ``box_changed``,
    ``captain_changed``, ``players_changed``, or the code its record fails with on the new line-up)."""

    step: int
    recorded: Lineup
    lineup: Lineup
    code: str


@dataclass(frozen=True, slots=True)
class Correction:
    """The session after a correction: ``steps`` with every later game that stands pinned to its
    recomputed line-up, the ``state`` and ``games`` they lead to (meaningful only when nothing is
    to amend), ``lineups`` (each game step's index -> the line-up it is played with now), ``moved``
    (the indexes of the games whose line-up changed and still stand) and ``to_amend``."""

    steps: tuple[Step, ...]
    state: SessionState
    games: tuple[SessionGame, ...]
    lineups: Mapping[int, Lineup]
    moved: tuple[int, ...]
    to_amend: tuple[GameToAmend, ...]

    @property
    def stands(self) -> bool:
        """Whether every later game stands as recorded (moved or not): nothing to amend."""
        return not self.to_amend


def _why(recorded: Lineup, lineup: Lineup) -> str | None:
    """Why a game recorded with ``recorded`` cannot be moved to ``lineup`` as it is (None: it can,
    if its record still settles)."""
    if set(recorded.players) != set(lineup.players):
        return PLAYERS_CHANGED
    if recorded.box != lineup.box:
        return BOX_CHANGED
    if recorded.captain != lineup.captain:
        return CAPTAIN_CHANGED
    return None


def session_correct(steps: Sequence[Step], settings: ChouetteSettings) -> Correction:
    """Fold a corrected session's ``steps`` (the corrected step already in place: an amended
    game pinned to the line-up it was played with, or a voided one), recomputing the line-up of
    every later game recorded with another one (see the module docstring). Pure; ``steps`` is not
    changed. A session whose games all fit their recorded line-ups folds as :func:`replay_session`,
    and a corrected one with nothing to amend as :func:`replay_session` of the steps with their
    line-ups recomputed.

    Raises :class:`ChouetteError` as :func:`~engine.chouette.session.session_advance` for a step
    other than a game's (a start, join or leave that no longer fits), or a game that fits its
    line-up and still is refused (``details['step']`` the 0-based index); a game whose line-up
    moved and is refused is listed in ``to_amend`` instead.
    """
    state = SessionState()
    out: list[Step] = []
    games: list[SessionGame] = []
    lineups: dict[int, Lineup] = {}
    moved: list[int] = []
    to_amend: list[GameToAmend] = []
    for index, step in enumerate(steps):
        current = state.lineup
        if not isinstance(step, GameStep) or step.void or current is None:
            state, played = session_advance(state, [step], settings)
            out.append(step)
            games.extend(played)
            continue
        lineups[index] = current
        recorded = step.lineup
        if recorded is None or recorded == current:
            state, played = session_advance(state, [step], settings)
            out.append(step)
            games.extend(played)
            continue
        code = _why(recorded, current)
        if code is None:
            try:
                state, played = session_advance(state, [GameStep(step.record, current)], settings)
            except ChouetteError as error:
                code = error.code
            else:
                out.append(GameStep(step.record, current))
                games.extend(played)
                moved.append(index)
                continue
        to_amend.append(GameToAmend(index, recorded, current, code))
        out.append(step)
        won, partner = _captain_won(index, step, recorded, settings)
        state = SessionState(index + 1, rotate(current, won, partner),
                             MappingProxyType(dict(state.ledger)))
    return Correction(tuple(out), state, tuple(games), MappingProxyType(lineups), tuple(moved), tuple(to_amend))


def _captain_won(index: int, step: GameStep, recorded: Lineup, settings: ChouetteSettings) -> tuple[bool, object]:
    """How a game to amend ended as recorded: whether its Captain won, against its own line-up, and
    the Box partner the rotation keeps in place (the partner convention; ``None`` otherwise)."""
    try:
        record = step.record
        game = record if isinstance(record, ChouetteGame) else record.chouette_game(recorded, settings)
        return chouette_settle(recorded, game, settings).captain_won, partner_of(game, settings)
    except ChouetteError as error:
        raise error_at_step(index, error) from None


__all__ = ["BOX_CHANGED", "CAPTAIN_CHANGED", "PLAYERS_CHANGED", "Correction", "GameToAmend", "session_correct"]
