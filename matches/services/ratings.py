"""FIBS ratings (RULES.md §10) as a replayable ledger: applying a confirmed match's rating change
exactly once, and recomputing the ledger when a rated result is corrected.

The ledger: every rated match has one live RatingChange per player, at the match's place in the
ledger (``sequence``, the same for both rows). A new match goes after both players' latest
change, so each player's live changes are in the order they were applied (the order the matches
were confirmed, save a rating applied late: a lost task, a late consent, which counts from when
it was applied, as the players' ratings did). A correction of a rated result (another winner, the
result taken back, the match no longer rated) recomputes every change from that match onward, in
ledger order, for the players it touches transitively (its two players from that match, then the
opponents of their later matches from those matches, and so on), with the corrected result; a
change whose figures differ is kept, marked superseded by that correction, and a new row takes
its place. So "has played rated matches since" never blocks a correction, and a player's history
can say what his rating was and what it is now.

Locking order, everywhere a rating is written: the match row first, then the players' rows in id
order. Two deliveries of the same match's task are serialised by the match lock (the second sees
the first one's RatingChange rows and changes nothing; the ``rating_once_per_player_per_match``
constraint would refuse a duplicate anyway); two different matches of one player are serialised
by the player lock, so each is rated from the rating the other left (no lost update). A
correction locks every player it recomputes, in id order, before it reads their ledger (see
:func:`_replay`), so a rating applied or corrected meanwhile is either wholly before it or waits.
"""

from __future__ import annotations

import heapq
import logging
import math
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, Max, Min, OuterRef, Q, QuerySet
from django.utils import timezone

from core.errors import Locked
from core.locking import locked_one, locked_rows
from engine.ratings import fibs_change

from ..models import Match, Player, RatingChange

logger = logging.getLogger(__name__)

#: How many times a correction may find, once it holds its players' locks, that a rating applied
#: meanwhile brought in another player (then it locks them all again, in id order); after that it
#: answers "busy, try again" (core.errors.Locked) rather than lock out of order.
REPLAY_ATTEMPTS = 3


def _ratable(match: Match) -> bool:
    """A confirmed, rated match between two single players with a winner (money sessions and
    consultation pairs are never rated), which both players consented to: a match they have not
    (an organiser's friendly match, an import with their names) is not on their records."""
    return (
        match.status == Match.Status.CONFIRMED and match.rated and not match.is_money and match.winner is not None
        and not match.side0.is_pair and not match.side1.is_pair and match.consented
    )


def _lock_players(ids) -> dict[int, Player]:
    # Always in id order: two transactions locking the same two players cannot deadlock.
    return {p.pk: p for p in locked_rows(Player.objects.all(), ids)}


@transaction.atomic
def match_rating_apply(*, match_id: int) -> list[RatingChange]:
    """Apply the FIBS rating change of a confirmed rated match to both players; safe to repeat.

    Changes both players' ``rating`` and ``experience`` (by the match length) and writes one
    RatingChange per player, at the end of both players' ledgers. Returns those rows; if they
    already exist, returns them and changes nothing. Does nothing (returns []) for a match that
    is not confirmed, not rated, a money session, a consultation pair, or not consented to by
    both players (it is rated when the last consent is given:
    ``matches.services.consent.match_consent``). Raises Match.DoesNotExist for an unknown match.

    The match row is locked before the existing changes are looked for, so two runs for the same
    match cannot both find none.
    """
    match = locked_one(Match.objects.with_side_ids(), pk=match_id)
    if not _ratable(match):
        return []
    existing = list(match.rating_changes.order_by("pk"))
    if existing:
        return existing
    players = _lock_players([match.side0.player_a_id, match.side1.player_a_id])
    # After both players' latest change (read under their locks): their ledgers stay in order.
    last = RatingChange.objects.filter(player_id__in=list(players)).aggregate(last=Max("sequence"))["last"]
    winner = players[match.sides[match.winner].player_a_id]
    loser = players[match.sides[1 - match.winner].player_a_id]
    change = fibs_change(winner.rating, loser.rating, match.length,
                         winner_experience=winner.experience, loser_experience=loser.experience)
    rows = []
    for player, delta in ((winner, change.winner_delta), (loser, change.loser_delta)):
        rows.append(RatingChange(
            player=player, match=match, rating_before=player.rating, rating_after=player.rating + delta,
            experience_before=player.experience, experience_after=player.experience + match.length,
            sequence=(last or 0) + 1,
        ))
        player.rating += delta
        player.experience += match.length
        player.save(update_fields=["rating", "experience"])
    return RatingChange.objects.bulk_create(rows)


