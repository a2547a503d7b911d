"""FIBS ratings (RULES.md §10): applying a confirmed match's rating change exactly once, and undoing it.

Locking order, everywhere a rating is written: the match row first, then the players' rows in id
order. Two deliveries of the same match's task are serialised by the match lock (the second sees
the first one's RatingChange rows and changes nothing; the ``rating_once_per_player_per_match``
constraint would refuse a duplicate anyway); two different matches of one player are serialised
by the player lock, so each is rated from the rating the other left (no lost update).
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import QuerySet

from core.errors import Conflict
from core.locking import locked, locked_one, locked_rows
from engine.ratings import fibs_change

from ..models import Match, Player, RatingChange

logger = logging.getLogger(__name__)


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
    RatingChange per player. Returns those rows; if they already exist, returns them and changes
    nothing. Does nothing (returns []) for a match that is not confirmed, not rated, a money
    session, a consultation pair, or not consented to by both players (it is rated when the last
    consent is given: ``matches.services.consent.match_consent``). Raises Match.DoesNotExist for an unknown match.

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
    winner = players[match.sides[match.winner].player_a_id]
    loser = players[match.sides[1 - match.winner].player_a_id]
    change = fibs_change(winner.rating, loser.rating, match.length,
                         winner_experience=winner.experience, loser_experience=loser.experience)
    rows = []
    for player, delta in ((winner, change.winner_delta), (loser, change.loser_delta)):
        rows.append(RatingChange(
            player=player, match=match, rating_before=player.rating, rating_after=player.rating + delta,
            experience_before=player.experience, experience_after=player.experience + match.length,
        ))
        player.rating += delta
        player.experience += match.length
        player.save(update_fields=["rating", "experience"])
    return RatingChange.objects.bulk_create(rows)


@transaction.atomic
def match_rating_revert(*, match: Match) -> None:
    """Undo a match's rating change before its result is corrected: each player gets back the
    rating and experience from before the match, and the match's RatingChange rows are deleted.

    Only the latest change of each player can be undone exactly (later matches were rated from
    it); otherwise raises Conflict (``rating_built_on``) and nothing changes. Locks the match and
    then its players, like :func:`match_rating_apply`, so no rating can be applied in between.
    """
    locked(Match.objects.filter(pk=match.pk)).exists()
    changes = list(match.rating_changes.order_by("pk"))
    if not changes:
        return
    players = _lock_players(change.player_id for change in changes)
    for change in changes:
        # Ids, not clocks: a player's changes are inserted under his row lock, so id order is the
        # order they were applied in, whichever server's clock stamped created_at.
        latest = RatingChange.objects.filter(player_id=change.player_id).order_by("-pk").first()
        if latest.pk != change.pk:
            raise Conflict(
                f"{players[change.player_id]} has played rated matches since; this result can no longer be "
                "corrected here",
                code="rating_built_on",
            )
    for change in changes:
        player = players[change.player_id]
        player.rating, player.experience = change.rating_before, change.experience_before
        player.save(update_fields=["rating", "experience"])
    RatingChange.objects.filter(pk__in=[change.pk for change in changes]).delete()


def ratings_pending() -> QuerySet:
    """Ids of confirmed rated matches whose rating change is missing (a lost task); matches that
    are never rated (money sessions, pairs) are left out even if flagged rated, and so are those
    a player has not consented to (yet)."""
    return (
        Match.objects.consented().filter(
            status=Match.Status.CONFIRMED, rated=True, length__gt=0, winner__isnull=False,
            side0__player_b__isnull=True, side1__player_b__isnull=True, rating_changes__isnull=True,
        )
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
