"""An event's live version: what a public page of the event polls to know that it changed.

Every change an event's public pages show (a result confirmed or corrected, a round paired, an
entrant entered, checked in or withdrawn, the draw, the event opened, closed, finished or reopened)
is made under the event's row lock (``services.common.tournament_lock``), which moves
``Tournament.version`` on in the same transaction. The live version is that number.

Reading it costs one cache get (:func:`live_state`); on a miss, one query by primary key, whose
answer is kept for :data:`LIVE_SECONDS`. The lock asks, when its transaction commits, that the kept
state be forgotten (:func:`live_forget`): the next poll reads the committed version. A reader that
read the row before a commit and stores it after the commit's forgetting is the only way to keep an
old version, and :data:`LIVE_SECONDS` bounds how long (readers store with ``add``: one never
overwrites what another stored). With the local-memory cache (no Redis) each process keeps
its own: the embedded run is one process; several processes without Redis see a change within
:data:`LIVE_SECONDS` at worst.

A page polls ``tournaments:live`` every few seconds (static/js/live.js): a 304 from the cache, no
query, until the version moves; then it fetches itself and swaps the regions that changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction

from .models import Tournament

#: How long a state read from the database is kept (bounds a stale one: see the module).
LIVE_SECONDS = 10


@dataclass(frozen=True)
class LiveState:
    """An event's live version and who may poll it: everyone, or for a draft its organiser and
    staff."""

    version: int
    draft: bool
    organiser_id: int | None

    def visible_to(self, user) -> bool:
        if not self.draft:
            return True
        if not getattr(user, "is_authenticated", False):
            return False
        return bool(user.is_staff or user.pk == self.organiser_id)


def live_key(tournament_id: int) -> str:
    return f"tournaments:live:{tournament_id}"


def live_state(tournament_id: int) -> LiveState:
    """The event's :class:`LiveState`: one cache get; on a miss one query by primary key (then
    kept). Raises Tournament.DoesNotExist."""
    key = live_key(tournament_id)
    kept = cache.get(key)
    if isinstance(kept, tuple) and len(kept) == 3:
        return LiveState(*kept)
    version, status, organiser_id = Tournament.objects.values_list("version", "status", "organiser_id").get(
        pk=tournament_id)
    state = LiveState(version, status == Tournament.Status.DRAFT, organiser_id)
    # add, not set: a commit that forgot the key after our read stored nothing older than ours.
    cache.add(key, (state.version, state.draft, state.organiser_id), LIVE_SECONDS)
    return state


def live_forget(tournament_id: int) -> None:
    """Forget the kept state of the event once the current transaction commits (at once outside
    one): the next poll reads the new version. Nothing happens if it rolls back."""
    transaction.on_commit(lambda: cache.delete(live_key(tournament_id)))