@transaction.atomic
def match_rating_correct(*, match_id: int, winner: int | None) -> int:
    """Bring the ratings ledger in line with a rated match's result being corrected to ``winner``
    (0 or 1; None: no winner any more). Called in the correction's transaction, with the match
    locked, before the new result is saved and announced (so before the hooks lock an event).

    If the match has a live rating change and the corrected result rates differently (another
    winner), or is no longer rated (no winner; not confirmed, not rated, a consent withdrawn),
    every change from the match onward is recomputed (see :func:`_replay`): the changed rows are
    superseded by this correction, new rows take their places, and the players' ``rating`` and
    ``experience`` become the replay's end state. A match never rated is left to
    :func:`match_rating_apply`; the same winner with another score changes nothing (the FIBS
    change depends on the length and the winner only). Returns how many matches were recomputed
    (0: nothing to do). Raises Match.DoesNotExist; Locked when ratings kept being applied to the
    players it recomputes (nothing is changed; try again).
    """
    return _replay(match_id, removed=False, winner=winner)


@transaction.atomic
def match_rating_revert(*, match: Match) -> int:
    """Take a match's rating change out of the ledger (its result is being taken back): its rows
    are superseded with no successor and every later change of the players it touches is
    recomputed without it (see :func:`match_rating_correct`). Never refused because a player has
    played rated matches since. Returns how many matches were recomputed, the match included
    (0 when it had no rating change). Raises Locked as :func:`match_rating_correct` does.
    """
    return _replay(match.pk, removed=True, winner=None)


@dataclass(frozen=True, slots=True)
class _Row:
    """A live ledger row as a replay reads it, with its match's players, winner and length."""

    pk: int
    player_id: int
    match_id: int
    sequence: int
    figures: tuple[float, float, int, int]  # rating before and after, experience before and after
    partner_id: int
    winner_id: int | None
    length: int


_ROW_FIELDS = ("pk", "player_id", "match_id", "sequence", "rating_before", "rating_after", "experience_before",
               "experience_after", "match__side0__player_a_id", "match__side1__player_a_id", "match__winner",
               "match__length")


def _row(values: tuple) -> _Row:
    pk, player_id, match_id, sequence, r0, r1, e0, e1, first, second, winner, length = values
    return _Row(pk, player_id, match_id, sequence, (r0, r1, e0, e1), second if player_id == first else first,
                None if winner is None else (first, second)[winner], length)


def _affected(start: int, players: list[int]) -> tuple[dict[int, int], dict[int, _Row]]:
    """The part of the ledger a correction at place ``start`` of ``players`` recomputes: each
    affected player with the place he is affected from, and the live rows from there on.

    Read in waves, one query each: the rows of the players newly affected (or affected from an
    earlier place than read so far); each row of an affected player from his place on brings its
    opponent in from that place. Each row is read once: the cost is O(the matches after the
    corrected one of the affected players), in as many queries as there are waves (at most one
    per affected player).
    """
    entry = dict.fromkeys(players, start)
    read_from: dict[int, int] = {}
    rows: dict[int, _Row] = {}
    while True:
        wanted = Q()
        for player_id, place in entry.items():
            if read_from.get(player_id, math.inf) <= place:
                continue
            part = Q(player_id=player_id, sequence__gte=place)
            if player_id in read_from:
                part &= Q(sequence__lt=read_from[player_id])
            wanted |= part
            read_from[player_id] = place
        if not wanted:
            return entry, rows
        for values in RatingChange.objects.filter(wanted).values_list(*_ROW_FIELDS):
            row = _row(values)
            rows[row.pk] = row
        for row in sorted(rows.values(), key=lambda r: (r.sequence, r.match_id)):
            if entry.get(row.player_id, math.inf) <= row.sequence < entry.get(row.partner_id, math.inf):
                entry[row.partner_id] = row.sequence


def _same_outcome(match: Match, live: list[RatingChange]) -> bool:
    """Whether the match's live rating change already rates its current result: the same winner
    and length (the score beyond the winner does not count in FIBS ratings)."""
    winner_id = match.sides[match.winner].player_a_id
    return all(
        (change.rating_after > change.rating_before) == (change.player_id == winner_id)
        and change.experience_after - change.experience_before == match.length
        for change in live
    )


