"""Reads shared by the API and the pages. Every list is built with a fixed number of queries
whatever its length (sides and players joined, games and reports prefetched)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import BooleanField, ExpressionWrapper, Prefetch, Q, QuerySet

from engine.actions import actions_from_json
from engine.game import Frame, replay_game
from engine.ids import position_id

from . import hooks
from .models import Game, Match, Player, RatingChange, Report


def match_snapshot(match: Match) -> dict:
    """What the audit log keeps of a match's result: status, score, winner, and the games."""
    return {
        "status": match.status, "score": [match.score0, match.score1], "winner": match.winner,
        "games": list(match.games.order_by("number").values_list("number", "winner", "points")),
    }


def match_list(
    *,
    viewer,
    player: Player | int | None = None,
    status: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    contexts: dict | None = None,
) -> QuerySet[Match]:
    """Matches, newest first, filtered by player, status and creation date, and by what they
    belong to (``contexts``: the filters the contexts take, as ``{"event": tournament_id}``; see
    ``hooks.MatchContext.filter_fields``).

    Only what ``viewer`` (the user asking; None or anonymous: the public) may see: the matches
    both players consented to, and, until then, the match's creator, its players (but not one
    who declined it) and staff (``MatchQuerySet.visible_to``)."""
    matches = Match.objects.with_sides().visible_to(viewer)
    if player is not None:
        player_id = player.pk if isinstance(player, Player) else player
        matches = matches.filter(
            Q(side0__player_a_id=player_id) | Q(side0__player_b_id=player_id)
            | Q(side1__player_a_id=player_id) | Q(side1__player_b_id=player_id)
        )
    if status:
        matches = matches.filter(status=status)
    matches = _filtered_by_contexts(matches, contexts or {})
    if date_from:
        matches = matches.filter(created_at__date__gte=date_from)
    if date_to:
        matches = matches.filter(created_at__date__lte=date_to)
    return matches


def _filtered_by_contexts(matches: QuerySet[Match], values: dict) -> QuerySet[Match]:
    for context in hooks.match_contexts():
        if context.filter_fields is None or context.apply_filter is None:
            continue
        given = {name: values[name] for name in context.filter_fields() if values.get(name) is not None}
        if given:
            matches = context.apply_filter(matches, given)
    return matches


def matches_directed_by(user) -> QuerySet[Match]:
    """The unfinished matches ``user`` directs (he organises them, or a context says he directs
    them: the organiser of their event), newest first, with their pending reports
    (``pending_reports``)."""
    directed = Match.objects.with_sides().filter(Q(organiser=user) | hooks.directed_by(user))
    return with_pending_reports(directed.exclude(status=Match.Status.CONFIRMED))


def with_pending_reports(matches: QuerySet[Match]) -> QuerySet[Match]:
    """``matches`` with each one's pending reports as ``pending_reports`` (one more query)."""
    return matches.prefetch_related(
        Prefetch("reports", queryset=Report.objects.filter(status=Report.Status.PENDING), to_attr="pending_reports")
    )


def match_get(match_id: int, *, logs: bool = False) -> Match:
    """One match with its sides, games and live reports; raises Match.DoesNotExist.

    The games' logs (and the reports' copies of them) are large JSON documents that only the
    board, the moments and the .mat export read: they are loaded only with ``logs``.
    """
    games = Game.objects.order_by("number")
    if not logs:
        games = games.defer("log", "condoned")
    return (
        Match.objects.with_sides()
        .prefetch_related(
            Prefetch("games", queryset=games),
            Prefetch("reports", queryset=Report.objects.exclude(status=Report.Status.SUPERSEDED)
                     .select_related("reporter").defer("games")
                     .annotate(with_games=ExpressionWrapper(Q(games__isnull=False), output_field=BooleanField()))),
        )
        .get(pk=match_id)
    )


def friendly_match_of(*, organiser, player0: Player, player1: Player) -> Match | None:
    """The match ``organiser`` runs between ``player0`` (side 0) and ``player1`` (side 1), each
    playing alone, that belongs to no context (no event, no club: a friendly match), the newest if
    there are several; or None."""
    no_context = {f"{context.link}__isnull": True for context in hooks.match_contexts()}
    return Match.objects.filter(organiser=organiser, side0__player_a=player0, side0__player_b__isnull=True,
                                side1__player_a=player1, side1__player_b__isnull=True, **no_context).first()


def match_record_counts(match_ids: list[int]) -> dict[str, int]:
    """How many games, reports and rating changes the matches ``match_ids`` have between them
    (three queries)."""
    return {
        "games": Game.objects.filter(match_id__in=match_ids).count(),
        "reports": Report.objects.filter(match_id__in=match_ids).count(),
        "rating_changes": RatingChange.objects.filter(match_id__in=match_ids).count(),
    }


def player_list() -> QuerySet[Player]:
    """Players by name, with what they belong to (their home club: ``hooks.player_joins``) joined."""
    joins = hooks.player_joins()
    # (select_related() without a path would follow every relation.)
    return Player.objects.select_related(*joins) if joins else Player.objects.all()


def player_get(player_id: int) -> Player:
    return Player.objects.select_related("user", *hooks.player_joins()).get(pk=player_id)


def player_rating_history(player: Player) -> QuerySet[RatingChange]:
    """The player's rating changes, oldest first, with the match each came from."""
    return player.rating_changes.select_related("match__side0", "match__side1").prefetch_related(
        "match__side0__player_a", "match__side0__player_b", "match__side1__player_a", "match__side1__player_b"
    ).order_by("created_at", "id")


@dataclass(frozen=True)
class Moment:
    """One moment of a game for drawing: the frame, its Position ID, and the action that follows
    (None for the final moment)."""

    index: int
    frame: Frame
    position_id: str
    action: dict | None


def game_moments(match: Match, game: Game) -> list[Moment]:
    """Replay a stored game and return every moment with its Position ID (the side on roll's view).

    The log was validated when it was stored; replaying it again is cheap (a few milliseconds
    for the longest game) and keeps the stored data free of derivable state.
    """
    rules = match.rules().game_rules(crawford_game=game.crawford)
    replay = replay_game(actions_from_json(game.log), rules, number=game.number)
    moments = []
    for index, frame in enumerate(replay.frames):
        action = game.log[index] if index < len(game.log) else None
        moments.append(Moment(index, frame, position_id(frame.position), action))
    return moments

