"""Re-entry (buy-back) into the main while its first round is open.

The rule is pure (:func:`tournaments.draw.flights.reentry`): a player who lost his main round-1
match may enter the main again, once, as a new entrant taking the next seed, which stands in the
first unused bye (the late-entry slot), while a round-1 match is still to be played and the
player who had that bye has not played on. This module writes it:

- the event allows it (``Tournament.reentries``: 0 by default, at most 1, the pure rule's limit;
  single elimination without a consolation or last chance: ``EventRules``);
- the re-entry is a new ``Entry`` of the same side with ``reentry_of`` naming the first one, the
  next seed, checked in, in the first one's division. The database keeps a side to one original
  and one re-entry per event (``entry_side_once_per_event``, ``entry_side_reenters_once_per_event``,
  and ``reentry_of`` one-to-one);
- the bracket takes it as it takes a late entrant (``draw_sync.bracket_sync``): the bye's match is
  made, and a later match the bye fed that has not started is reset and made again.

The prize pool: an event's ``payouts`` give each flight's pool as an amount the director sets
(there is no entry fee in the rules), so a re-entry changes no pool by itself; the director raises
the main's pool by the buy-back he took (the paid places stay editable after the draw).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from core.errors import Conflict
from tournaments import errors, formats
from tournaments.draw import DrawError
from tournaments.draw.bracket import PLAYED
from tournaments.draw.flights import reentry
from tournaments.models import Entry, Tournament

from . import bracket_reads, state
from .audit import entry_summary, event_audit_record
from .common import before_draw, entry_of, require_organiser, tournament_lock
from .draw_sync import bracket_sync
from .naming import match_namer

#: What the pure rule is told the new entrant is: his entry's id is known only once written.
NEW = "new"


def reentry_check(tournament: Tournament, loaded: state.Loaded, entry: Entry):
    """Whether ``entry`` may re-enter now, by the pure rule on the event as it stands (confirmed
    results and walkovers): the rule's ``Reentry`` (seed, match) or the Conflict
    ``reentry_refused`` with its ``reason``. Reads only what ``loaded`` holds (no query)."""
    name = state.plain_name(entry)
    if entry.status == Entry.Status.WITHDRAWN:
        return errors.reentry_refused("withdrawn", name)
    view = bracket_reads.bracket_state(loaded)
    results = {s.match.id: s.winner for s in view.state.matches if s.status == PLAYED and s.winner is not None}
    reentered = {e.pk for e in loaded.entries if e.reentry_of_id is not None}
    reentered |= {e.reentry_of_id for e in loaded.entries if e.reentry_of_id is not None}
    try:
        return reentry(view.bracket, results, entry.pk, new_entrant=NEW, reentered=reentered)
    except DrawError as error:
        if error.code != "reentry_refused":
            raise errors.from_draw(error) from None
        return errors.reentry_refused(error.details["reason"], name)


def reentry_candidates(tournament: Tournament, loaded: state.Loaded) -> frozenset[int]:
    """The entries that may re-enter now (for the director's "Re-enter" buttons): none unless the
    event allows re-entry and is running. What refuses one loser but not another is only whether
    he lost in round 1, re-entered already or withdrew; the rest (the first round open, a bye
    left, its player not gone on) is the same for all, so the pure rule is asked once. Reads only
    what ``loaded`` holds (no query)."""
    if not tournament.reentries or tournament.status != Tournament.Status.RUNNING \
            or not formats.format_of(tournament).takes_reentries:
        return frozenset()
    view = bracket_reads.bracket_state(loaded)
    losers = {s.loser for s in view.state.matches
              if s.match.flight == "main" and s.match.round == 1 and s.status == PLAYED}
    taken = {e.reentry_of_id for e in loaded.entries if e.reentry_of_id is not None}
    able = [e for e in loaded.entries if e.pk in losers and e.reentry_of_id is None and e.pk not in taken
            and e.status != Entry.Status.WITHDRAWN]
    if not able or isinstance(reentry_check(tournament, loaded, able[0]), Conflict):
        return frozenset()
    return frozenset(e.pk for e in able)


@transaction.atomic
def entry_reenter(*, tournament_id: int, entry_id: int, user) -> Entry:
    """The director re-enters the player of ``entry_id`` into the main (buy-back,
    :func:`tournaments.draw.flights.reentry`): a new entry of the same side (``reentry_of`` the
    first), the next seed, checked in, placed in the first unused bye of the main's first round; the
    bracket makes that match (and remakes a later one the bye fed, not started yet). One
    transaction under the event's lock. Returns the new entry.

    Raises NotAllowed ``not_organiser``; DomainError ``unknown_entry``, ``team_event``; Conflict
    ``not_drawn``, ``tournament_finished``, ``tournament_cancelled``, ``reentry_off`` (the event
    allows none), ``reentry_refused`` with ``reason``: ``not_a_first_round_loser``,
    ``already_reentered``, ``first_round_closed``, ``bracket_full``, ``slot_played_on``,
    ``withdrawn``. Nothing is written on a refusal. Audited as ``entry.reentered`` (then the
    bracket's moves).
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    entry = entry_of(tournament, entry_id)
    event_format = formats.format_of(tournament)
    event_format.refuse_sides()
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if tournament.status == Tournament.Status.CANCELLED:
        raise errors.cancelled()
    if before_draw(tournament):
        raise errors.not_drawn()
    if not tournament.reentries or not event_format.takes_reentries:
        raise errors.reentry_off()
    loaded = state.load(tournament)
    checked = reentry_check(tournament, loaded, loaded.by_id[entry.pk])
    if isinstance(checked, Conflict):
        raise checked
    seed = max((e.seed for e in loaded.entries if e.seed is not None), default=0) + 1
    name = state.plain_name(entry)
    try:
        with transaction.atomic():
            again = Entry.objects.create(tournament=tournament, side_id=entry.side_id, seed=seed, reentry_of=entry,
                                         status=Entry.Status.CHECKED_IN, division=entry.division,
                                         entered_by=user)
    except IntegrityError:  # the constraints: only reachable if the lock were skipped
        raise errors.reentry_refused("already_reentered", name) from None
    event_audit_record("entry.reentered", actor=user, tournament=tournament, obj=again,
                       before={**entry_summary(entry)},
                       after={**entry_summary(again), "players": [p.pk for p in entry.side.players],
                              "match": checked.match})
    namer = match_namer(tournament)
    bracket_sync(tournament, state.load(tournament), created_by=user,
                 refuse=lambda dependent, why: errors.reentry_bye_taken(name, namer(dependent), why, key=dependent))
    return again