def _lock_region(start: int, players: list[int], *, held: set[int]) -> tuple[dict[int, Player], dict[int, int],
                                                                            dict[int, _Row]]:
    """Lock the part of the ledger a recomputation from place ``start`` of ``players`` touches
    (see :func:`_replay` for the order: the other matches one at a time in ledger order, then
    every affected player in id order) and read it again under those locks: the affected players
    (locked), each with the place he is affected from, and the live rows from there on. ``held``
    names the matches the caller has locked already. Who is affected is first read without locks;
    if, once they are locked, a rating applied in between has brought in another player, every
    lock taken here is given back (to a savepoint) and all are taken again, at most
    REPLAY_ATTEMPTS times; then raises Locked."""
    guess_players, guess_rows = _affected(start, players)
    guess = set(guess_players)
    for _ in range(REPLAY_ATTEMPTS):
        savepoint = transaction.savepoint()
        taken = set(held)
        for row in sorted(guess_rows.values(), key=lambda r: (r.sequence, r.match_id)):
            if row.match_id not in taken:
                locked_one(Match.objects.all(), pk=row.match_id)
                taken.add(row.match_id)
        locked_players = _lock_players(guess)
        entry, rows = _affected(start, players)
        if set(entry) <= guess and {row.match_id for row in rows.values()} <= taken:
            transaction.savepoint_commit(savepoint)
            return locked_players, entry, rows
        transaction.savepoint_rollback(savepoint)
        guess |= set(entry)
        guess_rows = rows
    raise Locked("ratings are being applied to these players at this moment; try again")


def _replay(match_id: int, *, removed: bool, winner: int | None) -> int:
    """Recompute the ledger from the match ``match_id`` on, with ``winner`` as its result (or
    without it: ``removed``, or no longer ratable). See :func:`match_rating_correct`.

    Locks, so that two corrections, or a correction and a rating being applied, never wait for
    each other in a circle: the match row; then the other matches recomputed, one at a time in
    ledger order (their new rows reference them: PostgreSQL's key-share lock on each would wait
    for another correction of one of them, so it is taken here, before any player; a correction
    only ever waits for a match later in the ledger than all it holds); then every affected
    player's row in id order, before their ledger is read for the recomputation. Who is affected
    is first read without locks; if, once they are locked, a rating applied in between has
    brought in another player, every lock but the match's is given back (to a savepoint) and all
    are taken again, at most REPLAY_ATTEMPTS times.

    Queries, for ``n`` matches recomputed found in ``w`` waves (:func:`_affected`): 2 (the match,
    its changes) + w (unlocked) + 1 (savepoint) + n - 1 (the other matches) + 1 (the players)
    + w (locked) + 1 (savepoint released) + at most 3 writes (supersede, insert, the players):
    at most 7 + n + 2w, with w <= the players affected (and 2 for the savepoint of this
    function's own transaction when it runs inside the correction's).
    """
    match = locked_one(Match.objects.with_side_ids(), pk=match_id)
    live = list(match.rating_changes.all())
    if not live:
        return 0
    match.winner = winner
    gone = removed or not _ratable(match)
    if not gone and _same_outcome(match, live):
        return 0
    # A match's place never changes while it is in the ledger (a replay keeps it, and only a
    # correction of this match, which waits for its lock, takes it out): read once.
    start = live[0].sequence
    players = [match.side0.player_a_id, match.side1.player_a_id]
    locked_players, entry, rows = _lock_region(start, players, held={match.pk})

    by_match: dict[int, dict[int, _Row]] = {}
    standing: dict[int, tuple[float, int]] = {}
    for row in rows.values():
        by_match.setdefault(row.match_id, {})[row.player_id] = row
        if row.sequence == entry[row.player_id]:
            standing[row.player_id] = (row.figures[0], row.figures[2])
    stale: list[_Row] = []
    fresh: list[RatingChange] = []
    for match_pk in sorted(by_match, key=lambda pk: (next(iter(by_match[pk].values())).sequence, pk)):
        pair = by_match[match_pk]
        if match_pk == match.pk:
            if gone:
                stale.extend(pair.values())
                continue
            winner_id, length = match.sides[match.winner].player_a_id, match.length
        else:
            some = next(iter(pair.values()))
            winner_id, length = some.winner_id, some.length
            if winner_id not in pair:  # a result cleared without taking its rating back: as rated
                winner_id = next(p for p, r in pair.items() if r.figures[1] > r.figures[0])
        loser_id = next(p for p in pair if p != winner_id)
        (won_from, won_experience), (lost_from, lost_experience) = standing[winner_id], standing[loser_id]
        change = fibs_change(won_from, lost_from, length, winner_experience=won_experience,
                             loser_experience=lost_experience)
        for player_id, rating, experience, delta in ((winner_id, won_from, won_experience, change.winner_delta),
                                                     (loser_id, lost_from, lost_experience, change.loser_delta)):
            figures = (rating, rating + delta, experience, experience + length)
            standing[player_id] = (rating + delta, experience + length)
            old = pair[player_id]
            if old.figures == figures:
                continue
            stale.append(old)
            fresh.append(RatingChange(player_id=player_id, match_id=match_pk, rating_before=figures[0],
                                      rating_after=figures[1], experience_before=figures[2],
                                      experience_after=figures[3], sequence=old.sequence))
    if stale:
        # Superseded before the new rows go in: one live row per player and match, and per place.
        RatingChange.objects.filter(pk__in=[row.pk for row in stale]).update(
            superseded_at=timezone.now(), corrected_match=match)
    if fresh:
        RatingChange.objects.bulk_create(fresh)
    _standing_write(standing, locked_players)
    return len(by_match)


