"""Reads shared by the API and the pages. Every list is built with a fixed number of queries
whatever its length (sides and players joined, games and reports prefetched)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from datetime import date, datetime

from django.db import connection
from django.db.models import BooleanField, Case, ExpressionWrapper, F, JSONField, Prefetch, Q, QuerySet, When

from core.prepared import statement_execute, statement_name
from engine.actions import actions_from_json
from engine.game import Frame, replay_game
from engine.ids import position_id

from .. import hooks
from ..models import Game, Match, Player, RatingChange, Report, Side


def match_snapshot(match: Match, *, games: list[Game] | None = None) -> dict:
    """What the audit log keeps of a match's result: status, score, winner, and the games (read,
    unless the caller has them loaded: ``games``, in order of their numbers)."""
    if games is None:
        numbered = list(match.games.order_by("number").values_list("number", "winner", "points"))
    else:
        numbered = [(game.number, game.winner, game.points) for game in games]
    return {"status": match.status, "score": [match.score0, match.score1], "winner": match.winner, "games": numbered}


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
    for context in hooks.match_contexts.entries():
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


def match_readable(match: Match, viewer) -> bool:
    """Whether ``viewer`` (a user, anonymous or None) may read ``match`` (loaded with its sides'
    player ids) by its id: the rule of the lists (``MatchQuerySet.visible_to``: a match both
    sides consented to is public; until then its creator, its players and staff), and also the
    people who act on it: its organiser, a director its contexts name (its event's organiser) and
    a director of an event or club all players of a side play in (who may confirm it for that
    side). A player whose side declined still reads it: he is a party. No query for a consented
    match; for another, at most the viewer's player and the directors' checks."""
    if match.consented:
        return True
    if not getattr(viewer, "is_authenticated", False):
        return False
    if viewer.is_staff and viewer.is_active:
        return True
    if viewer.pk in (match.created_by_id, match.organiser_id):
        return True
    player = Player.objects.filter(user_id=viewer.pk).values_list("pk", flat=True).first()
    players = [[pk for pk in (side.player_a_id, side.player_b_id) if pk] for side in match.sides]
    if player is not None and any(player in side for side in players):
        return True
    if hooks.directs(match, viewer):
        return True
    return any(side and all(hooks.directs_player(viewer, pk) for pk in side) for side in players)


def match_get_readable(match_id: int, viewer, *, logs: bool = False) -> Match:
    """:func:`match_get` for ``viewer``: raises Match.DoesNotExist for a match he may not read
    (:func:`match_readable`), as for one that does not exist, so that its existence is not told."""
    match = match_get(match_id, logs=logs)
    if not match_readable(match, viewer):
        raise Match.DoesNotExist(f"match {match_id} is not shown to this user")
    return match


def match_get(match_id: int, *, logs: bool = False) -> Match:
    """One match with its sides (their players read in one query), games and live reports;
    raises Match.DoesNotExist.

    The games' logs (and the reports' copies of them) are large JSON documents that only the
    board, the moments and the .mat export read: they are loaded only with ``logs``; a pending
    report's logs alone come with it (``pending_games``), in the same query: the other side reads
    them before confirming.
    """
    games = Game.objects.order_by("number")
    if not logs:
        games = games.defer("log", "condoned", "stood")
    match = (
        Match.objects.with_side_ids()
        .prefetch_related(
            Prefetch("games", queryset=games),
            Prefetch("reports", queryset=Report.objects.exclude(status=Report.Status.SUPERSEDED)
                     .select_related("reporter").defer("games")
                     .annotate(with_games=ExpressionWrapper(Q(games__isnull=False), output_field=BooleanField()),
                               pending_games=Case(When(status=Report.Status.PENDING, then=F("games")), default=None,
                                                  output_field=JSONField()))),
        )
        .get(pk=match_id)
    )
    sides_players_load([match])
    return match


def match_live_reports(match: Match) -> list[Report]:
    """The match's live (not superseded) reports, oldest first, read once and kept on the match
    (``match.live``: the reporting services keep that list as they change it). Their logs are not
    read (``with_games`` says whether there are any): only a claim with logs compares them, and a
    confirmation copies them (reading them then)."""
    if not hasattr(match, "live"):
        match.live = list(
            match.reports.exclude(status=Report.Status.SUPERSEDED).defer("games")
            .annotate(with_games=ExpressionWrapper(Q(games__isnull=False), output_field=BooleanField()))
        )
    return match.live


@dataclass(frozen=True)
class ReportsSeen:
    """A match's live reports as read at one moment, whether it had stored games then, and its
    version then (its ``updated_at``: every change of its reports or games saves the match)."""

    version: datetime
    has_games: bool
    reports: list[Report]
    #: The sides' players (their ``created_at`` not read), by id.
    players: dict[int, Player]


def _columns(model, names=None) -> tuple[list, str]:
    fields = [f for f in model._meta.concrete_fields if names is None or f.attname in names]
    return fields, ", ".join(f"t.{connection.ops.quote_name(f.column)}" for f in fields)


#: The players' fields the pre-read reads: what answers show of a player (PlayerBriefSerializer).
_SEEN_PLAYER_FIELDS = ("id", "user_id", "display_name", "country", "rating", "experience")


@functools.cache
def _seen_sql(logs: bool) -> tuple[list, str]:
    # Written once per process from the models' metadata: building this query with the ORM costs
    # more CPU than PostgreSQL spends answering it, on the path of every report.
    qn = connection.ops.quote_name
    fields, columns = _columns(Report, {f.attname for f in Report._meta.concrete_fields if f.attname != "games" or logs})
    match, report, game, side, player = Match._meta, Report._meta, Game._meta, Side._meta, Player._meta
    player_columns = ", ".join(f"p.{qn(player.get_field(name).column)}" for name in _SEEN_PLAYER_FIELDS)
    # PostgreSQL's JSON functions, or SQLite's (the embedded default of a laptop: README).
    postgresql = connection.vendor == "postgresql"
    aggregate, array = ("json_agg", "json_build_array") if postgresql else ("json_group_array", "json_array")
    sql = (
        f"SELECT m.{qn(match.get_field('updated_at').column)}, "
        f"EXISTS (SELECT 1 FROM {qn(game.db_table)} g WHERE g.{qn(game.get_field('match').column)} = m.{qn(match.pk.column)}), "
        f"(SELECT {aggregate}({array}({player_columns})) FROM {qn(player.db_table)} p "
        f"JOIN {qn(side.db_table)} s ON p.{qn(player.pk.column)} IN (s.{qn(side.get_field('player_a').column)}, "
        f"s.{qn(side.get_field('player_b').column)}) "
        f"WHERE s.{qn(side.pk.column)} IN (m.{qn(match.get_field('side0').column)}, m.{qn(match.get_field('side1').column)})), "
        f"t.{qn(report.get_field('games').column)} IS NOT NULL, {columns} "
        f"FROM {qn(match.db_table)} m LEFT OUTER JOIN {qn(report.db_table)} t "
        f"ON t.{qn(report.get_field('match').column)} = m.{qn(match.pk.column)} "
        f"AND t.{qn(report.get_field('status').column)} <> %s "
        f"WHERE m.{qn(match.pk.column)} = %s "
        f"ORDER BY t.{qn(report.get_field('created_at').column)}, t.{qn(report.pk.column)}"
    )
    return fields, sql


def match_reports_seen(match_id: int, *, logs: bool = False) -> ReportsSeen | None:
    """The live reports of the match ``match_id`` (oldest first; their logs only with ``logs``,
    else ``with_games`` says whether there are any), whether it has stored games, its sides'
    players and its version, in one query without a lock; None when there is no such match."""
    name, sql, params = match_reports_seen_statement(match_id, logs=logs)
    with connection.cursor() as cursor:
        statement_execute(cursor, name, sql, params)
        rows = cursor.fetchall()
    return match_reports_seen_from(rows, logs=logs)


def match_reports_seen_statement(match_id: int, *, logs: bool = False) -> tuple[str, str, list]:
    """The query of :func:`match_reports_seen` (name, SQL, parameters), for a caller that sends it
    with others in one round trip (``core.prepared.statements_execute``); its rows go to
    :func:`match_reports_seen_from`."""
    _fields, sql = _seen_sql(logs)
    return statement_name(f"matches.seen.{logs}", sql), sql, [Report.Status.SUPERSEDED, match_id]


def match_reports_seen_from(rows: list, *, logs: bool = False) -> ReportsSeen | None:
    """What :func:`match_reports_seen` answers, made from the rows its statement read."""
    fields, _sql = _seen_sql(logs)
    names = [f.attname for f in fields]
    games = Report._meta.get_field("games")
    if not rows:
        return None
    reports = []
    for _version, _has_games, _players, with_games, *values in rows:
        if values[0] is None:
            continue  # the match has no live report
        if logs:
            index = names.index("games")
            values[index] = games.from_db_value(values[index], None, connection)
        if connection.vendor != "postgresql":
            values = _converted(fields, values)
        report = Report.from_db(connection.alias, names, values)
        report.with_games = bool(with_games)
        reports.append(report)
    found = rows[0][2]
    found = json.loads(found) if isinstance(found, str) else found or []
    players = {values[0]: Player.from_db(connection.alias, _SEEN_PLAYER_FIELDS, values) for values in found}
    return ReportsSeen(_datetime(rows[0][0]), bool(rows[0][1]), reports, players)


def _converted(fields, values) -> list:
    # What the ORM's compiler does with a row on a database other than PostgreSQL (SQLite: times
    # read as text or naive, booleans as integers); PostgreSQL's driver gives the values as they are.
    out = []
    for field, value in zip(fields, values, strict=True):
        if field.attname != "games":  # the logs are decoded above, when they were read
            expression = field.get_col(field.model._meta.db_table)
            for converter in connection.ops.get_db_converters(expression) + field.get_db_converters(connection):
                value = converter(value, expression, connection)
        out.append(value)
    return out


def _datetime(value):
    # PostgreSQL gives an aware datetime; SQLite a naive one or a string, which its backend's own
    # converter makes what the ORM would give (the version is compared with the ORM's value).
    if connection.vendor == "sqlite":
        return connection.ops.convert_datetimefield_value(value, None, connection)
    return value


def match_stored_games(match: Match) -> list[Game]:
    """The match's stored games in order, their logs not read, read once and kept on the match
    (``match.stored_games``: the reporting services replace it when they write games). No query
    when the match is known to have none (``has_games`` false: see ``match_reports_seen``)."""
    if not hasattr(match, "stored_games"):
        if getattr(match, "has_games", True):
            match.stored_games = list(Game.objects.filter(match=match).order_by("number").defer("log", "condoned", "stood"))
        else:
            match.stored_games = []
    return match.stored_games


@functools.cache
def _version_sql() -> str:
    qn = connection.ops.quote_name
    columns = ", ".join(qn(Match._meta.get_field(name).column) for name in ("updated_at", "consent0", "consent1"))
    return (f"SELECT {columns} FROM {qn(Match._meta.db_table)} "
            f"WHERE {qn(Match._meta.pk.column)} = %s")


def match_version(match_id: int, *, viewer) -> datetime | None:
    """The match's version (its ``updated_at``: every change of what its detail shows saves it), or
    None when there is no such match or ``viewer`` may not read it (:func:`match_readable`). One
    small query for a match both sides consented to (read by every request for a match's cached
    detail: written without the ORM, whose building of it costs more than the query); a match
    still awaiting consent is read again to decide who sees it."""
    sql = _version_sql()
    with connection.cursor() as cursor:
        statement_execute(cursor, statement_name("matches.version", sql), sql, [match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    if not (row[1] == Match.Consent.GIVEN and row[2] == Match.Consent.GIVEN):
        match = Match.objects.with_side_ids().filter(pk=match_id).first()
        if match is None or not match_readable(match, viewer):
            return None
    return _datetime(row[0])


@functools.cache
def _players_sql() -> tuple[list, str]:
    fields, columns = _columns(Player)
    qn = connection.ops.quote_name
    # "IN (...)" with one placeholder per id is added per call: "= ANY(%s)" is PostgreSQL's alone.
    return fields, f"SELECT {columns} FROM {qn(Player._meta.db_table)} t WHERE t.{qn(Player._meta.pk.column)} IN "


def sides_players_load(matches: list[Match], *, players: dict[int, Player] | None = None) -> None:
    """Read the players of the sides of ``matches`` (read with their sides joined) in one query
    and set them on the sides, so ``side.player_a`` / ``player_b`` cost nothing after it. With
    ``players`` (by id, already read: ``ReportsSeen.players``) when it has them all, no query."""
    sides = [side for match in matches for side in match.sides]
    wanted = {pk for side in sides for pk in (side.player_a_id, side.player_b_id) if pk}
    if wanted and (players is None or not wanted <= set(players)):
        fields, sql = _players_sql()
        names = [f.attname for f in fields]
        with connection.cursor() as cursor:
            cursor.execute(f"{sql}({', '.join(['%s'] * len(wanted))})", sorted(wanted))
            players = {row[0]: Player.from_db(connection.alias, names, row) for row in cursor.fetchall()}
    players = players or {}
    for side in sides:
        side.player_a = players[side.player_a_id]
        if side.player_b_id is not None:
            side.player_b = players[side.player_b_id]


def match_answer(match: Match) -> Match:
    """``match`` as a reporting service left it (its row read under the lock, its live reports and
    stored games as they are after the change) made ready for the detail's serializer: the sides'
    players (read before the lock with the reports, ``seen_players``, or else now in one query),
    the games and live reports given as prefetched. Two queries at most (the players; the games,
    when they were not loaded and the match has some)."""
    sides_players_load([match], players=getattr(match, "seen_players", None))
    games = match_stored_games(match)
    reports = match_live_reports(match)
    match._prefetched_objects_cache = {**getattr(match, "_prefetched_objects_cache", {}),
                                       "games": games, "reports": reports}
    return match


def friendly_match_of(*, organiser, player0: Player, player1: Player) -> Match | None:
    """The match ``organiser`` runs between ``player0`` (side 0) and ``player1`` (side 1), each
    playing alone, that belongs to no context (no event, no club: a friendly match), the newest if
    there are several; or None."""
    no_context = {f"{context.link}__isnull": True for context in hooks.match_contexts.entries()}
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

