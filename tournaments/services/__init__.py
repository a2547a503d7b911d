"""The tournaments services: every change of an event's state (STYLE.md §3.2.3).

Each public service is ``<entity>_<action>(*, ...)``, runs in one transaction under the
tournament's row lock (``common.tournament_lock``), and says in its docstring what it changes and
what it raises (the messages live in :mod:`tournaments.errors`). The steps they share are named
the same way and run inside the caller's transaction, under its lock: ``draw_sync.bracket_sync``,
``swiss_rounds.swiss_round_write``, ``draw_sync.pairing_matches_create``, ``teams.team_matches_create``,
``audit.event_audit_record``. Modules: :mod:`.events` (the published rules, create, open and close
entries, finish), :mod:`.life` (edit the settings, cancel, delete a draft),
:mod:`.entries` (add, sign up, check in, withdraw, late entry), :mod:`.reentry` (a first-round
loser's buy-back into the main), :mod:`.teams`
(teams, their rosters and board orders, team matches), :mod:`.draw` (the draw, Swiss rounds),
:mod:`.advance` (confirmed results move the draw on; the hook ``matches.services.reporting``
calls), :mod:`.draw_sync` (the draw's matches written, a bracket synced with its results),
:mod:`.swiss_rounds` (a Swiss round paired and written), :mod:`.state` (rows to draw values,
shared with the selectors), :mod:`.bracket_reads` (a bracket read from its rows), :mod:`.audit` (what the
audit log keeps of an event's rows: every service here records its change there, in its own
transaction).
"""

# The event formats first: they use the services below (their draws, advancement, corrections),
# which ask them back (``formats.format_of``) only when called; imported first, they load those
# services in the order the services import one another.
from tournaments import formats  # noqa: F401

from .advance import tournament_result_confirmed
from .draw import tournament_draw, tournament_pair_next_round
from .entries import entry_add, entry_add_late, entry_check_in, entry_sign_up, entry_withdraw
from .events import EventRules, tournament_close_entries, tournament_create, tournament_finish, tournament_open_entries
from .life import tournament_cancel, tournament_delete, tournament_update

__all__ = [
    "EventRules",
    "entry_add",
    "entry_add_late",
    "entry_check_in",
    "entry_sign_up",
    "entry_withdraw",
    "tournament_cancel",
    "tournament_close_entries",
    "tournament_create",
    "tournament_delete",
    "tournament_draw",
    "tournament_finish",
    "tournament_open_entries",
    "tournament_pair_next_round",
    "tournament_result_confirmed",
    "tournament_update",
]
