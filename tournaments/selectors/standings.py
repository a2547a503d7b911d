"""An event's standings (each group of a round robin; a team event's team table), kept in the
cache under the event's version, and its final placings."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.db import connection

from tournaments import formats
from tournaments.models import Tournament
from tournaments.selectors.event import Entrant, entrant_of
from tournaments.services import contention, state

# --- standings and placings ----------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    """One line of a Swiss or round-robin table (round robin: of its group). ``place`` is shared
    (``shared``) by entrants equal on every tie-break; ``score`` is wins (byes included)."""

    place: int
    shared: bool
    entrant: Entrant
    group: str | None
    wins: int
    losses: int
    byes: int
    played: int
    score: float
    buchholz: float
    median_buchholz: float
    points_for: int
    points_against: int
    #: The tie-break that put this entrant ahead of the next line of his table (a name of
    #: ``tournaments.draw.standings``: ``head_to_head``, ``points_difference``...); None when the
    #: next line shares his place or he is last in his table.
    separated_by: str | None = None

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


def tournament_standings(*, tournament: Tournament) -> tuple[StandingRow, ...]:
    """The table of a Swiss (wins, Buchholz, median-Buchholz, head-to-head) or of each group of a
    round robin (wins, head-to-head, points difference; match points capped at the match
    length), from the confirmed results so far (its format's ``entrant_tables``). Withdrawn
    entrants stay in (their games count for their opponents). Empty for a bracket or before the
    draw. Two queries."""
    event_format = formats.format_of(tournament)
    if event_format.has_bracket or tournament.drawn_at is None:
        return ()
    return _table_rows(state.load(tournament), event_format.entrant_tables)


def _table_rows(loaded: state.Loaded, tables: Callable) -> tuple[StandingRow, ...]:
    """The rows of the tables ``tables(tournament, loaded)`` gives, group after group."""
    entrants = {e.pk: entrant_of(e) for e in loaded.entries}
    rows = []
    for table, group in tables(loaded.tournament, loaded):
        rows += _rows(table, entrants, group)
    return tuple(rows)


def event_standings(*, tournament: Tournament) -> tuple[StandingRow, ...]:
    """The event's table, as its kind ranks its entrants (its format's ``standing_tables``): a
    team event's is :func:`team_standings` (team-match wins, board points, head-to-head), any
    other's :func:`tournament_standings`. A fixed number of queries."""
    event_format = formats.format_of(tournament)
    if event_format.has_bracket or tournament.drawn_at is None:
        return ()
    return _table_rows(state.load(tournament), event_format.standing_tables)


# Bounds how long a renamed player or team shows under its old name in the cached standings (a
# rename does not move the event's version).
STANDINGS_CACHE_SECONDS = 300


def standings_cache_key(tournament: Tournament) -> str:
    """What every cached read computed from the whole event is kept under: it changes with every
    committed change of the event (its ``version``: entries, draw, rounds, confirmed results). The
    event's creation time keeps a restored or recreated database from meeting an old entry."""
    return _event_key(tournament.pk, tournament.created_at, tournament.version)


def _event_key(tournament_id: int, created_at, version: int) -> str:
    return f"tournaments:event:{tournament_id}:{created_at.timestamp()}:{version}"


@functools.cache
def _event_version_sql() -> str:
    meta, qn = Tournament._meta, connection.ops.quote_name
    return (f"SELECT {qn(meta.get_field('created_at').column)}, {qn(meta.get_field('version').column)} "
            f"FROM {qn(meta.db_table)} WHERE {qn(meta.pk.column)} = %s")


def event_cache_key(*, tournament_id: int) -> str:
    """:func:`standings_cache_key` of the event ``tournament_id`` read as two values, not a whole
    event: one small query (on PostgreSQL written once, without the ORM, whose building of it
    costs more than the query: every cached read of an event asks it). Raises
    Tournament.DoesNotExist."""
    if connection.vendor != "postgresql":  # SQLite's times need the ORM's converters
        created_at, version = Tournament.objects.values_list("created_at", "version").get(pk=tournament_id)
        return _event_key(tournament_id, created_at, version)
    with connection.cursor() as cursor:
        cursor.execute(_event_version_sql(), [tournament_id])
        row = cursor.fetchone()
    if row is None:
        raise Tournament.DoesNotExist(f"no event {tournament_id}")
    return _event_key(tournament_id, *row)