def _standing_write(standing: dict, locked_players: dict) -> None:
    """Write each locked player's rating and experience as a replay left them (``standing``:
    player id -> (rating, experience)), only for those that moved."""
    moved = []
    for player_id, (rating, experience) in standing.items():
        player = locked_players[player_id]
        if (player.rating, player.experience) != (rating, experience):
            player.rating, player.experience = rating, experience
            moved.append(player)
    if moved:
        Player.objects.bulk_update(moved, ["rating", "experience"])


@dataclass(frozen=True)
class LedgerMerge:
    """What :func:`player_ratings_merge` made of two players' ledgers: the merged player's rating
    and experience, how many matches were rated again, and the affected players' locked rows."""

    rating: float
    experience: int
    recomputed: int
    players: dict[int, Player]


def player_ratings_merge(*, source_id: int, target_id: int, held: set[int]) -> LedgerMerge:
    """Make the ratings ledger of player ``source_id`` part of ``target_id``'s, as if one player had
    played both players' rated matches; called by ``player_merge`` in its transaction, with the
    matches of both players locked (``held``), before their sides are repointed. The two must
    never have played each other (the caller refuses that).

    The merged player's matches are taken in the order they were confirmed (each player's own
    ledger order is kept; where the two ledgers interleave, the earlier confirmation goes first),
    starting from the rating before the first of them; every other player keeps his order. Each
    match of the merged player, and every later change of the players it touches transitively,
    is rated again through the same recomputation as a correction (:func:`_lock_region`: the
    same locks in the same order). A change whose figures or place differ is kept, superseded
    (by no match's correction), and a new row takes its place; the source's other rows (his
    superseded history too) become the target's. Places: a match keeps its place in the ledger
    unless the merged player already has a match there, then it takes the next place free for
    both its players (and the later matches of those players move on as needed), so each
    player's live changes keep one order. The target's ``rating`` and ``experience`` become the
    merged ledger's end state (or stay as they are when neither player has a rated match).

    Returns a :class:`LedgerMerge`. Raises Locked when ratings kept being applied to the players
    it recomputes (nothing is changed; try again); ValueError if the two played each other.
    """
    start = RatingChange.objects.filter(player_id__in=[source_id, target_id]).aggregate(start=Min("sequence"))["start"]
    if start is None:
        players = _lock_players([source_id, target_id])
        target = players[target_id]
        return LedgerMerge(target.rating, target.experience, 0, players)
    locked_players, entry, rows = _lock_region(start, [source_id, target_id], held=held)

    def alias(player_id: int) -> int:
        return target_id if player_id == source_id else player_id

    by_match: dict[int, dict[int, _Row]] = {}
    chains: dict[int, list[_Row]] = {}
    for row in rows.values():
        by_match.setdefault(row.match_id, {})[row.player_id] = row
        chains.setdefault(row.player_id, []).append(row)
    if any({source_id, target_id} <= set(pair) for pair in by_match.values()):
        raise ValueError("the players to merge played each other")
    for chain in chains.values():
        chain.sort(key=lambda r: (r.sequence, r.match_id))
    confirmed = dict(Match.objects.filter(pk__in=list(by_match)).values_list("pk", "confirmed_at"))

    def key(match_pk: int) -> tuple:
        when = confirmed.get(match_pk)
        first = next(iter(by_match[match_pk].values()))
        return (math.inf if when is None else when.timestamp(), first.sequence, match_pk)

    # The order of the merged ledger: each player's own chain kept (the source's and the
    # target's apart), the earliest confirmed match first among those that head every chain
    # they are on. The old places are such an order, so one is always ready.
    heads = dict.fromkeys(chains, 0)

    def ready(match_pk: int) -> bool:
        return all(chains[p][heads[p]].match_id == match_pk for p in by_match[match_pk])

    waiting = [key(row.match_id) for p, chain in chains.items() for row in chain[:1] if ready(row.match_id)]
    waiting = sorted(set(waiting))
    heapq.heapify(waiting)
    order: list[int] = []
    while waiting:
        match_pk = heapq.heappop(waiting)[2]
        order.append(match_pk)
        for p in by_match[match_pk]:
            heads[p] += 1
            if heads[p] < len(chains[p]) and ready(chains[p][heads[p]].match_id):
                heapq.heappush(waiting, key(chains[p][heads[p]].match_id))

    last: dict[int, float] = {}
    for player_id, place in entry.items():
        last[alias(player_id)] = min(last.get(alias(player_id), math.inf), place - 1)
    standing: dict[int, tuple[float, int]] = {}
    stale: list[_Row] = []
    fresh: list[RatingChange] = []
    for match_pk in order:
        pair = by_match[match_pk]
        some = next(iter(pair.values()))
        place = max(some.sequence, *(last[alias(p)] + 1 for p in pair))
        for p, row in pair.items():
            last[alias(p)] = place
            standing.setdefault(alias(p), (row.figures[0], row.figures[2]))
        winner_id, length = some.winner_id, some.length
        if winner_id not in pair:  # a result cleared without taking its rating back: as rated
            winner_id = next(p for p, r in pair.items() if r.figures[1] > r.figures[0])
        loser_id = next(p for p in pair if p != winner_id)
        (won_from, won_experience), (lost_from, lost_experience) = standing[alias(winner_id)], standing[alias(loser_id)]
        change = fibs_change(won_from, lost_from, length, winner_experience=won_experience,
                             loser_experience=lost_experience)
        for player_id, rating, experience, delta in ((winner_id, won_from, won_experience, change.winner_delta),
                                                     (loser_id, lost_from, lost_experience, change.loser_delta)):
            figures = (rating, rating + delta, experience, experience + length)
            standing[alias(player_id)] = (rating + delta, experience + length)
            old = pair[player_id]
            if old.figures == figures and old.sequence == place:
                continue  # the source's own rows that stay as they are become the target's below
            stale.append(old)
            fresh.append(RatingChange(player_id=alias(player_id), match_id=match_pk, rating_before=figures[0],
                                      rating_after=figures[1], experience_before=figures[2],
                                      experience_after=figures[3], sequence=place))
    if stale:
        # Superseded before the new rows go in: one live row per player and match, and per place.
        RatingChange.objects.filter(pk__in=[row.pk for row in stale]).update(superseded_at=timezone.now())
    RatingChange.ledger.filter(player_id=source_id).update(player_id=target_id)
    if fresh:
        RatingChange.objects.bulk_create(fresh)
    _standing_write(standing, locked_players)
    target = locked_players[target_id]
    return LedgerMerge(target.rating, target.experience, len(by_match), locked_players)


def ratings_pending() -> QuerySet:
    """Ids of confirmed rated matches whose rating change is missing (a lost task); matches that
    are never rated (money sessions, pairs) are left out even if flagged rated, and so are those
    a player has not consented to (yet)."""
    return (
        Match.objects.consented().filter(
            status=Match.Status.CONFIRMED, rated=True, length__gt=0, winner__isnull=False,
            side0__player_b__isnull=True, side1__player_b__isnull=True,
        )
        # Not a join on rating_changes: it would see the superseded rows of a result taken back.
        .exclude(Exists(RatingChange.objects.filter(match=OuterRef("pk"))))
        .order_by("confirmed_at", "pk")
        .values_list("pk", flat=True)
    )


def ratings_catch_up() -> int:
    """Rate every pending match (see :func:`ratings_pending`), oldest confirmation first; returns
    how many were rated. A match that fails is logged and left for the next run, so one bad
    match cannot hold back the others."""
    rated = 0
    for match_id in list(ratings_pending()):
        try:
            if match_rating_apply(match_id=match_id):
                rated += 1
        except Exception:
            logger.exception("rating match %s failed; it stays pending", match_id)
    return rated
