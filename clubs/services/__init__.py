"""The clubs services: every change of a club's state (STYLE.md §3.2.3).

Each public service is ``<entity>_<action>(*, ...)``, runs in one transaction, checks who acts
(:mod:`clubs.permissions`) under the row lock it takes, writes the audit log (``club_id=``) in the
same transaction, and says in its docstring what it changes and what it raises (the messages live
in :mod:`clubs.errors`). Modules: :mod:`.clubs` (create, update), :mod:`.members` (request,
invite, accept, approve, decline, role change, remove, leave), :mod:`.nights` (open, check in,
close), :mod:`.seasons` (create, update, delete).
"""

from .clubs import club_create, club_update
from .members import (
    membership_accept,
    membership_approve,
    membership_decline,
    membership_invite,
    membership_leave,
    membership_remove,
    membership_request,
    membership_role_change,
)
from .nights import night_check_in, night_close, night_open
from .seasons import season_create, season_delete, season_update

__all__ = [
    "club_create",
    "club_update",
    "membership_accept",
    "membership_approve",
    "membership_decline",
    "membership_invite",
    "membership_leave",
    "membership_remove",
    "membership_request",
    "membership_role_change",
    "night_check_in",
    "night_close",
    "night_open",
    "season_create",
    "season_delete",
    "season_update",
]
