"""Reads of a player's public page and of a user's own profile: a fixed number of queries however
many matches and rating changes the player has (tests/matches/test_player_page.py counts them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time

from django.utils import timezone

from .countries import country_name
from .models import Player, RatingChange
from .selectors import player_get

#: How many of a player's newest rating changes the page's table lists (the chart draws them all),
#: and how many events and clubs his page lists.
HISTORY_ROWS = 50
SECTION_ITEMS = 20


@dataclass(frozen=True)
class PublicPlayer:
    """What anyone may see of a player besides his games: his name, country (code and name in the
    active language), and his email address and real name only when he chose to show them."""

    player: Player
    country_name: str
    email: str | None
    real_name: str | None


def player_public(player: Player) -> PublicPlayer:
    """The public face of ``player`` (his ``user`` joined: no query). A player without a user
    (known from imported files) shows neither email nor real name."""
    user = player.user
    return PublicPlayer(
        player=player, country_name=country_name(player.country),
        email=user.public_email if user is not None else None,
        real_name=user.public_real_name if user is not None else None,
    )


def _when(played_on, applied: datetime) -> datetime:
    """When a rating change happened, for the chart and the table: the day the match was played
    when it is known (an imported match), else when its result was applied."""
    if played_on is not None:
        return timezone.make_aware(datetime.combine(played_on, time(12)))
    return timezone.localtime(applied)


def player_rating_points(player: Player) -> list[tuple[datetime, float]]:
    """The chart's points: his rating before his first rated match, then after each, in the order
    of his ratings ledger (the order his rating changed), corrections applied. One query of four
    columns per change.

    Each point is dated by its match (:func:`_when`); a match rated after a later-played one (an
    old match imported late) is drawn at the date reached so far, so time never runs backwards
    along the line: the line is his rating as it changed, the table gives each match's own date.
    """
    rows = list(RatingChange.objects.filter(player=player).order_by("sequence", "id")
                .values_list("match__played_on", "created_at", "rating_before", "rating_after"))
    if not rows:
        return []
    points = []
    for played_on, applied, before, after in rows:
        when = _when(played_on, applied)
        if not points:
            points.append((when, before))
        points.append((max(when, points[-1][0]), after))
    return points


def player_rating_recent(player: Player, *, limit: int = HISTORY_ROWS) -> list[tuple[RatingChange, datetime, str]]:
    """His newest ``limit`` rating changes, newest first: (change, when, the opponent's name), the
    matches' sides and players read in a fixed number of queries."""
    changes = list(player.rating_changes.select_related("match__side0", "match__side1").prefetch_related(
        "match__side0__player_a", "match__side0__player_b", "match__side1__player_a", "match__side1__player_b",
    ).order_by("-sequence", "-id")[:limit])
    rows = []
    for change in changes:
        match = change.match
        opponent = next((side.name for side in match.sides if player.pk not in (side.player_a_id, side.player_b_id)),
                        "")
        rows.append((change, _when(match.played_on, change.created_at), opponent))
    return rows


def player_page_get(player_id: int) -> Player:
    """The player of a page, with his user and contexts joined; raises Player.DoesNotExist."""
    return player_get(player_id)


def profile_of(user) -> Player | None:
    """The signed-in ``user``'s player (with the user joined), or None when he has none."""
    return Player.objects.select_related("user").filter(user_id=user.pk).first()


def profile_get(user) -> tuple:
    """The signed-in ``user`` as stored now (his choices) and his player or None: one query."""
    player = profile_of(user)
    if player is not None:
        return player.user, player
    return type(user)._default_manager.get(pk=user.pk), None