def event_standings_cached(*, tournament: Tournament) -> tuple[StandingRow, ...]:
    """:func:`event_standings`, kept in the cache under the event's version (see
    :func:`standings_cache_key`) for :data:`STANDINGS_CACHE_SECONDS`: no query when the cache has
    this version, those of :func:`event_standings` otherwise. ``tournament`` must be freshly read
    (its version is the key)."""
    key = f"{standings_cache_key(tournament)}:standings"
    rows = cache.get(key)
    if not isinstance(rows, tuple):
        rows = event_standings(tournament=tournament)
        cache.set(key, rows, STANDINGS_CACHE_SECONDS)
    return rows


def _rows(table, entrants: dict[int, Entrant], group: str | None) -> list[StandingRow]:
    return [
        StandingRow(
            place=line.place, shared=line.shared, entrant=entrants[line.entrant], group=group, wins=line.record.wins,
            losses=line.record.losses, byes=line.record.byes, played=line.record.played, score=line.score,
            buchholz=line.buchholz, median_buchholz=line.median_buchholz, points_for=line.record.points_for,
            points_against=line.record.points_against, separated_by=line.separated_by,
        )
        for line in table
    ]


@dataclass(frozen=True)
class PlacingRow:
    """A final place: ``place`` to ``last_place`` (``label`` ``5-8`` when shared), and the flight
    it was decided in (brackets) or the group (round robin)."""

    place: int
    last_place: int
    entrant: Entrant
    flight: str | None = None

    @property
    def label(self) -> str:
        return str(self.place) if self.place == self.last_place else f"{self.place}-{self.last_place}"


def tournament_placings(*, tournament: Tournament) -> tuple[PlacingRow, ...]:
    """The final places decided so far, best first.

    Brackets: across flights (main before consolation before last chance; double elimination:
    the final, then the losers' bracket), each loser placed by the round he went out in, the
    places of one round shared. Swiss: the standings' order, equal entrants sharing. Round robin:
    by place in the group, the entrants with the same place in their groups sharing the places
    (the group winners share 1 to the number of groups). A team event ranks by its team table
    (:func:`team_standings`). A fixed number of queries.
    """
    if tournament.drawn_at is None:
        return ()
    event_format = formats.format_of(tournament)
    read = event_format.bracket_read(tournament)
    if read is not None:
        loaded, view = read
        entrants = {e.pk: entrant_of(e) for e in loaded.entries}
        return tuple(PlacingRow(p.place, p.last_place, entrants[p.entrant], p.flight) for p in view.state.placings())
    rows = event_standings(tournament=tournament)
    if (tournament.abt_playoff or {}).get("seeds"):  # a modified Swiss whose playoffs are drawn
        return _modified_swiss_placings(tournament, rows)
    return tuple(PlacingRow(first, last, row.entrant, row.group) for first, last, row in event_format.table_places(rows))


def _modified_swiss_placings(tournament: Tournament, rows: tuple[StandingRow, ...]) -> tuple[PlacingRow, ...]:
    """A modified Swiss whose playoffs are drawn places their players
    by the playoffs (flight ``playoffs``: as a bracket places them, three players by the USBGF's
    contingent bye, so far as decided; a lone player who could cash is first), then everyone else
    by the Swiss table, the places after the playoffs' shared as the table shares them. Two
    queries more than the table."""
    seeds = tournament.abt_playoff["seeds"]
    entrants = {row.entrant.entry_id: row.entrant for row in rows}
    out = []
    out += [PlacingRow(place, last, entrants[entry], state.PLAYOFFS)
            for place, last, entry in contention.playoff_places(state.load(tournament))]
    rest = [row for row in rows if row.entrant.entry_id not in set(seeds)]
    ties: dict[int, int] = {}
    for row in rest:
        ties[row.place] = ties.get(row.place, 0) + 1
    first, seen = len(seeds) + 1, {}
    for row in rest:
        if row.place not in seen:
            seen[row.place] = first
            first += ties[row.place]
        out.append(PlacingRow(seen[row.place], seen[row.place] + ties[row.place] - 1, row.entrant))
    return tuple(out)


def team_standings(*, tournament: Tournament) -> tuple[StandingRow, ...]:
    """The team table of a Swiss or round robin of teams (each group of a round robin): team-match
    wins (a level match half), then board points (boards won), then head-to-head. Empty for a
    bracket, another kind of event, or before the draw (its format's ``team_tables``). Three queries."""
    event_format = formats.format_of(tournament)
    if not event_format.has_teams or event_format.has_bracket or tournament.drawn_at is None:
        return ()
    return _table_rows(state.load(tournament), event_format.team_tables)
