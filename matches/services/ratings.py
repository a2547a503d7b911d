"""FIBS ratings: applying a confirmed match's rating change exactly once, and undoing it."""

from __future__ import annotations

from django.db import transaction

from config.errors import Conflict
from engine.ratings import fibs_change

from ..models import Match, Player, RatingChange


@transaction.atomic
def match_rating_apply(*, match_id: int) -> list[RatingChange]:
    """Apply the rating change of a confirmed rated match to both players; safe to run twice.

    Locks both players (in id order, so two matches of the same players cannot deadlock), and
    does nothing if the change is already applied or the match is not a confirmed rated match.
    """
    match = Match.objects.select_for_update(of=("self",)).with_sides().get(pk=match_id)
    if match.status != Match.Status.CONFIRMED or not match.rated or match.winner is None or match.is_money:
        return []
    if match.side0.is_pair or match.side1.is_pair:
        return []
    existing = list(match.rating_changes.all())
    if existing:
        return existing
    ids = sorted([match.side0.player_a_id, match.side1.player_a_id])
    players = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
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
    """Undo a match's rating change before its result is corrected.

    Only the latest change of each player can be undone exactly (later matches were rated from
    it); otherwise raises Conflict and nothing changes.
    """
    changes = list(match.rating_changes.select_related("player"))
    for change in changes:
        latest = change.player.rating_changes.order_by("-created_at", "-id").first()
        if latest.pk != change.pk:
            raise Conflict(
                f"{change.player} has played rated matches since; this result can no longer be corrected here",
                code="rating_built_on",
            )
    for change in changes:
        Player.objects.filter(pk=change.player_id).update(
            rating=change.rating_before, experience=change.experience_before
        )
        change.delete()


def ratings_pending():
    """Confirmed rated matches whose rating change is missing (a lost task)."""
    return Match.objects.filter(status=Match.Status.CONFIRMED, rated=True, rating_changes__isnull=True).values_list(
        "pk", flat=True
    )
