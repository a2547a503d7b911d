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

The package
-----------
One module per part, each importing only modules above it in this list, at the top (no import
cycle). Callers import from ``engine.chouette`` itself, which re-exports the whole API
(``__all__``); the helpers the modules share with one another (``base.check_player``,
``codec.json_path``, ``settle.member_cubes``...) stay in their modules.

- :mod:`~engine.chouette.base`: a player's id (:data:`Player`) and the checks every part shares;
- :mod:`~engine.chouette.lineup`: the line-up (:class:`Lineup`), the opening roll-off
  (:func:`lineup_from_rolloff`), a player leaving (:func:`lineup_leave`);
- :mod:`~engine.chouette.settings`: the table's options (:class:`ChouetteSettings`);
- :mod:`~engine.chouette.record`: one game's record (:class:`ChouetteGame`, its members' cubes
  :class:`MemberCube`, its cube moments :class:`BoxDouble` and :class:`TeamDouble`), a game's
  :class:`Settlement`, and the table's options applied to one answer to a double
  (:func:`check_cube_answer`);
- :mod:`~engine.chouette.settle`: a game checked against the line-up and the table, settled
  (:func:`chouette_settle`), the rotation (:func:`chouette_next_lineup`), a checked quick result
  (:func:`chouette_quick_game`);
- :mod:`~engine.chouette.ledger`: the running ledger (:func:`ledger_add`) and who pays whom at the
  end with the fewest transfers (:func:`settle_up`);
- :mod:`~engine.chouette.codec`: the JSON form of line-ups, cube moments and game records
  (:func:`game_to_json`, :func:`game_from_json`...);
- :mod:`~engine.chouette.full_game`: a full record, the board's own log plus the crew's cube
  moments (:class:`FullGame`, :func:`chouette_full_game`);
- :mod:`~engine.chouette.session`: a session's steps, their JSON form (:func:`step_to_json`,
  :func:`step_from_json`) and :func:`replay_session`, which folds them into the current line-up,
  every game's settlement and the ledger; :func:`session_advance` folds more steps into a kept
  :class:`SessionState` (with its JSON form, :func:`state_to_json`, :func:`state_from_json`);
- :mod:`~engine.chouette.correct`: a correction (a game amended or voided) folded with every later
  game's line-up recomputed, and the later games the director must amend with it
  (:func:`session_correct`, :class:`Correction`, :class:`GameToAmend`).

A game can be recorded three ways: a :class:`ChouetteGame` built directly, a checked quick result
(:func:`chouette_quick_game`: winner, level and each member's cube), or a full game from the board's
own log (:func:`chouette_full_game`). All three end as a :class:`ChouetteGame`, which
:func:`chouette_settle` settles and :func:`chouette_next_lineup` rotates by.

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
``beavers_not_allowed``, ``raccoons_not_allowed``, and the house rules' ``three_handed_both_cubes``,
``box_must_take_captain``, ``captain_alone_must_beaver`` (answers to a double), ``box_partner_not_next``
(the partner convention); ``ledger_unbalanced``,
``bad_ledger`` (ledger); ``bad_json`` (JSON form; ``details['path']`` names the field, e.g.
``cubes[2].value``); ``bad_step``, ``session_not_started``, ``session_started``, ``lineup_mismatch``
(session; ``details['step']`` is the step's 0-based index). A full game
(:mod:`engine.chouette.full_game`) adds its own.
"""

from ..actions import BACKGAMMON, GAMMON, SINGLE
from .base import Player
from .codec import game_from_json, game_to_json, lineup_from_json, lineup_to_json, moment_from_json, moment_to_json
from .correct import Correction, GameToAmend, session_correct
from .full_game import (
    BOX_SIDE,
    TEAM_SIDE,
    CrewMoment,
    FullGame,
    chouette_full_game,
    full_game_from_json,
    full_game_to_json,
)
from .ledger import EXACT_SETTLE_LIMIT, ledger_add, settle_up
from .lineup import Lineup, Rolls, lineup_from_rolloff, lineup_leave
from .record import (
    Answer,
    BoxDouble,
    ChouetteGame,
    CubeEnd,
    CubeMoment,
    MemberCube,
    Settlement,
    Side,
    TeamDouble,
    check_cube_answer,
)
from .session import (
    GameStep,
    JoinStep,
    LeaveStep,
    RecordedGame,
    Session,
    SessionGame,
    SessionState,
    StartStep,
    Step,
    record_from_json,
    record_to_json,
    replay_session,
    session_advance,
    state_from_json,
    state_to_json,
    step_from_json,
    step_to_json,
)
from .settings import ChouetteSettings
from .settle import CubeRecord, chouette_next_lineup, chouette_quick_game, chouette_settle

__all__ = [
    "BACKGAMMON",
    "BOX_SIDE",
    "EXACT_SETTLE_LIMIT",
    "GAMMON",
    "SINGLE",
    "TEAM_SIDE",
    "Answer",
    "BoxDouble",
    "ChouetteGame",
    "ChouetteSettings",
    "Correction",
    "CrewMoment",
    "CubeEnd",
    "CubeMoment",
    "CubeRecord",
    "FullGame",
    "GameStep",
    "GameToAmend",
    "JoinStep",
    "LeaveStep",
    "Lineup",
    "MemberCube",
    "Player",
    "RecordedGame",
    "Rolls",
    "Session",
    "SessionGame",
    "SessionState",
    "Settlement",
    "Side",
    "StartStep",
    "Step",
    "TeamDouble",
    "check_cube_answer",
    "chouette_full_game",
    "chouette_next_lineup",
    "chouette_quick_game",
    "chouette_settle",
    "full_game_from_json",
    "full_game_to_json",
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
    "session_advance",
    "session_correct",
    "settle_up",
    "state_from_json",
    "state_to_json",
    "step_from_json",
    "step_to_json",
]
