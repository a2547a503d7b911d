"""Reads of a player's public page and of a user's own profile: a fixed number of queries however
many matches and rating changes the player has (tests/matches/test_player_page.py counts them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time

from django.db.models import QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext

from core.text import isolate

from .. import hooks
from ..countries import country_name
from ..models import Player, RatingChange


def player_list() -> QuerySet[Player]:
    """Players by name, with what they belong to (their home club: ``hooks.player_joins``) joined."""
    joins = hooks.player_joins()
    # (select_related() without a path would follow every relation.)
    return Player.objects.select_related(*joins) if joins else Player.objects.all()


def player_get(player_id: int) -> Player:
    return Player.objects.select_related("user", *hooks.player_joins()).get(pk=player_id)


def player_rating_history(player: Player) -> QuerySet[RatingChange]:
    """The player's rating changes as they stand (corrections applied), in the order of his
    ratings ledger (oldest first), with the match each came from."""
    return player.rating_changes.select_related("match__side0", "match__side1").prefetch_related(
        "match__side0__player_a", "match__side0__player_b", "match__side1__player_a", "match__side1__player_b"
    ).order_by("sequence", "id")


@dataclass(frozen=True)
class RatingCorrection:
    """One change of a player's rating history by a correction (``matches.services.ratings``):
    ``kind`` is ``result`` (this match's result was corrected; ``won`` is his result now),
    ``removed`` (the match no longer counts for the rating) or ``recomputed`` (an earlier match's
    result was corrected, so this one was rated again); ``was`` and ``now`` are his rating after
    the match before and after the correction (``now`` None when removed)."""

    on: datetime
    match_id: int
    opponent: str
    kind: str
    won: bool | None
    was: float
    now: float | None

    @property
    def sentence(self) -> str:
        """The correction as the player's history says it, in the active language."""
        values = {"day": formats.date_format(timezone.localtime(self.on), "MONTH_DAY_FORMAT"), "opponent": isolate(self.opponent),
                  "was": formats.number_format(self.was, 1),
                  "now": "" if self.now is None else formats.number_format(self.now, 1)}
        if self.kind == "removed":
            return gettext("Corrected on %(day)s: match against %(opponent)s no longer counts for the rating "
                           "(rating after it was %(was)s)") % values
        if self.kind == "recomputed":
            return gettext("Recomputed on %(day)s after an earlier result was corrected: match against "
                           "%(opponent)s; rating %(was)s → %(now)s") % values
        if self.won:
            return gettext("Corrected on %(day)s: match against %(opponent)s now won; rating %(was)s → %(now)s") % values
        return gettext("Corrected on %(day)s: match against %(opponent)s now lost; rating %(was)s → %(now)s") % values


def player_rating_corrections(player: Player) -> list[RatingCorrection]:
    """What corrections changed in the player's rating history, newest first (one query): each
    superseded change of his, with what took its place (the change at the same place of his
    ledger that followed it), or nothing when the match was taken out of the ledger."""
    corrected = RatingChange.ledger.filter(player=player, superseded_at__isnull=False).values("match_id")
    rows = list(
        RatingChange.ledger.filter(player=player, match_id__in=corrected).order_by("sequence", "match_id", "id").values_list(
            "match_id", "sequence", "rating_before", "rating_after", "superseded_at", "corrected_match_id",
            "match__side0__player_a_id", "match__side0__player_a__display_name",
            "match__side1__player_a__display_name",
        )
    )
    corrections = []
    for row, after in zip(rows, [*rows[1:], None][:len(rows)], strict=True):
        match_id, sequence, _, rating_after, superseded_at, corrected_match_id, first, name0, name1 = row
        if superseded_at is None:
            continue
        successor = after if after is not None and after[0] == match_id and after[1] == sequence else None
        if successor is None:
            kind = "removed"
        else:
            kind = "result" if corrected_match_id == match_id else "recomputed"
        corrections.append(RatingCorrection(
            on=superseded_at, match_id=match_id, opponent=name1 if first == player.pk else name0, kind=kind,
            won=None if successor is None else successor[3] > successor[2], was=rating_after,
            now=None if successor is None else successor[3],
        ))
    corrections.sort(key=lambda c: c.on, reverse=True)  # stable: one correction's in ledger order
    return corrections


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
