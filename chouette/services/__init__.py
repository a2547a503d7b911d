"""Chouette tables (RULES.md §7): starting a session from the opening roll-off, players joining at
the bottom and leaving, games recorded (a quick result or the full record of the board), corrected
(amended or voided) and the session ended with its settlement, or reopened by its director.

An ended session is closed to every change (a game recorded, amended or voided, a join or a leave,
the house rules): its settlement is final, refused with Conflict ``chouette_ended`` saying who can
reopen it, until one of the club's owners or organisers reopens it (``chouette_reopen``).

Every rule is the engine's (``engine.chouette``, full records included): the services only turn
rows into engine values and back. A session is a list of steps, and a step is written only if the
whole session still replays with it. The line-up, each game's amounts and the ledger are never
stored to be edited: :mod:`chouette.selectors` recomputes them from the steps.

The session keeps the state its steps lead to (``ChouetteSession.kept``: the engine's
``SessionState`` with the version, settings, step count, last step number and game count it was
computed from), written with every change. A new step at the end (a game, a join, a leave) is
folded into that state by ``engine.chouette.session_advance``: recording game N+1 settles one game,
not N+1, and reads no step row.

A correction (amend, void) really corrects: every later game's line-up is recomputed from the
corrected steps (``engine.chouette.session_correct``). A later game still played by the same Box and
Captain moves to its new line-up (its stored ``lineup`` rewritten); one that no longer can is named
to the director, who amends it with the correction (``later``): the correction and those games are
written together, or nothing is. The kept state is written after the step rows (the trigger of
migration 0002 empties it when they change), from the corrected fold. The state is used only if it still matches the session (see
:func:`.state.session_standing`); otherwise every step is replayed, as a correction (amend, void) always does,
and the state is written afresh.

Each service runs in one transaction under the session's row lock (``select_for_update``: the
table's lock), so two games recorded at one table at the same moment are written one after the
other, numbered without gaps, the second replayed after the first. A client that built its form
from a given state of the table may send that state's ``expected_version``: if the table has moved
on since (another game was recorded), the write is refused (409 ``stale_table``) rather than
applied to a line-up the client never saw. Each change moves ``version`` on and is audited with the
club (``chouette.*``).

Who acts: the club's owners and organisers (NotAllowed ``not_club_manager`` for anyone else).

Refusals (nothing is saved): DomainError (400) with the engine's own ``code`` and, in
``details``, the ``field`` it concerns — a path inside the record as sent (``cubes[2].value``,
``log[1]``, ``amounts``, ``board_log[7]``; a full record's errors also carry ``action_index``, the
0-based index in its ``board_log``) or the service's argument (``rolloff[0][2][0]``, ``player``,
``stake``); Conflict (409) when the table's state forbids it: ``chouette_ended``, ``stale_table``,
``chouette_game_voided``, ``duplicate_player`` (already at the table), ``too_few_players`` (the
last two cannot leave: end the session), and a correction that later games no longer fit:
``later_games_to_amend`` (their Box or Captain is no longer who the recomputed line-up puts there,
or their record no longer fits it; ``details['games']`` names each with its players, the message
speaks of them by name, ``details['step']``/``details['game']`` the first). A refused message never
names a player by id (:func:`.state.player_named`). Club.DoesNotExist,
ChouetteSession.DoesNotExist and ChouetteStep.DoesNotExist (an unknown game number) are for the
views to turn into 404s.

Modules: :mod:`.tables` (start, house rules, join, leave, end, reopen), :mod:`.games` (record,
amend, void) and :mod:`.state` (what they share: the lock, the kept state, the refusals, the audit).
"""

from .games import chouette_game_amend, chouette_game_record, chouette_game_void
from .state import FULL, QUICK
from .tables import (
    CHANGEABLE_RULES,
    MAX_AUTOMATIC,
    MAX_BOX_PARTNER_FROM,
    NEW_TABLE,
    SETTING_NAMES,
    chouette_end,
    chouette_join,
    chouette_leave,
    chouette_reopen,
    chouette_rules_change,
    chouette_settings,
    chouette_start,
)

__all__ = [
    "CHANGEABLE_RULES",
    "FULL",
    "MAX_AUTOMATIC",
    "MAX_BOX_PARTNER_FROM",
    "NEW_TABLE",
    "QUICK",
    "SETTING_NAMES",
    "chouette_end",
    "chouette_game_amend",
    "chouette_game_record",
    "chouette_game_void",
    "chouette_join",
    "chouette_leave",
    "chouette_reopen",
    "chouette_rules_change",
    "chouette_settings",
    "chouette_start",
]
